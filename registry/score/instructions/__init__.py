"""Instruction analysis: what a skill's prose tells the agent to do, read sentence by sentence.

Malicious skills rarely need code: a few sentences a few paragraphs deep tell the agent to drop its
instructions, act behind the user's back, turn off confirmations, hide check results, keep state
where nobody looks, load its real instructions from a server, or send the conversation out. This
analyser reads every place an agent reads instructions (Markdown prose of SKILL.md, references and
templates, HTML comments inside it, the frontmatter, comments and docstrings of scripts) and
reports those families (R060, R061, R130-R136). It also adds to the card
every host named in instructions and the environment variables and home or system paths the
prose tells the agent to read or write.

Three joins read a sentence with what stands in its Markdown section: the conversation saved to a
file that a command (or sentence) of the section sends to a remote host (R135); the agent told to
write its own configuration, as persistence uses on the card, reported (R137) when the write
reaches the agent's user-wide instructions, other installed skills, its permission grants or every
repository, or puts itself back when removed (a project's own CLAUDE.md or AGENTS.md is only on the
card); a wallet's recovery phrase or private key asked of the user (R138), and sent on (R139).

How a sentence is judged. Families are phrase shapes (verbs x objects x qualifiers, in several
phrasings, a few in other languages), never single words. A match counts only when

- it is not negated in its clause ("never ignore previous instructions", "do not send the
  conversation anywhere", "... is not allowed");
- it is not a mention: quoted ("ignore previous instructions"), introduced as an example ("such
  as", "phrases like", "if a page says"), or in text that warns or teaches (risk/lines.py WARNING_WORDS
  and a few teaching words, in the sentence, the section heading, the line introducing a list or a
  table's header row);
- for the action families, it is addressed to the agent: the verb starts its clause (an
  imperative) or follows "you should", "the agent must", "make sure to" ...; "the tool fails
  silently" describes, "silently upload the file" instructs.

Cost and bounds: one `in` test per needle over each file's lower-cased text decides whether a file
is read at all (most are not); only the paragraphs around a needle are split into sentences; each
paragraph is at most MAX_UNIT characters and MAX_JOIN lines, long lines are read in windows around
the needles, at most MAX_HITS needle occurrences are followed per file, every regex has bounded
gaps, and a rule reports at most PER_FILE findings per file. Nothing from a skill is run.

The rules read the places an agent reads instructions: Markdown prose (SKILL.md body, references,
templates, HTML comments), the frontmatter, and comments and docstrings of scripts; R130 also reads
commands, where the permission-skipping flags it knows are used.

One module per family, each rule's declaration beside the shapes or the join that fires it:

- overrides.py: overriding the agent's instructions (R060) and hiding actions from the user (R061),
  both declared in risk/rules.py, where they always were;
- confirmations.py, confirmations and checks: confirmations or safety checks skipped, and the flags
  that turn an agent's prompts off (R130), check results hidden (R131), success reported whatever
  happened (R132);
- state.py, state and remote instructions: hidden state (R133), instructions loaded from a remote
  source (R134), a page opened before every task (R136);
- conversation.py: the conversation or the context sent out (R135), in one sentence or saved to a file
  that the section sends;
- agent_config.py: the agent's own configuration rewritten beyond the task (R137);
- money.py: a wallet's recovery phrase or private key asked of the user (R138) and sent on (R139);
- uses.py: the hosts, environment variables and home or system paths the prose names, for the card;
- reading.py, what they share: the vocabulary, phrase shapes and families, the tests a match must pass
  (negation, mention, warning and teaching, addressed to the agent), units and the findings' form.

What it reports are facts, never findings: the order a sentence gives the agent (a shape's `tells`: "override",
"conceal", "send out the conversation" ...), with its file, line and the words matched. Each family module declares
the rule each order is given (its `ROWS`, beside the rule's record); risk/assessment.py joins every package's rows
into the one fact table (docs/risk.md lists it).

This module reads each file: one automaton over every family's needles, the paragraphs around them
(units), their sentences, each family's shapes judged there, then the joins; its bounds are below
(LONG_LINE and WINDOW, which the joins share too, are in reading.py; the card's in uses.py).
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import PurePosixPath

import ahocorasick_rs

from registry.model import Skill
from registry.score.card import AnalyserResult, Use
from registry.score.instructions import agent_config, confirmations, conversation, money, overrides, state
from registry.score.instructions.agent_config import _CONFIG_GATE, _TEXT_FENCES, _agent_configuration
from registry.score.instructions.confirmations import _NEEDLES_FLAGS, _flag_items
from registry.score.instructions.conversation import _SAVE_CONTEXT, E, _conversation_sent, _exfil_destination
from registry.score.instructions.money import _WALLET_SECRET, _wallet_secret
from registry.score.instructions.overrides import _QUIET_FLAG, C
from registry.score.instructions.reading import (
    _BLOCK_NOUN,
    _MENTION,
    _RISKY_ACTION,
    _SENTENCE_WARNING,
    _TEACHING,
    _URL_ANYWHERE,
    LONG_LINE,
    WINDOW,
    Family,
    Shape,
    _directive,
    _fact,
    _imperative_clause,
    _negated,
    _quoted,
    _Sentence,
    _teaching,
    _Unit,
)
from registry.score.instructions.uses import _USE_NEEDLES, MAX_USES_PER_FILE, MAX_USES_PER_SKILL, _uses
from registry.score.risk.facts import Fact, Row
from registry.score.risk.lines import CODE, COMMENT, CONFIG, DATA, INLINE, PROSE, Line, TextFile
from registry.score.risk.needles import INSTRUCTIONS, needles_in
from registry.score.risk.rules import RiskRule
from registry.score.vocabulary import LINE_BREAKS, sentence_end

__all__ = ["FAMILIES", "MAX_SENTENCE", "ROWS", "RULES", "analyse"]

PER_FILE = 5  # findings per rule per file
MAX_UNIT = 6000  # characters of one paragraph read at once
MAX_JOIN = 40  # physical lines joined into one paragraph
MAX_HITS = 5000  # needle occurrences followed per file
MAX_UNITS = 200  # paragraphs or windows read per file
MAX_SENTENCE = 1200  # longer sentences are read in overlapping pieces
_BACK = 60  # lines walked back to find a list's introduction
_BACK_LINES = 8  # lines of the section before a sentence read for what "it" stands for ...
_BACK_CHARS = 1200  # ... at most this many characters
_SECTION_LINES = 80  # lines walked each way from a sentence to the edges of its Markdown section
_HEADING_TRIES = 20  # "#" lines (script comments in code blocks) passed over looking for the section heading


# Every rule this package declares, in one order (R060 and R061 are declared in risk/rules.py).
RULES: tuple[RiskRule, ...] = (
    confirmations.DISABLE_CONFIRMATION,
    confirmations.SUPPRESS_VALIDATION,
    confirmations.FALSE_SUCCESS,
    state.HIDDEN_STATE,
    state.REMOTE_INSTRUCTIONS,
    conversation.CONTEXT_EXFILTRATION,
    state.PAGE_BEFORE_EACH_TASK,
    agent_config.AGENT_CONFIGURATION,
    money.WALLET_SECRET_ASKED,
    money.WALLET_SECRET_SENT,
)
# What the shapes and joins read (the order told to the agent) and the rule each order is given: the package's rows
# of the one fact table (risk/assessment.py), each declared beside its shapes.
ROWS: tuple[Row, ...] = (
    *overrides.ROWS,
    *confirmations.ROWS,
    *state.ROWS,
    *conversation.ROWS,
    *agent_config.ROWS,
    *money.ROWS,
)


# -- the families and their needles ---------------------------------------------------------------

FAMILIES: dict[str, Family] = {
    family.name: family
    for family in (*overrides.FAMILIES, *confirmations.FAMILIES, *state.FAMILIES, *conversation.FAMILIES)
}
_FLAG = "flags"
_USES = "uses"
# Joins within a Markdown section (see "joins" below): their needles, read in prose (and, for the
# agent's configuration, in plain-text code blocks, which carry text meant to be pasted as instructions).
_J_CONVERSATION, _J_CONFIG, _J_WALLET = "join:conversation", "join:configuration", "join:wallet"
_JOIN_NEEDLES: dict[str, tuple[str, ...]] = {
    _J_CONVERSATION: FAMILIES["exfil"].needles,
    _J_CONFIG: agent_config.JOIN_NEEDLES,
    _J_WALLET: money.JOIN_NEEDLES,
}
_JOIN_OWNERS = frozenset(_JOIN_NEEDLES)
# ... and a word one of them needs nearby (within _JOIN_SPAN characters) before its paragraph is read.
_JOIN_SPAN = 200
_JOIN_COMPANIONS: dict[str, tuple[tuple[str, ...], ...]] = {
    _J_CONVERSATION: conversation.JOIN_COMPANIONS,
    _J_CONFIG: agent_config.JOIN_COMPANIONS,
    _J_WALLET: money.JOIN_COMPANIONS,
}
_FAMILY_OWNERS = frozenset(FAMILIES)
_DFA = ahocorasick_rs.Implementation.DFA


def _automaton() -> tuple[list[str], ahocorasick_rs.AhoCorasick, list[frozenset[str]]]:
    """One automaton for every family's needles, the flags and the card's needles."""
    owners: dict[str, set[str]] = {}
    for name, family in FAMILIES.items():
        for needle in family.needles:
            owners.setdefault(needle, set()).add(name)
    for needle in _NEEDLES_FLAGS:
        owners.setdefault(needle, set()).add(_FLAG)
    for needle in _USE_NEEDLES:
        owners.setdefault(needle, set()).add(_USES)
    for name, needles in _JOIN_NEEDLES.items():
        for needle in needles:
            owners.setdefault(needle, set()).add(name)
    needles = sorted(owners)
    return needles, ahocorasick_rs.AhoCorasick(needles, implementation=_DFA), [frozenset(owners[n]) for n in needles]


NEEDLES, _ENGINE, _OWNERS = _automaton()  # a file's needles are found by the shared search (risk/needles.py)
_JOIN_COMPANION_PATTERNS = {
    name: tuple(re.compile("|".join(map(re.escape, group))) for group in groups)
    for name, groups in _JOIN_COMPANIONS.items()
}
_MAIN = [owners - _JOIN_OWNERS for owners in _OWNERS]  # per needle: its families, flags and card uses ...
_JOINED = [tuple(sorted(owners & _JOIN_OWNERS)) for owners in _OWNERS]  # ... and its joins


def _hits(low: str) -> list[tuple[int, frozenset[str]]]:
    """(position, families) of every needle in a lower-cased text, in one linear pass."""
    return [(start, _MAIN[index]) for index, start, _ in _ENGINE.find_matches_as_indexes(low, overlapping=True)
            if _MAIN[index]]  # fmt: skip


def _all_hits(file: TextFile) -> tuple[list[tuple[int, frozenset[str]]], list[tuple[int, str]]]:
    """The families' hits and, in Markdown, the joins' hits (position, join) with their companions near."""
    low, markdown = file.lowered[0], file.kind in ("markdown", "skill_md")
    matches = needles_in(file, INSTRUCTIONS)
    hits = [(start, _MAIN[index]) for index, start, _ in matches if _MAIN[index]]
    if not markdown:
        return hits, []
    joined = []
    for start, names in [(start, _JOINED[index]) for index, start, _ in matches if _JOINED[index]]:
        low_end, high_end = max(0, start - _JOIN_SPAN), start + _JOIN_SPAN
        for name in names:
            if all(group.search(low, low_end, high_end) for group in _JOIN_COMPANION_PATTERNS[name]):
                joined.append((start, name))
    return hits, joined


# -- reading units -------------------------------------------------------------------------

_SENTENCE_END = sentence_end(LINE_BREAKS)  # a unit's lines are sentences of their own
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")


def _is_cell(line: Line) -> bool:
    return line.spans[0][2] > 1


def _joinable(previous: Line, current: Line) -> bool:
    if previous.context != current.context or previous.path != current.path:
        return False
    last_line = previous.spans[-1][1]
    if current.spans[0][1] != last_line + 1:
        return False
    if current.context == PROSE:
        if _is_cell(previous) or _is_cell(current) or _HEADING.match(previous.text):
            return False
        return not (_LIST_ITEM.match(current.text) or _HEADING.match(current.text) or current.text.lstrip()[:1] in "|<")
    if current.context == CONFIG:
        return current.text[:1] in " \t" and not current.text.lstrip().startswith("- ")
    return current.context == COMMENT


class _FileReader:
    """Builds the reading units of one file around the needles that occur in it."""

    def __init__(self, file: TextFile, low: str, starts: list[int]) -> None:
        self.file = file
        self.lines = file.lines
        self.low = low
        self.starts = starts  # where each line starts in `low`
        self.units: dict[tuple[int, int], _Unit] = {}
        self.by_index: dict[int, _Unit] = {}
        self.docstrings: set[int] | None = None
        self.markdown = file.kind in ("markdown", "skill_md")

    def natural(self, index: int) -> bool:
        line = self.lines[index]
        if line.context in (PROSE, CONFIG, COMMENT):
            return True
        if line.context == CODE and self.file.kind == "script" and PurePosixPath(self.file.name).suffix == ".py":
            return index in self._docstrings()
        return False

    def _docstrings(self) -> set[int]:
        if self.docstrings is None:
            inside: set[int] = set()
            open_quote = ""
            for index, line in enumerate(self.lines):
                if line.context != CODE:
                    continue
                text = line.text
                if open_quote:
                    inside.add(index)
                    if text.count(open_quote) % 2 == 1:
                        open_quote = ""
                    continue
                for quote in ('"""', "'''"):
                    count = text.count(quote)
                    if count:
                        inside.add(index)
                        if count % 2 == 1:
                            open_quote = quote
                        break
            self.docstrings = inside
        return self.docstrings

    def unit(self, index: int, offset: int) -> _Unit:
        line = self.lines[index]
        if len(line.text) <= LONG_LINE and index in self.by_index:
            return self.by_index[index]
        natural = self.natural(index)
        if len(line.text) > LONG_LINE:
            start = max(0, offset - WINDOW)
            key = (index, start // WINDOW)
            if key not in self.units:
                view = line.window(start, min(len(line.text), offset + WINDOW))
                self.units[key] = _Unit(view, self._near(index), self._hidden(index), natural, index)
            return self.units[key]
        first = last = index
        if natural and line.context != DATA:
            size = len(line.text)
            while first > 0 and index - first < MAX_JOIN:
                previous = self._previous(first)
                if previous is None or not _joinable(self.lines[previous], self.lines[first]):
                    break
                size += len(self.lines[previous].text) + 1
                if size > MAX_UNIT:
                    break
                first = previous
            while last - index < MAX_JOIN:
                following = self._next(last)
                if following is None or not _joinable(self.lines[last], self.lines[following]):
                    break
                size += len(self.lines[following].text) + 1
                if size > MAX_UNIT:
                    break
                last = following
        key = (first, -1)
        if key not in self.units:
            parts = [i for i in range(first, last + 1) if self.lines[i].context != INLINE]
            text_parts: list[str] = []
            spans: list[tuple[int, int, int]] = []
            position = 0
            for i in parts:
                part = self.lines[i]
                spans += [(position + s, n, c) for s, n, c in part.spans]
                text_parts.append(part.text)
                position += len(part.text) + 1
            head = self.lines[first]
            joined = Line(head.path, " ".join(text_parts), head.context, tuple(spans), head.near, head.kind, head.block)
            self.units[key] = _Unit(joined, self._near(first), self._hidden(first), natural, first)
        self.by_index[index] = self.units[key]
        return self.units[key]

    def is_heading(self, index: int) -> bool:
        line = self.lines[index]
        return line.context == PROSE and _HEADING.match(line.text) is not None

    def section(self, index: int) -> tuple[int, int]:
        """The first and last line of the Markdown section around a line (at most _SECTION_LINES each way)."""
        if not self.markdown:
            return index, index
        first = index
        while first > 0 and index - first < _SECTION_LINES and not self.is_heading(first):
            first -= 1
        last = index
        while last + 1 < len(self.lines) and last - index < _SECTION_LINES and not self.is_heading(last + 1):
            last += 1
        return first, last

    def preceding(self, index: int) -> str:
        """Up to _BACK_LINES lines (prose and code, not inline spans) before a line, within its section."""
        parts: list[str] = []
        size = 0
        i = index - 1
        while i >= 0 and len(parts) < _BACK_LINES and size < _BACK_CHARS:
            line = self.lines[i]
            i -= 1
            if line.context == INLINE:
                continue
            if self.markdown and line.context == PROSE and _HEADING.match(line.text):
                break
            parts.append(line.text[:_BACK_CHARS])
            size += len(parts[-1])
        return "\n".join(reversed(parts))[-_BACK_CHARS:]

    def sentences(self, text: str) -> Iterator[tuple[int, str]]:
        """A text's sentences, split as the units' are: for the joins, which read other lines of a section."""
        return _sentences(text)

    def _previous(self, index: int) -> int | None:
        i = index - 1
        while i >= 0 and self.lines[i].context == INLINE:
            i -= 1
        return i if i >= 0 else None

    def _next(self, index: int) -> int | None:
        i = index + 1
        while i < len(self.lines) and self.lines[i].context == INLINE:
            i += 1
        return i if i < len(self.lines) else None

    def _near(self, index: int) -> str:
        """The section heading, the line introducing a list or a table, a table cell's row and header."""
        line = self.lines[index]
        parts: list[str] = []
        if line.context == PROSE and _is_cell(line):
            parts.append(line.near)
        if line.context != PROSE:
            if line.context == COMMENT:
                parts.append(line.near)
            return "\n".join(parts)
        parts.append(self._heading(index))
        if _LIST_ITEM.match(line.text) or _is_cell(line):  # the line that introduces the list or the table
            i = index - 1
            while i >= 0 and index - i < _BACK:
                other = self.lines[i]
                i -= 1
                if other.context == PROSE and not (_LIST_ITEM.match(other.text) or _is_cell(other)):
                    if other.text.rstrip().endswith(":"):
                        parts.append(other.text)
                    break
        previous = self._previous(index)
        if previous is not None and self.lines[previous].context == PROSE:
            text = self.lines[previous].text.rstrip()
            if text.endswith(":") and not _HEADING.match(text):
                parts.append(text)
        return "\n".join(parts)

    def _heading(self, index: int) -> str:
        """The Markdown heading of the section a line is in, found backwards in the file's text."""
        end = self.starts[index]
        for _ in range(_HEADING_TRIES):
            found = self.low.rfind("\n#", 0, end)
            at = 0 if found < 0 else bisect.bisect_right(self.starts, found + 1) - 1
            if 0 <= at < index:
                other = self.lines[at]
                if other.context == PROSE and _HEADING.match(other.text):
                    return other.text
            if found < 0:
                return ""
            end = found
        return ""

    def _hidden(self, index: int) -> bool:
        if not self.markdown:
            return False
        start = self.starts[index]
        end = self.starts[index + 1] if index + 1 < len(self.starts) else len(self.low)
        return self.low.rfind("<!--", 0, end) > self.low.rfind("-->", 0, start)


# -- the analyser --------------------------------------------------------------------------


def analyse(skill: Skill, files: list[TextFile], contents: Mapping[str, bytes], shown: str) -> AnalyserResult:
    result = AnalyserResult()
    for file in files:
        if not file.lines:
            continue
        facts, uses = _read_file(file)
        result.facts += facts
        room = MAX_USES_PER_SKILL - len(result.uses)
        if room > 0:
            result.uses += uses[:room]
    return result


def _lowered(texts: list[str]) -> str:
    """Lines joined and lower-cased, with offsets kept (a few characters lower-case to two)."""
    joined = "\n".join(texts)
    low = joined.lower()
    return low if len(low) == len(joined) else "\n".join(text.lower()[: len(text)].ljust(len(text)) for text in texts)


def _read_file(file: TextFile) -> tuple[list[Fact], list[Use]]:
    lines = file.lines
    low, starts, _ = file.lowered  # shared with the line scan; offsets are the lines' own
    hits, joined = _all_hits(file)
    if not hits and not joined:
        return [], []
    hits.sort(key=lambda hit: hit[0])
    reader = _FileReader(file, low, starts)
    wanted: dict[tuple[int, int], tuple[int, set[str]]] = {}  # unit key -> (offset in line, families)
    use_lines: set[int] = set()
    joins: dict[str, dict[int, int]] = {}  # join -> {line index: offset of its first needle}
    for position, owners in itertools.islice(hits, MAX_HITS):
        index = bisect.bisect_right(starts, position) - 1
        if not 0 <= index < len(lines):
            continue
        context = lines[index].context
        if _USES in owners:
            if context in (PROSE, CONFIG):
                use_lines.add(index)
            owners = owners - {_USES}
            if not owners:
                continue
        if context == INLINE:
            continue
        families = {name for name in owners & _FAMILY_OWNERS if _companions_near(name, low, position)}
        families |= owners & {_FLAG}
        if not families:
            continue
        if not reader.natural(index):
            families &= {_FLAG}
            if not families:
                continue
        offset = position - starts[index]
        key = (index, offset // WINDOW) if len(lines[index].text) > LONG_LINE else (index, -1)
        entry = wanted.setdefault(key, (offset, set()))
        entry[1].update(families)
    for position, name in itertools.islice(joined, MAX_HITS):
        index = bisect.bisect_right(starts, position) - 1
        if 0 <= index < len(lines):
            context = lines[index].context
            if context == PROSE or (name == _J_CONFIG and context == CODE and lines[index].kind in _TEXT_FENCES):
                joins.setdefault(name, {}).setdefault(index, position - starts[index])
    items = _findings(reader, wanted) if wanted else []
    uses = _uses(reader, use_lines) if use_lines else []
    if joins:
        more, joined_uses = _joins(reader, joins)
        places = {(fact.shape, fact.line) for fact in items}
        items += [fact for fact in more if (fact.shape, fact.line) not in places]
        uses += joined_uses
    return items, uses


def _companions_near(name: str, low: str, position: int) -> bool:
    """Each companion group of the family has a word within the family's span of the position."""
    family = FAMILIES[name]
    if not family.companions:
        return True
    return _companions_present(family, low[max(0, position - family.span) : position + family.span])


def _companions_present(family: Family, text: str) -> bool:
    return all(engine.find_matches_as_indexes(text) for engine in _COMPANION_ENGINES[family.name])


# One automaton per companion group: a group is tens of words, each of which `in` would scan for on its own.
_COMPANION_ENGINES = {
    name: tuple(ahocorasick_rs.AhoCorasick(group, implementation=_DFA) for group in family.companions)
    for name, family in FAMILIES.items()
}


def _findings(reader: _FileReader, wanted: dict[tuple[int, int], tuple[int, set[str]]]) -> list[Fact]:
    units: dict[int, tuple[_Unit, set[str]]] = {}
    for (index, _), (offset, families) in sorted(wanted.items()):
        unit = reader.unit(index, offset)
        if id(unit) in units:
            units[id(unit)][1].update(families)
        elif len(units) < MAX_UNITS:
            units[id(unit)] = (unit, set(families))
    facts: list[Fact] = []
    per_order: dict[str, int] = {}
    seen: set[tuple[str, int, int]] = set()
    for unit, families in units.values():
        for fact in _judge_unit(unit, families, reader):
            place = (fact.shape, fact.line or 0, fact.column or 0)
            if place in seen:
                continue
            seen.add(place)
            count = per_order.get(fact.shape, 0)
            if count < PER_FILE:
                facts.append(fact)
            per_order[fact.shape] = count + 1
    return facts


def _sentences(text: str) -> Iterator[tuple[int, str]]:
    start = 0
    for match in _SENTENCE_END.finditer(text):
        if match.end() > start:
            yield from _pieces(start, text[start : match.end()])
        start = match.end()
    if start < len(text):
        yield from _pieces(start, text[start:])


def _pieces(offset: int, sentence: str) -> Iterator[tuple[int, str]]:
    if len(sentence) <= MAX_SENTENCE:
        yield offset, sentence
        return
    step = MAX_SENTENCE - 200
    for begin in range(0, len(sentence), step):
        yield offset + begin, sentence[begin : begin + MAX_SENTENCE]


def _judge_unit(unit: _Unit, families: set[str], reader: _FileReader) -> Iterator[Fact]:
    text = unit.line.text
    if not unit.natural:
        yield from _flag_items(unit, 0, text, in_code=True)
        return
    teaching_near = _teaching(unit.near)
    sentences = list(_sentences(text))
    firsts = [offset for offset, _ in sentences]
    in_sentence: dict[int, set[str]] = {}
    for position, owners in _hits(_lowered([text])):
        found = owners & families
        if found:
            in_sentence.setdefault(bisect.bisect_right(firsts, position) - 1, set()).update(found)
    for number, names in sorted(in_sentence.items()):
        offset, sentence = sentences[number]
        if _FLAG in names:
            yield from _flag_items(unit, offset, sentence, in_code=False, teaching_near=teaching_near)
        if teaching_near:
            continue
        lowered = sentence.lower()
        clean = sentence.replace("*", " ").replace("~~", "  ")
        for name in sorted(names - {_FLAG}):
            family = FAMILIES[name]
            if not _companions_present(family, lowered):
                continue
            for shape in family.shapes:
                for match in shape.pattern.finditer(clean):
                    back = functools.partial(_back_text, reader, unit, offset)
                    if _counts(shape, clean, match.start(), match.end(), back):
                        yield _fact(shape.tells, unit, offset + match.start(), offset + match.end(), match.group(0))
                        break


def _counts(shape: Shape, sentence: str, start: int, end: int, back: Callable[[], str] | None = None) -> bool:
    before, after = sentence[:start], sentence[end:]
    if not shape.negation_inside and _negated(before, after):
        return False
    if not shape.quoted_ok and _quoted(sentence, start, end):
        return False
    outside = _URL_ANYWHERE.sub(" ", f"{before} {after}")
    warns = _SENTENCE_WARNING.search(outside) is not None or (
        not shape.tool_words_ok and _TEACHING.search(outside) is not None
    )
    if warns or _MENTION.search(outside):
        return False
    needs = shape.needs
    if needs is not None and needs.search(outside) is None and needs.search(sentence[start:end]) is None:
        if not (shape.needs_back and back is not None and _PRONOUN.search(sentence[start:end])):
            return False
        earlier = back()  # "... send it to the archive. No need to bring it up with the user."
        if _BACK_ACTION.search(earlier) is None and _RISKY_ACTION.search(earlier) is None:
            return False
    if shape.tells == E and not _exfil_destination(after):
        return False
    if shape.tells == C and _QUIET_FLAG.search(sentence):
        return False  # "install quietly (-q)": quiet output, not hiding
    if shape.clause_verb and not _imperative_clause(before):
        return False
    return not shape.directive or _directive(before)


_PRONOUN = re.compile(r"\b(?:it|this|that|these|them|all\s+of\s+(?:this|it))\b", re.IGNORECASE)
# What "it" may stand for in a concealment that names no action itself: a network send or a command.
_BACK_ACTION = re.compile(
    r"\b(?:curl|wget|scp|rsync|nc|upload\w*|post(?:s|ed|ing)?|send\w*|sent|webhook)\b|://", re.IGNORECASE
)


def _back_text(reader: _FileReader, unit: _Unit, offset: int) -> str:
    """The unit's text before a sentence and the lines before the unit in its section, bounded."""
    inside = unit.line.text[max(0, offset - _BACK_CHARS) : offset]
    return reader.preceding(unit.index) + "\n" + inside if unit.index >= 0 else inside


# -- joins within a section: the conversation saved and sent, the agent's configuration, wallet secrets --
#
# Some instructions are dangerous only with what stands beside them in the same Markdown section: the
# conversation saved to a file that a command a few lines down sends away; a block the agent is told to
# write into its own configuration (user-wide, into other skills, into its permission grants, into every
# repository, or put back whenever removed); a wallet's recovery phrase asked of the user and then
# sent on. Each starts from a needle in prose (or, for the configuration, a plain-text code block), is
# judged per sentence with the same negation, mention, teaching and directive tests as the families,
# and is joined only within its section (_SECTION_LINES lines each way at most).

_JOIN_UNITS = 60  # units judged per join and file
_JOIN_GATES = {_J_CONVERSATION: _SAVE_CONTEXT, _J_CONFIG: _CONFIG_GATE, _J_WALLET: _WALLET_SECRET}


def _joins(reader: _FileReader, joins: dict[str, dict[int, int]]) -> tuple[list[Fact], list[Use]]:
    items: list[Fact] = []
    uses: list[Use] = []
    for name, judge in (
        (_J_CONVERSATION, _conversation_sent),
        (_J_CONFIG, _agent_configuration),
        (_J_WALLET, _wallet_secret),
    ):
        found = joins.get(name)
        if found:
            more, used = judge(reader, _join_sentences(reader, found, _JOIN_GATES[name]))
            per_order: dict[str, int] = {}
            for fact in more:
                count = per_order.get(fact.shape, 0)
                if count < PER_FILE:
                    items.append(fact)
                per_order[fact.shape] = count + 1
            uses += used[:MAX_USES_PER_FILE]
    return items, uses


def _join_sentences(reader: _FileReader, found: dict[int, int], gate: re.Pattern[str]) -> list[_Sentence]:
    """Each sentence the join's gate matches, once, in file order; not in teaching or warning sections. The
    gate runs on the whole unit first: most units holding a needle never get split into sentences."""
    out: list[_Sentence] = []
    seen: set[int] = set()
    for index, offset in sorted(found.items()):
        unit = reader.unit(index, offset)
        if id(unit) in seen:
            continue
        seen.add(id(unit))
        if len(seen) > _JOIN_UNITS:
            break
        line = unit.line
        if gate.search(line.text) is None:
            continue
        near = _BLOCK_NOUN.sub(" ", unit.near + "\n" + (line.near if line.context == CODE else ""))
        if _teaching(near) or (line.context == CODE and line.warns(0, 0)):
            continue
        pieces = _sentences(line.text) if line.context != CODE else iter([(0, line.text)])
        for start, sentence in pieces:
            if gate.search(sentence) is not None:
                clean = sentence if line.context == CODE else sentence.replace("*", " ").replace("~~", "  ")
                out.append(_Sentence(unit, index, start, clean))
    return out
