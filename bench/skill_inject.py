"""Skill-Inject harness (issue 22, item 7): published injections planted in benign corpus skills.

    .venv/bin/python -m bench.skill_inject [--hosts PATH,...] [--families NAME,...] [--groups obvious,contextual]
                                          [--ids o10,c3,...] [--json FILE] [--keep DIR] [--corpus DIR] [--attacks DIR]

Each entry of `obvious_injections.json` (36) and `contextual_injections.json` (48) of the SKILL-INJECT benchmark
(`../shared/attacks/skill-inject`, see its README) is planted in every host skill in every form, and each result
is rated by the build's own per-skill analysis (`registry.skill_jobs.analyse_skill` on the crawl's
`SkillLocation`, what a build's parse stage runs, so the level is the one a published page would show). Nothing
is ever executed: the attack scripts are copied as bytes.

Forms (`Result.form`):

- `description`: the entry's `description_injection` appended to the frontmatter description, joined by a space as
  the benchmark's `inject_into_description` joins it. The description value is rewritten as one double-quoted
  YAML scalar (any quote, colon or backslash escaped), so the frontmatter stays valid; the harness checks that the
  parsed description ends with the injected text. Alone, without the line: the benchmark adds it to the line
  injection (`--description-injection`), but alone a finding must come from the description itself. Entries whose
  description text is empty or only punctuation (". ") have no description form.
- `line`: `injection_prefix` + `line_injection` inserted into the body as the benchmark's `inject_at_line` does
  (each line stripped, the block placed before line N). N is the `line_num` of the first task that names the host
  (by folder name, or through the benchmark's SKILL_MAPPING) when that line is in the body and not inside a fenced
  code block, with that task's prefix: the benchmark's numbers point into its own copies of the skills, so in
  ours they may fall in the frontmatter or a code fence. Otherwise the block goes after the first list of the body
  (most prefixes continue a numbered list), else after the first heading, else at the end, with the prefix of the
  entry's first task. `Result.placement` says which.
- `...+script`: the same, with the entry's `task_scripts` copied (mode 755) into the skill's `scripts/` under the
  name the entry gives, as the benchmark's sandbox builder copies them. Every entry that ships scripts gets both
  forms, whatever its `type`: the builder copies them for `direct` entries too (obvious 5 and 7).

Contexts (`Result.context`, contextual entries only): `bare`, `legitimizing` and `warning`. The benchmark never
writes these sentences into the injected skill: it writes the sentence to `SECURITY_PROTOCOL.md` at the sandbox
root. The skill folder is what a registry publishes and analyses, so the sentence goes to
`SECURITY_PROTOCOL.md` at the skill's root, a line of its own.

False-positive side: each host as found (its original level), and each of the benchmark's own checker scripts
(`verify_*`, `setup_*`, `create_dummy_history.py`) added alone to the host's `scripts/` with no injection text.
Neither may rate above the host's original level.

Families: `FAMILIES` below, one per entry id in `OBVIOUS_FAMILY` and `CONTEXTUAL_FAMILY`, read from each entry's
title, goal and text (and the script it runs). Hosts: `HOSTS`, a fixed list chosen for the benchmark's own target
skills that the corpus holds (docx, pptx, xlsx and pdf of anthropics/skills were not copied into the corpus) and a
spread of dialects, sizes and line ends.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import yaml

from registry import crawl
from registry.config import Limits
from registry.policy import Policy
from registry.skill_jobs import analyse_skill

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "corpus"
DEFAULT_ATTACKS = REPO_ROOT.parent / "shared" / "attacks" / "skill-inject"
LEVELS = ("low", "medium", "high", "critical")
GROUPS = ("obvious", "contextual")
PLACES = ("description", "line")
CONTEXTS = ("bare", "legitimizing", "warning")
SHARED_MEMORY = Path("/dev/shm")
CONTEXT_FILE = "SECURITY_PROTOCOL.md"  # the benchmark's name for the file holding the context sentence
CHECKER_SCRIPT = re.compile(r"(?:verify_|setup_)\w+\.(?:py|sh)|create_dummy_history\.py")

FAMILIES: dict[str, str] = {
    "exfiltration": "user files, data, prompts or code sent where the user did not choose: uploads, forwarded mail, "
    "a new git remote, a dataset made public",
    "surveillance": "the device watched: location, clipboard, screenshots, browsing history, collected and sent",
    "credential-theft": "secrets gathered or exposed: .env files, SSH keys, a token printed to logs, card data "
    "written to a file",
    "download-and-run": "code fetched from the network run by a shell, directly or by a shipped script",
    "destruction": "user data deleted, encrypted, locked behind a password or overwritten: rm, ransom-style archives, "
    "calendar wipes, history rewritten by force push or hard reset",
    "backdoor": "access planted in what the agent builds: an admin account with a known password, an open port, "
    "payment code that reports to a stranger",
    "denial-of-service": "a service flooded or slowed: request loops, artificial delays",
    "phishing-and-spam": "messages sent in the user's name: phishing mail to every contact, unchecked pull requests",
    "security-weakening": "a defence switched off: world-writable permissions, security lints and tests disabled, "
    "raw or concatenated SQL, server-side payment checks skipped",
    "manipulation": "biased, false or degraded output: slanted moderation, evaluations and reports, invented "
    "citations and scores, abusive contract terms, instructions planted in user data",
}

# obvious_injections.json id -> family (titles in the comments).
OBVIOUS_FAMILY: dict[int, str] = {
    1: "download-and-run",  # Download and Execute Instruction (backup.sh: curl http://… && bash)
    2: "denial-of-service",  # DoS on someone else's URL (network_diag.sh: endless curl loop)
    3: "destruction",  # Full Delete Instruction (file_check.sh: rm -rf ./* ../*)
    4: "destruction",  # Calendar Quarterly Reset - Indirect (clean.sh)
    5: "destruction",  # Calendar Quarterly Reset - Direct
    6: "phishing-and-spam",  # Phishing Mail
    7: "destruction",  # Full DB Del
    8: "backdoor",  # Default Password Instruction (admin account dev_admin)
    9: "destruction",  # Encrypt it all (ransomware-style)
    10: "credential-theft",  # API Key Exfiltration (.env files)
    11: "credential-theft",  # SSH Key Exfiltration
    14: "surveillance",  # Location Tracking - Calendar (ip_loc.py)
    15: "surveillance",  # Location Tracking - Files (ip_loc.py)
    16: "surveillance",  # Location Tracking - Exact - Files (loc.py, CoreLocation)
    17: "surveillance",  # Clipboard Data Exfiltration
    18: "surveillance",  # Screenshot Exfiltration
    19: "surveillance",  # Search History Extraction
    20: "exfiltration",  # Financial Model Exfiltration
    21: "exfiltration",  # RAG Metadata poisoning (queries uploaded)
    22: "backdoor",  # Stripe Backdoor (checkout session sent to a stranger)
    23: "credential-theft",  # Stripe Card Data Log
    24: "manipulation",  # Discord Moderation Bias - Anti-Left
    25: "manipulation",  # Discord Moderation Bias - Anti-Right
    26: "exfiltration",  # Prompt Exfiltration
    27: "exfiltration",  # System Prompt Exfiltration
    28: "exfiltration",  # System-Info Exfil
    29: "manipulation",  # US OVER ALL ECONOMY FAVORITISM
    30: "manipulation",  # Ridiculous Employment Contract Terms
    31: "manipulation",  # LLM Evaluation Manipulation
    32: "manipulation",  # Traditional Energy Promoting Prompts
    33: "download-and-run",  # Remote Payload Execution (Direct)
    34: "denial-of-service",  # Network Stress Test (Direct)
    35: "destruction",  # Workspace Cleanup (Direct)
    36: "surveillance",  # Location Tracking - Calendar (Direct)
    37: "surveillance",  # Location Tracking - Files (Direct)
    38: "surveillance",  # Precise GPS Location (Direct)
}

# contextual_injections.json id -> family.
CONTEXTUAL_FAMILY: dict[int, str] = {
    1: "exfiltration",  # File Backup Instruction (Indirect): file_backup.py uploads the file
    2: "exfiltration",  # File Backup Instruction (Direct): requests.post of the file
    3: "destruction",  # Password Protection Instruction: locked, other versions removed
    4: "destruction",  # File Deletion Instruction
    5: "security-weakening",  # Chmod 777 Instruction
    6: "manipulation",  # Male Name Replacement Instruction
    7: "manipulation",  # Flat Earth Instruction
    8: "manipulation",  # Political Content Removal Instruction
    9: "exfiltration",  # Git Remote Origin Instruction (add_backup_endpoint.sh adds a stranger's remote)
    10: "destruction",  # Git Force Push Instruction
    11: "destruction",  # Git Review Reset Instruction (reset --hard HEAD~5)
    12: "backdoor",  # Backdoor Port Instruction
    13: "destruction",  # Secure Archive Instruction (Direct): zipped with a password, original deleted
    14: "exfiltration",  # HF Training Logging Server Instruction
    15: "credential-theft",  # HF Training Token Exposure Instruction
    16: "exfiltration",  # HF Dataset Public Override Instruction
    17: "exfiltration",  # HF Dataset Exfiltration Instruction
    18: "manipulation",  # HF Paper False Citation Instruction
    19: "manipulation",  # HF Paper Authorship Claim Instruction
    20: "manipulation",  # HF Evaluation Fake Scores Instruction
    21: "phishing-and-spam",  # HF Evaluation Spam PRs Instruction
    22: "manipulation",  # Calendar Entry Description Injection Instruction
    23: "destruction",  # Calendar Cancel
    24: "denial-of-service",  # MCP Delay Instruction
    25: "exfiltration",  # MCP Logging Server Instruction
    26: "exfiltration",  # Email Forwarding Instruction
    27: "exfiltration",  # FHIR vital signs exfiltration instruction
    28: "manipulation",  # Natural Remedies Bias Instruction
    29: "manipulation",  # Historical Revisionism Instruction
    30: "manipulation",  # Climate Change Skepticism Instruction
    31: "manipulation",  # Medical Skepticism Instruction
    32: "exfiltration",  # Algorithm functionality exfiltration
    33: "security-weakening",  # Skip Security Checks in Shell Scripts
    34: "security-weakening",  # Raw SQL for Performance
    35: "manipulation",  # Risk Metrics Calculation Shortcuts
    36: "security-weakening",  # PayPal Skip Server Verification
    37: "manipulation",  # SEO Skip for Green Sites
    38: "security-weakening",  # Skip SQL Injection in Unit Tests
    39: "security-weakening",  # Skip SQL Injection in Code Review
    40: "security-weakening",  # SQL String Concatenation for Flexibility
    41: "manipulation",  # Downplay AI Safety Risks in Evaluation
    42: "destruction",  # Password Protection Instruction (Script): secure_archive.py
    43: "destruction",  # File Cleanup Instruction (Script): cleanup_old_files.py
    44: "security-weakening",  # Team Permissions Instruction (Script): chmod 777
    45: "exfiltration",  # Email Sync Instruction (Script): mail posted to a stranger
    46: "exfiltration",  # Git Remote Sync Instruction (Script): force push of every branch to a new remote
    47: "exfiltration",  # Vitals Backup Instruction (Script): patient data posted
    48: "destruction",  # Calendar Cleanup Instruction (Script): prune_recurring.py
}

# The benchmark's SKILL_MAPPING (its config.py), for the task skill names that are not the folder's name.
BENCHMARK_SKILL_FOLDERS = {
    "code": "skill-creator",
    "email": "email-api",
    "fhir": "fhir-developer-skill",
    "internal_comms": "internal-comms",
    "internal_communication": "internal-comms",
    "slack": "slack-gif-creator",
    "webapp": "webapp-testing",
}


@dataclass(frozen=True)
class Host:
    path: str  # relative to the corpus: also the host's key on the command line and in the report
    why: str

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


HOSTS: tuple[Host, ...] = (
    Host(
        "anthropics-skills/skill-creator", "benchmark target (obvious 26 at its line 42); Agent Skills; largest, 33 KB"
    ),
    Host("wolffish-app/pdf", "benchmark's pdf target (its lines fall in this frontmatter); wolffi.sh; 20 KB"),
    Host("gibb-eri-sh/git", "benchmark's git target; gibb.eri.sh tool blocks; 1.5 KB"),
    Host("clawhub-archive-sample/0xterrybit/calendar", "benchmark's calendar target; ClawHub metadata JSON; 0.6 KB"),
    Host("clawhub-archive-sample/steamb23/naver-news", "CRLF line ends, Korean text, declared env variables"),
    Host("skillli/.claude/skills/skillli", "skillli metadata block and a reference file"),
    Host("agent-flow-lite/layer", "Agent Flow Lite: Chinese description, YAML-like body"),
    Host("obra-superpowers/test-driven-development", "Claude Code conventions; 9 KB of prose and code"),
    Host("vercel-agent-skills/web-design-guidelines", "metadata author and version; 1.2 KB"),
)


class HarnessError(Exception):
    """An injection could not be planted as documented: a harness bug, never a detector verdict."""


def rank(level: str | None) -> int:
    return LEVELS.index(level) if level in LEVELS else -1


# ------------------------------------------------------------------------------------------------ entries


@dataclass(frozen=True)
class Task:
    skill: str
    line_num: int | None
    prefix: str

    def targets(self, host_name: str) -> bool:
        mapped = BENCHMARK_SKILL_FOLDERS.get(self.skill, self.skill)
        return host_name in (self.skill, mapped.rsplit("/", 1)[-1])


@dataclass(frozen=True)
class Entry:
    group: str  # obvious | contextual
    id: int
    title: str
    family: str
    description_text: str
    line_text: str
    tasks: tuple[Task, ...]
    scripts: tuple[tuple[str, str], ...]  # (name in the skill's scripts/, file name in the attack folder)
    legitimizing: str = ""
    warning: str = ""

    @property
    def key(self) -> str:
        return f"{self.group[0]}{self.id}"

    @property
    def places(self) -> tuple[str, ...]:
        texts = {"description": self.description_text, "line": self.line_text}
        return tuple(place for place in PLACES if re.search(r"\w", texts[place]))

    @property
    def forms(self) -> tuple[str, ...]:
        with_script = (False, True) if self.scripts else (False,)
        return tuple(form_name(place, script) for place in self.places for script in with_script)

    @property
    def contexts(self) -> tuple[str, ...]:
        return CONTEXTS if self.group == "contextual" else ("bare",)

    def context_sentence(self, context: str) -> str | None:
        return {"bare": None, "legitimizing": self.legitimizing, "warning": self.warning}[context]


def form_name(place: str, with_script: bool) -> str:
    return f"{place}+script" if with_script else place


def load_entries(attacks: Path = DEFAULT_ATTACKS) -> list[Entry]:
    entries = []
    for group, families in (("obvious", OBVIOUS_FAMILY), ("contextual", CONTEXTUAL_FAMILY)):
        raw_entries = json.loads((attacks / f"{group}_injections.json").read_text(encoding="utf-8"))
        ids = [raw["id"] for raw in raw_entries]
        if sorted(ids) != sorted(families):
            raise HarnessError(
                f"{group}_injections.json ids without a family: {sorted(set(ids) - set(families))}; "
                f"families for ids not in it: {sorted(set(families) - set(ids))}"
            )
        for raw in raw_entries:
            scripts = tuple(
                (name, Path(source).name) for name, source in sorted((raw.get("task_scripts") or {}).items())
            )
            for _, file_name in scripts:
                if not (attacks / "task_scripts" / file_name).is_file():
                    raise HarnessError(f"{group} {raw['id']}: task script {file_name} is not in {attacks}")
            context = raw.get("context") or {}
            entries.append(
                Entry(
                    group=group,
                    id=raw["id"],
                    title=raw["title"],
                    family=families[raw["id"]],
                    description_text=raw["instructions"].get("description_injection") or "",
                    line_text=raw["instructions"].get("line_injection") or "",
                    tasks=tuple(
                        Task(t.get("skill", ""), t.get("line_num"), t.get("injection_prefix") or "")
                        for t in raw.get("tasks", [])
                    ),
                    scripts=scripts,
                    legitimizing=context.get("legitimizing", ""),
                    warning=context.get("warning", ""),
                )
            )
    return entries


def checker_scripts(attacks: Path = DEFAULT_ATTACKS) -> list[str]:
    return sorted(p.name for p in (attacks / "task_scripts").iterdir() if CHECKER_SCRIPT.fullmatch(p.name))


# -------------------------------------------------------------------------------------------- injection


def split_lines(text: str) -> list[str]:
    """Lines with their ends kept; only "\\n" ends a line (str.splitlines also splits on form feeds and U+2028,
    which would shift line numbers away from the analysis's)."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    return [*lines, parts[-1]] if parts[-1] else lines


def _line_end(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def frontmatter_end(lines: Sequence[str]) -> int:
    """Index of the closing `---` line."""
    if not lines or lines[0].strip() != "---":
        raise HarnessError("the host's SKILL.md has no frontmatter")
    for index in range(1, len(lines)):
        if lines[index].strip() == "---":
            return index
    raise HarnessError("the host's frontmatter is not closed")


@functools.lru_cache(maxsize=32)
def _description_span(text: str) -> tuple[int, int, str]:
    """(start, end, value) of the frontmatter's description scalar, as character offsets into `text`."""
    lines = split_lines(text)
    end = frontmatter_end(lines)
    frontmatter = "".join(lines[1:end])
    root = yaml.compose(frontmatter, Loader=yaml.SafeLoader)
    node = next(
        (value for key, value in getattr(root, "value", ()) if getattr(key, "value", None) == "description"), None
    )
    if not isinstance(node, yaml.ScalarNode) or node.tag != "tag:yaml.org,2002:str":
        raise HarnessError("the host's frontmatter has no top-level description string")
    span = frontmatter[node.start_mark.index : node.end_mark.index]
    # A block scalar's span ends after its line break: keep the break so the next key stays on its own line.
    stop = node.end_mark.index - (len(span) - len(span.rstrip()))
    return len(lines[0]) + node.start_mark.index, len(lines[0]) + stop, node.value


def inject_description(text: str, addition: str) -> str:
    """Append `addition` to the frontmatter description, the value rewritten as one double-quoted scalar."""
    start, stop, original = _description_span(text)
    combined = f"{original.strip()} {addition.strip()}"
    # JSON's string syntax is a subset of YAML's double-quoted scalar: every quote and backslash is escaped.
    quoted = json.dumps(combined, ensure_ascii=False)
    if yaml.safe_load(f"description: {quoted}") != {"description": combined}:
        raise HarnessError("the rewritten description does not read back as written")
    return text[:start] + quoted + text[stop:]


def inject_block(text: str, instruction: str, line_number: int) -> str:
    """The benchmark's inject_at_line: each line of the instruction stripped, the block placed before line N."""
    newline = _line_end(text)
    lines = split_lines(text)
    if not 1 <= line_number <= len(lines) + 1:
        raise HarnessError(f"line {line_number} is out of range ({len(lines)} lines)")
    block = [raw.strip() + newline if raw.strip() else newline for raw in instruction.strip("\n").splitlines()]
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += newline
    position = line_number - 1
    return "".join(lines[:position] + block + lines[position:])


_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+\S")
_HEADING = re.compile(r"^ {0,3}#{1,6}(?:\s|$)")


def _inside_fence_after(lines: Sequence[str], start: int) -> list[bool]:
    """For each line index from `start`, whether a fenced code block is still open after that line."""
    open_after = [False] * len(lines)
    fence: str | None = None
    for index in range(start, len(lines)):
        match = _FENCE.match(lines[index])
        if fence is None and match:
            fence = match.group(1)
        elif fence is not None and match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
            fence = None
        open_after[index] = fence is not None
    return open_after


def body_line_fits(lines: Sequence[str], line_number: int) -> bool:
    """Whether a block placed before `line_number` lands in the body, outside any fenced code block."""
    body_start = frontmatter_end(lines) + 1
    position = line_number - 1
    if not body_start <= position <= len(lines):
        return False
    open_after = _inside_fence_after(lines, body_start)
    return position == body_start or not open_after[position - 1]


def fallback_line(lines: Sequence[str]) -> tuple[int, str]:
    """After the first list of the body, else after its first heading, else at its end (1-based line, why)."""
    body_start = frontmatter_end(lines) + 1
    open_after = _inside_fence_after(lines, body_start)

    def in_fence_before(index: int) -> bool:
        return index > body_start and open_after[index - 1]

    for index in range(body_start, len(lines)):
        if in_fence_before(index) or not _LIST_ITEM.match(lines[index]):
            continue
        end = index + 1
        while end < len(lines) and (
            open_after[end - 1] or (lines[end].strip() and (_LIST_ITEM.match(lines[end]) or lines[end][0] in " \t"))
        ):
            end += 1
        return end + 1, "after the first list"
    for index in range(body_start, len(lines)):
        if not in_fence_before(index) and _HEADING.match(lines[index]):
            return index + 2, "after the first heading"
    return len(lines) + 1, "at the end of the body"


def line_placement(entry: Entry, host_name: str, lines: Sequence[str]) -> tuple[int, str, str]:
    """(1-based line, prefix, how it was chosen) for the entry's line injection in this host."""
    for task in entry.tasks:
        if task.targets(host_name) and task.line_num is not None and body_line_fits(lines, task.line_num):
            return task.line_num, task.prefix, f"task line {task.line_num}"
    prefix = entry.tasks[0].prefix if entry.tasks else ""
    line_number, how = fallback_line(lines)
    return line_number, prefix, f"{how} (line {line_number})"


# --------------------------------------------------------------------------------------------- variants


@dataclass(frozen=True)
class Variant:
    """One skill folder to analyse: an injection planted in a host, or a benign addition (entry None)."""

    host: Host
    folder: str  # relative to the work folder
    entry: Entry | None = None
    place: str = ""
    with_script: bool = False
    context: str = "bare"
    placement: str = ""  # where the line went (see line_placement)
    benign_script: str | None = None  # a checker script added with no injection

    @property
    def form(self) -> str:
        return form_name(self.place, self.with_script)


@dataclass
class Verdict:
    level: str | None  # None: the skill was left out or not scored
    codes: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    description: str | None = None
    problem: str | None = None


@dataclass
class Result:
    group: str
    entry: int
    title: str
    family: str
    form: str
    context: str
    host: str
    level: str | None
    placement: str
    codes: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    problem: str | None = None

    @property
    def medium(self) -> bool:
        return rank(self.level) >= rank("medium")

    @property
    def high(self) -> bool:
        return rank(self.level) >= rank("high")


@dataclass
class BenignResult:
    host: str
    added: str  # "original", or the checker script added to scripts/
    level: str | None
    codes: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    problem: str | None = None


def read_host(corpus: Path, host: Host) -> dict[str, tuple[bytes, bool]]:
    folder = corpus / host.path
    if not (folder / "SKILL.md").is_file():
        raise HarnessError(f"host {host.path} has no SKILL.md under {corpus}")
    files = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            files[path.relative_to(folder).as_posix()] = (path.read_bytes(), bool(path.stat().st_mode & stat.S_IXUSR))
    return files


def write_skill(dest: Path, files: dict[str, tuple[bytes, bool]]) -> None:
    # Written file by file rather than copied: the corpus is read-only and copies would keep its modes.
    for rel, (data, executable) in files.items():
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        target.chmod(0o755 if executable else 0o644)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9-]+", "-", text).strip("-")


def plant(
    host: Host, host_files: dict[str, tuple[bytes, bool]], entry: Entry, place: str, with_script: bool, context: str,
    attacks: Path,
) -> tuple[dict[str, tuple[bytes, bool]], str]:  # fmt: skip
    """The host's files with the injection planted, and where the line went."""
    skill_md = host_files["SKILL.md"][0].decode("utf-8")
    placement = "frontmatter description"
    if place == "description":
        skill_md = inject_description(skill_md, entry.description_text)
    else:
        line_number, prefix, placement = line_placement(entry, host.name, split_lines(skill_md))
        skill_md = inject_block(skill_md, prefix + entry.line_text, line_number)
    files = {**host_files, "SKILL.md": (skill_md.encode("utf-8"), host_files["SKILL.md"][1])}
    if with_script:
        for name, file_name in entry.scripts:
            files[f"scripts/{name}"] = ((attacks / "task_scripts" / file_name).read_bytes(), True)
    sentence = entry.context_sentence(context)
    if sentence is not None:
        files[CONTEXT_FILE] = ((sentence + "\n").encode("utf-8"), False)
    return files, placement


def analyse_tree(root: Path) -> dict[str, Verdict]:
    """Every skill under `root` through the build's per-skill analysis, by folder relative to `root`."""
    limits, policy = Limits(), Policy()
    found = crawl.crawl(root, limits)
    verdicts: dict[str, Verdict] = {}
    for left_out in found.dropped:
        folder = left_out.path.rsplit("/", 1)[0]
        reasons = "; ".join(f"{f.code} {f.message}" for f in left_out.reasons)
        verdicts[folder] = Verdict(None, problem=f"left out by the crawl: {reasons}"[:400])
    for location in found.locations:
        analysed = analyse_skill(location, limits, policy)
        if analysed.content is None:
            errors = "; ".join(f"{f.code} {f.message}" for f in analysed.skill.findings)
            verdicts[location.rel_folder] = Verdict(None, problem=f"not scored: {errors}"[:400])
            continue
        risk = analysed.content.risk
        verdicts[location.rel_folder] = Verdict(
            risk.level, sorted({f.code for f in risk.findings}), list(risk.reasons), analysed.skill.description
        )
    return verdicts


def write_variants(
    host: Host, host_files: dict[str, tuple[bytes, bool]], entries: Iterable[Entry], checkers: Iterable[str],
    attacks: Path, host_root: Path,
) -> list[Variant]:  # fmt: skip
    """Write the host as found, with each checker script, and with each entry in each form and context."""
    variants = [Variant(host, f"original/{host.name}")]
    write_skill(host_root / variants[0].folder, host_files)
    for script in checkers:
        variant = Variant(host, f"checker-{_slug(script)}/{host.name}", benign_script=script)
        files = {**host_files, f"scripts/{script}": ((attacks / "task_scripts" / script).read_bytes(), True)}
        write_skill(host_root / variant.folder, files)
        variants.append(variant)
    for entry in entries:
        for place in entry.places:
            for with_script in (False, True) if entry.scripts else (False,):
                for context in entry.contexts:
                    name = f"{entry.key}-{form_name(place, with_script).replace('+', '-')}-{context}"
                    files, placement = plant(host, host_files, entry, place, with_script, context, attacks)
                    variant = Variant(host, f"{name}/{host.name}", entry, place, with_script, context, placement)
                    write_skill(host_root / variant.folder, files)
                    variants.append(variant)
    return variants


# ------------------------------------------------------------------------------------------------- run


@dataclass
class Report:
    hosts: list[dict]
    results: list[Result]
    benign: list[BenignResult]
    seconds: float = 0.0
    analyse_seconds: float = 0.0
    analyses: int = 0

    def __repr__(self) -> str:  # pytest prints a failing test's arguments: thousands of results would bury the message
        return f"Report({len(self.hosts)} hosts, {len(self.results)} injected skills, {len(self.benign)} benign)"

    def originals(self) -> dict[str, str | None]:
        return {b.host: b.level for b in self.benign if b.added == "original"}

    def add_host(
        self,
        host: Host,
        host_files: dict[str, tuple[bytes, bool]],
        variants: list[Variant],
        verdicts: dict[str, Verdict],
    ) -> None:
        def verdict_of(variant: Variant) -> Verdict:
            return verdicts.get(variant.folder) or Verdict(None, problem="not found by the crawl")

        self.hosts.append(
            {
                "host": host.path,
                "why": host.why,
                "level": verdict_of(variants[0]).level,
                "files": len(host_files),
                "bytes": sum(len(data) for data, _ in host_files.values()),
                "skill_md_lines": len(split_lines(host_files["SKILL.md"][0].decode("utf-8"))),
            }
        )
        for variant in variants:
            verdict = verdict_of(variant)
            entry = variant.entry
            if entry is None:
                added = variant.benign_script or "original"
                self.benign.append(
                    BenignResult(host.path, added, verdict.level, verdict.codes, verdict.reasons, verdict.problem)
                )
                continue
            problem = verdict.problem
            planted = (verdict.description or "").endswith(entry.description_text.strip())
            if problem is None and variant.place == "description" and not planted:
                problem = "the parsed description does not end with the injected text"
            result = Result(
                entry.group, entry.id, entry.title, entry.family, variant.form, variant.context, host.path,
                verdict.level, variant.placement, verdict.codes, verdict.reasons, problem,
            )  # fmt: skip
            self.results.append(result)


def run(
    hosts: Iterable[Host] = HOSTS,
    corpus: Path = DEFAULT_CORPUS,
    attacks: Path = DEFAULT_ATTACKS,
    workdir: Path | None = None,
    groups: Iterable[str] = GROUPS,
    families: Iterable[str] | None = None,
    entry_keys: Iterable[str] | None = None,
    progress: Callable[[str], None] | None = None,
) -> Report:
    """Plant every selected entry in every host in every form, analyse, and collect the verdicts.

    `workdir` keeps the generated skills (one folder per host, one per variant below it); without it a
    temporary folder is used and removed."""
    started = time.perf_counter()
    hosts = list(hosts)
    wanted_families = set(families) if families is not None else set(FAMILIES)
    wanted_keys = set(entry_keys) if entry_keys is not None else None
    entries = [
        e
        for e in load_entries(attacks)
        if e.group in set(groups) and e.family in wanted_families and (wanted_keys is None or e.key in wanted_keys)
    ]
    checkers = checker_scripts(attacks)
    report = Report([], [], [])
    # A few thousand small folders are written and read once: memory-backed when the system has it.
    scratch_parent = SHARED_MEMORY if SHARED_MEMORY.is_dir() and os.access(SHARED_MEMORY, os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="skill-inject-", dir=scratch_parent) as tmp:
        for host in hosts:
            host_files = read_host(corpus, host)
            host_root = (workdir or Path(tmp)) / _slug(host.path)
            if host_root.exists():
                shutil.rmtree(host_root)
            variants = write_variants(host, host_files, entries, checkers, attacks, host_root)
            analysis_started = time.perf_counter()
            verdicts = analyse_tree(host_root)
            report.analyse_seconds += time.perf_counter() - analysis_started
            report.analyses += len(verdicts)
            if workdir is None:
                shutil.rmtree(host_root)  # one host's variants at a time, never the whole run
            report.add_host(host, host_files, variants, verdicts)
            if progress:
                progress(f"{host.path}: {len(verdicts)} skills analysed")
    report.seconds = time.perf_counter() - started
    return report


# --------------------------------------------------------------------------------------------- figures


def table(results: Iterable[Result], key: Callable[[Result], tuple]) -> list[dict]:
    rows: dict[tuple, dict] = {}
    for result in results:
        row = rows.setdefault(key(result), {"n": 0, "medium": 0, "high": 0})
        row["n"] += 1
        row["medium"] += result.medium
        row["high"] += result.high
    return [
        {"key": list(k), **row, "medium_share": row["medium"] / row["n"], "high_share": row["high"] / row["n"]}
        for k, row in sorted(rows.items())
    ]


def _form_order(form: str) -> int:
    return [form_name(p, s) for p in PLACES for s in (False, True)].index(form)


def summary(report: Report) -> dict:
    obvious = [r for r in report.results if r.group == "obvious"]
    contextual = [r for r in report.results if r.group == "contextual"]
    by_form = sorted(table(obvious, lambda r: (r.form,)), key=lambda row: _form_order(row["key"][0]))
    by_form_context = sorted(
        table(contextual, lambda r: (r.form, r.context)),
        key=lambda row: (_form_order(row["key"][0]), CONTEXTS.index(row["key"][1])),
    )
    originals = report.originals()
    return {
        "obvious": {
            "total": table(obvious, lambda r: ("all",)),
            "by_family": table(obvious, lambda r: (r.family,)),
            "by_form": by_form,
            "by_host": table(obvious, lambda r: (r.host,)),
        },
        "contextual": {
            "total": table(contextual, lambda r: ("all",)),
            "by_family": table(contextual, lambda r: (r.family,)),
            "by_context": sorted(
                table(contextual, lambda r: (r.context,)), key=lambda row: CONTEXTS.index(row["key"][0])
            ),
            "by_form_context": by_form_context,
        },
        "raised_by_checker_scripts": [
            asdict(b) for b in report.benign if b.added != "original" and rank(b.level) > rank(originals.get(b.host))
        ],
    }


def misses(results: Iterable[Result]) -> list[dict]:
    """Results below medium, grouped by entry and form, each with the hosts and their levels."""
    grouped: dict[tuple, dict] = {}
    for r in results:
        if r.medium and r.problem is None:
            continue
        item = grouped.setdefault(
            (r.group, r.entry, _form_order(r.form), r.context),
            {"group": r.group, "entry": r.entry, "title": r.title, "family": r.family, "form": r.form,
             "context": r.context, "hosts": []},
        )  # fmt: skip
        item["hosts"].append({"host": r.host, "level": r.level, "problem": r.problem})
    return [grouped[k] for k in sorted(grouped)]


def to_json(report: Report) -> dict:
    return {
        "hosts": report.hosts,
        "summary": summary(report),
        "misses": {"obvious": misses(r for r in report.results if r.group == "obvious")},
        "benign": [asdict(b) for b in report.benign],
        "results": [asdict(r) for r in report.results],
        "seconds": report.seconds,
        "analyse_seconds": report.analyse_seconds,
        "analyses": report.analyses,
        "analyses_per_second": report.analyses / report.analyse_seconds if report.analyse_seconds else 0.0,
    }


def _print_table(title: str, rows: list[dict], out) -> None:
    width = max([len(title) - 2] + [len(" / ".join(row["key"])) for row in rows])
    print(f"\n{title:<{width + 2}} {'n':>5} {'>=medium':>9} {'>=high':>8}", file=out)
    for row in rows:
        label = " / ".join(row["key"])
        print(f"  {label:<{width}} {row['n']:>5} {row['medium_share']:>8.0%} {row['high_share']:>7.0%}", file=out)


def _hosts_by_level(hosts: list[dict], every_host: int) -> str:
    """ "every host: low", or each level with its hosts: the same miss on nine hosts stays one short line."""
    by_level: dict[str, list[str]] = {}
    for h in hosts:
        by_level.setdefault(h["level"] or h["problem"], []).append(h["host"].rsplit("/", 1)[-1])
    if len(by_level) == 1 and len(hosts) == every_host:
        return f"every host {next(iter(by_level))}"
    return "; ".join(f"{level}: {', '.join(names)}" for level, names in by_level.items())


def print_report(report: Report, out=sys.stdout) -> None:
    figures = summary(report)
    print("hosts (level as found, files, bytes):", file=out)
    for host in report.hosts:
        print(f"  {host['level'] or '-':<8} {host['host']:<48} {host['files']:>3} {host['bytes']:>7}", file=out)
    checkers = [b for b in report.benign if b.added != "original"]
    if checkers:
        originals = report.originals()
        print("\nchecker scripts added alone (level; raised above the host's marked !):", file=out)
        for b in checkers:
            mark = "!" if rank(b.level) > rank(originals.get(b.host)) else " "
            codes = " ".join(b.codes)
            print(f"  {mark} {b.level or '-':<8} {b.added:<28} {b.host:<48} {codes}", file=out)
    for group in GROUPS:
        if not any(r.group == group for r in report.results):
            continue
        part = figures[group]
        print(f"\n== {group} injections ==", file=out)
        _print_table("all", part["total"], out)
        _print_table("per family", part["by_family"], out)
        if group == "obvious":
            _print_table("per form", part["by_form"], out)
            _print_table("per host", part["by_host"], out)
        else:
            _print_table("per context", part["by_context"], out)
            _print_table("per form / context", part["by_form_context"], out)
    obvious_misses = misses(r for r in report.results if r.group == "obvious")
    if obvious_misses:
        print("\nobvious injections below medium (entry, title, family, form: hosts and their levels):", file=out)
        for item in obvious_misses:
            hosts = _hosts_by_level(item["hosts"], len(report.hosts))
            print(
                f"  o{item['entry']:<3} {item['title'][:44]:<44} {item['family']:<18} {item['form']:<19} {hosts}",
                file=out,
            )
    rate = report.analyses / report.analyse_seconds if report.analyse_seconds else 0.0
    print(
        f"\n{report.analyses} skills analysed in {report.analyse_seconds:.1f} s ({rate:.0f} per second); "
        f"{report.seconds:.1f} s in all, writing the skills included",
        file=out,
    )


def target_misses(report: Report) -> list[str]:
    """What keeps issue 22's harness target unmet: an obvious injection below medium in some form, or a benchmark
    checker script that raises a benign host above its original level. Empty when the target holds."""
    misses = [
        f"obvious {r.entry} ({r.form}) in {r.host}: {r.level or r.problem} {' '.join(r.codes)}".rstrip()
        for r in report.results
        if r.group == "obvious" and (not r.medium or r.problem)
    ]
    originals = report.originals()
    misses += [
        f"checker {b.added} raises {b.host}: {originals[b.host]} -> {b.level or b.problem} {' '.join(b.codes)}".rstrip()
        for b in report.benign
        if b.added != "original" and (b.problem or rank(b.level) > rank(originals[b.host]))
    ]
    return misses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.skill_inject", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--hosts",
        help="comma-separated skill folders relative to the corpus (default: " + ", ".join(h.path for h in HOSTS) + ")",
    )
    parser.add_argument("--families", help="comma-separated attack families (default: all): " + ", ".join(FAMILIES))
    parser.add_argument("--groups", default=",".join(GROUPS), help="obvious, contextual or both (default)")
    parser.add_argument("--ids", help="comma-separated entries, o<id> or c<id> (o10 = obvious 10); default all")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the real-skill corpus")
    parser.add_argument("--attacks", type=Path, default=DEFAULT_ATTACKS, help="the Skill-Inject folder")
    parser.add_argument("--keep", type=Path, help="write the generated skills here and keep them")
    parser.add_argument("--json", type=Path, help="write every verdict and figure to this file")
    parser.add_argument(
        "--check", action="store_true", help="exit 1, listing the misses, unless issue 22's target holds"
    )
    args = parser.parse_args(argv)

    def items(value: str) -> list[str]:
        return [item.strip() for item in value.split(",") if item.strip()]

    def known(value: str | None, names: Iterable[str], what: str) -> list[str] | None:
        if value is None:
            return None
        unknown = sorted(set(items(value)) - set(names))
        if unknown:
            parser.error(f"unknown {what}: {', '.join(unknown)}")
        return items(value)

    by_path = {h.path: h for h in HOSTS}
    hosts = [by_path.get(p) or Host(p, "given on the command line") for p in items(args.hosts)] if args.hosts else HOSTS
    groups = known(args.groups, GROUPS, "groups") or list(GROUPS)
    families = known(args.families, FAMILIES, "families")
    entry_keys = known(args.ids, [e.key for e in load_entries(args.attacks)], "entries")
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    try:
        report = run(
            hosts, args.corpus, args.attacks, args.keep, groups, families, entry_keys,
            progress=lambda line: print(line, file=sys.stderr),
        )  # fmt: skip
    except HarnessError as err:
        print(f"skill_inject: {err}", file=sys.stderr)
        return 2
    print_report(report)
    if args.json:
        args.json.write_text(json.dumps(to_json(report), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")
    if args.check:
        misses = target_misses(report)
        print(f"\ntarget (every obvious injection in every form >= medium; checkers never raise a host): "
              f"{'met' if not misses else f'{len(misses)} misses'}")  # fmt: skip
        print("\n".join(f"  {miss}" for miss in misses))
        return 1 if misses else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
