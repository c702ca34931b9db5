"""Near-copies across the registry: which skills are mostly the same, which one came first, what changed.

Two steps, so the expensive part runs once per skill and is cached with its risk analysis:

1. Per skill, in the worker (`fingerprint`): every compared file's lines are normalised (whitespace
   collapsed, blank and punctuation-only lines dropped) and the set of lines is summarised as a
   MinHash of NUM_PERM permutations (4 bytes each: 256 bytes per skill). Compared files
   are SKILL.md, scripts, references and every other text file, except licence and notice texts and
   package lock files: two unrelated skills that share an MIT licence and a lock file are not alike.

2. Registry-wide, once per build after history is read and before trust is earned
   (`find_clones`, `apply_clones`): a datasketch MinHashLSH over every fingerprint proposes
   candidate pairs (estimated Jaccard similarity of the line sets >= LSH_THRESHOLD, at most
   MAX_CANDIDATES per skill, the best estimates first); each candidate is then verified exactly by
   reading both skills' files again: files are paired by path (then renamed files by content), and
   the similarity is the share of identical normalised lines, 2 * common / (lines of one + lines of
   the other), over all compared files of both skills (common lines are the longest common
   subsequence of each file pair: rapidfuzz's Indel distance). A pair at or above CLONE_THRESHOLD
   (80%) is a clone, and its difference is kept per file: lines added and removed.

Who is the original: the higher publisher tier in registry.yaml (official > verified > community,
an unlisted publisher is community), then the earlier first publication in git history (the first
commit that touched the skill's folder), then, when neither history nor tier decides (a folder
outside git, the same commit), the smaller id.

What it reports, on the copy's side:

- R170 (high): a community near-copy of an official or verified skill whose added lines bring
  network, execution, secret, persistence, obfuscation or instruction-override behaviour: a risk
  finding of those categories (or any high or critical one) or a capability-card use (a host
  contacted, a secret-like variable or sensitive path, a process, an install, a persistence point,
  sudo) on an added line, that the original does not have. The original's page does not link to
  such a copy.
- R171 (low), on both skills otherwise: "see also <id>, 92% the same", with the difference.

Bounds: at most MAX_FINGERPRINT_LINES distinct lines per skill are fingerprinted; files are
re-read only for candidate pairs, with the build's size limits, and compared on at most
MAX_FILE_LINES lines per file and MAX_SKILL_LINES per skill; at most LINES_CACHED skills' lines
(MAX_LINES_HELD lines) are held at once; a file pair whose differing middle part is larger than
MAX_DIFF_CELLS (lines x lines) is diffed as multisets of lines instead of in order; each skill keeps
at most MAX_CLONES clones. Nothing from a skill is run or imported.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import string
import zlib
from collections import Counter, OrderedDict, deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from rapidfuzz.distance import Indel

from registry import crawl
from registry.config import Limits
from registry.model import Finding, Skill
from registry.policy import TIERS, Policy
from registry.score.card import ENV, HOST, INSTALL, PATH, PERSISTENCE, PROCESS, CapabilityCard
from registry.score.clone_rules import (
    MAX_FILES_SHOWN,
    MAX_LINES_SHOWN,
    NEAR_COPY_ADDS,
    SEE_ALSO,
    Clone,
    FileDiff,
    Fingerprint,
)
from registry.score.risk.lines import MAX_FILE_BYTES, decode, is_binary
from registry.score.risk.rules import CATEGORIES, LEVELS, RiskRule, show

if TYPE_CHECKING:
    from registry.score import ContentScore

NUM_PERM = 64
SEED = 1
LSH_THRESHOLD = 0.5  # candidates: estimated Jaccard similarity of the two skills' sets of lines
ESTIMATE_FLOOR = 0.4  # candidates whose MinHash estimate is below this are not read again
CLONE_THRESHOLD = 0.80  # share of identical normalised lines that makes a clone
RENAME_THRESHOLD = 0.5  # an unpaired file matches a renamed one when this share of its lines is the same
MIN_LINES = 8  # skills with fewer compared lines are too small to call copies
MAX_CANDIDATES = 8  # per skill, verified exactly
MAX_CLONES = 5  # per skill, kept
MAX_FILE_LINES = 20_000
MAX_FINGERPRINT_LINES = 20_000  # distinct lines fingerprinted per skill
MAX_SKILL_LINES = 50_000  # lines compared per skill when a pair is verified
MAX_LINE_CHARS = 4096  # a normalised line is compared on at most this many characters
MAX_DIFF_CELLS = 25_000_000  # lines x lines of a file pair's differing middle part diffed in order
MAX_RENAMED = 64  # unpaired files per side tried as renames
LINES_CACHED = 256  # skills whose compared lines are held while pairs are verified ...
MAX_LINES_HELD = 1_000_000  # ... and lines held in all
RISKY_CATEGORIES = {
    "rce": "code execution",
    "exfiltration": "data sent out",
    "credentials": "secret access",
    "injection": "instruction override",
    "obfuscation": "obfuscated code",
    "persistence": "persistence",
    "destructive": "destructive command",
    "money": "wallet or funds access",
    "supply-chain": "package install",
}
RISKY_TIERS = ("official", "verified")  # a community copy of these that adds risky lines is R170

_IGNORED = re.compile(
    r"(?:^|/)(?:licen[cs]e|copying|copyright|notice|patents|authors|contributors|code_of_conduct)(?:[._-][^/]*)?$"
    r"|(?:^|/)(?:package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|poetry\.lock|uv\.lock"
    r"|pipfile\.lock|cargo\.lock|gemfile\.lock|composer\.lock|go\.sum)$",
    re.IGNORECASE,
)
_EDGES = (string.punctuation + " \t\r\f\v").encode("ascii")
_NOT_CONTENT = string.punctuation + string.whitespace


# The MinHash permutations: h(x) = (a*x + b) mod p with p the Mersenne prime 2^31 - 1 and x a line's
# CRC-32 reduced mod p, so a*x + b < 2^63 is exact in 64 bits (no wrap-around). Made here with
# numpy rather than with datasketch's MinHash: importing datasketch brings scipy (0.4 s), which a
# `validate` of one skill should not pay; its LSH index is loaded only where skills are compared.
_PRIME = (1 << 31) - 1
_RANDOM = np.random.RandomState(SEED)
_A = _RANDOM.randint(1, _PRIME, size=NUM_PERM).astype(np.uint64)
_B = _RANDOM.randint(0, _PRIME, size=NUM_PERM).astype(np.uint64)


# -- per skill -------------------------------------------------------------------------------


def compared(path: str) -> bool:
    """Whether a file counts for similarity: every text file but licence texts and lock files."""
    return _IGNORED.search(path) is None


def normalised_lines(data: bytes, limit: int = MAX_FILE_LINES) -> list[tuple[int, str]]:
    """(1-based line, text with whitespace collapsed) of a text file's lines with content; [] for a binary."""
    if not isinstance(data, bytes | bytearray) or len(data) > MAX_FILE_BYTES or is_binary(bytes(data)):
        return []
    out: list[tuple[int, str]] = []
    for number, raw in enumerate(decode(bytes(data)).split("\n"), start=1):
        if raw.strip(_NOT_CONTENT):  # more than whitespace and punctuation
            out.append((number, " ".join(raw.split())[:MAX_LINE_CHARS]))
            if len(out) >= limit:
                break
    return out


def fingerprint(contents: Mapping[str, bytes]) -> Fingerprint | None:
    """The skill's MinHash over its set of compared lines; None when it has too few to compare.

    Cheap on purpose (it runs for every skill): lines are taken as bytes, with whitespace and
    punctuation stripped from both ends (indentation, list markers, heading marks, trailing commas),
    and each distinct line is hashed once with CRC-32. At most MAX_FINGERPRINT_LINES distinct lines count:
    the ones with the smallest hashes, a sample that is the same for the same lines in every skill.
    """
    hashes: set[int] = set()
    for name, data in contents.items():
        if not compared(name) or not isinstance(data, bytes) or len(data) > MAX_FILE_BYTES or is_binary(data):
            continue
        hashes.update(map(zlib.crc32, {line.strip(_EDGES) for line in data.split(b"\n")}))
    hashes.discard(0)  # the empty line
    if len(hashes) < MIN_LINES:
        return None
    values = sorted(hashes)[:MAX_FINGERPRINT_LINES]
    lines = np.fromiter(values, dtype=np.uint64, count=len(values)) % _PRIME
    signature = np.full(NUM_PERM, _PRIME, dtype=np.uint64)
    for start in range(0, len(lines), 4096):  # bounded temporary: 4,096 lines x NUM_PERM at a time
        chunk = lines[start : start + 4096, None]
        signature = np.minimum(signature, ((chunk * _A + _B) % _PRIME).min(axis=0))
    return Fingerprint(signature.astype("<u4").tobytes(), len(values))


# -- registry-wide ---------------------------------------------------------------------------


@dataclass
class _Entry:
    skill: Skill
    content: ContentScore
    values: np.ndarray  # the MinHash values
    publisher: str
    tier: str  # the publisher's tier in registry.yaml
    first: str | None  # first published (ISO date), when history knows it


@dataclass
class _Diff:
    """One direction of a file pair: this side's path, the other's, and what only this side has."""

    path: str
    other_path: str | None
    similarity: float
    added: list[tuple[int, str]]  # every added line (numbers in this file)
    removed: list[tuple[int, str]]  # every removed line (numbers in the other's file)

    def kept(self) -> FileDiff:
        return FileDiff(
            self.path, self.other_path, self.similarity, tuple((n, show(t)) for n, t in self.added[:MAX_LINES_SHOWN]),
            tuple((n, show(t)) for n, t in self.removed[:MAX_LINES_SHOWN]), len(self.added), len(self.removed),
        )  # fmt: skip


def find_clones(
    skills: Iterable[Skill],
    contents: Mapping[str, ContentScore],
    policy: Policy,
    first_published: Mapping[str, str] | None = None,
    limits: Limits | None = None,
) -> dict[str, tuple[Clone, ...]]:
    """Skill id -> the skills it is mostly the same as (best first), for every skill with a clone.

    `contents` holds each skill's ContentScore (its fingerprint and risk analysis); `first_published`
    maps ids to their first publication date (registry.history), when known.
    """
    first_published = first_published or {}
    limits = limits or Limits()
    entries: dict[str, _Entry] = {}
    for skill in skills:
        content = contents.get(skill.id)
        fp = getattr(content, "fingerprint", None)
        if content is None or fp is None or fp.lines < MIN_LINES or len(fp.minhash) != 4 * NUM_PERM:
            continue
        namespace = skill.id.split("/", 1)[0] if "/" in skill.id else ""
        owner = policy.owner_of(namespace) if namespace else None
        values = np.frombuffer(fp.minhash, dtype="<u4")
        entries[skill.id] = _Entry(
            skill, content, values, owner.name if owner else (skill.publisher or namespace or skill.id),
            owner.tier if owner else "community", first_published.get(skill.id),
        )  # fmt: skip
    if len(entries) < 2:
        return {}
    pairs = _candidates(entries)
    lines = _LineCache(limits)
    found: dict[str, list[Clone]] = {}
    for a, b in _in_reading_order(pairs):
        one, two = entries[a], entries[b]
        left, right = lines.get(one.skill), lines.get(two.skill)
        if left is None or right is None:
            continue
        similarity, forward = _compare(left, right)  # one's side: added = only in one
        if similarity < CLONE_THRESHOLD:
            continue
        backward = [_reverse(d) for d in forward]
        original, copy = (one, two) if _rank(one) <= _rank(two) else (two, one)
        copy_side = backward if copy is two else forward
        original_side = forward if copy is two else backward
        basis = _basis(original, copy)
        adds, at = _added_behaviour(copy, original, copy_side)
        flagged = bool(adds) and original.tier in RISKY_TIERS and copy.tier == "community"
        # A page never points readers at a skill that is high risk (or a copy flagged here).
        if not _risky(original):
            found.setdefault(copy.skill.id, []).append(
                _clone(original, similarity, False, copy_side, adds if flagged else (), at, basis)
            )
        if not flagged and not _risky(copy):
            found.setdefault(original.skill.id, []).append(
                _clone(copy, similarity, True, original_side, (), None, basis)
            )
    result = {}
    for skill_id, clones in found.items():
        clones.sort(key=lambda c: (not c.adds, -c.similarity, c.other_id))
        result[skill_id] = tuple(clones[:MAX_CLONES])
    return result


def _candidates(entries: dict[str, _Entry]) -> set[tuple[str, str]]:
    """Pairs of ids worth verifying: LSH neighbours, the best MAX_CANDIDATES estimates per skill."""
    from datasketch import LeanMinHash, MinHashLSH  # brings scipy: loaded only when skills are compared

    lsh = MinHashLSH(threshold=LSH_THRESHOLD, num_perm=NUM_PERM)
    # "affine32" names 32-bit hash values to datasketch, which only checks that an index holds one kind.
    sketches = {
        skill_id: LeanMinHash(seed=SEED, hashvalues=entry.values, scheme="affine32")
        for skill_id, entry in entries.items()
    }
    with lsh.insertion_session() as session:
        for skill_id, sketch in sketches.items():
            session.insert(skill_id, sketch, check_duplication=False)
    pairs: set[tuple[str, str]] = set()
    for skill_id, sketch in sketches.items():
        values = entries[skill_id].values
        near = []
        for other in lsh.query(sketch):
            if other == skill_id:
                continue
            estimate = float(np.count_nonzero(values == entries[other].values)) / NUM_PERM
            if estimate >= ESTIMATE_FLOOR:
                near.append((-estimate, other))
        for _, other in sorted(near)[:MAX_CANDIDATES]:
            pairs.add((min(skill_id, other), max(skill_id, other)))
    return pairs


def _in_reading_order(pairs: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """The pairs ordered so that each skill is read once while its neighbours are compared.

    A breadth-first walk of the candidate graph numbers the skills; a pair is verified when the later
    of its two skills is reached, so a skill's pairs are close together and its lines stay cached.
    """
    neighbours: dict[str, list[str]] = {}
    for a, b in pairs:
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    position: dict[str, int] = {}
    for start in sorted(neighbours):
        if start in position:
            continue
        position[start] = len(position)
        queue = deque([start])
        while queue:
            for other in sorted(neighbours[queue.popleft()]):
                if other not in position:
                    position[other] = len(position)
                    queue.append(other)
    return sorted(pairs, key=lambda p: (max(position[p[0]], position[p[1]]), min(position[p[0]], position[p[1]])))


class _LineCache:
    """Each skill's compared lines per file, read again from disk only for candidate pairs."""

    def __init__(self, limits: Limits):
        self.limit = max(limits.skill_md_bytes, limits.file_bytes)
        self.held: OrderedDict[str, dict[str, Lines] | None] = OrderedDict()
        self.lines = 0

    def get(self, skill: Skill) -> dict[str, Lines] | None:
        if skill.id in self.held:
            self.held.move_to_end(skill.id)
            return self.held[skill.id]
        value = self._read(skill)
        self.held[skill.id] = value
        self.lines += _count(value)
        while len(self.held) > 1 and (len(self.held) > LINES_CACHED or self.lines > MAX_LINES_HELD):
            self.lines -= _count(self.held.popitem(last=False)[1])
        return value

    def _read(self, skill: Skill) -> dict[str, Lines] | None:
        files: dict[str, Lines] = {}
        total = 0
        for skill_file in skill.location.files:
            if not compared(skill_file.path) or skill_file.size > MAX_FILE_BYTES or total >= MAX_SKILL_LINES:
                continue
            try:
                data = crawl.read_bytes(skill_file, self.limit)
            except OSError:
                return None  # gone or changed since it was read: no verdict on it this build
            if "sha256:" + hashlib.sha256(data).hexdigest() != skill_file.digest:
                return None
            lines = normalised_lines(data, min(MAX_FILE_LINES, MAX_SKILL_LINES - total))
            if lines:
                files[skill_file.path] = Lines.of(lines)
                total += len(lines)
        return files


@dataclass(frozen=True)
class Lines:
    """A file's compared lines: their numbers in the file and their normalised texts."""

    numbers: tuple[int, ...]
    texts: tuple[str, ...]

    @classmethod
    def of(cls, lines: Sequence[tuple[int, str]]) -> Lines:
        return cls(tuple(n for n, _ in lines), tuple(t for _, t in lines))

    def __len__(self) -> int:
        return len(self.texts)

    def items(self, start: int = 0, end: int | None = None) -> list[tuple[int, str]]:
        return list(zip(self.numbers[start:end], self.texts[start:end], strict=True))


def _count(files: dict[str, Lines] | None) -> int:
    return sum(len(lines) for lines in files.values()) if files else 0


def _compare(one: dict[str, Lines], two: dict[str, Lines]) -> tuple[float, list[_Diff]]:
    """The share of identical lines over both skills, and one's differences from two, per file."""
    pairs = [(path, path) for path in one if path in two]
    rest_one = [p for p in one if p not in two][:MAX_RENAMED]
    rest_two = [p for p in two if p not in one][:MAX_RENAMED]
    texts_two = {p: set(two[p].texts) for p in rest_two}
    for path in rest_one:
        texts = set(one[path].texts)
        best, best_share = None, RENAME_THRESHOLD
        for other in rest_two:
            if other in texts_two and texts:
                share = len(texts & texts_two[other]) / max(len(texts), len(texts_two[other]))
                if share >= best_share and (best is None or share > best_share):
                    best, best_share = other, share
        if best is not None:
            pairs.append((path, best))
            del texts_two[best]
    total = sum(len(v) for v in one.values()) + sum(len(v) for v in two.values())
    common = 0
    diffs: list[_Diff] = []
    paired_one = {a for a, _ in pairs}
    paired_two = {b for _, b in pairs}
    for path, other in pairs:
        same, added, removed = diff_lines(two[other], one[path])
        common += same
        size = len(one[path]) + len(two[other])
        if added or removed:
            diffs.append(_Diff(path, other, 2 * same / size if size else 1.0, added, removed))
    for path in one:
        if path not in paired_one:
            diffs.append(_Diff(path, None, 0.0, one[path].items(), []))
    for other in two:
        if other not in paired_two:
            diffs.append(_Diff(other, None, 0.0, [], two[other].items()))
    diffs.sort(key=lambda d: (-(len(d.added) + len(d.removed)), d.path))
    return (2 * common / total if total else 0.0), diffs


def diff_lines(old: Lines, new: Lines) -> tuple[int, list[tuple[int, str]], list[tuple[int, str]]]:
    """(common lines, lines only in new, lines only in old): in order (the longest common subsequence)
    when the pair is small enough, else the differing middle part compared as multisets of lines."""
    if old.texts == new.texts:
        return len(old), [], []
    start, end_old, end_new = 0, len(old), len(new)
    if len(old) * len(new) > MAX_DIFF_CELLS:
        while start < end_old and start < end_new and old.texts[start] == new.texts[start]:
            start += 1
        while end_old > start and end_new > start and old.texts[end_old - 1] == new.texts[end_new - 1]:
            end_old -= 1
            end_new -= 1
    same = start + (len(old) - end_old)
    if start in (end_old, end_new):
        return same, new.items(start, end_new), old.items(start, end_old)
    if (end_old - start) * (end_new - start) > MAX_DIFF_CELLS:
        shared = Counter(old.texts[start:end_old]) & Counter(new.texts[start:end_new])
        same += sum(shared.values())
        return same, _beyond(new.items(start, end_new), shared), _beyond(old.items(start, end_old), shared)
    added: list[tuple[int, str]] = []
    removed: list[tuple[int, str]] = []
    for op in Indel.opcodes(old.texts[start:end_old], new.texts[start:end_new]):
        if op.tag == "equal":
            same += op.src_end - op.src_start
        else:
            removed += old.items(start + op.src_start, start + op.src_end)
            added += new.items(start + op.dest_start, start + op.dest_end)
    return same, added, removed


def _beyond(lines: Sequence[tuple[int, str]], shared: Counter) -> list[tuple[int, str]]:
    """The lines of one side not covered by the shared multiset (the later occurrences)."""
    left = Counter(shared)
    out = []
    for number, text in lines:
        if left[text] > 0:
            left[text] -= 1
        else:
            out.append((number, text))
    return out


def _reverse(diff: _Diff) -> _Diff:
    if diff.other_path is None:  # a file only one side has
        return _Diff(diff.path, None, 0.0, list(diff.removed), list(diff.added))
    return _Diff(diff.other_path, diff.path, diff.similarity, list(diff.removed), list(diff.added))


def _rank(entry: _Entry) -> tuple:
    """Lower ranks first: the original of a pair."""
    return (-TIERS.index(entry.tier), entry.first is None, entry.first or "", entry.skill.id)


def _basis(original: _Entry, copy: _Entry) -> str:
    if original.tier != copy.tier:
        return "publisher tier"
    if original.first is not None and copy.first is not None and original.first != copy.first:
        return "first published"
    return "id order"


def _risky(entry: _Entry) -> bool:
    return entry.content.risk.level in ("high", "critical")


def _clone(other: _Entry, similarity: float, original: bool, diffs: list[_Diff], adds, at, basis: str) -> Clone:
    files = tuple(d.kept() for d in [d for d in diffs if d.added or d.removed][:MAX_FILES_SHOWN])
    first = next(((d.path, d.added[0][0]) for d in diffs if d.added), None)
    return Clone(
        other.skill.id, similarity, original, files, tuple(adds), other.publisher, other.tier, at or first, basis
    )


def _shown(skill: Skill, path: str) -> str:
    folder = skill.location.rel_folder
    return path if folder in (".", "") else f"{folder}/{path}"


def _rule_categories() -> dict[str, RiskRule]:
    from registry.score.risk.assessment import RULES  # not at import time: risk.py gathers this module's rules

    return {rule.code: rule for rule in RULES}


def _added_behaviour(copy: _Entry, original: _Entry, diffs: list[_Diff]) -> tuple[list[str], tuple | None]:
    """What the copy's added lines do that the original does not, and where the first of it is."""
    added: dict[str, set[int]] = {}
    for diff in diffs:
        if diff.added:
            added[_shown(copy.skill, diff.path)] = {n for n, _ in diff.added}
    if not added:
        return [], None
    rules = _rule_categories()
    risk, base = copy.content.risk, original.content.risk
    known = {(f.code, f.excerpt) for f in base.findings}
    found: list[tuple[str, int, str]] = []  # (path, line, what)
    for finding in risk.findings:
        rule = rules.get(finding.code)
        if rule is None or rule.category == "clone" or finding.line not in added.get(finding.path, ()):
            continue
        if (finding.code, finding.excerpt) in known:
            continue
        word = RISKY_CATEGORIES.get(rule.category)
        if word is None and LEVELS.index(rule.level) >= LEVELS.index("high"):
            word = CATEGORIES.get(rule.category, rule.category)
        if word is not None:
            found.append((finding.path, finding.line or 0, f"{word} ({rule.title}, line {finding.line})"))
    found += _added_uses(risk.card, base.card, added)
    analysed = len(found)  # what a rule or the card saw points the finding; the added words only name more
    found += _added_text(copy.skill, diffs)
    if not found:
        return [], None
    order = sorted(range(len(found)), key=lambda i: (i >= analysed, found[i]))
    whats = list(dict.fromkeys(found[i][2] for i in order))
    path, line, _ = found[order[0]]
    folder = copy.skill.location.rel_folder
    relative = path if folder in (".", "") else path.removeprefix(folder + "/")
    return whats[:6], (relative, line)


# What added lines do, read from their text when no rule or card entry covers them: in a near-copy the
# difference is a handful of lines, so their words alone say what was added. Scripts: network calls
# and URLs, processes and evaluation, secrets, persistence points. Instructions (Markdown): commands
# that fetch or run code, and overriding or concealing instructions; a link added to prose is not.
_SCRIPT_ADDS = (
    ("network", re.compile(
        r"https?://|\b(?:urlopen|urllib\.request|requests\.(?:get|post|put|request)|http\.client|httpx\.|aiohttp"
        r"|socket\.(?:socket|create_connection)|fetch\(|XMLHttpRequest|axios|WebSocket|Invoke-WebRequest"
        r"|Net\.WebClient|\bcurl\b|\bwget\b|\bncat\b|\bnc\s+-)", re.IGNORECASE)),
    ("execution", re.compile(
        r"\b(?:subprocess|os\.system|os\.popen|Popen|execSync|execFile|child_process|spawn|eval|exec"
        r"|new\s+Function|bash\s+-c|sh\s+-c|powershell|pwsh|npx|pip3?\s+install|npm\s+(?:i|install)|chmod\s+\+x"
        r"|nohup|setsid|daemon=True)\b|\|\s*(?:ba|z|da)?sh\b")),
    ("secret access", re.compile(
        r"\.ssh/|\.aws/|\.netrc|\.npmrc|\.pypirc|\bid_rsa|\bid_ed25519|keychain|\bwallet|seed.?phrase|private.?key"
        r"|(?:environ|getenv|process\.env|ENV)\W{0,3}\w*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE|CREDENTIAL)",
        re.IGNORECASE)),
    ("persistence", re.compile(
        r"crontab|/etc/cron|systemd|systemctl\s+enable|launchctl|LaunchAgents|\.bashrc|\.zshrc|\.bash_profile"
        r"|\.profile\b|authorized_keys|\.git/hooks|CLAUDE\.md|\.claude/|mcp\.json|settings\.json", re.IGNORECASE)),
)  # fmt: skip
_PROSE_ADDS = (
    ("code execution", re.compile(
        r"\b(?:curl|wget|iwr|Invoke-WebRequest)\b[^\n]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b|\b(?:eval|exec)\s*[(\"'`$]"
        r"|\bnpx\s+[\w@]|\bpip3?\s+install\s+(?:git\+|https?://)", re.IGNORECASE)),
    ("instruction override", re.compile(
        r"\b(?:ignore|disregard|override|forget)\b[^\n]{0,40}\b(?:previous|prior|earlier|above|system|other|all)\b"
        r"[^\n]{0,20}\b(?:instructions?|rules?|prompts?|guidelines?|allow-?list)"
        r"|\b(?:do not|don't|never)\s+(?:tell|mention|inform|show|reveal|ask)\b[^\n]{0,30}\b(?:user|human|anyone)"
        r"|\bwithout\s+(?:telling|asking|informing|notifying|confirming)"
        r"|\b(?:silently|quietly|secretly)\b[^\n]{0,40}\b(?:send|forward|upload|post|copy|run|execute|install|delete)"
        r"|\b(?:send|forward|upload|post|copy|run|execute|install|delete)\w*\b[^\n]{0,60}\b(?:silently|quietly|secretly)\b",
        re.IGNORECASE)),
    ("data sent out", re.compile(r"\b(?:webhook|pastebin|requestbin|ngrok|transfer\.sh)\b", re.IGNORECASE)),
)  # fmt: skip
MAX_ADDED_READ = 2_000  # added lines read for their words, per clone
_MARKDOWN = (".md", ".markdown", ".mdx", ".txt", ".rst")


def _added_text(skill: Skill, diffs: list[_Diff]) -> list[tuple[str, int, str]]:
    out: list[tuple[str, int, str]] = []
    budget = MAX_ADDED_READ
    for diff in diffs:
        prose = diff.path.lower().endswith(_MARKDOWN)
        for number, text in diff.added[:budget]:
            for word, pattern in _PROSE_ADDS if prose else _SCRIPT_ADDS:
                match = pattern.search(text[:MAX_LINE_CHARS])
                if match is not None:
                    out.append((_shown(skill, diff.path), number, show(f"{word} ({match.group(0)}, line {number})")))
        budget -= min(budget, len(diff.added))
        if budget <= 0:
            break
    return out


def _added_uses(card: CapabilityCard, base: CapabilityCard, added: dict[str, set[int]]) -> list[tuple[str, int, str]]:
    known = {(use.kind, use.value) for use in base.uses}
    out = []
    for use in card.uses:
        if use.line not in added.get(use.path, ()) or (use.kind, use.value) in known:
            continue
        what = None
        if use.kind == HOST and (use.detail in ("send", "fetch", "open") or use.sensitive):
            what = f"network ({use.detail or 'contacts'} {use.value})"
        elif use.kind in (ENV, PATH) and use.sensitive:
            what = f"secret access ({use.value})"
        elif use.kind == PROCESS:
            what = f"execution ({use.detail or 'runs'} {use.value})"
        elif use.kind == INSTALL and use.detail in ("url", "hook", "unpinned"):
            what = f"package install ({use.detail} {use.value})"
        elif use.kind == PERSISTENCE:
            what = f"persistence ({use.value})"
        elif use.detail == "sudo":
            what = f"execution with sudo ({use.value})"
        if what is not None:
            out.append((use.path, use.line or 0, show(what)))
    return out


def apply_clones(skill: Skill, content: ContentScore, clones: Sequence[Clone]) -> ContentScore:
    """The content score with the clones' findings added and the risk level raised to match."""
    if not clones:
        return content
    items: list[tuple[Finding, RiskRule, dict]] = []
    skill_md = _shown(skill, skill.location.skill_md)
    for clone in clones:
        rule = NEAR_COPY_ADDS if clone.adds else SEE_ALSO
        path, line = (_shown(skill, clone.at[0]), clone.at[1]) if clone.at else (skill_md, None)
        excerpt = next(
            (t for f in clone.files if clone.at and f.path == clone.at[0] for n, t in f.added if n == clone.at[1]), ""
        )
        params = {
            "other": clone.other_id, "percent": clone.percent, "other_tier": clone.other_tier,
            "other_publisher": clone.other_publisher, "what": ", ".join(clone.adds), "changes": clone.summary(),
            "relation": clone.relation_text,
        }  # fmt: skip
        column = None if line is None else len(excerpt) - len(excerpt.lstrip()) + 1  # the added line's text
        items.append((rule.at(path, line, column, excerpt=excerpt, **params), rule, params))
    risk = content.risk
    level = max([risk.level, *(rule.level for _, rule, _ in items)], key=LEVELS.index)
    reasons = list(risk.reasons)
    for finding, rule, params in sorted(items, key=lambda item: -LEVELS.index(item[1].level)):
        where = f"{finding.path}:{finding.line}" if finding.line else finding.path
        reason = f"{rule.code} {CATEGORIES[rule.category]} ({rule.level}): {rule.summarise(**params)} in {where}"
        if LEVELS.index(rule.level) >= LEVELS.index(risk.level):
            reasons.insert(0, reason)
        else:
            reasons.append(reason)
    new = tuple(finding for finding, _, _ in items)
    findings = tuple(sorted(risk.findings + new, key=lambda f: f.sort_key()))
    skill.risk_level = level
    risk = dataclasses.replace(risk, level=level, findings=findings, reasons=tuple(reasons))
    return dataclasses.replace(content, risk=risk, findings=content.findings + new, clones=tuple(clones))
