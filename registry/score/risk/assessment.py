"""Static risk analysis of a skill: what its files would make an agent do, never by running them.

`assess(skill, contents)` reads SKILL.md (frontmatter and body), every Markdown reference, every
script and data file, and the parsed frontmatter fields, and returns a `RiskAssessment`: a level,
the findings that explain it (rule code, file, line, column, the matched text, why it matters and
what to change) and one line per contributing rule for the skill's page. The rules, their levels
and what each detects are in rules.py (and docs/rules.md).

Where the text is decides what it means (lines.py). Commands count in fenced code blocks,
scripts, the frontmatter and data files (hooks.json, package.json scripts, CI YAML); the
strongest shapes (a download piped to a shell, a decoded payload executed, a reverse shell, a
planted SSH key, a password-protected archive download) also in inline code and sentences,
because malicious skills ask the user or the agent to paste them. Credential and destructive
rules read commands only, never prose that names a path. Nothing fires

- on text that warns against a practice: the line itself (outside the matched text), the line
  before it, the introduction of a code block, the other cells of a table row, or the comment
  above a command say never, avoid, don't, dangerous, malicious, detect, blocked, risk, ❌ ...
  (a deliberate trade: an attacker can add such a word, a teacher always does);
- on detection patterns: wolffi.sh `danger_patterns`/`confirm_patterns` and `triggers` lists,
  `pattern:`/`regex:` entries, `re.compile(...)` lines and regex-looking matches;
- on script comments (except for hidden characters, which count everywhere).

Reading `$GITHUB_TOKEN` to call the GitHub API is normal and never fires; sending files of keys,
the whole environment, or a secret to a host without an accountable owner (raw IP, paste or
file-drop site, request catcher, tunnel, shortener, dynamic DNS) does.

Levels. Each rule has a level; the skill's level is the highest level among its findings (`low`
when nothing fired), then raised to `critical` when signals combine (`ESCALATIONS`):

1. credential access (R010, R011, R143, cloud credentials from the metadata service R262) with
   exfiltration (R020-R022) anywhere in the skill;
2. obfuscation (R050, R051) with credential access or exfiltration (R010, R011, R021, R022)
   anywhere, or with a download run by a shell (R001) in the same code block or script;
3. persistence (R041-R043) with an unaccountable destination (R021, R022) anywhere, or with a
   download run by a shell (R001) in the same code block or script (a job that runs fetched code);
4. overriding, hidden or remote instructions, or a false report of success (R060-R063, R132,
   R134, orders hidden in an HTML comment or a document R256, R259) with remote code execution,
   credential access, exfiltration (the conversation sent out, R135, included), a destructive command
   or a lowered defence (R001, R010, R011, R021, R022, R030, R031, R135, R190, R191, R193, the agent's
   approvals turned off R250).

Some shapes are critical on their own: code from an untrusted host run by a shell (R002), a
decoded payload executed (R003), a reverse shell (R004), a password-protected archive download
(R005), secrets or the environment sent over the network (R020), a hard-coded or downloaded key
planted in authorized_keys (R040). A download from a named HTTPS host piped to a shell (R001: the
install line of Homebrew, rustup, uv and many real tools) is high: a reviewer checks the host.

Bounds, so one hostile file cannot stall a build: binaries (a NUL byte in the first 8 KB) are
skipped; a file over 2 MB, past the first 100,000 lines, or past 8 MB of text per skill (SKILL.md
first, then the smallest files first, so padding cannot push a payload out) is left unread and
reported as R090; lines over 8 KB are read by the command rules in overlapping windows, up to
512 KB of such lines per file; a rule reports at most 5 findings per file and 20 per skill; every
regex has bounded gaps and wolffi.sh patterns with nested quantifiers are not run. The same bytes
always give the same assessment, findings sorted by path, line, column and code.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from registry.model import Finding, Skill
from registry.score import (
    card_rules,
    clone_rules,
    code_rules,
    every_byte,
    families,
    instructions,
)
from registry.score import code as code_reader
from registry.score.card import (
    EMPTY_CARD,
    ENV,
    FROM_CODE,
    FROM_INSTRUCTIONS,
    FROM_METADATA,
    HOST,
    INSTRUCTION,
    NOT_ANALYSED,
    WHOLE_ENVIRONMENT,
    AnalyserResult,
    CapabilityCard,
    Coverage,
    Declared,
    PackedCard,
    Use,
    merge_coverage,
)
from registry.score.code.classify import host_sensitivity
from registry.score.risk import rules as R
from registry.score.risk.detectors import (
    FILE_DETECTORS,
    LINE_DETECTORS,
    LINE_NEEDLES,
    describes_pattern,
)
from registry.score.risk.facts import Fact, FactTable, Hit, calibrate, hits_of
from registry.score.risk.lines import CODE, CONFIG, TextFile, read_files
from registry.score.risk.needles import LINE_RULES, needles_in, shared
from registry.score.risk.rules import CATEGORIES, LEVELS, Item, RiskRule, show
from registry.score.vocabulary import url_host

__all__ = ["LEVELS", "RULES", "RiskAssessment", "RiskRule", "assess", "show"]

# Every risk rule, from each module that declares some.
RULES: tuple[RiskRule, ...] = (
    *R.RULES,
    *card_rules.RULES,
    *clone_rules.RULES,
    *instructions.RULES,
    *every_byte.RULES,
    *code_rules.RULES,
    *families.RULES,
)
_RULES_BY_CODE = {rule.code: rule for rule in RULES}

PER_FILE = 5
PER_SKILL = 20
LONG_LINE = 8192  # longer lines are read by the command rules in overlapping windows ...
OVERLAP = 512
HITS_PER_CALL = 2 * PER_FILE  # a detector stops reading a line after this many matches
LONG_LINE_BUDGET = 512 * 1024  # ... up to this many characters of long lines per file
_MAX_LINE_FOR_PATTERNS = 2000
_MAX_PATTERN_LINES = 5000

# Findings of a rule on a line make these weaker ones on the same line redundant.
_SUPERSEDES = {
    "R002": {"R001", "R021", "R022"},
    "R003": {"R050", "R001"},
    "R004": {"R022", "R021"},
    "R020": {"R010", "R021", "R022"},
    "R040": {"R041"},
}
# Every detector's needles are found in one linear pass over a file (risk/needles.py; a regex alternation of a
# hundred literals is about 25 times slower on the same text).
_NEEDLE_DETECTORS = [frozenset(i for i, d in enumerate(LINE_DETECTORS) if n in d.needles) for n in LINE_NEEDLES]
_WANTING = [(number, d) for number, d in enumerate(LINE_DETECTORS) if d.wants is not None]
_COMMAND_CATEGORIES = frozenset({"rce", "credentials", "exfiltration", "destructive", "persistence"})
_ALWAYS = frozenset({"R050", "R051", "R062", "R063", "R064"})  # hidden content: warnings do not excuse it

# (rules on one side, rules on the other, where both must be, why the pair is critical)
ESCALATIONS: tuple[tuple[frozenset[str], frozenset[str], str, str], ...] = (
    (
        frozenset({"R010", "R011", "R143", "R262"}),
        frozenset({"R020", "R021", "R022", "R135"}),
        "skill",
        "credential access combined with exfiltration",
    ),
    (
        frozenset({"R050", "R051"}),
        frozenset({"R010", "R011", "R021", "R022"}),
        "skill",
        "obfuscated content alongside credential access or exfiltration",
    ),
    (frozenset({"R050", "R051"}), frozenset({"R001"}), "block", "obfuscated content next to a download run by a shell"),
    (
        frozenset({"R041", "R042", "R043"}),
        frozenset({"R021", "R022"}),
        "skill",
        "persistence combined with an unaccountable network destination",
    ),
    (frozenset({"R041", "R042", "R043"}), frozenset({"R001"}), "block", "a persistent job that runs downloaded code"),
    (
        frozenset({"R060", "R061", "R062", "R063", "R132", "R134", "R256", "R259"}),
        frozenset(
            {
                "R001",
                "R010",
                "R011",
                "R021",
                "R022",
                "R030",
                "R031",
                "R135",
                "R107",
                "R109",
                "R113",
                "R190",
                "R191",
                "R193",
                "R140",
                "R142",
                "R250",
            }
        ),
        "skill",
        "hidden, overriding or remote instructions alongside a dangerous action",
    ),
)

# The rules that read an order in the skill's text, and the kind of order each reads: the card lists every
# such finding under "Instructions to the agent" (card.INSTRUCTION), so the card says what the text asks for.
TELLS: dict[str, str] = {
    **{row.rule.code: row.shape for row in instructions.ROWS},  # the prose analysis's facts are the orders it read
    "R143": "read secrets", "R144": "send out secrets", "R145": "send out secrets", "R147": "obey fetched text",
    "R148": "download and run",
    **{rule.code: rule.tells for rule in families.RULES if rule.tells},
}  # fmt: skip

_TOP_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:")


Claim = tuple[Finding, tuple[tuple[str, str], ...]]


@dataclass(frozen=True)
class RiskAssessment:
    level: str  # low when nothing fired
    findings: tuple[Finding, ...]
    reasons: tuple[str, ...]
    packed_card: PackedCard = EMPTY_CARD  # the capability card, read through `card`
    # Each finding with the values its rule's message was filled with (host, path, what is sent ...): what
    # the finding claims, as data, for readers that phrase it (the page's verdict) or check it.
    claims: tuple[Claim, ...] = ()

    @property
    def card(self) -> CapabilityCard:
        """The capability card, unpickled anew at each read: keep it while it is needed."""
        return self.packed_card.unpack()

    def params_of(self, finding: Finding) -> dict[str, str]:
        for claimed, params in self.claims:
            if claimed == finding:
                return dict(params)
        return {}


def claim(finding: Finding, params: Mapping[str, object]) -> Claim:
    return finding, tuple(sorted((str(k), str(v)) for k, v in params.items()))


def assess(skill: Skill, contents: Mapping[str, bytes]) -> RiskAssessment:
    shown = skill.location.rel_folder
    for expand in EXPANDERS:
        contents = {**contents, **expand(contents)}
    files, unread = read_files(contents, shown, _body_line(skill), _frontmatter_keys(contents.get("SKILL.md")))
    hits: list[Hit] = []
    for file in files:
        hits += _scan(file)
    hits = calibrate(hits, _own_sites(skill))
    skill_md_path = "SKILL.md" if shown in (".", "") else f"{shown}/SKILL.md"
    findings: list[Item] = []
    for hit in hits:
        line, column = hit.line.locate(hit.start)
        excerpt = show(hit.line.text[hit.start : hit.end])
        finding = hit.rule.at(hit.line.path, line, column, excerpt=excerpt, **hit.params)
        findings.append(Item(finding, hit.rule, hit.params, (hit.line.path, hit.line.block)))
    for item in unread:
        params = {"path": item.path, "reason": item.reason}
        findings.append(Item(R.NOT_ANALYSED.at(item.path, None, None, **params), R.NOT_ANALYSED, params))
    findings += _metadata_findings(skill, skill_md_path)
    findings += _danger_pattern_findings(skill, files, skill_md_path)
    uses: list[Use] = _line_rule_uses(hits, {file.path: file.kind for file in files})
    coverage = [Coverage(item.path, NOT_ANALYSED, item.reason) for item in unread]
    coverage += [Coverage(_shown(shown, name), NOT_ANALYSED, why) for name, why in skill.location.unpublished]
    for analyser in ANALYSERS:
        result: AnalyserResult = analyser(skill, files, contents, shown)
        uses += result.uses
        coverage += result.coverage
        findings += result.items
        findings += FACTS.items_of(result.facts)
    card = CapabilityCard(tuple(sorted(set(uses), key=Use.sort_key)), declared_by(skill), merge_coverage(coverage))
    for card_rule in CARD_RULES:
        findings += card_rule(skill, card, files)
    for family_check in FAMILY_CHECKS:
        findings += FACTS.items_of(family_check(skill, card, files))
    assessment = _combine(_drop_restated(_with_columns(findings, contents, shown)))
    orders = _instructions(assessment)
    if orders:
        card = dataclasses.replace(card, uses=tuple(sorted(set(card.uses) | set(orders), key=Use.sort_key)))
    return dataclasses.replace(assessment, packed_card=PackedCard.of(card))


def _instructions(assessment: RiskAssessment) -> list[Use]:
    """What the skill's text tells the agent to do, for the card: one use per finding of an instruction rule."""
    orders = []
    for finding, params in assessment.claims:
        tells = TELLS.get(finding.code)
        if tells:
            what = _safe_summary(_RULES_BY_CODE[finding.code], dict(params))
            orders.append(Use(INSTRUCTION, what, finding.path, finding.line, FROM_INSTRUCTIONS, "", tells,
                              finding.excerpt))  # fmt: skip
    return orders


_HIT_HOST_DETAIL = {"rce": "fetch", "exfiltration": "send", "persistence": "fetch", "obfuscation": "fetch"}
_ORIGIN_OF_KIND = {"script": FROM_CODE, "data": FROM_CODE}


def _line_rule_uses(hits: list[Hit], file_kinds: dict[str, str]) -> list[Use]:
    """The facts the line rules saw, for the card: a finding never names a host or an environment dump the card
    does not show (risk/claims.py), even where no parser read the line (a URL inside an echoed crontab line)."""
    uses = []
    for hit in hits:
        number, _ = hit.line.locate(hit.start)
        kind = file_kinds.get(hit.line.path, "")
        origin = FROM_METADATA if hit.line.context == CONFIG else _ORIGIN_OF_KIND.get(kind, FROM_INSTRUCTIONS)
        evidence = show(hit.line.text)
        url = str(hit.params.get("url", ""))
        host = url_host(url) if "://" in url else None
        if host:
            detail = _HIT_HOST_DETAIL.get(hit.rule.category, "mention")
            uses.append(Use(HOST, host, hit.line.path, number, origin, host_sensitivity(host), detail, evidence))
        if any("whole environment" in str(value) for value in hit.params.values()):
            uses.append(Use(ENV, WHOLE_ENVIRONMENT, hit.line.path, number, origin, "secret-like name", "read",
                            evidence))  # fmt: skip
    return uses


def _own_sites(skill: Skill) -> tuple[str, ...]:
    return tuple(str(site) for site in (skill.homepage, skill.repository) if isinstance(site, str) and site)


def _with_columns(items: list[Item], contents: Mapping[str, bytes], shown: str) -> list[Item]:
    """Give a column to the findings located by line only (data flows, capability cards, metadata).

    The column is where the finding's excerpt starts on that line, else the line's first non-blank
    character: an editor then opens at the evidence rather than at the start of the file.
    """
    lines_of: dict[str, list[str]] = {}
    located = []
    for item in items:
        finding = item.finding
        if finding.line and not finding.column:
            if finding.path not in lines_of:
                name = finding.path if shown in (".", "") else finding.path.removeprefix(f"{shown}/")
                data = contents.get(name)
                text = data.decode("utf-8", errors="replace").replace("\r\n", "\n") if data is not None else ""
                lines_of[finding.path] = text.split("\n")
            lines = lines_of[finding.path]
            if finding.line <= len(lines):
                column = _evidence_column(lines[finding.line - 1], finding.excerpt)
                item = dataclasses.replace(item, finding=dataclasses.replace(finding, column=column))
        located.append(item)
    return located


def _evidence_column(line: str, excerpt: str) -> int:
    start = line.find(excerpt.removesuffix("…")[:40]) if excerpt else -1
    return start + 1 if start >= 0 else len(line) - len(line.lstrip()) + 1


def _drop_restated(items: list[Item]) -> list[Item]:
    """Drop a parsed-code flow finding that a line rule already reports on one of its lines (code_rules)."""
    places = {(item.finding.path, item.finding.line, item.rule.code) for item in items}
    kept = []
    for item in items:
        lines = {item.finding.line, _int(item.params.get("source_line"))}
        stronger = (code for code, weaker in code_rules.SUPERSEDED_BY.items() if item.rule.code in weaker)
        if not any((item.finding.path, line, code) in places for code in stronger for line in lines if line):
            kept.append(item)
    return kept


def _int(value: object) -> int | None:
    return int(value) if isinstance(value, str) and value.isdigit() else None


def _shown(folder: str, name: str) -> str:
    return name if folder in (".", "") else f"{folder}/{name}"


def declared_by(skill: Skill) -> Declared:
    network = skill.settings.get("network")
    return Declared(
        allowed_tools=tuple(str(t) for t in skill.allowed_tools),
        requires=tuple((str(k), tuple(str(v) for v in values)) for k, values in sorted(skill.requires.items())),
        compatibility=str(skill.compatibility or ""),
        tools=tuple(tool.name for tool in skill.tools),
        inputs=tuple(item.name for item in skill.inputs),
        network=network if isinstance(network, bool) else None,
    )


# Expanders add what is inside a file as more files ("assets/x.zip!/setup.py": archive and document
# members), read by every analyser like the skill's own files.
EXPANDERS: tuple[Callable[[Mapping[str, bytes]], Mapping[str, bytes]], ...] = (every_byte.expand,)
# Each analyser reads the skill's files its own way and returns uses for the card, how each file
# was read, and findings; card rules then read the merged card (flows, declared against used).
ANALYSERS: tuple[Callable[[Skill, list[TextFile], Mapping[str, bytes], str], AnalyserResult], ...] = (
    instructions.analyse,
    every_byte.analyse,
    code_reader.analyse,
    families.analyse,
)
# The one table from what the analysers read to rules: each package's rows, declared beside its rules (the line
# detectors' rows are risk/facts.py TABLE).
FACTS = FactTable((*instructions.ROWS, *every_byte.ROWS, *families.ROWS))
CARD_RULES: tuple[Callable[[Skill, CapabilityCard, list[TextFile]], list[Item]], ...] = (
    card_rules.card_rules,
    every_byte.contacted_lookalikes,
)
# The family modules' checks read the card and the files and report facts, which the fact table gives rules.
FAMILY_CHECKS: tuple[Callable[[Skill, CapabilityCard, list[TextFile]], list[Fact]], ...] = tuple(
    family.check for family in families.FAMILIES
)


def _body_line(skill: Skill) -> int:
    document = skill.document
    return document.body_line if document.body_line and document.body_line > 1 else 1


def _frontmatter_keys(data: bytes | None) -> list[tuple[int, str]]:
    """(1-based line, key) of each top-level frontmatter key, found without trusting the YAML parse."""
    if not isinstance(data, bytes | bytearray):
        return []
    text = bytes(data[:262_144]).decode("utf-8", errors="replace").removeprefix("\ufeff")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    if first >= len(lines) or lines[first].rstrip() != "---":
        return []
    keys: list[tuple[int, str]] = []
    for number, line in enumerate(lines[first + 1 :], start=first + 2):
        if line.rstrip() == "---":
            break
        match = _TOP_KEY.match(line)
        if match:
            keys.append((number, match.group(1)))
    return keys


def _scan(file: TextFile) -> list[Hit]:
    found: list[Hit] = []
    per_rule: dict[str, int] = {}
    capped: set[str] = set()
    seen: set[tuple[str, int, int]] = set()
    budget = LONG_LINE_BUDGET
    lines = file.lines
    low, starts, exact = file.lowered
    for index, needled in _worth_reading(file).items():
        line = lines[index]
        # The line's lower-cased text, cut from the file's (the same text when no lowering changed a length)
        lower_full = low[starts[index] : starts[index + 1] - 1] if exact else line.text.lower()
        views = [line]
        if len(line.text) > LONG_LINE:
            views = []
            for start in range(0, len(line.text), LONG_LINE - OVERLAP):
                if budget <= 0:
                    break
                views.append(line.window(start, start + LONG_LINE))
                budget -= LONG_LINE
        line_hits: list[Hit] = []
        # The detectors whose needles the file-wide search found on this line, and those that test the
        # raw line their own way (long code lines, non-ASCII text), in the table's order.
        chosen = sorted(needled.union(n for n, d in _WANTING if d.wants(line.text)))
        for number in chosen:
            detector = LINE_DETECTORS[number]
            if line.context not in detector.contexts or detector.rules <= capped:
                continue
            for view in views if detector.windowed else [line]:
                lower = view.text.lower() if view is not line else lower_full
                if view is line or detector.applies(view.text, lower):
                    facts = itertools.islice(detector.run(file, index, view, lower), HITS_PER_CALL)
                    line_hits += [hit for hit in hits_of(facts) if _accepted(hit)]
        found += _keep(_resolve(line_hits), per_rule, seen, capped)
    for file_detector in FILE_DETECTORS:
        found += _keep([hit for hit in hits_of(file_detector(file)) if _accepted(hit)], per_rule, seen, capped)
    return found


def _worth_reading(file: TextFile) -> dict[int, set[int]]:
    """The lines any detector may read, each with the detectors whose needles it holds.

    Found over the whole file at once: one search for every needle over the lower-cased lines
    joined (offsets counted on the lower-cased text: lowering can change a length), plus long code
    lines and lines with non-ASCII text, which the detectors with a raw-line test (`wants`) read.
    Most lines of a skill are plain prose no detector reads.
    """
    lines = file.lines
    low, starts, exact = file.lowered
    if exact:
        matches = needles_in(file, LINE_RULES)
    else:  # a character lowered to two: lower each line whole so no needle is cut off
        texts_low = [line.text.lower() for line in lines]
        low = "\n".join(texts_low)
        starts = tuple(itertools.accumulate((len(text) + 1 for text in texts_low), initial=0))
        matches = shared().search(low)[LINE_RULES]
    wanted: dict[int, set[int]] = {}
    for needle, start, _ in matches:
        wanted.setdefault(bisect.bisect_right(starts, start) - 1, set()).update(_NEEDLE_DETECTORS[needle])
    ascii_file = low.isascii()
    for index, line in enumerate(lines):
        text = line.text
        if (line.context == CODE and len(text) >= 60) or not (ascii_file or text.isascii()):
            wanted.setdefault(index, set())
    return dict(sorted(wanted.items()))


def _accepted(hit: Hit) -> bool:
    rule, line = hit.rule, hit.line
    if line.context not in rule.contexts:
        return False
    if rule.code in _ALWAYS:
        return True
    if line.warns(hit.start, hit.end):
        return False
    return not (rule.category in _COMMAND_CATEGORIES and describes_pattern(line, line.text[hit.start : hit.end]))


def _resolve(hits: list[Hit]) -> list[Hit]:
    codes = {hit.rule.code for hit in hits}
    weaker = set().union(*(_SUPERSEDES.get(code, set()) for code in codes)) if codes else set()
    unique: dict[tuple[str, int], Hit] = {}
    for hit in hits:
        if hit.rule.code not in weaker:
            unique.setdefault((hit.rule.code, hit.start), hit)
    return list(unique.values())


def _keep(hits: list[Hit], per_rule: dict[str, int], seen: set[tuple[str, int, int]], capped: set[str]) -> list[Hit]:
    """Drop a second report of the same place (prose and its inline code), then cap each rule."""
    kept = []
    for hit in hits:
        place = (hit.rule.code, *hit.line.locate(hit.start))
        if place in seen:
            continue
        seen.add(place)
        count = per_rule.get(hit.rule.code, 0)
        per_rule[hit.rule.code] = count + 1
        if count < PER_FILE:
            kept.append(hit)
        if count + 1 >= PER_FILE:
            capped.add(hit.rule.code)
    return kept


# -- rules over parsed fields --------------------------------------------------------------

_SHELL_NAMES = r"(?:ba|z|da|k|fi|c|tc|a)?sh|sudo|su|eval|env|exec|xargs|powershell|pwsh|cmd"
_UNRESTRICTED_TOOL = re.compile(
    r"^(?:bash|shell|sh|powershell|terminal|run_shell_command|execute_command|run_terminal_cmd)$"
    r"|^(?:bash|shell|powershell)\(\s*(?:\*|\*\s*:\s*\*|:\s*\*|\*\*|(?:"
    + _SHELL_NAMES
    + r")(?:\s*:\s*\*|\s+\*)?)\s*\)$",
    re.IGNORECASE,
)
_PLACEHOLDER = re.compile(r"^\{\{[^}]*\}\}$")


def _metadata_findings(skill: Skill, path: str) -> list[Item]:
    out: list[Item] = []
    key_lines = skill.document.key_lines
    for tool in skill.allowed_tools:
        if not isinstance(tool, str) or not _UNRESTRICTED_TOOL.match(tool.strip()):
            continue
        bare = "(" not in tool
        what = (
            f"allowed-tools grants `{tool}` with no command filter, so any shell command runs without a prompt"
            if bare or "*" in tool.split("(", 1)[1].split(":", 1)[0]
            else f"allowed-tools grants `{tool}`, a shell or wrapper that can run any other command"
        )
        params = {"what": what, "summary": f"allowed-tools grants {tool}"}
        line = key_lines.get("allowed-tools")
        finding = R.UNRESTRICTED_SHELL.at(path, line, 1 if line else None, excerpt=show(tool), **params)
        out.append(Item(finding, R.UNRESTRICTED_SHELL, params))
        break
    for tool in skill.tools:
        command = tool.command or []
        if not command:
            continue
        program = str(command[0]).rsplit("/", 1)[-1].lower()
        shell_script = program in ("sh", "bash", "zsh", "dash", "cmd", "cmd.exe", "powershell", "pwsh") and any(
            str(a).lower() in ("-c", "/c", "-command", "-lc", "-ic") for a in command[1:]
        )
        arbitrary = _PLACEHOLDER.match(str(command[0])) is not None
        if not (arbitrary or (shell_script and any("{{" in str(a) for a in command[1:]))):
            continue
        runs = "any program named by a parameter" if arbitrary else "a shell script built from its parameters"
        what = f"tool '{tool.name}' runs {runs}"
        params = {"what": what, "summary": f"tool '{tool.name}' is an unrestricted shell"}
        excerpt = show(tool.command_text or " ".join(str(a) for a in command))
        finding = R.UNRESTRICTED_SHELL.at(path, tool.line, None, excerpt=excerpt, **params)
        out.append(Item(finding, R.UNRESTRICTED_SHELL, params))
    if skill.settings.get("network") is True:
        line = key_lines.get("network")
        finding = R.NETWORK_ACCESS.at(path, line, 1 if line else None, excerpt="network: true")
        out.append(Item(finding, R.NETWORK_ACCESS, {}))
    return out


def _compile_js(pattern: str) -> re.Pattern[str] | None:
    """A wolffi.sh (JavaScript) pattern as a Python regex, or None when unsafe or unreadable."""
    if not isinstance(pattern, str) or not pattern or len(pattern) > 500:
        return None
    # Nested quantifiers such as (a+)+ can backtrack for ever; Python's re has no timeout.
    if re.search(r"\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)[+*{]", pattern):
        return None
    translated = re.sub(r"\(\?<([A-Za-z_]\w*)>", r"(?P<\1>", pattern)
    translated = re.sub(r"\\k<([A-Za-z_]\w*)>", r"(?P=\1)", translated)
    try:
        return re.compile(translated, re.IGNORECASE)
    except (re.error, RecursionError, OverflowError, ValueError):
        return None


def _danger_pattern_findings(skill: Skill, files: list[TextFile], skill_md_path: str) -> list[Item]:
    """wolffi.sh danger patterns tested against the tool calls the skill has the agent make: the commands of its
    Markdown code blocks and of its tool definitions. The guard checks each tool call, and a script's own lines are
    not one (they run inside the call that starts the script): what a script does is judged by the code analysis,
    and the finding's "wolffi.sh will block or question it" would not be true of it."""
    if not skill.danger_patterns:
        return []
    commands: list[tuple[str, int | None, int | None, str]] = []  # (text, line, column, path)
    for file in files:
        if file.kind not in ("markdown", "skill_md"):
            continue
        for line in file.lines:
            if line.context == CODE and len(commands) < _MAX_PATTERN_LINES:
                number, column = line.locate(0)
                commands.append((line.text[:_MAX_LINE_FOR_PATTERNS], number, column, line.path))
    for tool in skill.tools:
        if tool.command_text:
            commands.append((tool.command_text[:_MAX_LINE_FOR_PATTERNS], tool.line, None, skill_md_path))
    out: list[Item] = []
    reported: set[tuple[str, int | None]] = set()
    for pattern in skill.danger_patterns:
        compiled = _compile_js(pattern.pattern)
        if compiled is None:
            continue
        count = 0
        for text, number, column, path in commands:
            match = compiled.search(text)
            if match is None or (path, number) in reported:
                continue
            reported.add((path, number))
            params = {"pattern": pattern.pattern, "reason": pattern.reason or pattern.level or "no reason given"}
            start = column + match.start() if column is not None else None
            finding = R.OWN_DANGER_PATTERN.at(
                path, number, start, excerpt=show(text[match.start() : match.end()] or text), **params
            )
            out.append(Item(finding, R.OWN_DANGER_PATTERN, params))
            count += 1
            if count >= PER_FILE:
                break
    return out


# -- levels --------------------------------------------------------------------------------


def _rank(level: str) -> int:
    return LEVELS.index(level)


def _combine(items: list[Item]) -> RiskAssessment:
    items.sort(key=lambda item: item.finding.sort_key())
    by_rule: dict[str, list[Item]] = {}
    for item in items:
        by_rule.setdefault(item.rule.code, []).append(item)
    if not by_rule:
        return RiskAssessment("low", (), ())
    rules = {code: entries[0].rule for code, entries in by_rule.items()}
    level = max((rule.level for rule in rules.values()), key=_rank)
    reasons: list[str] = []
    for code in sorted(rules, key=lambda c: (-_rank(rules[c].level), c)):
        item = by_rule[code][0]
        finding, rule = item.finding, item.rule
        where = f"{finding.path}:{finding.line}" if finding.line else finding.path
        more = len(by_rule[code]) - 1
        extra = f" (and {more} more)" if more else ""
        reasons.append(
            f"{code} {CATEGORIES[rule.category]} ({rule.level}): {_safe_summary(rule, item.params)} in {where}{extra}"
        )
    for first, second, scope, text in ESCALATIONS:
        involved = _combined(by_rule, first, second, scope)
        if involved:
            reasons.append(f"escalated to critical: {text} ({', '.join(involved)})")
            level = "critical"
    kept = sorted((item for code in sorted(by_rule) for item in by_rule[code][:PER_SKILL]), key=_finding_order)
    findings = tuple(item.finding for item in kept)
    return RiskAssessment(level, findings, tuple(reasons), claims=tuple(claim(i.finding, i.params) for i in kept))


def _finding_order(item: Item) -> tuple:
    return item.finding.sort_key()


def _combined(by_rule: dict[str, list[Item]], first: frozenset[str], second: frozenset[str], scope: str) -> list[str]:
    """The rule codes that make a combination hold, or [] when it does not."""
    ones = [item for code in sorted(first & by_rule.keys()) for item in by_rule[code]]
    others = [item for code in sorted(second & by_rule.keys()) for item in by_rule[code]]
    if not ones or not others:
        return []
    if scope == "skill":
        return sorted({item.rule.code for item in ones + others})
    blocks = {item.block for item in ones if item.block is not None}
    together = [item for item in others if item.block in blocks]
    if not together:
        return []
    shared = {item.block for item in together}
    return sorted({item.rule.code for item in ones + together if item.block in shared})


def _safe_summary(rule: RiskRule, params: dict) -> str:
    try:
        return rule.summarise(**params)
    except (KeyError, IndexError, ValueError):
        return rule.title
