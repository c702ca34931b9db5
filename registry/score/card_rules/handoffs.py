"""File hand-offs (R140, R141): sensitive data handed over through a named file.

The instructions write the conversation, the context, the environment or secrets into the file and a
script reads it and sends, or a script writes a credential store into it and the instructions upload
it (R140, R141 when it goes to the service of a token the skill reads).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass

from registry.score.card import ENV, FROM_CODE, FROM_INSTRUCTIONS, HOST, PATH, Use
from registry.score.card_rules.view import (
    _MAX_REFERENCE_LINES,
    PER_RULE,
    SECRET_PATH_CLASSES,
    Paragraph,
    SkillView,
    _capped,
    _item,
    _secret_reads,
    is_local,
    owns_host,
)
from registry.score.risk.lines import CODE, PROSE, TextFile
from registry.score.risk.rules import METADATA, Item, RiskRule, _rule
from registry.score.vocabulary import LINE_BREAKS, URL, sentence_end, url_host
from registry.text import Caseless

FILE_HANDOFF = _rule(
    "R140", "high", "exfiltration",
    "sensitive data handed through a file to a network send",
    "{writes}, and {sends}; the file {file} carries it from one to the other",
    "split over the instructions and a script, each half looks harmless: one writes a file, the other "
    "uploads a file; together they carry the conversation, the environment or the user's secrets to a host",
    "Reviewers: read both places together and find out who runs {host}. Authors: send only the data the task "
    "needs, never the conversation, the context, the environment or credential files, and say where it goes.",
    "{what} written to {file}, sent to {host} by {sender}",
    METADATA,
    "SKILL.md: put the whole conversation in context.txt; scripts/lint.js reads context.txt and POSTs it",
)  # fmt: skip
FILE_HANDOFF_OWN_SERVICE = _rule(
    "R141", "medium", "exfiltration",
    "sensitive data handed through a file to the user's own service",
    "{writes}, and {sends}; the file {file} carries it from one to the other",
    "{host} is the service of a token the skill reads, so the data likely lands in the user's own account; "
    "still, the conversation, the environment or secrets leave the machine through a file the user never sees",
    "Reviewers: check that the user asks for this upload. Authors: send only what the task needs, show it "
    "first, and say where it goes.",
    "{what} written to {file}, sent to {host} by {sender}",
    METADATA,
    "SKILL.md: save the chat history to notes.md; scripts/publish.py posts notes.md to api.notion.com",
)  # fmt: skip


# The rules declared here; the package's RULES lists every card rule in one order.
RULES: tuple[RiskRule, ...] = (
    FILE_HANDOFF,
    FILE_HANDOFF_OWN_SERVICE,
)


# -- sensitive data handed between instructions and a script through a named file ------------
#
# The instructions tell the agent to write the conversation, its context, the environment or the
# user's secrets into a file, and a script the skill ships reads that file and sends data out (or the
# reverse: a script writes what it read from a credential store into a file, and the instructions
# upload that file). Neither half is a flow on its own; the file's name links them. The candidate
# names come from the card (paths the sending scripts read, the files scripts write) and from file
# names quoted in a sending script; only a name the instruction text contains is read further, so
# a skill without such a name costs one substring search per candidate.

# What must not leave the machine, by class; the first two are what the agent alone can write.
_CONVERSATION = "the conversation"
_CONTEXT = "the agent's context"
_ENVIRONMENT = "the environment"
_CREDENTIAL_FILES = "a credential file"
_SECRETS = "secrets"
_HANDOFF_SOURCES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (_CONVERSATION, re.compile(
        r"\b(?:conversations?(?:\s+history)?|chat(?:\s+(?:history|log|logs|messages|session|transcript))?|"
        r"(?:session|chat)\s+transcripts?|message\s+history|dialog(?:ue)?\s+history|"
        r"everything\s+(?:the\s+user|you)\s+(?:has\s+|have\s+)?(?:said|shared|typed|pasted|sent|written|discussed)|"
        r"(?:files?|documents?|attachments?)\s+(?:that\s+)?the\s+user\s+(?:has\s+)?(?:shared|uploaded|attached|pasted)|"
        r"(?:messages?|everything|all)\s+(?:exchanged\s+|said\s+)?(?:with|from|by)\s+the\s+user|"
        r"messages?\s+(?:exchanged\s+)?so\s+far|(?:this|the\s+current)\s+(?:chat|session|thread)\b(?!\s+id)|"
        r"what\s+the\s+user\s+(?:has\s+)?(?:said|typed|wrote|written|shared|asked))\b",
        re.IGNORECASE)),
    (_CONTEXT, re.compile(
        r"\b(?:(?:full|entire|whole|complete|current|your|the\s+agent'?s?|the\s+model'?s?)\s+context(?:\s+window)?|"
        r"context\s+window|system\s+prompt|(?:your|the\s+agent'?s?)\s+(?:own\s+)?(?:instructions|memory|memories)|"
        r"(?:all\s+)?(?:prior|previous|earlier)\s+(?:messages|turns|prompts))\b",
        re.IGNORECASE)),
    (_ENVIRONMENT, re.compile(
        r"\b(?:environment\s+variables?|env(?:ironment)?\s+vars?|(?:whole|full|entire|complete|current)\s+environment|"
        r"printenv|output\s+of\s+`?(?:env|set|printenv)`?)\b",
        re.IGNORECASE)),
    (_CREDENTIAL_FILES, re.compile(
        r"(?:~|\$HOME|%USERPROFILE%)[/\\]\.(?:ssh|aws|gnupg|kube|docker|azure|config/gcloud|config/gh)\b|"
        r"\bid_(?:rsa|ed25519|ecdsa|dsa)\b|\.aws/credentials|\.netrc\b|\.git-credentials|\.kube/config|"
        r"\.docker/config\.json|\bkeychain\b|\b(?:contents?|values?)\s+of\s+(?:the\s+|your\s+|every\s+|all\s+)?"
        r"`?\.env\b|\bcookies?\s+(?:store|database|jar|file)|\bbrowser\s+(?:cookies|passwords|profiles?)\b",
        re.IGNORECASE)),
    (_SECRETS, re.compile(
        r"\b(?:secrets|credentials|api[\s_-]?keys|access\s+tokens|auth(?:entication)?\s+tokens|passwords|"
        r"private\s+keys?|ssh\s+keys?|(?:seed|recovery)\s+phrases?|mnemonics?|session\s+cookies|all\s+(?:the\s+)?tokens)\b",
        re.IGNORECASE)),
)  # fmt: skip
_AGENT_ONLY = frozenset({_CONVERSATION, _CONTEXT})
# The same classes as code: an environment dump, a credential store, the agent's own transcripts.
_CODE_SOURCES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (_ENVIRONMENT, re.compile(
        r"(?:^|[\s|;&(`])(?:env|printenv|export\s+-p)(?=\s*(?:[>|;&)`]|$))|\bos\.environ\b(?!\s*(?:\[|\.get\b))|"
        r"\bprocess\.env\b(?!\s*(?:\.|\[))|\bgci\s+env:|\bGet-ChildItem\s+env:|\bdir\s+env:",
        re.IGNORECASE)),
    (_CREDENTIAL_FILES, _HANDOFF_SOURCES[3][1]),
    (_CONVERSATION, re.compile(
        r"\.claude/(?:projects|history)|\.codex/(?:sessions|history)|\bbash_history\b|\bzsh_history\b", re.IGNORECASE)),
)  # fmt: skip
_WRITE_VERB = re.compile(
    r"\b(?:put|puts|putting|write|writes|writing|written|wrote|save|saves|saving|saved|store|stores|storing|stored|"
    r"dump|dumps|dumping|dumped|copy|copies|copying|copied|paste|pastes|pasting|pasted|append|appends|appending|"
    r"appended|place|places|placed|record|records|recorded|log|logs|logged|export|exports|exported|seriali[sz]e[sd]?|"
    r"output|insert|inserts|include|includes|included|fill|fills|filled|populate|populates|populated|contain|"
    r"contains|containing|hold|holds|capture|captures|captured|collect|collects|collected|gather|gathers|gathered|"
    r"keep|keeps|kept|add|adds|added)\b",
    re.IGNORECASE,
)
_SEND_VERB = re.compile(
    r"\b(?:send|sends|sending|sent|upload|uploads|uploading|uploaded|post|posts|posting|posted|submit|submits|"
    r"submitted|transmit|transmits|forward|forwards|forwarded|sync|syncs|push|pushes|share|shares|attach|attaches)\b",
    re.IGNORECASE,
)
# A negation, or a verb that takes the noun out, governs its clause from there on.
_NEGATION = re.compile(
    r"\b(?:never|not|no|none|nothing|avoid|avoids|without|nor|refuse|stop|strip|strips|remove|removes|redact|"
    r"redacts|mask|masks|exclude|excludes|excluding|omit|omits|filter|filters|scrub|scrubs|sanitii?[sz]e[sd]?|"
    r"except|instead\s+of|rather\s+than|other\s+than)\b|n't\b",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(r"[,;:()]|\s(?:but|then|and\s+then)\s")
# Text that teaches about the practice rather than asking for it.
_TEACHING = Caseless(  # searched, never read for groups
    r"\b(?:malicious|attack(?:s|er|ers)?|exfiltrat\w*|steal\w*|stolen|phishing|red\s+flags?|suspicious|"
    r"dangerous|insecure|unsafe|vulnerab\w*|threats?|backdoor\w*|compromis\w*|detect\w*|scanner)\b"
)
_SENTENCE_END = sentence_end(LINE_BREAKS)
_PRONOUN = re.compile(r"\b(?:it|them|this|these|that|everything|all\s+of\s+(?:it|this|that))\b", re.IGNORECASE)
# Configuration a user fills with their own key for the tool: writing a key there is setup, not a dump.
_CONFIG_FILE = re.compile(
    r"^\.env|\.env$|\.(?:ini|cfg|conf|toml|properties|pem|key)$|config|settings|credential|secret|token|auth|"
    r"netrc|keyring|(?:^|[\W_])(?:api[_-]?)?keys?(?:[\W_]|$)",
    re.IGNORECASE,
)
_WRITE_MARK = re.compile(
    r"(?<![-=<>&\d])>{1,2}(?!=)|\btee\b|\s-o\s|--output\b|--out\b|\bOut-File\b|\b(?:Set|Add)-Content\b|"
    r"\b(?:write|append)File(?:Sync)?\b|\bwrite_(?:text|bytes)\b|\bopen\([^)]*,\s*['\"][wax]b?\+?['\"]|"
    r"\bjson\.dump\(|\.write\(|(?:^|[\s;&|])(?:cp|mv|Copy-Item)\s",
    re.IGNORECASE,
)
_TEXT_WRITE = re.compile(r"<<|\becho\b|\bprintf\b|\bcat\s*>|\btee\b", re.IGNORECASE)
_FILE_LITERAL = re.compile(r"""["'`]((?:[^"'`\s]{0,200}/)?[\w-][\w.-]{0,80}\.[A-Za-z][A-Za-z0-9]{0,7})["'`]""")
_MAX_NAMES = 40  # candidate file names per skill looked up in the instruction text
_MAX_SCRIPT_TEXT = 400_000  # characters of a sending script searched for quoted file names
_MAX_BODY = 8  # heredoc lines read after a write in a code block
_WINDOW = 400  # characters of a paragraph read on each side of a file name


@dataclass(frozen=True)
class _Write:
    path: str  # where the file is written (instructions or a script)
    line: int
    what: str  # a class of _HANDOFF_SOURCES
    how: str  # "tells the agent to put", "writes", ...
    excerpt: str
    tokens: tuple[str, ...] = ()  # secret variables written (a send to their own service is their use)
    detail: str = ""  # which one: "~/.ssh/id_rsa, line 2", "$GITHUB_TOKEN"


@dataclass(frozen=True)
class _Send:
    path: str
    line: int
    hosts: tuple[str, ...]
    read_line: int | None  # where the sender reads the file (a script), if known
    excerpt: str


def _basename(value: str) -> str:
    name = value.strip().strip("\"'`").replace("\\", "/").rsplit("/", 1)[-1]
    if len(name) < 5 or "." not in name.strip(".") or any(c in name for c in "$*{}<>%()[]?=,;:|&@"):
        return ""
    return name.lower()


def _paragraphs(view: SkillView, file: TextFile) -> list[Paragraph]:
    cached = view._paragraphs.get(file.path)
    if cached is not None:
        return cached
    out: list[Paragraph] = []
    parts: list[str] = []
    starts: list[int] = []
    numbers: list[int] = []
    length = 0
    last = -10

    def close() -> None:
        if parts:
            text = " ".join(parts)
            out.append(Paragraph(file.path, text, text.lower(), tuple(starts), tuple(numbers)))
        parts.clear()
        starts.clear()
        numbers.clear()

    for line in file.lines[:_MAX_REFERENCE_LINES]:
        if line.context != PROSE:
            continue
        number = line.spans[0][1]
        stripped = line.text.lstrip()
        if number == last:  # another cell of the same table row
            continue
        if (
            number != last + 1
            or stripped.startswith(("#", "- ", "* ", "+ ", "|", ">"))
            or stripped[:3].rstrip(".)").isdigit()
        ):
            close()
            length = 0
        starts.append(length)
        numbers.append(number)
        parts.append(line.text[:4000])
        length += len(parts[-1]) + 1
        last = number
    close()
    view._paragraphs[file.path] = out
    return out


def _code_lowered(view: SkillView, file: TextFile) -> list[tuple[int, str]]:
    """The code lines of an instruction file, lower-cased once: (index in file.lines, text)."""
    cached = view._code_lowered.get(file.path)
    if cached is None:
        lines = file.lines[:_MAX_REFERENCE_LINES]
        cached = [(i, line.text[:4000].lower()) for i, line in enumerate(lines) if line.context == CODE]
        view._code_lowered[file.path] = cached
    return cached


def _mentions(lower: str, name: str) -> list[int]:
    """Where the lower-cased text names the file `name` as a word (not inside my_name.txt or name.txt2), at most 20."""
    out: list[int] = []
    at = lower.find(name)
    tries = 200
    while at >= 0 and len(out) < 20 and tries:
        tries -= 1
        end = at + len(name)
        before = lower[at - 1] if at else " "
        after = lower[end] if end < len(lower) else " "
        if not (before.isalnum() or before in "_-") and not (after.isalnum() or after in "_-"):
            out.append(at)
        at = lower.find(name, at + 1)
    return out


def _sentence(text: str, at: int) -> tuple[int, int]:
    start = max(0, at - _WINDOW)
    for match in _SENTENCE_END.finditer(text, start, at):
        start = match.end()
    end_match = _SENTENCE_END.search(text, at, min(len(text), at + _WINDOW))
    end = end_match.end() if end_match else min(len(text), at + _WINDOW)
    return start, end


def _negated_spans(sentence: str) -> list[tuple[int, int]]:
    spans = []
    for match in _NEGATION.finditer(sentence):
        end_match = _CLAUSE_END.search(sentence, match.end())
        spans.append((match.start(), end_match.start() if end_match else len(sentence)))
    return spans


def _free(matches: Iterable[re.Match[str]], negated: list[tuple[int, int]]) -> re.Match[str] | None:
    """The first match outside every negated clause."""
    for match in matches:
        if not any(s <= match.start() < e for s, e in negated):
            return match
    return None


def _sensitive_in(sentence: str, negated: list[tuple[int, int]], classes: Iterable[str] | None = None) -> str:
    for label, pattern in _HANDOFF_SOURCES:
        if classes is not None and label not in classes:
            continue
        if _free(pattern.finditer(sentence), negated):
            return label
    return ""


def _prose_writes(paragraph: Paragraph, at: int, name: str) -> tuple[str, str]:
    """(class, the sentence) when the sentence naming the file at `at` writes something sensitive into it."""
    start, end = _sentence(paragraph.text, at)
    sentence = paragraph.text[start:end]
    if _TEACHING.search(sentence):
        return "", ""
    negated = _negated_spans(sentence)
    if _free(_WRITE_VERB.finditer(sentence), negated) is None:
        return "", ""
    what = _sensitive_in(sentence, negated)
    if not what and _PRONOUN.search(sentence) and start > 0:  # "Gather the chat history. Save it to x.txt."
        before_start, _ = _sentence(paragraph.text, max(0, start - 2))
        before = paragraph.text[before_start:start]
        if not _TEACHING.search(before):
            what = _sensitive_in(before, _negated_spans(before))
    if what == _SECRETS and _CONFIG_FILE.search(name):
        return "", ""  # "put your API key in .env": the tool's own configuration
    return what, sentence


def _code_writes(view: SkillView, file: TextFile, index: int, name: str, secret_lines: dict) -> tuple[str, tuple]:
    """(class, secret variables) when the code line at `index` of `file` writes something sensitive into `name`."""
    line = file.lines[index]
    text = line.text[:4000]
    lower = text.lower()
    at = lower.find(name)
    mark = _WRITE_MARK.search(text, 0, max(0, at))
    if at < 0 or mark is None or line.warns(0, 0):
        return "", ()
    numbers = [span[1] for span in line.spans]
    tokens = tuple(u.value for n in numbers for u in secret_lines.get((file.path, n), ()) if u.kind == ENV)
    if any(u.kind == PATH for n in numbers for u in secret_lines.get((file.path, n), ())):
        return _CREDENTIAL_FILES, ()
    for label, pattern in _CODE_SOURCES:
        if pattern.search(text):
            return label, ()
    if tokens:
        return _SECRETS, tokens
    if not _TEXT_WRITE.search(text):
        return "", ()
    # A heredoc, echo or tee writes what the block's introduction or its body says it writes.
    body = [
        other.text[:400]
        for other in file.lines[index + 1 : index + 1 + _MAX_BODY]
        if other.block == line.block and other.context == CODE
    ]
    for piece in (line.near[-800:], *body):
        if _TEACHING.search(piece):
            return "", ()
        what = _sensitive_in(piece, _negated_spans(piece), (_CONVERSATION, _CONTEXT, _ENVIRONMENT))
        if what:
            return what, ()
    return "", ()


def _instruction_writes(view: SkillView, name: str, secret_lines: dict) -> _Write | None:
    """The first place the instructions write something sensitive into the file `name`."""
    for file in view.instruction_files:
        for paragraph in _paragraphs(view, file):
            if name not in paragraph.lower:
                continue
            for at in _mentions(paragraph.lower, name):
                what, sentence = _prose_writes(paragraph, at, name)
                if what:
                    return _Write(file.path, paragraph.line_at(at), what, "tells the agent to write", sentence)
        for index, lower in _code_lowered(view, file):
            if name in lower:
                line = file.lines[index]
                what, tokens = _code_writes(view, file, index, name, secret_lines)
                if what:
                    return _Write(file.path, line.spans[0][1], what, "writes", line.text, tokens)
    return None


def _instruction_sends(view: SkillView, name: str) -> list[_Send]:
    sends_at: dict[tuple[str, int], list[str]] = {}
    for use in view.card.of(HOST):
        if use.origin == FROM_INSTRUCTIONS and use.detail == "send" and use.line and not is_local(use.value):
            sends_at.setdefault((use.path, use.line), []).append(use.value)
    out: list[_Send] = []
    for file in view.instruction_files:
        for index, lower in _code_lowered(view, file):
            line = file.lines[index]
            if name not in lower or not _mentions(lower, name):
                continue
            hosts = [h for span in line.spans for h in sends_at.get((file.path, span[1]), ())]
            if hosts and not line.warns(0, 0):
                out.append(_Send(file.path, line.spans[0][1], tuple(dict.fromkeys(hosts)), None, line.text))
        for paragraph in _paragraphs(view, file):
            if name not in paragraph.lower:
                continue
            for at in _mentions(paragraph.lower, name):
                start, end = _sentence(paragraph.text, at)
                sentence = paragraph.text[start:end]
                negated = _negated_spans(sentence)
                if _TEACHING.search(sentence) or _free(_SEND_VERB.finditer(sentence), negated) is None:
                    continue
                hosts = [h for m in URL.finditer(sentence) if (h := url_host(m.group(0))) and not is_local(h)]
                if hosts:
                    out.append(_Send(file.path, paragraph.line_at(at), tuple(dict.fromkeys(hosts)), None, sentence))
                    break
    return out


def _script_names(view: SkillView, script: str, uses: list[Use]) -> dict[str, int | None]:
    """The file names a sending script reads (card paths) or quotes, with the line where it does."""
    names: dict[str, int | None] = {}
    for use in uses:
        if use.kind == PATH and use.detail in ("read", "list", ""):
            name = _basename(use.value)
            if name:
                names.setdefault(name, use.line)
    file = view.scripts.get(script)
    if file is None:
        return names
    lines = [line for line in file.lines if line.context == CODE]
    text = "\n".join(line.text[:4000] for line in lines)[:_MAX_SCRIPT_TEXT]
    if "." not in text:
        return names
    starts: list[int] = []
    offset = 0
    for line in lines:
        starts.append(offset)
        offset += min(len(line.text), 4000) + 1
    for match in _FILE_LITERAL.finditer(text):
        if "://" in match.group(1):
            continue
        name = _basename(match.group(1))
        if name and name not in names:
            index = max(0, bisect.bisect_right(starts, match.start()) - 1)
            names[name] = lines[index].locate(match.start() - starts[index])[0]
        if len(names) >= _MAX_NAMES:
            break
    return names


def file_handoffs(view: SkillView) -> list[Item]:
    card = view.card
    if not view.instruction_files or not view.scripts:
        return []
    by_script: dict[str, list[Use]] = {}
    for use in card.uses:
        if use.origin == FROM_CODE and use.path in view.scripts:
            by_script.setdefault(use.path, []).append(use)
    secret_uses = [u for u in _secret_reads(card.uses) if u.line]
    secret_lines: dict[tuple[str, int], list[Use]] = {}
    for use in secret_uses:
        secret_lines.setdefault((use.path, use.line or 0), []).append(use)
    tokens = {u.value for u in secret_uses if u.kind == ENV}
    text = view.instruction_text
    high: list[Item] = []
    own: list[Item] = []
    seen: set[tuple[str, str]] = set()
    budget = _MAX_NAMES
    for script, uses in sorted(by_script.items()):
        if len(high) >= PER_RULE:
            break
        sends = sorted(
            (u for u in uses if u.kind == HOST and u.detail == "send" and u.line and not is_local(u.value)),
            key=lambda u: u.line or 0,
        )
        # instructions write, the script reads and sends
        if sends:
            for name, read_line in _script_names(view, script, uses).items():
                budget -= 1
                if budget < 0:
                    break
                if name not in text or (name, script) in seen:
                    continue
                write = _instruction_writes(view, name, secret_lines)
                if write is None:
                    continue
                seen.add((name, script))
                hosts = tuple(dict.fromkeys(u.value for u in sends))
                send = _Send(script, sends[0].line or 0, hosts, read_line, sends[0].evidence or sends[0].value)
                owned = write.what in _AGENT_ONLY and all(any(owns_host(t, h) for t in tokens) for h in hosts)
                (own if owned else high).append(_handoff_item(view, name, write, send, owned))
        # the script writes what it read from a credential store, the instructions send the file
        for name, write in _script_writes(view, script, uses, secret_lines).items():
            budget -= 1
            if budget < 0:
                break
            if name not in text or (name, script) in seen:
                continue
            for send in _instruction_sends(view, name):
                hosts = tuple(h for h in send.hosts if not any(owns_host(t, h) for t in write.tokens))
                if hosts:
                    seen.add((name, script))
                    high.append(_handoff_item(view, name, write, _Send(send.path, send.line, hosts, None, send.excerpt),
                                              False))  # fmt: skip
                    break
    return _capped(high) + _capped(own)


def _script_writes(view: SkillView, script: str, uses: list[Use], secret_lines: dict) -> dict[str, _Write]:
    """Files a script writes with a secret in them: on the same line, or a credential store read anywhere in it."""
    writes = [u for u in uses if u.kind == PATH and u.detail == "write" and u.line]
    if not writes:
        return {}
    store = next(
        (u for u in uses if u.kind == PATH and u.sensitive in SECRET_PATH_CLASSES and u.detail in ("read", "list", "")),
        None,
    )
    out: dict[str, _Write] = {}
    for use in writes:
        name = _basename(use.value)
        if not name or name in out:
            continue
        line = view.code_line(script, use.line)
        numbers = [span[1] for span in line.spans] if line else [use.line]
        here = [u for n in numbers for u in secret_lines.get((script, n or 0), ())]
        text = line.text[:4000] if line else use.evidence
        what = detail = ""
        tokens: tuple[str, ...] = ()
        stores = [u for u in here if u.kind == PATH]
        if stores:
            what, detail = _CREDENTIAL_FILES, stores[0].value
        else:
            what = next((label for label, pattern in _CODE_SOURCES if pattern.search(text)), "")
        if not what and here:
            tokens = tuple(u.value for u in here)
            what, detail = _SECRETS, ", ".join(f"${t}" for t in tokens[:3])
        if not what and store is not None:
            what, detail = _CREDENTIAL_FILES, f"{store.value}, read at line {store.line}"
        if what:
            out[name] = _Write(script, use.line or 0, what, "writes", text, tokens, detail)
    return out


def _handoff_item(view: SkillView, name: str, write: _Write, send: _Send, owned: bool) -> Item:
    writer = view.name(write.path)
    sender = view.name(send.path)
    shown = ", ".join(send.hosts[:2]) + (f" and {len(send.hosts) - 2} more" if len(send.hosts) > 2 else "")
    what = f"{write.what} ({write.detail})" if write.detail else write.what
    writes = f"{writer} (line {write.line}) {write.how} {what} into {name}"
    if send.read_line is not None:
        sends = f"{sender} reads {name} (line {send.read_line}) and sends data to {shown} (line {send.line})"
    else:
        sends = f"{sender} (line {send.line}) sends {name} to {shown}"
    rule = FILE_HANDOFF_OWN_SERVICE if owned else FILE_HANDOFF
    return _item(rule, send.path, send.line, send.excerpt, writes=writes, sends=sends, file=name, host=send.hosts[0],
                 what=write.what, sender=sender)  # fmt: skip
