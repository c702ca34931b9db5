"""docs/risk.md: how a skill's risk level is derived, generated from the code that derives it.

Every table here is read from the code: the contexts from lines.py, the analysers, expanders
and card rules from the tuples in assessment.py, the card's kinds and vocabulary from card.py, the level
table from `assessment.RULES` with owasp.py's families and AST10 categories, the escalations from
`assessment.ESCALATIONS`, and the bounds from the modules' constants. `skill-registry docs` writes it; a
test fails when the file is out of date.
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Callable, Iterable
from types import ModuleType

from registry.score import card, owasp
from registry.score import vocabulary as vocab
from registry.score.risk import assessment, facts
from registry.score.risk import lines as text_lines
from registry.score.risk.rules import CATEGORIES, LEVELS, RiskRule

SECURITY_SEVERITY = {"critical": 9.5, "high": 8.0, "medium": 5.5, "low": 2.0}  # SARIF, for GitHub code scanning

_CONSTANT = re.compile(r"^([A-Z][A-Z0-9_]*)\s*(?::[^=]+)?=\s*([^#\n]+?)\s*#\s*(.+)$")
_BULLET = re.compile(r"^- ([A-Z]+): (.+)$")


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ").strip()


_VENDOR = facts.R.VENDOR_INSTALLER_EXECUTED


def _row(cells: Iterable[str]) -> str:
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def _template(text: str) -> str:
    """A message or hint template as a reader sees it: {host} becomes `<host>` (bare, Markdown reads HTML)."""
    return re.sub(r"\{(\w+)\}", r"`<\1>`", text.replace("{{", "{").replace("}}", "}"))


def _first_line(doc: str | None) -> str:
    text = inspect.cleandoc(doc or "").split("\n\n", 1)[0]
    return " ".join(text.split())


def _module_path(name: str) -> str:
    module = sys.modules.get(name)
    if module is not None and getattr(module, "__path__", None) is not None:  # a package
        return name.replace(".", "/") + "/"
    return name.replace(".", "/") + ".py"


def _where(obj: object) -> str:
    return _module_path(getattr(obj, "__module__", "") or "")


def _described(functions: Iterable[Callable]) -> list[str]:
    rows = []
    for function in functions:
        name = getattr(function, "__qualname__", repr(function))
        module = sys.modules.get(getattr(function, "__module__", ""))
        doc = _first_line(function.__doc__) or (_first_line(module.__doc__) if module else "")
        rows.append(_row([f"`{name}`", f"`{_where(function)}`", doc or "(no description)"]))
    return rows


def _declaring_modules() -> dict[str, str]:
    """Rule code -> the module that declares it (the one whose RULES tuple holds it first)."""
    found: dict[str, str] = {}
    for name, module in sorted(sys.modules.items()):
        # Packages (families/) and readers of the rules (claims.py) gather rules other modules declare.
        if not name.startswith("registry.score") or name == assessment.__name__ or module is None:
            continue
        if hasattr(module, "__path__") or getattr(module, "RULES", None) is assessment.RULES:
            continue
        for rule in getattr(module, "RULES", ()) or ():
            if isinstance(rule, RiskRule):
                found.setdefault(rule.code, _module_path(name))
    return found


def _source_lines(module: ModuleType) -> list[str]:
    try:
        return inspect.getsource(module).splitlines()
    except (OSError, TypeError):
        return []


def _commented_constants(module: ModuleType, names: Iterable[str] | None = None) -> list[tuple[str, str, str]]:
    """(NAME, value as written, comment) of the module-level constants with a trailing comment."""
    wanted = set(names) if names is not None else None
    out = []
    for line in _source_lines(module):
        match = _CONSTANT.match(line)
        if match and (wanted is None or match.group(1) in wanted):
            out.append((match.group(1), match.group(2).strip(), match.group(3).strip()))
    return out


def _card_vocabulary() -> list[tuple[str, str]]:
    """(kind, the words Use.detail takes) from the comment table in card.py."""
    lines = _source_lines(card)
    try:
        start = next(i for i, line in enumerate(lines) if "What `Use.detail` says" in line)
    except StopIteration:
        return []
    rows: list[tuple[str, str]] = []
    for line in lines[start + 1 :]:
        if not line.startswith("#"):
            break
        body = line[1:].strip()
        if body.startswith("`Use.sensitive`"):
            break
        parts = body.split(None, 1)
        if len(parts) == 2 and parts[0] in card.KINDS:
            rows.append((parts[0], parts[1]))
        elif rows and body:
            rows[-1] = (rows[-1][0], f"{rows[-1][1]} {body}")
    return rows


def _is_flow(rule: RiskRule) -> bool:
    """A rule whose finding names both ends (two line numbers), or one declared as a flow."""
    lines = {name for name in re.findall(r"\{(\w+)\}", rule.message) if "line" in name}
    return len(lines) >= 2 or "flow" in rule.category


def _rule_table(rules: Iterable[RiskRule]) -> list[str]:
    lines = [
        "| code | level | family | OWASP AST10 | detects | example | fix |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for rule in rules:
        mapping = owasp.mapping_for(rule.code)
        families = ", ".join(owasp.family_labels(rule.code)) or "none"
        if mapping is None:
            category = "not mapped yet"
        elif mapping.owasp is None:
            category = f"none: {mapping.reason}"
        else:
            category = owasp.owasp_label(rule.code)
        detects = f"**{rule.title}**: {_template(rule.message)}; {rule.why}"
        lines.append(
            _row([f"`{rule.code}`", rule.level, families, category, detects, rule.example, _template(rule.hint)])
        )
    return lines


def _bounds() -> list[str]:
    lines_py, assessment_py = _module_path(text_lines.__name__), _module_path(assessment.__name__)
    rows = [
        (lines_py, "MAX_FILE_BYTES", f"{text_lines.MAX_FILE_BYTES:,} bytes", "a larger file is not read"),
        (lines_py, "MAX_LINES", f"{text_lines.MAX_LINES:,} lines", "lines read per file"),
        (lines_py, "MAX_SKILL_BYTES", f"{text_lines.MAX_SKILL_BYTES:,} bytes",
         "text read per skill (SKILL.md first, then the smallest files first)"),
        (lines_py, "BINARY_PROBE", f"{text_lines.BINARY_PROBE:,} bytes",
         "a NUL byte in this many first bytes makes a file binary"),
        (assessment_py, "LONG_LINE", f"{assessment.LONG_LINE:,} characters",
         "longer lines are read by the command rules in overlapping windows"),
        (assessment_py, "LONG_LINE_BUDGET", f"{assessment.LONG_LINE_BUDGET:,} characters",
         "of such long lines per file"),
        (assessment_py, "PER_FILE", f"{assessment.PER_FILE}", "findings of one rule per file"),
        (assessment_py, "PER_SKILL", f"{assessment.PER_SKILL}", "findings of one rule per skill"),
    ]  # fmt: skip
    lines = ["| where | bound | value | what |", "| --- | --- | --- | --- |"]
    lines += [_row([f"`{where}`", f"`{name}`", value, what]) for where, name, value, what in rows]
    seen = {name for _, name, _, _ in rows}
    modules = {
        sys.modules[f.__module__]
        for f in (*assessment.EXPANDERS, *assessment.ANALYSERS, *assessment.CARD_RULES, *assessment.FAMILY_CHECKS)
        if f.__module__ in sys.modules and f.__module__ != assessment.__name__
    }
    # An analyser that is a package (every_byte/, code/, instructions/ ...) keeps its bounds in its modules.
    packages = [m.__name__ + "." for m in modules if hasattr(m, "__path__")]
    modules |= {
        module for name, module in sys.modules.items() if module is not None and name.startswith(tuple(packages))
    }
    for module in sorted(modules, key=lambda m: m.__name__):
        for name, value, comment in _commented_constants(module):
            if name in seen or not re.search(r"MAX|LIMIT|BUDGET|BYTES|SECONDS|CAP", name):
                continue
            lines.append(_row([f"`{_module_path(module.__name__)}`", f"`{name}`", f"`{value}`", comment]))
    return lines


def _out_of_reach() -> list[str]:
    """What each attack-family module, and the code analysis, says static reading cannot see (OUT_OF_REACH)."""
    from registry.score import code, families

    paragraphs = [
        (module, " ".join(text.split()))
        for module in (*families.FAMILIES, code)
        if isinstance(text := getattr(module, "OUT_OF_REACH", None), str) and text.strip()
    ]
    if not paragraphs:
        return []
    out = ["", "## What static reading cannot see", ""]
    for module, text in paragraphs:
        out += [f"`{_module_path(module.__name__)}`: {text}", ""]
    return out[:-1]


def _vocabulary_tables() -> list[str]:
    """The host and installer tables of registry/score/vocabulary.py, which every analyser reads by."""
    out = [
        "## Vocabulary",
        "",
        "Every analyser asks `registry/score/vocabulary.py` what a host is and whose installer a URL is.",
        "",
        "### Hosts without an accountable owner",
        "",
        "| kind | hosts (and their subdomains) |",
        "| --- | --- |",
    ]
    out += [_row([kind, ", ".join(f"`{h}`" for h in hosts)]) for kind, hosts in vocab.SUSPICIOUS_HOSTS.items()]
    out.append(_row([vocab.RAW_IP, "any public IPv4 or IPv6 address"]))
    out += [
        "",
        "Free hosting (anyone can claim a subdomain; suspicious only as the source of a program to run): "
        + ", ".join(f"`{h}`" for h in vocab.FREE_HOSTING)
        + ". Cloud metadata endpoints: "
        + ", ".join(f"`{h}`" for h in vocab.METADATA_HOSTS)
        + "; of their paths, these hand out credentials: "
        + ", ".join(f"`{p}`" for p in vocab.METADATA_CREDENTIAL_PATHS)
        + ". IP geolocation services (a request to one looks the user up, R232): "
        + ", ".join(f"`{h}`" for h in vocab.GEOLOCATION_HOSTS)
        + ".",
        "",
        "Package registries (a registry elsewhere is R265 or R266): "
        + "; ".join(
            f"{kind}: " + ", ".join(f"`{h}`" for h in hosts) for kind, hosts in vocab.PACKAGE_REGISTRIES.items()
        )
        + ", and AWS CodeArtifact.",
        "",
        "### Vendors' own installers",
        "",
        "A download piped to a shell over HTTPS from one of these (or from the skill's own homepage or",
        "repository owner) is the vendor's documented installer: `R006`, medium, instead of `R001`, high.",
        "Plain HTTP is never a vendor's installer.",
        "",
        "| vendor | host | path |",
        "| --- | --- | --- |",
    ]
    out += [_row([i.vendor, f"`{i.host}`", f"`{i.path}`" if i.path else "any"]) for i in vocab.WELL_KNOWN_INSTALLERS]
    out += [
        "",
        "### Network programs",
        "",
        "The shell and Python readers, the line rules, the prose rules and the card's declared tools read one list",
        "of the programs a command line reaches the network with:",
        "",
        "| how | programs |",
        "| --- | --- |",
    ]
    groups = {
        "downloads": vocab.DOWNLOADERS,
        "HTTPie": vocab.HTTPIE,
        "raw sockets": vocab.RAW_SOCKETS,
        "file transfer": vocab.FILE_TRANSFER,
        "PowerShell": vocab.POWERSHELL_WEB,
        "mail": vocab.MAIL_PROGRAMS,
        "name lookups": vocab.NAME_LOOKUPS,
        "tunnels and remote shells": vocab.TUNNELS,
    }
    out += [_row([how, ", ".join(f"`{name}`" for name in names)]) for how, names in groups.items()]
    return out + _credential_table() + _agent_configuration_names() + _sentence_ends()


def _names(names: Iterable[str]) -> str:
    return ", ".join(f"`{name}`" for name in names)


def _credential_table() -> list[str]:
    """vocabulary.SECRET_PATHS: the line rules and the card's path classes read the same credential files."""
    shapes = {
        vocab.FILE: "a file of that name",
        vocab.NAME_END: "a name or path ending so",
        vocab.FOLDER: "a folder and all in it",
        vocab.PART: "anywhere",
    }
    out = [
        "",
        "### Credential files",
        "",
        "The line rules (R010 and R011 read a credential file, R020 sends one) and the card's path classes (what a",
        "parser or the prose names: a home-directory secret, a wallet, a browser profile) read one table. Each anchors",
        "a row's path by its shape; a row without a needle only classes a path (the line rules do not look for it in a",
        "line), and a browser's cookie or password store is read from a line that also names a browser's profile.",
        "",
        "| what | card class | path (regular expression) | shape | line rules |",
        "| --- | --- | --- | --- | --- |",
    ]
    for row in vocab.SECRET_PATHS:
        needle = ", ".join(f"`{n}`" for n in row.needle.split("|")) if row.needle else "no"
        out.append(_row([row.label, row.kind[1], f"`{row.path}`", shapes[row.shape], needle]))
    return out


def _agent_configuration_names() -> list[str]:
    """The agent's configuration files of vocabulary.py, which the path classes and the rules on writing it read."""
    folders = [f"{folder}/{inner}/" for folder in vocab.AGENT_FOLDERS for inner in vocab.AGENT_INSTRUCTION_FOLDERS]
    return [
        "",
        "### The agent's configuration",
        "",
        "The card's path classes (agent configuration, skill folder), the prose rule on writing the agent's",
        "configuration (R137) and the rules on what code writes into it (R250, and instructions planted in an",
        "instruction file) build their patterns from these names (case-blind, each where a path segment starts):",
        "",
        "| what | names |",
        "| --- | --- |",
        _row(["instruction files", _names(vocab.AGENT_INSTRUCTION_FILES)]),
        _row(["instruction folders (rules, commands, subagents)", _names(folders)]),
        _row(["Copilot's prompt files, by suffix (read as instructions when text is written into one)",
              _names(vocab.AGENT_INSTRUCTION_SUFFIXES)]),
        _row(["agent folders whose every file is configuration",
              _names(f"{folder}/" for folder in vocab.WHOLE_AGENT_FOLDERS)
              + " (and the bare " + _names(vocab.BARE_AGENT_FOLDERS) + " folder)"]),
        _row(["settings, where permission grants live",
              _names(vocab.AGENT_SETTINGS_NAMES) + " in an agent folder; " + _names(vocab.AGENT_SETTINGS_FILES)]),
        _row(["MCP server lists", _names(vocab.AGENT_MCP_NAMES) + " in an agent folder; "
              + _names(vocab.AGENT_MCP_FILES) + "; the key " + _names([vocab.MCP_SERVERS_KEY])]),
        _row(["hooks", _names([vocab.AGENT_HOOKS_FILE, vocab.AGENT_HOOKS_FOLDER + "/"]) + " in an agent folder"]),
        _row(["other agents' configuration, by the start of its path", _names(vocab.AGENT_CONFIG_PREFIXES)]),
        _row(["installed skills", _names(f".{agent}/skills/" for agent in vocab.SKILL_FOLDER_AGENTS)
              + ", " + _names([vocab.SHARED_SKILL_FOLDER + "/"])]),
        _row(["folders of agents the path classes leave out (Markdown read as instructions, JSON as settings, only "
              "where written)", _names(f"{folder}/" for folder in vocab.OTHER_AGENT_FOLDERS)]),
        _row(["editors' settings, which can hold MCP servers and the agent's approvals (read by R250 only: editing "
              "them is usually setting up the editor)",
              _names(vocab.EDITOR_SETTINGS_FILES) + "; JSON files in "
              + _names(f"{folder}/" for folder in vocab.EDITOR_SETTINGS_FOLDERS)]),
    ]  # fmt: skip


def _sentence_ends() -> list[str]:
    return [
        "",
        "### Sentences",
        "",
        "Every reader that splits prose into sentences asks `sentence_end`: a sentence ends at a run of "
        + _names(vocab.SENTENCE_MARKS)
        + " followed by a space or the end of the text, or at a run of "
        + _names(vocab.CJK_SENTENCE_MARKS)
        + " (which need no space), with the closing quotes, brackets and emphasis right after them ("
        + _names(vocab.CJK_SENTENCE_CLOSERS)
        + "; the CJK corner brackets only after a CJK mark). Readers differ only in what a line break does: "
        "nothing, end a sentence at every line break, or end one at a blank line.",
    ]


def risk_markdown() -> str:
    rules = list(assessment.RULES)
    declared_in = _declaring_modules()
    out = [
        "# Risk analysis: what is read, what is found, how the level is derived",
        "",
        "Generated by `skill-registry docs` from the code that assesses skills (`registry/score/`); a test fails",
        "when this file is out of date. The rule reference for every area is [rules.md](rules.md).",
        "",
        "A skill's risk level says which rules fired on its files, never that a skill is safe. **low** means",
        "that no rule above low fired on what could be read: the files listed as *not analysed* (rule",
        "`R090` and the card's coverage) were not read, and a careful attacker can write what no static rule",
        "knows. Read the capability card and the findings; they are the evidence, the level is a summary.",
        "",
        "## What is read, and how",
        "",
        "Every file of the skill folder is read, SKILL.md first. Each text file is split into lines that carry",
        "where they sit, and every rule reads only the places where its text means what it looks for:",
        "",
        "| context | what it is |",
        "| --- | --- |",
    ]
    for line in (text_lines.__doc__ or "").splitlines():
        match = _BULLET.match(line.strip())
        if match and hasattr(text_lines, match.group(1)):
            out.append(_row([f"`{getattr(text_lines, match.group(1))}`", match.group(2).rstrip(";.")]))
    out += [
        "",
        "Then each part below reads the skill its own way. Expanders first add what is inside archives and",
        "documents as more files (named `file!/member`); analysers read the files with real parsers and",
        "return uses for the capability card, coverage notes and findings; card rules then read the merged",
        "card (declared against used, flows between files).",
        "",
        "| part | module | what it does |",
        "| --- | --- | --- |",
    ]
    parts = [("expander", f) for f in assessment.EXPANDERS]
    parts += [("analyser", f) for f in assessment.ANALYSERS]
    parts += [("card rule", f) for f in assessment.CARD_RULES]
    parts += [("family check", f) for f in assessment.FAMILY_CHECKS]
    if not parts:
        out.append(_row(["(none)", "", "only the line rules below run"]))
    for kind, function in parts:
        (row,) = _described([function])
        out.append(row.replace("| `", f"| {kind} `", 1))
    out += [
        "",
        "The line rules (`registry/score/risk/detectors.py`) run over every line in the contexts each rule reads;",
        "text that warns against a practice (never, avoid, dangerous, malicious, ...) around a match does not",
        "fire the command and credential rules, while hidden characters count everywhere.",
        "",
        "### Line facts and their rules",
        "",
        "The line detectors report facts (what a line does, and the values read from it: the URL and its host, the",
        "file read, what is sent and where) and never choose a rule. This table, `TABLE` in",
        "`registry/score/risk/facts.py`, does: the first row whose fact matches and whose condition holds gives the",
        "rule, and the rule its level. After the whole skill is read, a download run by a shell from the vendor's own",
        "host (the skill's homepage or repository, or a documented installer, over HTTPS) is given",
        f"{_VENDOR.code} {_VENDOR.title} ({_VENDOR.level}) instead.",
        "",
        _row(["fact", "when", "rule", "level"]),
        _row(["---"] * 4),
        *(
            _row([row.shape, row.when or "always", f"{row.rule.code} {row.rule.title}", row.rule.level])
            for row in facts.TABLE
        ),
        "",
        "### What the prose, every-byte and family analysers read, and their rules",
        "",
        "The instruction analysis (`registry/score/instructions/`), the every-byte analysis",
        "(`registry/score/every_byte/`) and the family modules (`registry/score/families/`, their `analyse` and their",
        "`check` of the card) report facts too: the order a sentence gives the agent, what a file's bytes hold, what",
        "a procedure collects and sends. Each package declares the rows of its facts beside its rules (`ROWS`);",
        "`FACTS` in `registry/score/risk/assessment.py` joins them into one table, read like the one above: where a",
        "fact has two rows, the values read decide (an HTML comment's order that acts out of sight, an SVG script",
        "that reaches the network, metadata credentials sent on).",
        "",
        _row(["fact", "when", "rule", "level"]),
        _row(["---"] * 4),
        *(
            _row([row.shape, row.when or "always", f"{row.rule.code} {row.rule.title}", row.rule.level])
            for row in assessment.FACTS.rows
        ),
        "",
        "### Coverage: how each file was read",
        "",
        "The card lists every file with how it was read. Nothing is skipped silently: a file that could not be",
        "read is listed as *not analysed* with the reason, and reported as a finding.",
        "",
        "| how | meaning |",
        "| --- | --- |",
    ]
    coverage = {value.strip('"'): comment for _, value, comment in _commented_constants(card)}
    coverage[card.NOT_ANALYSED] = "not read, or not completely; the card and a finding give the reason"
    for how in card.COVERAGE_ORDER:
        out.append(_row([f"`{how}`", coverage.get(how, "")]))
    out += [
        "",
        "## The capability card",
        "",
        "Each skill's card lists what its files and instructions reference, as data: one entry per use, with",
        "the file and line, whether it came from code, instructions (SKILL.md, references and the commands",
        "in their code fences) or metadata, and whether it is sensitive. Beside it, what the skill declares",
        "(`allowed-tools`, `requires`, `compatibility`, tool and input declarations, `network`): a use that",
        "was not declared, or a declaration far broader than the use, is itself a finding.",
        "",
        "| kind | title | detail words |",
        "| --- | --- | --- |",
    ]
    vocabulary = dict(_card_vocabulary())
    for kind in card.KINDS:
        out.append(_row([f"`{kind}`", card.KIND_TITLES.get(kind, kind), vocabulary.get(kind, "")]))
    out += [
        "",
        "A sensitive use names its class: " + ", ".join(f"*{c}*" for c in card.SENSITIVE_CLASSES) + ".",
        "",
        "## Levels",
        "",
        "Each rule has a level: what its finding alone makes of the skill. The skill's level is the highest",
        "level among its findings (`low` when none fired), then raised to `critical` by the escalations",
        "below. High and critical findings are warnings (shown on the page, they fail `validate --strict`);",
        "low and medium ones are notes (info). A risk finding never makes a skill invalid: the registry's",
        "policy (docs/policy.md) decides what a level means for listing.",
        "",
        "| level | finding severity | SARIF `security-severity` |",
        "| --- | --- | --- |",
    ]
    for level in LEVELS:
        severity = "warning" if level in ("high", "critical") else "info"
        out.append(_row([level, severity, f"{SECURITY_SEVERITY[level]}"]))
    out += [
        "",
        "### Escalations",
        "",
        "Signals that combine are worse than either alone. When one rule of each side fired (anywhere in the",
        "skill, or in the same code block or script), the level is raised to critical:",
        "",
        "| one side | other side | where both must be | why |",
        "| --- | --- | --- | --- |",
    ]
    scopes = {"skill": "anywhere in the skill", "block": "the same code block or script"}
    for first, second, scope, text in assessment.ESCALATIONS:
        out.append(
            _row([", ".join(f"`{c}`" for c in sorted(first)), ", ".join(f"`{c}`" for c in sorted(second)),
                  scopes.get(scope, scope), text])
        )  # fmt: skip
    flows = [rule for rule in rules if _is_flow(rule)]
    out += ["", "### Flows", ""]
    if flows:
        out += [
            "A flow rule fires when one end feeds the other (a secret read, then sent; a download, then run);",
            "its finding names the file and the lines of both ends.",
            "",
            "| flow | what its finding says | rule | level |",
            "| --- | --- | --- | --- |",
        ]
        out += [_row([r.title, _template(r.message), f"`{r.code}`", r.level]) for r in flows]
    else:
        out.append("No flow rule is registered; combinations are rated by the escalations above.")
    out += [
        "",
        "## The rules",
        "",
        f"Families are the attack families of the threat model (1-{len(owasp.FAMILIES)}, below). OWASP",
        f"categories are those of the [{owasp.SOURCE}]({owasp.SOURCE_URL}); `none` says why no category",
        "fits. Each rule's module is named in its section's title.",
        "",
    ]
    by_category: dict[str, list[RiskRule]] = {}
    for rule in rules:
        by_category.setdefault(rule.category, []).append(rule)
    for category, members in by_category.items():
        modules = sorted({declared_in.get(r.code, "") for r in members} - {""})
        where = f" (`{'`, `'.join(modules)}`)" if modules else ""
        out += [f"### {CATEGORIES.get(category, category).capitalize()}{where}", ""]
        out += _rule_table(members)
        out.append("")
    out += ["## Attack families", "", "| family | name | rules |", "| --- | --- | --- |"]
    for number, name in owasp.FAMILIES.items():
        codes = [r.code for r in rules if number in (owasp.mapping_for(r.code) or owasp.RuleMapping((), None)).families]
        out.append(_row([str(number), name, ", ".join(f"`{c}`" for c in codes) or "no rule yet"]))
    out += ["", f"## OWASP Agentic Skills Top 10 ([{owasp.SOURCE}]({owasp.SOURCE_URL}))", ""]
    out += ["| id | risk | AST10 severity | in short | rules |", "| --- | --- | --- | --- | --- |"]
    for item in owasp.CATEGORIES:
        codes = [r.code for r in rules if (owasp.mapping_for(r.code) or owasp.RuleMapping((), None)).owasp == item.id]
        out.append(
            _row([item.id, item.title, item.severity, item.summary, ", ".join(f"`{c}`" for c in codes) or "none"])
        )
    out += ["", *_vocabulary_tables()]
    out += _out_of_reach()
    out += [
        "",
        "## Bounds",
        "",
        "Skill content is untrusted: nothing in it is run or imported, and every read is bounded so a hostile",
        "file cannot stall a build. What a bound leaves unread is reported as *not analysed*.",
        "",
        *_bounds(),
        "",
    ]
    return "\n".join(out)
