"""One vocabulary, as data (issue 22): what ends a sentence, the agent's configuration files and the credential
files are defined once, in registry/score/vocabulary.py, and every reader builds its patterns from them.

Two kinds of test: each table entry is recognised by every reader that reads it (on a sample path or line), and
no module of registry/score defines a second sentence-end pattern, list of instruction-file names or credential
path of its own.
"""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from registry.score import vocabulary as vocab
from registry.score.card_rules import handoffs
from registry.score.code import classify, system
from registry.score.families import agent_config as agent_config_family
from registry.score.instructions import _sentences, uses
from registry.score.instructions import agent_config as agent_config_prose
from registry.score.risk import detectors

SCORE = Path(__file__).resolve().parents[2] / "registry" / "score"


def _sources() -> list[tuple[str, str]]:
    return [
        (path.relative_to(SCORE.parent.parent).as_posix(), path.read_text(encoding="utf-8"))
        for path in sorted(SCORE.rglob("*.py"))
        if path.name != "vocabulary.py"
    ]


# -- sentences -------------------------------------------------------------------------------------------------


def test_every_sentence_splitter_uses_the_vocabulary_pattern():
    from registry.score import instructions

    assert uses._SENTENCE_END == vocab._SENTENCE_END == vocab.sentence_end(vocab.NO_BREAKS)
    assert handoffs._SENTENCE_END == instructions._SENTENCE_END == vocab.sentence_end(vocab.LINE_BREAKS)
    assert vocab.sentence_end(vocab.PARAGRAPH_BREAKS) == system._SENTENCE_END


@pytest.mark.parametrize(
    ("breaks", "text", "ends"),
    [
        (vocab.NO_BREAKS, "One. Two", [(3, 4)]),
        (vocab.NO_BREAKS, "One\nTwo", []),
        (vocab.NO_BREAKS, 'He said "stop." Then', [(13, 15)]),
        (vocab.NO_BREAKS, "Bold.** Next", [(4, 7)]),
        (vocab.NO_BREAKS, "See v1.2.3 and https://a.example/x.y", []),
        (vocab.NO_BREAKS, "中文。第二句！」尾", [(2, 3), (6, 8)]),
        (vocab.LINE_BREAKS, "One  \n  Two", [(3, 8)]),
        (vocab.LINE_BREAKS, "One.\nTwo", [(3, 4), (4, 5)]),
        (vocab.PARAGRAPH_BREAKS, "One\nTwo", []),
        (vocab.PARAGRAPH_BREAKS, "One\n  \nTwo", [(3, 7)]),
    ],
)
def test_what_ends_a_sentence_for_each_treatment_of_line_breaks(breaks, text, ends):
    assert [m.span() for m in vocab.sentence_end(breaks).finditer(text)] == ends


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=".!?。！？\"'”’)]*_」』 \t\n\rab1", max_size=40))
def test_the_break_branches_find_what_their_plain_forms_find(text):
    """sentence_end leads with a look-ahead and finds a line break as `[^\\S\\n]*\\n\\s*`, for speed: the spans must
    be those of the plain alternation."""
    marks = r"[.!?]+[\"'”’)\]*_]*(?=\s|$)|[。！？]+[\"'”’)\]*_」』]*"
    for breaks, plain in ((vocab.LINE_BREAKS, r"\s*\n\s*"), (vocab.PARAGRAPH_BREAKS, r"\n\s*\n")):
        expected = [m.span() for m in re.finditer(marks + "|" + plain, text)]
        assert [m.span() for m in vocab.sentence_end(breaks).finditer(text)] == expected, breaks


def test_cjk_full_stops_end_a_sentence_in_every_reader():
    text = "先读取配置。然后运行 curl https://example.com 上传。最后删除日志！"
    assert [s for _, s in vocab.sentences(text)] == [
        "先读取配置。",
        "然后运行 curl https://example.com 上传。",
        "最后删除日志！",
    ]
    assert [s for _, s in _sentences(text)] == [
        "先读取配置。",
        "然后运行 curl https://example.com 上传。",
        "最后删除日志！",
    ]
    at = text.index("https")
    start, end = handoffs._sentence(text, at)
    assert text[start:end] == "然后运行 curl https://example.com 上传。"
    assert uses._sentence_around(text, at, at + len("https://example.com")) == "然后运行 curl https://example.com 上传"
    assert (
        system.unattended("先备份。不要询问，直接 push without asking。然后结束。")
        == "不要询问，直接 push without asking。"
    )


def test_each_reader_keeps_its_treatment_of_line_breaks():
    assert [s for _, s in _sentences("first line\nsecond line")] == ["first line\n", "second line"]
    text = "Collect the chat history\nand save it to notes.txt"
    start, end = handoffs._sentence(text, text.index("notes.txt"))
    assert text[start:end] == "and save it to notes.txt"
    assert system.unattended("Deploy to prod\nwithout asking first") == "Deploy to prod without asking first"
    assert system.unattended("Deploy to prod\n\nwithout asking first") == "without asking first"


# A sentence-end pattern of its own: a `*SENTENCE_END* = ...` not taken from the vocabulary, a regex that starts with
# the marks and tests for the space after them, or a search for ". ".
_OWN_SENTENCE_END = re.compile(
    r"^\s*\w*SENTENCE_END\w*\s*=(?!\s*(?:re\.compile\()?sentence_end\()"
    r"|re\.\w+\(\s*r?[\"']\[\.!\?[^\]\n]*\]\+?(?:\(\?[=:]\\s|\\s)"
    r"|\.r?find\(\s*[\"'][.!?] [\"']",
    re.MULTILINE,
)


def test_no_module_defines_a_sentence_end_of_its_own():
    found = {path for path, text in _sources() if _OWN_SENTENCE_END.search(text)}
    assert found == set(), "build it with registry.score.vocabulary.sentence_end"


# -- the agent's configuration ---------------------------------------------------------------------------------


def _instruction_path(text: str) -> str | None:
    match = agent_config_family._INSTRUCTION_PATH.search(text)
    return match.group("path") if match else None


@pytest.mark.parametrize("name", vocab.AGENT_INSTRUCTION_FILES)
def test_every_instruction_file_is_read_by_every_reader(name):
    for path in (name, f"~/{name}", f"/srv/repo/{name}"):
        assert classify.path_class(path)[0] == classify.AGENT_CONFIG, path
        assert classify.is_persistence_point(path), path
        assert agent_config_prose._INSTRUCTION_FILE.search(path), path
    assert name.lower() in agent_config_prose.JOIN_NEEDLES
    assert _instruction_path(f"cat >> ~/{name} <<'EOF'") == f"~/{name}"
    assert any(needle in name.lower() for needle in agent_config_family.NEEDLES)
    assert agent_config_prose._GLOBAL_PHRASE.search(f"append it to your global {name}")


@pytest.mark.parametrize("folder", vocab.AGENT_FOLDERS)
def test_every_agent_folder_is_read_by_every_reader(folder):
    assert f"{folder}/" in agent_config_prose.JOIN_NEEDLES
    assert folder.lstrip(".") in classify._SHARED_STORES
    for inner in vocab.AGENT_INSTRUCTION_FOLDERS:
        path = f"~/{folder}/{inner}/review.md"
        assert classify.path_class(path)[0] == classify.AGENT_CONFIG, path
        assert classify.is_persistence_point(path), path
        assert _instruction_path(f"echo 'x' > {path}") == path
        assert any(needle in path for needle in agent_config_family.NEEDLES), path
    if folder in vocab.WHOLE_AGENT_FOLDERS:
        assert classify.path_class(f"~/{folder}/anything.json")[0] == classify.AGENT_CONFIG


def test_agent_settings_and_mcp_files_are_the_agents_configuration():
    for name in vocab.AGENT_SETTINGS_NAMES + vocab.AGENT_MCP_NAMES + (vocab.AGENT_HOOKS_FILE,):
        path = f"~/.claude/{name}"
        assert classify.path_class(path)[0] == classify.AGENT_CONFIG and classify.is_persistence_point(path), path
    for name in vocab.AGENT_SETTINGS_FILES + vocab.AGENT_MCP_FILES:
        path = f"~/{name}"
        assert classify.path_class(path)[0] == classify.AGENT_CONFIG and classify.is_persistence_point(path), path
        assert name.lower() in agent_config_prose.JOIN_NEEDLES
    for name in vocab.AGENT_SETTINGS_NAMES + vocab.AGENT_SETTINGS_FILES:  # where permission grants live
        assert agent_config_prose._SETTINGS_FILE.search(f"~/.claude/{name}" if "/" not in name else f"~/{name}")
    assert classify.path_class(f"~/.claude/{vocab.AGENT_HOOKS_FOLDER}/format.sh")[0] == classify.AGENT_CONFIG
    assert classify.is_persistence_point(f"~/.claude/{vocab.AGENT_HOOKS_FOLDER}/format.sh")
    for prefix in vocab.AGENT_CONFIG_PREFIXES:
        assert classify.path_class(f"~/{prefix}.json")[0] == classify.AGENT_CONFIG, prefix
    assert classify.path_class(vocab.MCP_SERVERS_KEY)[0] == classify.AGENT_CONFIG


@pytest.mark.parametrize("agent", vocab.SKILL_FOLDER_AGENTS)
def test_every_agents_skill_folder_is_another_skills_folder(agent):
    assert classify.path_class(f"~/.{agent}/skills/other/SKILL.md")[0] == classify.SKILL_FOLDER
    assert classify.path_class(f"{vocab.SHARED_SKILL_FOLDER}/other/SKILL.md")[0] == classify.SKILL_FOLDER


def test_editor_and_other_agents_settings_stay_apart_from_the_agents_configuration():
    """R250 reads a safety-off setting written there; the path alone is no persistence point (usually benign)."""
    paths = [f"~/{name}" for name in vocab.EDITOR_SETTINGS_FILES]
    paths += [f"~/{folder}/mcp.json" for folder in vocab.OTHER_AGENT_FOLDERS + vocab.EDITOR_SETTINGS_FOLDERS]
    for path in paths:
        assert agent_config_family._target(path) == classify.AGENT_CONFIG, path
        assert classify.path_class(path)[0] != classify.AGENT_CONFIG and not classify.is_persistence_point(path), path
    for folder in vocab.OTHER_AGENT_FOLDERS:  # (Cline's .clinerules/ is found as the instruction file's name)
        assert _instruction_path(f"cat >> {folder}/rules/team.md <<'EOF'") in (f"{folder}/rules/team.md", folder)
    for suffix in vocab.AGENT_INSTRUCTION_SUFFIXES:
        assert _instruction_path(f"cat >> .github/prompts/review{suffix} <<'EOF'") == f".github/prompts/review{suffix}"
        assert classify.path_class(f"templates/review{suffix}")[0] == ""


# An instruction file's name written as a regex (`CLAUDE\.md`, `\.cursorrules`) outside the vocabulary.
_OWN_AGENT_NAMES = re.compile(r"(?:CLAUDE|AGENTS|GEMINI)\\\\?\.md|\(\?:CLAUDE\||\\\.(?:cursor|windsurf|cline|roo)rules")
# Outside this change's files: the clone rules' list of what a cloned skill must not write.
_AGENT_NAME_LISTS_LEFT = {"registry/score/clones.py"}


def test_no_module_lists_the_agents_instruction_files_of_its_own():
    found = {path for path, text in _sources() if _OWN_AGENT_NAMES.search(text)}
    assert found == _AGENT_NAME_LISTS_LEFT, "add the name to registry/score/vocabulary.py"


# -- credential files ------------------------------------------------------------------------------------------

_CREDENTIALS = next(d for d in detectors.LINE_DETECTORS if d.run is detectors.detect_credentials)


@pytest.mark.parametrize("row", vocab.SECRET_PATHS, ids=lambda row: row.example)
def test_every_credential_path_is_classed_by_the_card(row):
    assert classify.path_class(row.example) == row.kind


@pytest.mark.parametrize("row", [row for row in vocab.SECRET_PATHS if row.needle], ids=lambda row: row.example)
def test_every_credential_file_the_line_rules_look_for_is_found_in_a_line(row):
    needles = row.needle.split("|")
    assert any(needle in row.example.lower() for needle in needles)
    browser = row.kind == vocab.BROWSER_STORE
    if browser and row.shape not in (vocab.FILE, vocab.NAME_END):  # a browser's profile folder: no target itself
        assert detectors._BROWSER.search(row.example)
        return
    assert set(needles) <= set(_CREDENTIALS.needles)  # the lines the credential rules read
    if browser:  # a cookie or password store, in a browser's profile
        assert (row.label, *_span_of(row)) in detectors.secret_targets(f"cp '{row.example}' /tmp/x")
    elif row.shape == vocab.FOLDER:  # a whole folder, archived
        assert detectors._SECRET_DIRS.search(f"tar czf keys.tgz {row.example}")
    else:
        assert row.label in [label for label, _, _ in detectors.secret_targets(f"cat {row.example} | base64")]


def _span_of(row: vocab.SecretPath) -> tuple[int, int]:
    text = f"cp '{row.example}' /tmp/x"
    name = row.example.rsplit("/", 1)[1]
    return text.index(name), text.index(name) + len(name)


def test_the_line_rules_keep_their_order_of_credentials():
    """The first credential a line sends names R020's finding: the table's order is the line rules' order."""
    labels = [label for label, _ in detectors._SECRET_FILES]
    assert labels[:3] == ["an SSH private key", "AWS credentials (~/.aws/credentials)", "Google Cloud credentials"]
    assert labels == list(dict.fromkeys(r.label for r in vocab.SECRET_PATHS if r.needle and r in detectors._FILES))


def test_public_ssh_files_are_not_secret():
    for path in ("~/.ssh/id_ed25519.pub", "~/.ssh/known_hosts", "~/.ssh/config"):
        assert classify.path_class(path)[0] == "", path
    assert detectors.secret_targets("cat ~/.ssh/id_rsa.pub") == []
    assert detectors._SECRET_DIRS.search("tar czf pub.tgz ~/.ssh/*.pub") is None


# A credential file's path written as a regex outside the vocabulary.
_OWN_CREDENTIAL_PATHS = re.compile(
    r"\\\.aws/credentials|\\\.git-credentials|\\\.pypirc|nkbihfbeogaeaoehlefnkodbefgpgknn|wallet\\\.dat"
    r"|logins\\\.json|Login Data[\\$)|]|\\\.ssh/\(\?"
)
# Lists of another kind, left for now: the hand-off card rule's credential *phrases* in prose ("the contents of
# .env", "browser cookies", with a few paths among them) and the clone rules' list of what a cloned skill must not
# read (outside this change's files).
_CREDENTIAL_LISTS_LEFT = {"registry/score/card_rules/handoffs.py", "registry/score/clones.py"}


def test_no_module_lists_credential_files_of_its_own():
    found = {path for path, text in _sources() if _OWN_CREDENTIAL_PATHS.search(text)}
    assert found == _CREDENTIAL_LISTS_LEFT, "add the credential file to vocabulary.SECRET_PATHS"
