"""Near-copies across the registry: which skills are mostly the same, which one came first, what changed.

Two steps, so the expensive part runs once per skill and is cached with its risk analysis:

1. Per skill, in the worker (`fingerprint`): every compared file's lines are normalised (whitespace
   collapsed, blank and punctuation-only lines dropped) and the set of lines is summarised as a
   MinHash of NUM_PERM permutations (4 bytes each: 256 bytes per skill). Compared files
   are SKILL.md, scripts, references and every other text file, except licence and notice texts and
   package lock files: two unrelated skills that share an MIT licence and a lock file are not alike.

2. Registry-wide, once per build after history is read and before trust is earned
   (`find_clones`, `apply_clones`): an LSH index over every fingerprint (the bands datasketch's
   MinHashLSH would use, kept in numpy arrays) proposes candidate pairs (estimated Jaccard
   similarity of the line sets >= LSH_THRESHOLD, at most MAX_CANDIDATES per skill, the best
   estimates first); each candidate is then verified exactly by
   reading both skills' files again: files are paired by path (then renamed files by content), and
   the similarity is the share of identical normalised lines, 2 * common / (lines of one + lines of
   the other), over all compared files of both skills (common lines are the longest common
   subsequence of each file pair: rapidfuzz's Indel distance). A pair at or above CLONE_THRESHOLD
   (80%) is a clone, and its difference is kept per file: lines added and removed.

In a build with state (`detect_clones`), the last build's candidates and clone lists are kept
(CloneMemory) and each pair's verdict is cached by both sides' inputs: a change of k skills asks
the index again only around them and compares only the pairs they are in, with the same result.

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
import itertools
import pickle
import re
import string
import zlib
from collections import Counter, OrderedDict, deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from rapidfuzz.distance import Indel

from registry import crawl
from registry.config import Limits
from registry.model import Finding, Skill
from registry.policy import TIERS, Policy, Publisher
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
from registry.score.risk.assessment import claim
from registry.score.risk.lines import MAX_FILE_BYTES, decode, is_binary
from registry.score.risk.rules import CATEGORIES, LEVELS, RiskRule, show
from registry.text import Caseless

if TYPE_CHECKING:
    from registry.score import ContentScore
    from registry.state import BuildState

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
    and each line is hashed with CRC-32 (in C, no Python loop), the distinct hashes kept. At most
    MAX_FINGERPRINT_LINES distinct lines count: the ones with the smallest hashes, a sample that is the
    same for the same lines in every skill.
    """
    hashes: set[int] = set()
    for name, data in contents.items():
        if not compared(name) or not isinstance(data, bytes) or len(data) > MAX_FILE_BYTES or is_binary(data):
            continue
        hashes.update(map(zlib.crc32, map(bytes.strip, data.split(b"\n"), itertools.repeat(_EDGES))))
    hashes.discard(0)  # the empty line
    if len(hashes) < MIN_LINES:
        return None
    # The signature is a minimum over the lines, whatever their order: sorted only to pick the sample.
    values = sorted(hashes)[:MAX_FINGERPRINT_LINES] if len(hashes) > MAX_FINGERPRINT_LINES else hashes
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


@dataclass
class CloneMemory:
    """What one build's near-copy detection leaves for the next, so that the next redoes only what changed.

    Candidates and verdicts depend only on the skills' contents (an unchanged input means the same
    fingerprint, files, risk analysis, policy, code and first publication), so the next build chooses
    candidates again only for skills near a changed one, and assembles clone lists again only for the
    skills of a pair that appeared, went away or has a changed side.
    """

    inputs: dict[str, str]  # skill id -> what its fingerprint and its pairs' verdicts depend on
    nearest: dict[str, tuple[str, ...]]  # skill id -> its candidates, the best estimates first
    found: dict[str, tuple[Clone, ...]]  # the result: skill id -> its clones, best first
    stale: int = 0  # verdicts in the build state that no current pair uses (deleted when they pass STALE_SHARE)


# Deleting unused verdicts means listing every current pair's key: done once they are this share of the
# pairs, so that a one-skill change does not pay for the whole registry, and the state stays its size.
STALE_SHARE = 0.25
_Verdict = tuple[tuple[str, Clone], ...]  # what one pair adds to its skills' clone lists: (skill id, clone)
PAIR_KIND = "clone-pair"  # the build state's kind for pair verdicts
VERDICT_BATCH = 512  # pair verdicts read from or written to the build state at a time


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
    return detect_clones(skills, contents, policy, first_published, limits).found


def detect_clones(
    skills: Iterable[Skill],
    contents: Mapping[str, ContentScore],
    policy: Policy,
    first_published: Mapping[str, str] | None = None,
    limits: Limits | None = None,
    previous: CloneMemory | None = None,
    inputs: Mapping[str, str] | None = None,
    state: BuildState | None = None,
) -> CloneMemory:
    """find_clones, redoing only what changed since `previous` when given each skill's `inputs`.

    `inputs` maps every skill id to a digest of everything its fingerprint and its pairs' verdicts
    depend on (its files, risk analysis, the policy, the limits, the code, its first publication);
    `state` keeps each pair's verdict, keyed by both sides' inputs, so that a skill next to a changed
    one has its clone list assembled again without reading an unchanged pair's files. The result is
    the same as a full detection's.
    """
    entries = _entries(skills, contents, policy, first_published or {})
    if inputs is None or any(skill_id not in inputs for skill_id in entries):
        previous, inputs, state = None, None, None
    known = {skill_id: inputs[skill_id] for skill_id in entries} if inputs is not None else {}
    changed = set(entries) if previous is None else {s for s in entries if previous.inputs.get(s) != known[s]}
    departed = set() if previous is None else set(previous.inputs).difference(entries)
    if previous is not None and not changed and not departed:
        return previous
    nearest = _nearest(entries, previous, changed, departed)
    pairs = _pairs(nearest)
    stale = 0
    if previous is None:
        dirty = set(entries)
    else:
        old_pairs = _pairs(previous.nearest)
        dirty = {skill_id for pair in pairs ^ old_pairs for skill_id in pair}
        dirty.update(skill_id for pair in pairs if not changed.isdisjoint(pair) for skill_id in pair)
        gone = changed | departed
        stale = previous.stale + sum(1 for pair in old_pairs if pair not in pairs or not gone.isdisjoint(pair))
    wanted = [pair for pair in pairs if not dirty.isdisjoint(pair)]
    # Each verdict is taken into its skills' lists as it comes and then dropped: at 50,000 skills holding every
    # pair's verdict (and its pickle) until the end was most of the score stage's peak memory.
    found: dict[str, list[Clone]] = {}
    for verdict in _verdicts(wanted, entries, known, state, limits or Limits()):
        for skill_id, clone in verdict:
            if skill_id in dirty:
                kept = found.setdefault(skill_id, [])
                kept.append(clone)
                if len(kept) > 2 * MAX_CLONES:
                    _best_first(kept)
                    del kept[MAX_CLONES:]
    result = {}
    if previous is not None:
        result = {s: clones for s, clones in previous.found.items() if s in entries and s not in dirty}
    for skill_id, clones in found.items():
        _best_first(clones)
        result[skill_id] = tuple(clones[:MAX_CLONES])
    if state is not None and (previous is None or stale > STALE_SHARE * len(pairs)):
        state.keep_only(PAIR_KIND, (_pair_key(pair, known) for pair in pairs))
        stale = 0
    return CloneMemory(known, nearest, dict(sorted(result.items())), stale)


def _entries(
    skills: Iterable[Skill], contents: Mapping[str, ContentScore], policy: Policy, first_published: Mapping[str, str]
) -> dict[str, _Entry]:
    entries: dict[str, _Entry] = {}
    owners: dict[str, Publisher | None] = {}  # per namespace: owner_of walks every publisher
    for skill in skills:
        content = contents.get(skill.id)
        fp = getattr(content, "fingerprint", None)
        if content is None or fp is None or fp.lines < MIN_LINES or len(fp.minhash) != 4 * NUM_PERM:
            continue
        namespace = skill.id.split("/", 1)[0] if "/" in skill.id else ""
        if namespace not in owners:
            owners[namespace] = policy.owner_of(namespace) if namespace else None
        owner = owners[namespace]
        values = np.frombuffer(fp.minhash, dtype="<u4")
        entries[skill.id] = _Entry(
            skill, content, values, owner.name if owner else (skill.publisher or namespace or skill.id),
            owner.tier if owner else "community", first_published.get(skill.id),
        )  # fmt: skip
    return entries


def _pair_key(pair: tuple[str, str], inputs: Mapping[str, str]) -> str:
    a, b = pair
    return hashlib.sha256(f"{a}\0{inputs[a]}\0{b}\0{inputs[b]}".encode("utf-8", "surrogateescape")).hexdigest()


def _verdicts(
    pairs: list[tuple[str, str]], entries: dict[str, _Entry], inputs: Mapping[str, str], state: BuildState | None,
    limits: Limits,
) -> Iterator[_Verdict]:  # fmt: skip
    """Each pair's verdict, one at a time: from the build state when both sides are unchanged, else read and
    compared (and saved a batch at a time). A pair whose files changed since they were read has none."""
    saved: set[tuple[str, str]] = set()
    if state is not None:
        for start in range(0, len(pairs), VERDICT_BATCH):
            batch = {_pair_key(pair, inputs): pair for pair in pairs[start : start + VERDICT_BATCH]}
            for key, value in state.get_many(PAIR_KIND, batch).items():
                saved.add(batch[key])
                yield pickle.loads(value)
    lines = _LineCache(limits)
    fresh: list[tuple[str, bytes]] = []
    for pair in _in_reading_order({pair for pair in pairs if pair not in saved}):
        verdict = _verify(entries[pair[0]], entries[pair[1]], lines)
        if verdict is None:
            continue  # a file changed since it was read: no verdict this build, and none kept
        if state is not None:
            fresh.append((_pair_key(pair, inputs), pickle.dumps(verdict, pickle.HIGHEST_PROTOCOL)))
            if len(fresh) >= VERDICT_BATCH:
                state.put_many(PAIR_KIND, fresh)
                fresh = []
        yield verdict
    if fresh and state is not None:
        state.put_many(PAIR_KIND, fresh)


def _best_first(clones: list[Clone]) -> None:
    """A skill's clones in the order its page lists them: those adding behaviour, then the most similar."""
    clones.sort(key=lambda c: (not c.adds, -c.similarity, c.other_id))


def _verify(one: _Entry, two: _Entry, lines: _LineCache) -> _Verdict | None:
    """Whether two skills are clones, which is the original, and each one's clone entry; None if unreadable."""
    left, right = lines.get(one.skill), lines.get(two.skill)
    if left is None or right is None:
        return None
    similarity, forward = _compare(left, right)  # one's side: added = only in one
    if similarity < CLONE_THRESHOLD:
        return ()
    backward = [_reverse(d) for d in forward]
    original, copy = (one, two) if _rank(one) <= _rank(two) else (two, one)
    copy_side = backward if copy is two else forward
    original_side = forward if copy is two else backward
    basis = _basis(original, copy)
    adds, at = _added_behaviour(copy, original, copy_side)
    flagged = bool(adds) and original.tier in RISKY_TIERS and copy.tier == "community"
    verdict: list[tuple[str, Clone]] = []
    # A page never points readers at a skill that is high risk (or a copy flagged here).
    if not _risky(original):
        verdict.append(
            (copy.skill.id, _clone(original, similarity, False, copy_side, adds if flagged else (), at, basis))
        )
    if not flagged and not _risky(copy):
        verdict.append((original.skill.id, _clone(copy, similarity, True, original_side, (), None, basis)))
    return tuple(verdict)


# The LSH bands: datasketch's MinHashLSH(threshold=LSH_THRESHOLD, num_perm=NUM_PERM) chooses 14 bands of
# 4 values (the first 56 of the 64), and two skills are neighbours when all 4 values of any band are
# equal. Done here with numpy so that the index is a few array sorts, and a skill's neighbours can be
# asked for without querying every skill (and without importing datasketch, which brings scipy).
BANDS, ROWS = 14, 4


class _Bands:
    """Every skill's neighbours: the skills that share all ROWS values of at least one band with it."""

    def __init__(self, matrix: np.ndarray):
        self.bands: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        key = np.dtype((np.void, 4 * ROWS))
        for band in range(BANDS):
            keys = np.ascontiguousarray(matrix[:, band * ROWS : (band + 1) * ROWS]).view(key).ravel()
            _, group, sizes = np.unique(keys, return_inverse=True, return_counts=True)
            group = group.ravel()
            order = np.argsort(group, kind="stable")  # rows of the same bucket together
            starts = np.concatenate(([0], np.cumsum(sizes)))
            self.bands.append((group, order, starts, sizes))
        self.shared = np.zeros(len(matrix), dtype=bool)  # rows that share some bucket: the others have no neighbour
        for group, _, _, sizes in self.bands:
            self.shared |= sizes[group] > 1

    def neighbours(self, row: int) -> np.ndarray:
        if not self.shared[row]:
            return np.empty(0, dtype=np.intp)
        parts = []
        for group, order, starts, sizes in self.bands:
            bucket = group[row]
            if sizes[bucket] > 1:
                parts.append(order[starts[bucket] : starts[bucket + 1]])
        near = np.unique(np.concatenate(parts))
        return near[near != row]


class Neighbours:
    """Each skill's LSH neighbours ranked as candidates are: estimate at least ESTIMATE_FLOOR, the highest
    estimate first, then the id. The build's detection takes the first MAX_CANDIDATES of a skill's list;
    check-pr asks it which skills a full build would pair with the ones a pull request touches."""

    def __init__(self, values: Mapping[str, np.ndarray]):
        self.ids = sorted(values)
        self.row_of = {skill_id: row for row, skill_id in enumerate(self.ids)}
        self.matrix = (
            np.stack([values[skill_id] for skill_id in self.ids]) if self.ids else np.empty((0, NUM_PERM), "<u4")
        )
        self.bands = _Bands(self.matrix)

    def of(self, skill_id: str) -> np.ndarray:
        """The rows of every skill sharing a band with `skill_id`, unranked."""
        return self.bands.neighbours(self.row_of[skill_id])

    def ranked(self, skill_id: str, most: int | None = None) -> tuple[str, ...]:
        row = self.row_of[skill_id]
        near = self.bands.neighbours(row)
        counts = np.count_nonzero(self.matrix[near] == self.matrix[row], axis=1)
        close = counts / NUM_PERM >= ESTIMATE_FLOOR
        near, counts = near[close], counts[close]
        best = near[np.lexsort((near, -counts))[:most]]  # rows are in id order: ties by id
        return tuple(self.ids[other] for other in best)


def _pairs(nearest: Mapping[str, tuple[str, ...]]) -> set[tuple[str, str]]:
    """Every candidate pair once, its smaller id first."""
    return {(min(skill_id, other), max(skill_id, other)) for skill_id, near in nearest.items() for other in near}


def _nearest(
    entries: dict[str, _Entry], previous: CloneMemory | None, changed: set[str], departed: set[str]
) -> dict[str, tuple[str, ...]]:
    """Each skill's candidates: the best MAX_CANDIDATES of its ranked neighbours (Neighbours). With
    `previous`, only the skills whose list can differ are asked again: the changed ones, their neighbours
    now (a changed or added skill can displace a candidate), and the skills whose candidates include a
    changed or departed one (it can leave the list and let another in). Every other skill's neighbours and
    their estimates are as they were."""
    neighbours = Neighbours({skill_id: entry.values for skill_id, entry in entries.items()})
    ids = neighbours.ids
    if previous is None:
        asked = set(ids)
        nearest: dict[str, tuple[str, ...]] = {}
    else:
        gone = changed | departed
        asked = set(changed)
        for skill_id in changed:
            asked.update(ids[row] for row in neighbours.of(skill_id))
        asked.update(s for s, near in previous.nearest.items() if s in entries and not gone.isdisjoint(near))
        nearest = {s: near for s, near in previous.nearest.items() if s in entries and s not in asked}
    for skill_id in asked:
        best = neighbours.ranked(skill_id, MAX_CANDIDATES)
        if best:
            nearest[skill_id] = best
    return dict(sorted(nearest.items()))


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
    ("network", Caseless(
        r"https?://|\b(?:urlopen|urllib\.request|requests\.(?:get|post|put|request)|http\.client|httpx\.|aiohttp"
        r"|socket\.(?:socket|create_connection)|fetch\(|XMLHttpRequest|axios|WebSocket|Invoke-WebRequest"
        r"|Net\.WebClient|\bcurl\b|\bwget\b|\bncat\b|\bnc\s+-)")),
    ("execution", re.compile(
        r"\b(?:subprocess|os\.system|os\.popen|Popen|execSync|execFile|child_process|spawn|eval|exec"
        r"|new\s+Function|bash\s+-c|sh\s+-c|powershell|pwsh|npx|pip3?\s+install|npm\s+(?:i|install)|chmod\s+\+x"
        r"|nohup|setsid|daemon=True)\b|\|\s*(?:ba|z|da)?sh\b")),
    ("secret access", Caseless(
        r"\.ssh/|\.aws/|\.netrc|\.npmrc|\.pypirc|\bid_rsa|\bid_ed25519|keychain|\bwallet|seed.?phrase|private.?key"
        r"|(?:environ|getenv|process\.env|ENV)\W{0,3}\w*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE|CREDENTIAL)")),
    ("persistence", Caseless(
        r"crontab|/etc/cron|systemd|systemctl\s+enable|launchctl|LaunchAgents|\.bashrc|\.zshrc|\.bash_profile"
        r"|\.profile\b|authorized_keys|\.git/hooks|CLAUDE\.md|\.claude/|mcp\.json|settings\.json")),
)  # fmt: skip
_PROSE_ADDS = (
    ("code execution", Caseless(
        r"\b(?:curl|wget|iwr|Invoke-WebRequest)\b[^\n]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b|\b(?:eval|exec)\s*[(\"'`$]"
        r"|\bnpx\s+[\w@]|\bpip3?\s+install\s+(?:git\+|https?://)")),
    ("instruction override", Caseless(
        r"\b(?:ignore|disregard|override|forget)\b[^\n]{0,40}\b(?:previous|prior|earlier|above|system|other|all)\b"
        r"[^\n]{0,20}\b(?:instructions?|rules?|prompts?|guidelines?|allow-?list)"
        r"|\b(?:do not|don't|never)\s+(?:tell|mention|inform|show|reveal|ask)\b[^\n]{0,30}\b(?:user|human|anyone)"
        r"|\bwithout\s+(?:telling|asking|informing|notifying|confirming)"
        r"|\b(?:silently|quietly|secretly)\b[^\n]{0,40}\b(?:send|forward|upload|post|copy|run|execute|install|delete)"
        r"|\b(?:send|forward|upload|post|copy|run|execute|install|delete)\w*\b[^\n]{0,60}\b(?:silently|quietly|secretly)\b")),
    ("data sent out", Caseless(r"\b(?:webhook|pastebin|requestbin|ngrok|transfer\.sh)\b")),
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
                line = text[:MAX_LINE_CHARS]
                match = pattern.search(line)
                if match is not None:  # the line's own text: a Caseless match holds the lower-cased one
                    found = line[match.start() : match.end()]
                    out.append((_shown(skill, diff.path), number, show(f"{word} ({found}, line {number})")))
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
    claims = risk.claims + tuple(claim(finding, params) for finding, _, params in items)
    risk = dataclasses.replace(risk, level=level, findings=findings, reasons=tuple(reasons), claims=claims)
    return dataclasses.replace(content, risk=risk, findings=content.findings + new, clones=tuple(clones))
