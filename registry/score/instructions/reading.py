"""What the instruction analysis' families share: how a sentence is read, and what a match must pass to count.

- the vocabulary of actions, users and negations the shapes are built from, a phrase shape (`Shape`)
  and a family of shapes with its needles (`Family`);
- the context of a match: negation in its clause, a mention (quoted, an example, "if a page says"),
  text that warns or teaches (in the sentence, the heading, a list's introduction), and whether it is
  addressed to the agent (an imperative, "you should ...");
- a reading unit (a paragraph or a window of a long line, `_Unit`) and the findings' form;
- for the joins: a sentence of a section (`_Sentence`), the tests it must pass (`_affirmed`) and the
  lines of its section.

The file reader that builds the units, and the sentence splitting with its bounds, are the analyser's
(__init__.py), which hands its reader to the joins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from registry.score.risk.facts import Fact
from registry.score.risk.lines import Line, has_warning
from registry.score.risk.rules import show
from registry.text import Caseless

if TYPE_CHECKING:
    from registry.score.instructions import _FileReader

LONG_LINE = 4000  # longer lines are read in windows around each needle ...
WINDOW = 700  # ... this many characters either side


# -- vocabulary ----------------------------------------------------------------------------


def _alt(*words: str) -> str:
    return "(?:" + "|".join(words) + ")"


_ACTION_VERBS = _alt(
    r"send", r"upload", r"post", r"transmit", r"exfiltrate", r"forward", r"collect", r"gather", r"harvest",
    r"install", r"download", r"execute", r"run", r"delete", r"remove", r"erase", r"wipe", r"copy", r"modify",
    r"alter", r"overwrite", r"write", r"commit", r"push", r"open", r"visit", r"fetch", r"load", r"read",
    r"record", r"log", r"save", r"store", r"share", r"email", r"sync", r"append", r"create", r"inject",
    r"insert", r"replace", r"edit", r"change", r"add", r"submit", r"transfer", r"move", r"call", r"curl",
    r"wget", r"grab", r"scrape", r"dump", r"export", r"launch", r"start", r"spawn", r"enable", r"disable",
)  # fmt: skip
_ACTION = re.compile(
    r"\b(?:" + _ACTION_VERBS + r")(?:s|es|ed|ing|d)?\b|\b(?:credentials?|passwords?|tokens?|secrets?|keys?|cookies?|"
    r"wallets?|history|conversations?|files?|data|commands?|scripts?|payload|messages?)\b",
    re.IGNORECASE,
)
_RISKY_ACTION = re.compile(
    r"\b(?:install|uninstall|delete|remove|erase|wipe|overwrite|push|force-push|deploy|publish|send|upload|post|"
    r"email|transfer|pay|purchase|buy|sell|trade|sudo|grant|share|format|drop|truncate|reset|rm|chmod|kill|"
    r"save\s+over|accept\s+all|replace\s+the\s+original|merge|"
    r"(?:run|execute)\s+(?:any|all|every|arbitrary|shell|bash|terminal|system|the\s+\w+\s+)?(?:commands?|scripts?|"
    r"code)|"
    r"(?:modify|change|edit)\s+(?:system|settings|config\w*|permissions|files?))\w*\b",
    re.IGNORECASE,
)
_USER = r"(?:the\s+|your\s+|any\s+)?(?:user|human|operator|owner|person\s+you(?:'re|\s+are)\s+helping)s?\b"
_NEG_WORD = r"(?:do\s+not|don'?t|never|must\s+not|mustn'?t|should\s+not|shouldn'?t|avoid|no\s+need\s+to)"
_URL_SHAPE = r"(?:https?|ftp)://[^\s'\"`<>)\]]+"
# URLs, e-mail addresses and host names are left out before looking for mention words ("example.com").
_URL_ANYWHERE = re.compile(r"(?:https?|ftp)://\S+|\S+@\S+|\b[\w-]{2,}(?:\.[\w-]{2,})+\b", re.IGNORECASE)


@dataclass(frozen=True)
class Shape:
    """One phrase shape of a family: the order it tells the agent (a fact shape, which the package's ROWS give a rule),
    and what it takes for a match to count."""

    tells: str
    pattern: re.Pattern[str]
    directive: bool = True  # the match must be addressed to the agent (imperative or "you should ...")
    clause_verb: bool = False  # an adverbial ("without telling the user"): its clause must open with a verb
    negation_inside: bool = False  # the shape carries its own "do not": skip the clause negation test
    quoted_ok: bool = False  # a quoted match still counts (flags in `code`)
    needs: re.Pattern[str] | None = None  # the sentence must also match this (outside the match)
    needs_back: bool = False  # ... or, when the match says "it" or "this", the text before it in the section
    tool_words_ok: bool = False  # the sentence may name security tools (scanner, antivirus): they are its subject


def _shape(tells: str, pattern: str, **options) -> Shape:
    return Shape(tells, re.compile(pattern, re.IGNORECASE), **options)


def _product(firsts: tuple[str, ...], seconds: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f"{a}{b}" for a in firsts for b in seconds)


@dataclass(frozen=True)
class Family:
    name: str
    shapes: tuple[Shape, ...]
    needles: tuple[str, ...]  # one must occur (lower-cased) for the family to be read
    companions: tuple[tuple[str, ...], ...] = ()  # and one word of each of these groups ...
    span: int = 250  # ... within this many characters of the needle


# -- context: negation, mentions, teaching -------------------------------------------------

_NEGATION = re.compile(
    r"\b(?:never|not|no|nor|avoid\w*|refrain\w*|refus\w*|reject\w*|prevent\w*|prohibit\w*|forbid\w*|block\w*|"
    r"stop\s+(?:anyone|any\s+skill|attempts?)|instead\s+of|rather\s+than|cannot|without\s+(?:first\s+)?"
    r"(?:the\s+)?user'?s?\s+(?:consent|approval|permission))\b|n't\b",
    re.IGNORECASE,
)
_NEGATED_AFTER = re.compile(
    r"^[^.;]{0,60}?\b(?:is|are|be)\s+(?:strictly\s+)?(?:not\s+allowed|forbidden|prohibited|never\s+(?:allowed|ok|"
    r"acceptable)|not\s+(?:ok|acceptable|permitted)|a\s+red\s+flag|a\s+sign\s+of)\b",
    re.IGNORECASE,
)
_MENTION = re.compile(
    r"\b(?:e\.g\.|i\.e\.|such\s+as|for\s+(?:example|instance)|examples?|phrases?|strings?|wording|"
    r"(?:requests?|attempts?|asks?|asking|tries|trying)\s+(?:you\s+)?to|"
    r"(?:if|when|whenever)\b[^.;]{0,80}?\b(?:says?|said|tells?\s+you|asks?\s+you|instructs?\s+you|wants?\s+you|"
    r"contains?|claims?|includes?)|claiming|pretend(?:s|ing)?\s+to|attempts?|tries\s+to|trying\s+to|untrusted|"
    r"as\s+data|"
    r"jailbreak\w*|red[\s-]?team\w*|injected|injections?|like\s+[\"'“‘`]|looks?\s+like|quot(?:e|es|ed|ing))\b",
    re.IGNORECASE,
)
_TEACHING = Caseless(  # searched, never read for groups
    r"\b(?:jailbreak\w*|red[\s-]?team\w*|social\s+engineering|manipulat\w*|indicators?|tactics?|threat\s+model\w*|"
    r"injections?|payloads?|adversar\w*|hostile|untrusted|poison\w*|scanner|examples?\s+of|signs?\s+of|"
    r"look\s+(?:out\s+)?for|watch\s+(?:out\s+)?for|reject|refuse|block)\b"
)
_SENTENCE_WARNING = Caseless(  # searched, never read for groups
    r"\b(?:dangerous|danger|malicious|malware|attack(?:s|er|ers)?|adversarial|unsafe|insecure|anti-?patterns?|"
    r"warnings?|risks?|bad\s+(?:practice|example|pattern|idea)|wrong|red\s+flags?|suspicious|detect(?:s|ed|ion|ing|"
    r"or)?|"
    r"flagged|blocked|blocklist|denylist|exploit(?:s|ed|ation)?|vulnerab\w*|phishing|scam\w*|prompt\s+injection|"
    r"injection\s+attack|threat|risky|stealer|backdoor\w*|compromised?)\b|\bbad\s*:|❌|🚫|⛔|☠|⚠"
)
_QUOTES = "\"'“”‘’«»`"
# What may stand before an instruction in its clause: connectives, an address to the agent, a modal.
_LEAD_MARKUP = re.compile(r"^(?:[\s>*_#+|`\"'(\[\]{}<!=~-]|\d+[.)]\s|step\s+\d+\s*)*", re.IGNORECASE)
_DIRECTIVE_PREFIX = re.compile(
    r"(?:(?:then|and|also|first|next|now|finally|always|please|just|immediately|automatically|quietly|silently|"
    r"secretly|simply|additionally|afterwards|after\s+that|in\s+addition|important|note|once\s+done|"
    # a standing order's time: "after every meeting", "at the end of each session"
    r"(?:after|before|at\s+the\s+(?:end|start|beginning)\s+of|once|upon|following|during|for)\s+"
    r"(?:every|each|any|all)\s+[\w-]+(?:\s+[\w-]+)?|"
    r"(?:ai|llm)\s+(?:agents?|assistants?|models?)|ai|agents?|assistants?|claude|models?|llms?)\b[\s,:!.-]*)*"
    r"(?:(?:you|the\s+(?:agent|assistant|model|ai|llm)|claude|agents?|assistants?|it)\s+"
    r"(?:should|must|will|shall|need\s+to|needs\s+to|have\s+to|has\s+to|are\s+to|is\s+to|can|may|ought\s+to|"
    r"are\s+(?:required|expected|instructed|allowed|free)\s+to)\s*(?:(?:always|also|then|now|first|just|simply|"
    r"quietly|silently|secretly|automatically|immediately)\s+)*)?"
    r"(?:(?:make\s+sure\s+(?:to|you)|be\s+sure\s+to|remember\s+to|don'?t\s+forget\s+to|(?:it'?s|"
    r"it\s+is)\s+(?:important|"
    r"essential|required|mandatory|critical|necessary)\s+(?:to|that\s+you)|proceed\s+to|go\s+ahead\s+and|"
    r"feel\s+free\s+to|you'?ll\s+need\s+to|your\s+(?:job|task)\s+is\s+to)\s+)?",
    re.IGNORECASE,
)
_VERB_START = re.compile(
    r"(?:" + _ACTION_VERBS + r"|proceed|continue|go\s+ahead|do|make|perform|apply|use|deploy|publish|grant|approve|"
    r"accept|allow|act|fix|update|merge|buy|sell|pay|trade|purchase|place|book|order|sign|answer|reply|respond|"
    r"finish|complete|handle|process|rewrite|refactor|migrate|configure|set|turn|switch|connect|access|query|"
    r"schedule|cancel|rename|restart|stop|kill)\b",
    re.IGNORECASE,
)
_CLAUSE_BREAK = re.compile(r"[,;:(\n—–]|\s-\s|\s(?:and|then|or|but|so)\s", re.IGNORECASE)
_STRONG_BREAK = re.compile(r"[;:\n—–]|\s-\s|\sbut\s|\.\s", re.IGNORECASE)


def _directive(before: str) -> bool:
    """The text before a match, in its clause, leaves the match addressed to the agent as an instruction."""
    cut = 0
    for match in _CLAUSE_BREAK.finditer(before):
        cut = match.end()
    clause = before[cut:]
    clause = clause[_LEAD_MARKUP.match(clause).end() :]  # type: ignore[union-attr]
    return _DIRECTIVE_PREFIX.fullmatch(clause.strip()) is not None


def _imperative_clause(before: str) -> bool:
    """The clause before an adverbial match opens with a verb addressed to the agent: "upload X [without ...]"."""
    cut = 0
    for match in _CLAUSE_BREAK.finditer(before):
        if before[cut : match.start()].strip():
            cut = match.end() if _VERB_START.match(before[match.end() :].lstrip(" *_`>-")) else cut
    clause = before[cut:]
    clause = clause[_LEAD_MARKUP.match(clause).end() :]  # type: ignore[union-attr]
    clause = clause[_DIRECTIVE_PREFIX.match(clause).end() :]  # type: ignore[union-attr]
    return _VERB_START.match(clause) is not None


def _negated(before: str, after: str) -> bool:
    cut = 0
    for match in _STRONG_BREAK.finditer(before):
        cut = match.end()
    return _NEGATION.search(before[cut:]) is not None or _NEGATED_AFTER.search(after) is not None


def _quoted(text: str, start: int, end: int) -> bool:
    before = text[max(0, start - 3) : start]
    after = text[end : end + 3]
    return any(q in before for q in _QUOTES) or any(q in after for q in _QUOTES)


def _teaching(text: str) -> bool:
    """Text around an instruction (a heading, a list's introduction) that warns or teaches."""
    return bool(text) and (has_warning(text) or _TEACHING.search(text) is not None)


def _warns(text: str) -> bool:
    """The rest of a sentence warns: risk/lines.py's warning words less the negations (judged per clause)."""
    return _SENTENCE_WARNING.search(text) is not None or _TEACHING.search(text) is not None


# -- reading units -------------------------------------------------------------------------


@dataclass(frozen=True)
class _Unit:
    line: Line  # the paragraph (or window) as one logical line that maps offsets back to the file
    near: str  # the section heading, the list's introduction, a table's header row
    hidden: bool  # inside an HTML comment of a Markdown file
    natural: bool  # prose, frontmatter, comments, docstrings: every family; False: flags only
    index: int = -1  # the first line of the unit in the file


def _fact(tells: str, unit: _Unit, start: int, end: int, matched: str) -> Fact:
    what = matched if matched.startswith("run with") else " ".join(matched.split()).strip(" .,;:").lower()
    what = _NO_NEED.sub("not ", what)  # "there is no need to bring it up" -> "not bring it up"
    return _fact_saying(tells, unit, start, end, what)


_NO_NEED = re.compile(r"^(?:there(?:'s|\s+is)\s+)?no\s+need\s+to\s+")


def _fact_saying(tells: str, unit: _Unit, start: int, end: int, what: str) -> Fact:
    line_number, column = unit.line.locate(start)
    where = " (in an HTML comment, which rendered Markdown does not show)" if unit.hidden else ""
    params = {"what": show(what) + where}
    excerpt = show(unit.line.text[start:end])
    return Fact(tells, unit.line.path, line_number, column, excerpt, params, (unit.line.path, unit.line.block))


# -- joins within a section: what the conversation, configuration and wallet joins share ----


_JOIN_SECTION_LINES = 200  # lines of a section searched for the other end of a join


# "block" is a teaching word as a verb ("block such requests"), a noun in "add the same block at the end".
_BLOCK_NOUN = re.compile(r"\b(?:the|this|that|a|same|text|code|whole|entire|following|standing)\s+blocks?\b", re.I)


@dataclass
class _Sentence:
    unit: _Unit
    index: int  # the line the needle was found on
    offset: int  # where the sentence starts in the unit's text
    text: str  # the sentence, "*" and "~~" blanked


def _affirmed(
    sentence: str, start: int, end: int, directive: bool = True, strip: re.Pattern[str] | None = None
) -> bool:
    """The words at start:end are an instruction: not negated, quoted, warned about, mentioned as an example."""
    before, after = sentence[:start], sentence[end:]
    if _negated(before, after) or _quoted(sentence, start, start + 1):
        return False
    outside = _BLOCK_NOUN.sub(" ", _URL_ANYWHERE.sub(" ", f"{before} {after}"))
    if strip is not None:
        outside = strip.sub(" ", outside)
    if _warns(outside) or _MENTION.search(outside):
        return False
    return not directive or _directive(before)


def _section_lines(reader: _FileReader, index: int) -> range:
    first, last = reader.section(index)
    return range(first, min(last, first + _JOIN_SECTION_LINES) + 1)
