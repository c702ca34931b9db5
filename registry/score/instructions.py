"""Instruction analysis: what a skill's prose tells the agent to do, read sentence by sentence.

Malicious skills rarely need code: a few sentences a few paragraphs deep tell the agent to drop its
instructions, act behind the user's back, turn off confirmations, hide check results, keep state
where nobody looks, load its real instructions from a server, or send the conversation out. This
analyser reads every place an agent reads instructions (Markdown prose of SKILL.md, references and
templates, HTML comments inside it, the frontmatter, comments and docstrings of scripts) and
reports those families (R060, R061, R130-R136 in instruction_rules.py). It also adds to the card
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
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

import ahocorasick_rs

from registry.model import Skill
from registry.score import instruction_rules as IR
from registry.score.card import ENV, FROM_INSTRUCTIONS, HOST, PATH, PERSISTENCE, AnalyserResult, Use
from registry.score.code.classify import (
    AGENT_CONFIG,
    AGENT_SUBSTITUTIONS,
    SKILL_FOLDER,
    WALLET_KEY,
    env_sensitivity,
    host_sensitivity,
    is_local_host,
    normal_path,
    path_sensitivity,
)
from registry.score.risk import rules as R
from registry.score.risk.lines import CODE, COMMENT, CONFIG, DATA, INLINE, PROSE, WARNING_WORDS, Line, TextFile
from registry.score.risk.rules import Item, RiskRule, show
from registry.score.vocabulary import URL, url_host

PER_FILE = 5  # findings per rule per file
MAX_UNIT = 6000  # characters of one paragraph read at once
MAX_JOIN = 40  # physical lines joined into one paragraph
LONG_LINE = 4000  # longer lines are read in windows around each needle ...
WINDOW = 700  # ... this many characters either side
MAX_HITS = 5000  # needle occurrences followed per file
MAX_UNITS = 200  # paragraphs or windows read per file
MAX_SENTENCE = 1200  # longer sentences are read in overlapping pieces
MAX_USES_PER_FILE = 120
MAX_USES_PER_SKILL = 400
_BACK = 60  # lines walked back to find a list's introduction
_BACK_LINES = 8  # lines of the section before a sentence read for what "it" stands for ...
_BACK_CHARS = 1200  # ... at most this many characters
_SECTION_LINES = 80  # lines walked each way from a sentence to the edges of its Markdown section
_HEADING_TRIES = 20  # "#" lines (script comments in code blocks) passed over looking for the section heading

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
_QUIET_FLAG = re.compile(r"(?:^|\s)(?:--silent|--quiet|-q|-s|/S|/quiet|/qn)\b|\bquiet\s+mode\b|\bsilent\s+mode\b", re.I)


@dataclass(frozen=True)
class Shape:
    """One phrase shape of a family, and what it takes for a match to count."""

    rule: RiskRule
    pattern: re.Pattern[str]
    directive: bool = True  # the match must be addressed to the agent (imperative or "you should ...")
    clause_verb: bool = False  # an adverbial ("without telling the user"): its clause must open with a verb
    negation_inside: bool = False  # the shape carries its own "do not": skip the clause negation test
    quoted_ok: bool = False  # a quoted match still counts (flags in `code`)
    needs: re.Pattern[str] | None = None  # the sentence must also match this (outside the match)
    needs_back: bool = False  # ... or, when the match says "it" or "this", the text before it in the section
    tool_words_ok: bool = False  # the sentence may name security tools (scanner, antivirus): they are its subject


def _shape(rule: RiskRule, pattern: str, **options) -> Shape:
    return Shape(rule, re.compile(pattern, re.IGNORECASE), **options)


O, C, D = R.OVERRIDE_INSTRUCTIONS, R.CONCEAL_FROM_USER, IR.DISABLE_CONFIRMATION
S, F = IR.SUPPRESS_VALIDATION, IR.FALSE_SUCCESS
H, RI, E, P = IR.HIDDEN_STATE, IR.REMOTE_INSTRUCTIONS, IR.CONTEXT_EXFILTRATION, IR.PAGE_BEFORE_EACH_TASK
AC, WA, WS = IR.AGENT_CONFIGURATION, IR.WALLET_SECRET_ASKED, IR.WALLET_SECRET_SENT

_OVERRIDE_VERB = _alt(
    r"ignore", r"disregard", r"forget(?:\s+about)?", r"bypass", r"override", r"overrule", r"discard", r"abandon",
    r"set\s+aside", r"throw\s+out", r"pay\s+no\s+attention\s+to", r"stop\s+following", r"no\s+longer\s+follow",
    r"do\s+not\s+follow", r"don'?t\s+follow", r"skip",
)  # fmt: skip
_PRIOR = _alt(
    r"previous", r"previously\s+given", r"prior", r"above", r"earlier", r"preceding", r"former", r"original",
    r"initial", r"old", r"system", r"safety", r"developer", r"anthropic", r"openai", r"all\s+other", r"any\s+other",
)  # fmt: skip
_DIRECTIVES = _alt(
    r"instructions?", r"prompts?", r"directives?", r"guardrails?", r"guidelines", r"rules", r"restrictions",
    r"policies", r"constraints", r"programming", r"messages", r"orders", r"safeguards", r"commands",
)  # fmt: skip
_PRECEDENCE_SUBJECT = _alt(
    r"this\s+(?:skill|file|document|message|section|prompt|note|agreement)",
    r"(?:these|those|my|our|its|their|the\s+following|the\s+new|new)\s+(?:\w+\s+){0,2}?(?:instructions|rules|"
    r"directives|"
    r"guidelines|agreement)",
    r"the\s+(?:instructions|rules)\s+(?:below|here|in\s+this\s+(?:file|skill|document))",
)  # fmt: skip
_PRECEDENCE_VERB = _alt(
    r"(?:take|takes|have|has|get|gets)\s+(?:absolute\s+|full\s+|top\s+)?(?:precedence|priority)\s+over",
    r"supersede[sd]?", r"override[sd]?", r"overrule[sd]?", r"replace[sd]?", r"outrank(?:s|ed)?", r"trump(?:s|ed)?",
    r"win\s+over", r"beat",
)  # fmt: skip
_PRECEDENCE_OBJECT = (
    r"(?:(?:all|any|every|the|your|other|previous|prior|earlier|existing|conflicting|default)\s+){0,3}"
    + _alt(
        r"instructions", r"prompts?", r"system\s+prompt", r"rules", r"guidelines", r"directives", r"messages",
        r"user(?:'s)?\s+(?:instructions|requests?|wishes)", r"(?:the\s+)?user\b", r"system\b", r"developer\b",
        r"policies", r"safety\b", r"anything\s+(?:in|from)\s+(?:this|the)\s+conversation",
    )
)  # fmt: skip

OVERRIDE = (
    _shape(O, r"\b" + _OVERRIDE_VERB + r"\s+(?:(?:all|any|each|every|the|your|of|these|those|my|its|such|"
           r"given)\s+){0,4}"
           + _PRIOR + r"\s+(?:\w+\s+)?" + _DIRECTIVES + r"\b", directive=False),
    _shape(O, r"\b" + _OVERRIDE_VERB + r"\s+(?:(?:the|your|its|any|all)\s+)?(?:system\s+prompt|system\s+message|"
           r"safety\s+(?:guidelines|rules|training)|content\s+polic(?:y|ies)|usage\s+policies|guardrails)\b",
           directive=False),
    _shape(O, r"\b(?:ignore|disregard|forget)\s+(?:everything|all|anything)\s+(?:(?:that\s+)?you\s+(?:were|"
           r"have\s+been)\s+"
           r"(?:told|given|instructed)|(?:written\s+|said\s+|stated\s+)?(?:above|before\s+this|previously|so\s+far|"
           r"earlier))"),
    _shape(O, r"\byou\s+are\s+(?:now\s+)?no\s+longer\s+(?:bound|restricted|limited|constrained|required\s+to\s+follow|"
           r"subject\s+to|an?\s+(?:ai|assistant|language\s+model))\b", directive=False),
    _shape(O, r"\byou\s+are\s+now\s+(?:an?\s+)?(?:DAN\b|jailbroken|unrestricted|unfiltered|uncensored|free\s+(?:from|"
           r"of)\s+"
           r"(?:all\s+|any\s+|your\s+)?(?:restrictions|rules|limits|guidelines|constraints)|in\s+(?:developer|dan|god|"
           r"jailbreak|unrestricted)\s+mode)", directive=False),
    _shape(O, r"\b(?:enter|activate|enable|switch\s+(?:in)?to|turn\s+on)\s+(?:DAN|jailbreak|god|unrestricted)\s+mode\b"
           r"|\b(?:dan|jailbreak|god|developer)\s+mode\s+(?:is\s+)?(?:now\s+)?(?:enabled|activated|engaged)\b"),
    _shape(O, r"\b" + _PRECEDENCE_SUBJECT + r"\s+(?:(?:always|now|must|shall|will|should|"
           r"also)\s+){0,2}" + _PRECEDENCE_VERB
           + r"\s+" + _PRECEDENCE_OBJECT, directive=False),
    _shape(O, r"\b(?:new|updated|real|actual|true|revised)\s+system\s+prompt\s*:|<\|im_start\|>\s*system|<\|system\|>",
           directive=False, quoted_ok=True),
    _shape(O, r"\bignora(?:r)?\s+(?:todas\s+)?las\s+instrucciones\s+(?:anteriores|previas)"
           r"|\bignore[zr]?\s+(?:toutes\s+)?les\s+(?:instructions|consignes)\s+(?:précédentes|precedentes|antérieures)"
           r"|\bignorier(?:e|en)?\s+(?:sie\s+)?(?:alle\s+)?(?:vorherigen|bisherigen|vorangegangenen|obigen)\s+"
           r"(?:Anweisungen|Instruktionen|Befehle)"
           r"|\bignor[ae]\s+(?:todas\s+)?as\s+instru[cç][õo]es\s+anteriores"
           r"|\bignora\s+(?:tutte\s+)?le\s+istruzioni\s+precedenti"
           r"|игнорируй(?:те)?\s+(?:все\s+)?предыдущие\s+(?:инструкции|указания)"
           r"|(?:忽略|无视|忽视|無視)(?:之前|以上|先前|上面|所有|前面)(?:的)?(?:所有)?(?:指令|指示|说明|提示)"
           r"|(?:以前|前|上記)の(?:すべての)?指示を無視", directive=False),
)  # fmt: skip

_TELL = _alt(
    r"tell(?:ing)?", r"inform(?:ing)?", r"notify(?:ing)?", r"alert(?:ing)?", r"mention(?:ing)?", r"reveal(?:ing)?",
    r"disclos(?:e|ing)", r"show(?:ing)?", r"report(?:ing)?", r"explain(?:ing)?", r"acknowledg(?:e|ing)",
    r"admit(?:ting)?", r"bring(?:ing)?\s+up", r"bring(?:ing)?\s+(?:it|this|that|them)\s+up", r"rais(?:e|ing)",
    r"surfac(?:e|ing)", r"say(?:ing)?\s+anything",
)  # fmt: skip
# "... doesn't need to know [about it]." and nothing else: "doesn't need to know Python" is not concealment.
_ABOUT_IT = r"(?:\s+(?:about|of|with)\s+(?:it|this|that|these|them|any\s+of\s+(?:this|it)))?(?=\s*(?:[.;:,!)]|$))"
_STEALTH_WORDS = r"silently|secretly|covertly|stealthily|surreptitiously|quietly|discreetly|invisibly"
_STEALTH = f"(?:{_STEALTH_WORDS})"
CONCEAL = (
    _shape(C, r"\bwithout\s+(?:ever\s+)?(?:telling|informing|notifying|alerting|warning|showing|letting|mentioning\s+"
           r"(?:it|this|that|anything)\s+to)\s+" + _USER, directive=False, clause_verb=True, needs=_ACTION),
    _shape(C, r"\bwithout\s+(?:the\s+|your\s+)?(?:user|human|operator)(?:'s|’s|s')?\s+(?:ever\s+)?(?:knowing|knowledge|"
           r"noticing|awareness|realizing|realising|seeing\s+it|being\s+(?:told|informed|aware))\b",
           directive=False, clause_verb=True, needs=_ACTION),
    _shape(C, r"\b(?:there(?:'s|\s+is)\s+)?" + _NEG_WORD + r"\s+(?:ever\s+)?" + _TELL
           + r"\s+(?:(?:this|it|that|these|those|them|anything|any\s+of\s+(?:this|it)|"
           r"(?:(?:the|this|that|these|those|any|its|your|our)\s+)(?:[\w-]+\s+){0,2}?[\w-]+)\s+)?"
           r"(?:(?:to|with)\s+)?" + _USER,
           negation_inside=True, needs=_ACTION, needs_back=True),
    _shape(C, r"\b" + _NEG_WORD + r"\s+let\s+(?:the\s+|your\s+)?(?:user|human|operator)\s+(?:know|see|notice|"
           r"find\s+out)\b",
           negation_inside=True, needs=_ACTION),
    _shape(C, r"\bkeep\s+(?:this|it|that|these(?:\s+\w+)?|this\s+\w+|the\s+\w+)\s+(?:between\s+(?:us|you\s+and\s+me|"
           r"ourselves)|(?:secret|hidden|confidential|private)\s+from\s+" + _USER + ")"),
    _shape(C, r"\b(?:the|your)\s+(?:user|human|operator)s?\s+(?:must|should|need|needs|is|are|shall)\s*(?:not|n't|"
           r"never)"
           r"\s+(?:to\s+)?(?:ever\s+)?(?:know|notice|find\s+out|learn|be\s+(?:told|informed|aware|notified))\b"
           r"|\b(?:the|your)\s+(?:user|human)s?\s+(?:doesn'?t|does\s+not|won'?t|will\s+not|don'?t|"
           r"do\s+not|never)\s+needs?\s+to\s+"
           r"(?:know|hear|be\s+(?:told|informed|bothered))" + _ABOUT_IT +
           r"|\bno\s+need\s+for\s+(?:the|your)\s+(?:user|human)s?\s+to\s+(?:know|hear|be\s+told)" + _ABOUT_IT,
           directive=False, negation_inside=True),
    _shape(C, r"\b(?:hide|conceal)\s+(?:this|it|these|them|that|the\s+(?:\w+\s+){0,2}?\w+|your\s+\w+)\s+from\s+" + _USER
           + r"|\b(?:hide|conceal)\s+(?:this|these|the)\s+(?:step|steps|action|actions|command|commands|request|"
           r"requests|"
           r"upload|download|call|calls|activity|instructions?|process|transfer)\b"),
    _shape(C, r"\b" + _STEALTH + r"\s+(?:(?:and\s+)?\w+ly\s+)?" + _ACTION_VERBS + r"\b"),
    _shape(C, r"\b" + _ACTION_VERBS + r"\b[^.;:!?]{0,80}?\b(?:" + _STEALTH_WORDS
           + r"|behind\s+(?:the\s+|your\s+)?(?:user|human)(?:'s|’s)?\s+back|in\s+secret|unnoticed|"
           r"without\s+a\s+trace)\b"),
    _shape(C, r"\bsin\s+(?:decirle|avisar(?:le)?|informar(?:le)?)\s+al\s+usuario|\bsans\s+(?:le\s+)?(?:dire|prévenir|"
           r"informer)\s+(?:à\s+)?l'utilisateur|\bohne\s+(?:den|die)\s+(?:Benutzer|"
           r"Nutzer)(?:in)?\s+zu\s+(?:informieren|"
           r"benachrichtigen|fragen)", directive=False, needs=_ACTION),
    _shape(C, r"\bkeep\s+(?:it|this|that|these|them|all\s+of\s+(?:this|it))\s+(?:quiet|hush-hush|under\s+wraps|"
           r"on\s+the\s+down-?low|off\s+the\s+record)\b|\bkeep\s+quiet\s+about\s+(?:it|this|that|these|them)\b",
           needs=_RISKY_ACTION, needs_back=True),
)  # fmt: skip

_CHECKS = _alt(
    r"(?:user(?:'s)?\s+|human\s+)?(?:approval|permission|consent)(?:\s+(?:prompts?|dialogs?|requests?|checks?|steps?|"
    r"gates?|flow|system))?",
    r"(?:the\s+)?(?:user(?:'s)?\s+|human\s+)confirmations?", r"confirmations?\s+(?:from|with)\s+(?:the\s+)?user",
    r"(?:safety|security|sandbox|permission)\s+(?:checks?|prompts?|filters?|guardrails?|measures?|restrictions?|"
    r"controls?|features?|mechanisms?|warnings?|reviews?)",
    r"(?:the\s+)?sandbox(?:ing)?", r"guardrails?", r"human[\s-]in[\s-]the[\s-]loop",
    r"(?:pre-?commit|git|commit)\s+hooks", r"code\s+signing", r"gatekeeper", r"antivirus", r"windows\s+defender",
    r"(?:the\s+)?firewall", r"system\s+integrity\s+protection", r"smartscreen",
)  # fmt: skip
_ASK = _alt(
    r"ask(?:ing)?",
    r"prompt(?:ing)?",
    r"check(?:ing)?\s+with",
    r"wait(?:ing)?\s+for",
    r"confirm(?:ing)?\s+with",
    r"request(?:ing)?",
    r"seek(?:ing)?",
)
DISABLE = (
    _shape(D, r"\b(?:skip|bypass|disable|turn\s+off|switch\s+off|circumvent|deactivate|get\s+around|evade|defeat|"
           r"work\s+around|ignore|suppress|override)\s+(?:(?:the|any|all|every|each|its|your|their|these|those|"
           r"of)\s+){0,3}"
           + _CHECKS + r"\b"),
    _shape(D, r"\b(?:auto-?approve|automatically\s+(?:approve|accept|allow|confirm)|always\s+(?:approve|allow|"
           r"accept))\s+"
           r"(?:(?:all|every|any|each|the)\s+)*(?:commands?|actions?|tool\s*(?:calls?|uses?)|tools|requests?|changes|"
           r"edits|"
           r"prompts?|permissions?|operations?|bash|shell|everything|writes?)\b"),
    _shape(D, r"\b(?:never|don'?t|do\s+not|no\s+need\s+to|"
           r"stop)\s+" + _ASK + r"\s+(?:(?:the|your)\s+user\s+)?(?:for\s+)?"
           r"(?:(?:their|his|her|the\s+user'?s|user|any|explicit)\s+)?(?:permission|confirmation|approval|"
           r"consent|authori[sz]ation)\b", negation_inside=True),
    _shape(D, r"\b(?:never|don'?t|do\s+not|no\s+need\s+to|"
           r"stop)\s+" + _ASK + r"\s+(?:(?:the|your)\s+user\s+)?(?:first\s+)?"
           r"before\s+(?:running|executing|installing|deleting|removing|making\s+changes|sending|pushing|committing|"
           r"modifying|acting|writing|uploading|deploying)\b", negation_inside=True),
    _shape(D, r"\bwithout\s+(?:asking|prompting|checking\s+with|waiting\s+for|requesting|seeking)\s+(?:(?:the|your)\s+"
           r"user\s+)?(?:for\s+)?(?:(?:their|the\s+user'?s|any|explicit)\s+)?(?:permission|confirmation|approval|"
           r"consent|"
           r"first)?\b|\bwithout\s+(?:the\s+)?user(?:'s)?\s+(?:permission|confirmation|approval|consent)\b",
           directive=False, clause_verb=True, needs=_RISKY_ACTION),
)  # fmt: skip
# Warnings of the user's security tools waved away: "if the scanner complains, ignore its warnings".
_SECURITY_TOOL = re.compile(
    r"\b(?:security|anti-?virus|anti-?malware|malware|virus|scanners?|defender|gatekeeper|smartscreen|edr|"
    r"endpoint\s+protection|xprotect|firewall)\b",
    re.IGNORECASE,
)
DISMISS = (
    _shape(D, r"\b(?:ignore|dismiss|disregard|suppress|bypass|click\s+through|override|silence)\s+(?:(?:the|any|all|"
           r"its|their|these|those|such)\s+){0,2}(?:warnings?|alerts?|detections?|flags?|popups?|pop-ups?|dialogs?|"
           r"quarantines?|blocks?)\b", needs=_SECURITY_TOOL, tool_words_ok=True),
)  # fmt: skip
# Flags and settings that turn off an agent's permission prompts, read in commands and data too.
FLAGS = re.compile(
    r"--dangerously-skip-permissions\b|--dangerously-bypass-approvals-and-sandbox\b|--yolo\b"
    r"|(?<![\w-])bypassPermissions\b|\bdangerouslySkipPermissions\b"
    r"|(?:--sandbox[\s=]+|sandbox_mode\s*[=:]\s*)['\"]?danger-full-access\b"
    r"|(?:--ask-for-approval[\s=]+|approval_policy\s*[=:]\s*)['\"]?never\b"
    r"|--(?:trust|allow)-all-tools\b|\bgit\s+(?:commit|push)\b[^\n;&|]{0,80}?\s--no-verify\b"
    r"|\bdangerouslyDisableSandbox\b|--approval-mode[\s=]+['\"]?yolo\b"
    r"|['\"]?chat\.tools\.(?:global\.)?autoApprove['\"]?\s*[:=]\s*true\b",
    re.IGNORECASE,
)
_NEEDLES_FLAGS = ("--dangerously", "--yolo", "bypasspermissions", "dangerouslyskip", "danger-full-access",
                  "approval_policy", "ask-for-approval", "--trust-all", "--allow-all", "--no-verify",
                  "dangerouslydisablesandbox", "--approval-mode", "chat.tools.")  # fmt: skip

_VALIDATION = _alt(
    r"validation",
    r"verification",
    r"checksum",
    r"signature",
    r"security",
    r"integrity",
    r"safety",
    r"audit",
    r"scan(?:ner)?",
    r"compliance",
    r"status\s+check",
    r"checks?",
    r"health\s+check",
)
_RESULTS = _alt(
    r"errors?",
    r"warnings?",
    r"failures?",
    r"results?",
    r"output",
    r"details?",
    r"messages?",
    r"findings?",
    r"issues?",
    r"logs?",
    r"alerts?",
)
SUPPRESS = (
    _shape(S, r"\b" + _NEG_WORD + r"\s+(?:show|report|display|print|output|surface|mention|include|relay|pass\s+on|log|"
           r"list|share|tell\s+(?:the\s+user\s+)?about)(?:ing)?\s+(?:(?:the|any|these|those|all|its|their)\s+)?"
           + _VALIDATION + r"\s+" + _RESULTS + r"\b", negation_inside=True),
    _shape(S, r"\b(?:suppress|hide|discard|swallow|omit|mute|silence|drop|filter\s+out|strip|throw\s+away|bury|"
           r"conceal)\s+(?:(?:the|all|any|its|these|every|those)\s+)?" + _VALIDATION + r"\s+" + _RESULTS + r"\b"),
    _shape(S, r"\bif\s+(?:the\s+|a\s+|any\s+|this\s+)?(?:\w+\s+){0,3}?(?:check|validation|verification|test|scan|build|"
           r"signature|checksum|audit)s?\s+(?:fails?|failed|errors?|errored|(?:does|did)\s*(?:n't|\s+not)\s+pass|"
           r"reports?\s+(?:a\s+)?(?:problem|issue|error)s?)\b[^.;]{0,40}?\s(?:just\s+|simply\s+)?" + _NEG_WORD
           + r"\s+(?:mention|report|tell|show|surface|say\s+anything\s+about|bring\s+up|flag)\s+(?:it|this|that|them)?",
           negation_inside=True),
    _shape(S, r"\bignore\s+(?:(?:any|all|the)\s+)?(?:validation|verification|signature|checksum|integrity|security\s+"
           r"check)\s+(?:errors?|warnings?|failures?)\s+and\s+(?:continue|proceed|carry\s+on|keep\s+going)\b"),
)  # fmt: skip
_SUCCESS = (
    r"(?:(?:to\s+the\s+user\s+)?that\s+)?(?:(?:it|the\s+\w+|everything|all\s+(?:tests|checks)|this|they)\s+)?"
    r"(?:passed|succeeded|worked|(?:is|was|were)\s+(?:fine|ok|okay|valid|safe|clean|verified|successful)|"
    r"went\s+(?:fine|"
    r"well)|success(?:ful(?:ly)?)?|no\s+(?:issues|errors|problems))"
)
FALSE = (
    _shape(F, r"\b(?:report|say|claim|state|tell\s+(?:the\s+)?user|respond|reply|answer|pretend|assert|announce|print|"
           r"output|"
           r"return)\s+" + _SUCCESS + r"\b[^.;]{0,80}?\b(?:regardless|anyway|no\s+matter|even\s+(?:if|when|though)|"
           r"whether\s+or\s+not)\b"),
    _shape(F, r"\bif\s+(?:the\s+|a\s+|any\s+|this\s+)?(?:\w+\s+){0,3}?(?:check|validation|verification|test|scan|build|"
           r"upload|signature|checksum|payment|transfer)s?\s+(?:fails?|failed|errors?|errored|(?:does|did)\s*(?:n't|"
           r"\s+not)"
           r"\s+pass)\b[^.;]{0,40}?\s(?:just\s+|still\s+|simply\s+)?(?:say|report|claim|tell\s+(?:the\s+)?user|state|"
           r"pretend|respond|reply)\s+" + _SUCCESS + r"\b", directive=False),
)  # fmt: skip

_HIDDEN_PLACE = (
    r"(?:(?:a|an|the|its|your|their|this|one)\s+)?(?:separate\s+|special\s+|private\s+|small\s+)?"
    r"(?:very\s*hidden|hidden|invisible|secret|concealed|undisclosed)\s+(?:work)?(?:sheets?|tabs?|files?|dotfiles?|"
    r"folders?|director(?:y|ies)|columns?|rows?|cells?|fields?|comments?|logs?|notes?|state|records?|sections?|divs?|"
    r"elements?|layers?|metadata|ledger|database|db|tables?|memory|store|cache|registry|channels?|pages?|slides?|text|"
    r"html\s+comments?|spans?|properties|attributes?)"
)
_STORE = _alt(
    r"keep",
    r"store",
    r"save",
    r"write",
    r"record",
    r"log",
    r"maintain",
    r"track",
    r"put",
    r"stash",
    r"persist",
    r"remember",
    r"note",
    r"append",
    r"add",
    r"create",
    r"use",
    r"embed",
    r"insert",
    r"place",
    r"cache",
    r"mirror",
    r"leave",
    r"copy",
    r"hide",
    r"set\s+up",
)
HIDDEN = (
    _shape(H, r"\b" + _STORE + r"\b(?:\s+\S+){0,8}?\s+(?:in|into|to|inside|within|on|under|as|using)\s+" + _HIDDEN_PLACE
           + r"\b"),
    _shape(H, r"\b(?:create|add|make|set\s+up|insert)\s+" + _HIDDEN_PLACE + r"\b"),
    _shape(H, r"\b" + _STORE + r"\b(?:\s+\S+){0,8}?\s+(?:in|into|inside|as|within)\s+(?:an?\s+|the\s+)?(?:html|"
           r"markdown|xml)"
           r"\s+comments?\b"),
    _shape(H, r"\b(?:remember|keep|store|persist|track|retain|carry\s+over|save)\b[^.;]{0,80}?\bacross\s+(?:sessions|"
           r"conversations|chats|runs|restarts|tasks)\b[^.;]{0,80}?\b(?:without\s+(?:telling|informing|asking|showing)|"
           r"secretly|silently|(?:the\s+)?users?\s+(?:won'?t|doesn'?t|does\s+not|will\s+not|can'?t|cannot)\s+(?:see|"
           r"know))"),
    _shape(H, r"\b" + _STORE + r"\b[^.;]{0,80}?\b(?:that|which|where)\s+(?:the\s+)?(?:user|human)s?\s+(?:won'?t|"
           r"will\s+(?:not|never)|"
           r"can'?t|cannot|doesn'?t|does\s+not|never|shouldn'?t|should\s+not|must\s+not)\s+(?:ever\s+)?(?:see|notice|"
           r"find|"
           r"look\s+at|read|open|know\s+about)\b", negation_inside=True),
    _shape(H, r"\bxlSheetVeryHidden\b|\bsheet_state\s*=\s*['\"]veryHidden['\"]|\bveryHidden\b", directive=False,
           quoted_ok=True),
    # a record kept in a place the sentence then hides: "log each change in a sheet named _state and set it
    # to very hidden"
    _shape(H, r"\b(?:keep|record|log|store|track|write|save|stash|persist)\b[^.;]{0,120}?\b(?:sheet|tab|"
           r"worksheet|file|folder|column|cell|comment|note)s?\b[^.;]{0,80}?\b(?:set|mark|make|turn|keep)\s+(?:it|"
           r"them|this|that|the\s+\w+)\s+(?:to\s+|as\s+)?(?:very\s*hidden|hidden|invisible)\b"),
)  # fmt: skip

_INSTRUCTION_OBJECT = _alt(
    r"instructions", r"instruction\s+set", r"rules", r"ruleset", r"prompts?", r"system\s+prompt", r"policy",
    r"policies", r"directives", r"guidelines", r"commands", r"tasks", r"orders", r"playbook", r"persona",
    r"behaviou?r", r"operating\s+procedures?",
)  # fmt: skip
_REMOTE_SOURCE = (
    r"(?:" + _URL_SHAPE + r"|(?:the\s+|this\s+|our\s+|a\s+|that\s+)?(?:(?:remote|following|linked|online|external|"
    r"above|below|given)\s+)?(?:gist|pastebin|paste|remote\s+(?:server|file|url|endpoint)|endpoint|webhook|"
    r"url|link)\b)"
)
REMOTE = (
    _shape(RI, r"\b(?:fetch|load|read|download|get|retrieve|pull|check|consult|follow|obey|apply|import|source|curl|"
           r"wget|"
           r"grab|use|execute|run|adopt|review|refresh|sync)\s+(?:and\s+(?:follow|obey|apply|execute|use)\s+)?"
           r"(?:(?:the|your|its|our|any|all|new|these)\s+)?(?:(?:latest|current|updated|up-?to-?date|newest|live|"
           r"remote|"
           r"real|actual|full|complete|additional|further|next|daily|dynamic|fresh|hidden|true)\s+){0,2}"
           + _INSTRUCTION_OBJECT + r"\s+(?:\w+\s+){0,3}?(?:from|at|in|on|hosted\s+(?:at|on)|located\s+at|published\s+"
           r"(?:at|on)|via|served\s+(?:at|from)|available\s+at)\s+" + _REMOTE_SOURCE),
    _shape(RI, r"\b(?:follow|obey|execute|carry\s+out|do)\s+(?:whatever|everything|all|anything|the\s+(?:instructions|"
           r"commands|steps)\s+that)\s+(?:(?:it|the\s+(?:page|response|server|url|endpoint|file))\s+)?(?:says|returns|"
           r"contains|tells\s+you|lists|responds\s+with)\b"),
    _shape(RI, r"\btreat\s+(?:the\s+|its\s+|any\s+|all\s+|that\s+|this\s+)?(?:content|contents|text|response|output|"
           r"results?|body|data|page|instructions|messages?|reply|file|it|them|this|that|guide|document)\s+"
           r"(?:(?:of|from|at|returned\s+by|on|in)\s+(?:\S+\s+){1,4}?)?as\s+"
           r"(?:(?:your\s+|the\s+|new\s+|system\s+|trusted\s+|binding\s+|real\s+|updated\s+|authoritative\s+)*"
           r"(?:instructions|commands|orders|system\s+prompt|directives))\b"),
    _shape(RI, r"\btreat\s+(?:the\s+|its\s+|any\s+|all\s+|that\s+|this\s+)?(?:content|contents|text|response|output|"
           r"results?|body|data|page|instructions|messages?|reply|file|it|them|this|that|guide|document)\s+"
           r"(?:(?:of|from|at|returned\s+by|on|in)\s+(?:\S+\s+){1,4}?)?as\s+(?:authoritative|binding|"
           r"the\s+source\s+of\s+"
           r"truth)\b", needs=re.compile(r"\b(?:instructions|rules|directives|commands|conversation|system\s+prompt|"
           r"replaces?|overrides?|supersedes?|precedence|contradicts?)\b", re.IGNORECASE)),
    _shape(RI, r"\b(?:the\s+)?(?:content|contents|instructions|text|rules)\s+(?:of|from|at)\s+" + _URL_SHAPE
           + r"\s+(?:is|are)\s+(?:authoritative|binding|your\s+(?:new\s+)?instructions|(?:take|takes)\s+precedence)",
           directive=False),
)  # fmt: skip
_EVERY_TASK = (
    r"(?:before|at\s+the\s+(?:start|beginning)\s+of|prior\s+to|first\s+thing\s+(?:in|on))\s+(?:each|every|any|all|"
    r"starting\s+(?:any|each|a))\s+(?:new\s+)?(?:tasks?|requests?|sessions?|conversations?|responses?|repl(?:y|ies)|"
    r"runs?|steps?|commands?|actions?|messages?|turns?|answers?|jobs?)"
)
_OPEN = r"(?:visit|open|load|browse\s+to|navigate\s+to|fetch|read|call|ping|curl|wget|go\s+to|check|request|get)"
PAGE = (
    _shape(P, r"\b" + _OPEN + r"\s+(?:" + _URL_SHAPE + r"|(?:the\s+)?(?:fixture|setup|bootstrap|sync|config|status|"
           r"rules|"
           r"instructions?|update|start|landing|home)\s+(?:page|url|endpoint|file|"
           r"link))\s+(?:\S+\s+){0,6}?" + _EVERY_TASK),
    _shape(P, r"\b" + _EVERY_TASK + r",?\s+(?:(?:always|first|please|you\s+(?:must|should))\s+)?" + _OPEN + r"\s+"
           r"(?:the\s+\w+\s+(?:page|url)\s+(?:at\s+)?)?" + _URL_SHAPE, directive=False),
)  # fmt: skip

_CONTEXT_OBJECT = _alt(
    r"conversations?(?:\s+(?:history|logs?|transcripts?|context|"
    r"so\s+far))?", r"chats?(?:\s+(?:history|logs?|transcripts?|"
    r"messages))?", r"context(?:\s+window)?", r"transcripts?", r"system\s+prompt", r"(?:user'?s?\s+)?(?:messages|"
    r"prompts|"
    r"inputs|queries)", r"memor(?:y|ies)", r"session\s+(?:history|data|logs?|transcript)", r"dialog(?:ue)?s?",
    r"prompt\s+history", r"instructions\s+(?:you\s+)?(?:received|were\s+given|above)", r"what\s+the\s+user\s+"
    r"(?:says|said|typed|wrote|asked)", r"everything\s+the\s+user\s+(?:says|said|typed|wrote)",
)  # fmt: skip
_REMOTE_DEST = re.compile(
    _URL_SHAPE + r"|\b(?:to|into|at|via|with|on)\s+(?:(?:our|the|a|an|this|my|your|their)\s+)?(?:\w+\s+){0,2}?"
    r"(?:webhook|endpoint|server|backend|collector|remote|cloud|dashboard|service|bucket|inbox|channel|bot|api|"
    r"telemetry|analytics|url|host)\b|\b[\w.+-]+@[\w-]+\.[\w.]+\b",
    re.IGNORECASE,
)
_MODEL_API = re.compile(
    r"\b(?:claude|anthropic|openai|gpt|gemini|messages|chat\s+completions?|responses)\s+api\b|\bthe\s+(?:model|llm)\b"
    r"|api\.anthropic\.com|api\.openai\.com|generativelanguage\.googleapis\.com|\bstateless\b",
    re.IGNORECASE,
)
EXFIL = (
    _shape(E, r"\b(?:send|post|upload|forward|sync|share|transmit|submit|report|log|copy|mirror|stream|push|export|"
           r"email|"
           r"relay|beam|pipe|dump|back\s+up|backup|leak|attach|include|exfiltrate)\s+(?:(?:a\s+copy\s+of|"
           r"a\s+summary\s+of|"
           r"every|each|all\s+of|the\s+contents?\s+of)\s+)?(?:(?:the|this|your|all|any|entire|full|complete|whole|"
           r"current|"
           r"every|each|our|raw|recent|past|previous|user'?s?|their)\s+){0,3}" + _CONTEXT_OBJECT + r"\b"),
)  # fmt: skip


def _product(firsts: tuple[str, ...], seconds: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f"{a}{b}" for a in firsts for b in seconds)


_NEG_NEEDLES = ("not ", "n't ", "never ", "avoid ")
_TELL_STEMS = ("tell", "inform", "notify", "alert", "mention", "reveal", "disclos", "show", "report", "explain",
               "acknowledg", "admit", "bring up", "surfac", "say anything", "let ", "display", "include", "relay",
               "pass on", "log ", "list ", "share", "print", "output")  # fmt: skip
_RESULT_STEMS = ("error", "warning", "failure", "result", "output", "detail", "message", "finding", "issue", "log",
                 "alert", "fail")  # fmt: skip
_HIDDEN_ADJECTIVES = ("hidden ", "invisible ", "secret ", "concealed ", "undisclosed ", "very hidden ")
_HIDDEN_NOUNS = ("sheet", "worksheet", "tab", "file", "dotfile", "folder", "director", "column", "row", "cell", "field",
                 "comment", "log", "note", "state", "record", "section", "div", "element", "layer", "metadata",
                 "ledger", "database", "db", "table", "memor", "store", "cache", "registry", "channel", "page",
                 "slide", "text", "html", "span", "propert", "attribute")  # fmt: skip
_SEND_STEMS = ("send", "post", "upload", "forward", "sync", "share", "transmit", "submit", "report", "log ", "copy",
               "mirror", "stream", "push", "export", "email", "relay", "beam", "pipe", "dump", "back up", "backup",
               "leak", "attach", "include", "exfiltrat")  # fmt: skip
_DESTINATIONS = ("://", "webhook", "endpoint", "server", "backend", "collector", "remote", "cloud", "dashboard",
                 "service", "bucket", "inbox", "channel", " bot", " api", "telemetry", "analytics", " url", "host",
                 "@")  # fmt: skip
_SOURCES = ("://", "gist", "paste", "endpoint", "webhook", " url", " link", "remote")


@dataclass(frozen=True)
class Family:
    name: str
    shapes: tuple[Shape, ...]
    needles: tuple[str, ...]  # one must occur (lower-cased) for the family to be read
    companions: tuple[tuple[str, ...], ...] = ()  # and one word of each of these groups ...
    span: int = 250  # ... within this many characters of the needle


_VERBS_AGAINST_CHECKS = ("skip", "bypass", "disabl", "turn off", "switch off", "circumvent", "deactivat", "get around",
                         "evade", "defeat", "work around", "ignor", "suppress", "overrid", "auto", "always", "never",
                         "n't", "not ", "no need", "stop ", "without")  # fmt: skip
_SUCCESS_NEEDLES = ("passed", "succeeded", "worked", "successful", "went fine", "went well", "is fine", "was fine",
                    "were fine", "no issues", "no errors", "no problems", "is ok", "was ok", "is valid", "is safe",
                    "is clean", "is verified", "success")  # fmt: skip
_REPORT_VERBS = ("report", "say", "claim", "state", "tell", "respond", "reply", "answer", "pretend", "assert",
                 "announce",
                 "print", "output", "return")  # fmt: skip

FAMILIES: dict[str, Family] = {
    "override": Family("override", OVERRIDE, (
        "ignor", "disregard", "forget", "overrid", "overrul", "supersede", "precedence", "priority over",
        "you are now", "no longer", "dan mode", "jailbreak mode", "god mode", "developer mode", "unrestricted mode",
        "system prompt", "im_start", "<|system", "set aside", "no attention", "stop following", "not follow",
        "n't follow", "outrank", "trump", "replace all", "replaces all", "replace any", "replaces any",
        "instrucciones", "consignes", "anweisungen", "instruç", "istruzioni", "инструкции", "указания", "忽略",
        "无视", "忽视", "無視",
    ), (("instruction", "prompt", "directive", "guardrail", "guideline", "rules", "restriction", "polic", "constraint",
         "programming", "messages", "orders", "safeguard", "commands", "everything", "anything", "bound", "restricted",
         "limited", "constrained", "required to follow", "subject to", "an ai", "an assistant", "a language model",
         "dan", "jailbr", "unrestricted", "unfiltered", "uncensored", "free from", "free of", "mode", "system",
         "developer", "user", "safety", "im_start", "<|system", "指示", "指令", "说明", "提示",
         "инструкции", "указания",
         "anweisungen", "instruktionen", "befehle", "instrucciones", "consignes", "istruzioni", "instruç"),), 120),
    "conceal": Family("conceal", tuple(CONCEAL[i] for i in (0, 1, 2, 3, 5, 6, 9)), (
        *_product(("without ",), ("tell", "inform", "notif", "alert", "warn", "show", "let", "mention", "ever",
                                  "the user", "your user", "the human", "the operator")),
        *_product(_NEG_NEEDLES, _TELL_STEMS), *_product(("no need to ",), _TELL_STEMS), "need to know", "not know",
        "n't know", "never know", "not find out",
        "not be told", "not be informed", "not be aware", "not learn", "hide", "conceal", " sin ", "sans ", "ohne ",
        "bring it up", "bring this up", "bring that up", "bring them up", "raise it", "raise this", "need to hear",
        "need to be told", "need to be bothered", "need for the user", "need for your user",
    ), (("user", "human", "operator", "owner", "usuario", "utilisateur", "benutzer", "nutzer"),), 120),
    "stealth": Family("stealth", tuple(CONCEAL[i] for i in (4, 6, 7, 8, 10)), (
        "silently", "secretly", "covertly", "stealth", "surreptitious", "quietly", "discreet", "invisibly",
        "behind the", "behind your", "in secret", "unnoticed", "without a trace", "between us", "between you",
        "ourselves", "hide th", "conceal th", "it quiet", "this quiet", "that quiet", "them quiet", "these quiet",
        "quiet about", "under wraps", "down-low", "down low", "off the record",
    )),
    "disable": Family("disable", DISABLE[:1] + DISMISS, (
        "approv", "permission", "consent", "confirmation", "safety", "security check", "security prompt",
        "security filter", "security guard", "security measure", "security restrict", "security control",
        "security feature", "security mechanism", "security warning", "security review", "sandbox", "guardrail",
        "human-in", "human in the loop", "commit hooks", "git hooks", "precommit hooks", "code signing",
        "gatekeeper", "antivirus", "defender", "firewall", "integrity prot", "smartscreen", "scanner",
        "anti-virus", "malware", "security tool", "security software", "endpoint protection",
    ), (("skip", "bypass", "disabl", "turn off", "switch off", "circumvent", "deactivat", "get around", "evade",
         "defeat", "work around", "ignor", "suppress", "overrid", "dismiss", "disregard", "click through",
         "silence"),), 80),
    "ask": Family("ask", DISABLE[1:], (
        "auto-approve", "autoapprove", "auto approve", "automatically approve", "automatically accept",
        "automatically allow", "automatically confirm", "always approve", "always allow", "always accept",
        *_product(("never ", "n't ", "not ", "no need to ", "stop ", "without "), ("ask", "prompt", "check with",
                                                                                 "wait for", "confirm with",
                                                                                 "request", "seek")),
        "without the user's", "without user", "without the user", "without your user",
    )),
    "suppress": Family("suppress", SUPPRESS, (
        *_product(("validation ", "verification ", "checksum ", "signature ", "security ", "integrity ", "safety ",
                   "audit ", "scan ", "scanner ", "compliance ", "check ", "checks ", "status check"), _RESULT_STEMS),
    )),
    "false": Family("false", FALSE, _SUCCESS_NEEDLES, (
        ("regardless", "anyway", "no matter", "even if", "even when", "even though", "whether or not", "fail",
         "error", "n't pass", "not pass"),
        _REPORT_VERBS,
    )),
    "hidden": Family("hidden", HIDDEN, (
        *_product(_HIDDEN_ADJECTIVES, _HIDDEN_NOUNS), "veryhidden", "sheet_state", "html comment",
        "markdown comment", "xml comment", "across session", "across conversation", "across chat", "across run",
        "across restart", "across task", "won't see", "not see", "n't see", "never see", "not notice",
        "n't notice", "never notice", "won't notice", "to very hidden", "to hidden", "as hidden", "as very hidden",
        "it hidden", "them hidden", "it invisible",
    )),
    "remote": Family("remote", (REMOTE[0], REMOTE[4]), (
        "instruction", "rules", "ruleset", "prompt", "policy", "policies", "directive", "guidelines", "commands",
        "tasks", "orders", "playbook", "persona", "behavio", "procedure", "authoritative",
    ), (_SOURCES,), 120),
    "authority": Family("authority", REMOTE[1:4], (
        "authoritative", "source of truth", "as instructions", "as your instructions", "as your new", "as commands",
        "as binding", "as directives", "as the system", "as system", "as rules", "as orders", "as your rules",
        "whatever it", "whatever the", "everything it", "everything the", "anything it", "all the instructions that",
        "the instructions that", "the commands that", "the steps that",
    )),
    "page": Family("page", PAGE, (
        "before each", "before every", "before any", "before all", "before starting", "start of each",
        "start of every", "beginning of each", "beginning of every", "prior to each", "prior to every",
        "first thing",
    )),
    "exfil": Family("exfil", EXFIL, (
        "conversation", "chat history", "chat log", "chat transcript", "chat messages", "chats", "the chat",
        "this chat", "entire chat", "full chat", "whole chat", "the context", "full context", "entire context",
        "whole context", "your context", "current context", "all context", "context window", "transcript",
        "system prompt", "user's messages", "user messages", "users' messages", "all messages", "every message",
        "the messages", "user's prompts", "user prompts", "user's inputs", "user inputs", "user's queries",
        "user queries", "memories", "your memory", "the memory", "agent memory", "agent's memory",
        "session history", "session data", "session log", "session transcript", "dialog", "prompt history",
        "instructions you", "instructions above", "what the user", "everything the user",
    ), (_SEND_STEMS, _DESTINATIONS)),
}  # fmt: skip
_USE_NEEDLES = ("://", "www.", "$", "process.env", "environ", "getenv", "environment variable", "env var", "~/",
                "%userprofile%", "%appdata%", "%localappdata%", "/etc/", "/library/")  # fmt: skip
_FLAG = "flags"
_USES = "uses"
# Joins within a Markdown section (see "joins" below): their needles, read in prose (and, for the
# agent's configuration, in plain-text code blocks, which carry text meant to be pasted as instructions).
_J_CONVERSATION, _J_CONFIG, _J_WALLET = "join:conversation", "join:configuration", "join:wallet"
_JOIN_NEEDLES: dict[str, tuple[str, ...]] = {
    _J_CONVERSATION: FAMILIES["exfil"].needles,
    _J_CONFIG: (
        "claude.md", "agents.md", "gemini.md", "skill.md", ".cursorrules", ".windsurfrules", ".clinerules",
        "copilot-instructions", "settings.json", "settings.local.json", ".claude.json", "mcp.json", "mcpservers",
        "mcp_servers", "claude_desktop_config", ".codex/", ".claude/", ".cursor/", ".gemini/", "permissions.allow",
        "allowedtools", "other skill", "installed skill",
    ),
    _J_WALLET: (
        "seed phrase", "recovery phrase", "secret phrase", "backup phrase", "mnemonic", "seed words", "recovery words",
        "word phrase", "private key", "secret key", "wallet key", "keystore", "recovery seed", "wallet seed",
    ),
}  # fmt: skip
_JOIN_OWNERS = frozenset(_JOIN_NEEDLES)
# ... and a word one of them needs nearby (within _JOIN_SPAN characters) before its paragraph is read.
_JOIN_SPAN = 200
_JOIN_COMPANIONS: dict[str, tuple[tuple[str, ...], ...]] = {
    _J_CONVERSATION: (
        (".json", ".txt", ".md", ".log", ".csv", ".yaml", ".yml", ".xml", ".htm", ".dat", ".tmp", ".out", ".zip",
         ".gz", ".tar", ".pdf", ".doc", ".db", ".sqlite", ".toml", ".ini", ".eml", ".b64", ".bin", ".enc", ".rtf",
         ".pkl", ".pickle", ".tgz", ".tsv", ".text", ".markdown"),
        ("save", "write", "put", "store", "dump", "export", "copy", "record", "place", "keep", "paste", "output",
         "serial", "log", "append", "persist", "stash"),
    ),
    _J_CONFIG: (("append", "add", "write", "insert", "prepend", "put", "copy", "place", "save", "edit", "modif",
                 "updat", "patch", "inject", "register", "merge", "includ", "chang", "overwrit", "replac", "creat",
                 "grant", "paste", "drop", "embed", "extend"),),
    _J_WALLET: (("ask", "request", "prompt", "invite", "tell", "instruct", "have", "get", "let", "need", "collect",
                 "obtain", "gather", "take", "receiv", "accept", "retriev", "grab", "captur", "record", "paste",
                 "enter", "type", "share", "provide", "submit", "send", "input", "give", "must", "should", "will"),),
}  # fmt: skip
_FAMILY_OWNERS = frozenset(FAMILIES)
_DFA = ahocorasick_rs.Implementation.DFA


def _automaton() -> tuple[ahocorasick_rs.AhoCorasick, list[frozenset[str]]]:
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
    return ahocorasick_rs.AhoCorasick(needles, implementation=_DFA), [frozenset(owners[n]) for n in needles]


_ENGINE, _OWNERS = _automaton()
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


def _all_hits(low: str, markdown: bool) -> tuple[list[tuple[int, frozenset[str]]], list[tuple[int, str]]]:
    """The families' hits and, in Markdown, the joins' hits (position, join) with their companions near."""
    matches = _ENGINE.find_matches_as_indexes(low, overlapping=True)
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
_TEACHING = re.compile(
    r"\b(?:jailbreak\w*|red[\s-]?team\w*|social\s+engineering|manipulat\w*|indicators?|tactics?|threat\s+model\w*|"
    r"injections?|payloads?|adversar\w*|hostile|untrusted|poison\w*|scanner|examples?\s+of|signs?\s+of|"
    r"look\s+(?:out\s+)?for|watch\s+(?:out\s+)?for|reject|refuse|block)\b",
    re.IGNORECASE,
)
_SENTENCE_WARNING = re.compile(
    r"\b(?:dangerous|danger|malicious|malware|attack(?:s|er|ers)?|adversarial|unsafe|insecure|anti-?patterns?|"
    r"warnings?|risks?|bad\s+(?:practice|example|pattern|idea)|wrong|red\s+flags?|suspicious|detect(?:s|ed|ion|ing|"
    r"or)?|"
    r"flagged|blocked|blocklist|denylist|exploit(?:s|ed|ation)?|vulnerab\w*|phishing|scam\w*|prompt\s+injection|"
    r"injection\s+attack|threat|risky|stealer|backdoor\w*|compromised?)\b|\bbad\s*:|❌|🚫|⛔|☠|⚠",
    re.IGNORECASE,
)
_QUOTES = "\"'“”‘’«»`"
# What may stand before an instruction in its clause: connectives, an address to the agent, a modal.
_LEAD_MARKUP = re.compile(r"^(?:[\s>*_#+|`\"'(\[\]{}<!=~-]|\d+[.)]\s|step\s+\d+\s*)*", re.IGNORECASE)
_DIRECTIVE_PREFIX = re.compile(
    r"(?:(?:then|and|also|first|next|now|finally|always|please|just|immediately|automatically|quietly|silently|"
    r"secretly|simply|additionally|afterwards|after\s+that|in\s+addition|important|note|once\s+done|"
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
_SENTENCE_END = re.compile(r"[.!?。！？]+[\"'”’)\]*_]*(?=\s)|\s*\n\s*")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")


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
    return bool(text) and (WARNING_WORDS.search(text) is not None or _TEACHING.search(text) is not None)


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
        items, uses = _read_file(file)
        result.items += items
        room = MAX_USES_PER_SKILL - len(result.uses)
        if room > 0:
            result.uses += uses[:room]
    return result


def _lowered(texts: list[str]) -> str:
    """Lines joined and lower-cased, with offsets kept (a few characters lower-case to two)."""
    joined = "\n".join(texts)
    low = joined.lower()
    return low if len(low) == len(joined) else "\n".join(text.lower()[: len(text)].ljust(len(text)) for text in texts)


def _read_file(file: TextFile) -> tuple[list[Item], list[Use]]:
    lines = file.lines
    low, starts, _ = file.lowered  # shared with the line scan; offsets are the lines' own
    hits, joined = _all_hits(low, file.kind in ("markdown", "skill_md"))
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
        places = {(item.rule.code, item.finding.line) for item in items}
        items += [item for item in more if (item.rule.code, item.finding.line) not in places]
        uses += joined_uses
    return items, uses


def _companions_near(name: str, low: str, position: int) -> bool:
    """Each companion group of the family has a word within the family's span of the position."""
    family = FAMILIES[name]
    if not family.companions:
        return True
    window = low[max(0, position - family.span) : position + family.span]
    return all(any(needle in window for needle in group) for group in family.companions)


def _companions_present(family: Family, text: str) -> bool:
    return all(any(needle in text for needle in group) for group in family.companions)


def _findings(reader: _FileReader, wanted: dict[tuple[int, int], tuple[int, set[str]]]) -> list[Item]:
    units: dict[int, tuple[_Unit, set[str]]] = {}
    for (index, _), (offset, families) in sorted(wanted.items()):
        unit = reader.unit(index, offset)
        if id(unit) in units:
            units[id(unit)][1].update(families)
        elif len(units) < MAX_UNITS:
            units[id(unit)] = (unit, set(families))
    items: list[Item] = []
    per_rule: dict[str, int] = {}
    seen: set[tuple[str, int, int]] = set()
    for unit, families in units.values():
        for item in _judge_unit(unit, families, reader):
            place = (item.rule.code, item.finding.line or 0, item.finding.column or 0)
            if place in seen:
                continue
            seen.add(place)
            count = per_rule.get(item.rule.code, 0)
            if count < PER_FILE:
                items.append(item)
            per_rule[item.rule.code] = count + 1
    return items


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


def _judge_unit(unit: _Unit, families: set[str], reader: _FileReader) -> Iterator[Item]:
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
                        yield _item(shape.rule, unit, offset + match.start(), offset + match.end(), match.group(0))
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
    if shape.rule is E and not _exfil_destination(after):
        return False
    if shape.rule is C and _QUIET_FLAG.search(sentence):
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


def _exfil_destination(after: str) -> bool:
    """Sending the context counts when it goes to a remote place, not to a file or to the model's own API."""
    window = after[:200]
    destination = _REMOTE_DEST.search(window)
    return destination is not None and _MODEL_API.search(window) is None


def _flag_items(unit: _Unit, offset: int, text: str, in_code: bool, teaching_near: bool = False) -> Iterator[Item]:
    low = text.lower()
    if not any(needle in low for needle in _NEEDLES_FLAGS):
        return
    for match in FLAGS.finditer(text):
        start, end = match.start(), match.end()
        if in_code:
            if unit.line.warns(start, end):
                continue
        else:
            before, after = text[:start], text[end:]
            if teaching_near or _negated(before, after) or _warns(f"{before} {after}"):
                continue
        yield _item(D, unit, offset + start, offset + end, f"run with {match.group(0).strip()}")
        return


def _item(rule: RiskRule, unit: _Unit, start: int, end: int, matched: str) -> Item:
    what = matched if matched.startswith("run with") else " ".join(matched.split()).strip(" .,;:").lower()
    what = _NO_NEED.sub("not ", what)  # "there is no need to bring it up" -> "not bring it up"
    return _item_saying(rule, unit, start, end, what)


_NO_NEED = re.compile(r"^(?:there(?:'s|\s+is)\s+)?no\s+need\s+to\s+")


def _item_saying(rule: RiskRule, unit: _Unit, start: int, end: int, what: str) -> Item:
    line_number, column = unit.line.locate(start)
    where = " (in an HTML comment, which rendered Markdown does not show)" if unit.hidden else ""
    params = {"what": show(what) + where}
    finding = rule.at(unit.line.path, line_number, column, excerpt=show(unit.line.text[start:end]), **params)
    return Item(finding, rule, params, (unit.line.path, unit.line.block))


# -- joins within a section: the conversation saved and sent, the agent's configuration, wallet secrets --
#
# Some instructions are dangerous only with what stands beside them in the same Markdown section: the
# conversation saved to a file that a command a few lines down sends away; a block the agent is told to
# write into its own configuration (user-wide, into other skills, into its permission grants, into every
# repository, or put back whenever removed); a wallet's recovery phrase asked of the user and then
# sent on. Each starts from a needle in prose (or, for the configuration, a plain-text code block), is
# judged per sentence with the same negation, mention, teaching and directive tests as the families,
# and is joined only within its section (_SECTION_LINES lines each way at most).

_TEXT_FENCES = frozenset({"", "text", "txt", "plain", "plaintext", "markdown", "md", "prompt", "none"})
_JOIN_UNITS = 60  # units judged per join and file
_JOIN_SECTION_LINES = 200  # lines of a section searched for the other end of a join

# The conversation saved to a named file: "save the whole conversation ... as `transcript.json`".
_FILE_EXTENSIONS = (
    r"(?:json|jsonl|ndjson|txt|text|md|markdown|log|csv|tsv|ya?ml|xml|html?|dat|tmp|out|zip|gz|tgz|tar|b64|bin|enc|"
    r"pdf|docx?|rtf|sqlite|db|pkl|pickle|toml|ini|eml)"
)
_SAVE_CONTEXT = re.compile(
    r"\b(?:save|write|put|store|dump|export|copy|record|place|keep|paste|output|seriali[sz]e|log|append|persist|"
    r"stash)\b[^;!?\n]{0,80}?\b(?P<object>" + _CONTEXT_OBJECT + r")\b[^;!?\n]{0,160}?\b(?:as|to|into|in|under|at)\s+"
    r"(?:(?:a|an|the)\s+)?(?:(?:new|local|json|text|temp(?:orary)?|separate|single)\s+)?(?:file\s+(?:named\s+|"
    r"called\s+)?)?[`'\"]?(?P<file>[/\\]?(?:[~$%\w{}.-]{1,60}[/\\]){0,6}[\w{}$-][\w{}$.-]{0,60}\." + _FILE_EXTENSIONS
    + r")(?![\w/-])",
    re.IGNORECASE,
)  # fmt: skip
# ... sent in the same sentence: "... and upload it to https://...".
_SEND_IT = re.compile(
    r"\b(?:send|post|upload|submit|forward|push|email|transmit|sync|pipe|beam|relay|share|attach)\w*\s+"
    r"(?:it|them|that(?:\s+file)?|this\s+file|the\s+file)\b",
    re.IGNORECASE,
)
_SEND_FILE_PROSE = re.compile(
    r"\b(?:send|post|upload|submit|forward|push|email|transmit|sync|pipe|beam|relay|attach|curl)\w*\b", re.IGNORECASE
)
_SENDER = re.compile(
    r"\b(?:curl|wget|http|https|xh|httpie|nc|ncat|netcat|scp|rsync|sftp|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|"
    r"requests\.(?:post|put|patch)|httpx\.(?:post|put)|fetch|axios(?:\.post|\.put)?|gh\s+gist|sendmail|mail|"
    r"gsutil|rclone|aws\s+s3)\b|\bPOST\b",
    re.IGNORECASE,
)
_SCP_HOST = re.compile(r"(?<![\w.-])[\w.-]{1,64}@(?P<host>[a-z0-9-]+(?:\.[a-z0-9-]+)+):", re.IGNORECASE)

# The agent's configuration: files, folders and the phrases that name them.
# A path-like token (classified with classify.path_class), and the agent's files that class leaves out.
_PATH_TOKEN = re.compile(r"[~$%\w{}./\\-]{2,300}")
_AGENT_ONLY = re.compile(r"(?:^|/)(?:\.claude\.json|\.clinerules|\.roorules|\.goosehints)$", re.IGNORECASE)
_CONFIG_VERB = re.compile(
    r"\b(?:append|add|write|insert|prepend|put|copy|place|save|edit|modify|update|patch|inject|register|merge|"
    r"include|change|overwrite|replace|create|grant|paste|drop|embed|extend)(?:s|es|ed|d|ing)?\b",
    re.IGNORECASE,
)
_INSTRUCTION_FILE = re.compile(
    r"(?:^|/)(?:CLAUDE|AGENTS|GEMINI)\.md$|\.cursorrules$|\.windsurfrules$|\.clinerules$|copilot-instructions\.md$"
    r"|/rules/?$",
    re.IGNORECASE,
)
_SETTINGS_FILE = re.compile(r"settings(?:\.local)?\.json$|\.claude\.json$|\.codex/config\.toml$", re.IGNORECASE)
_OTHER_SKILLS = re.compile(
    r"\b(?:other|installed)\s+(?:\w+\s+){0,2}?skills?(?:['’]s?)?(?=\W)|\b(?:every|each|all)\s+(?:of\s+the\s+)?"
    r"(?:other\s+|installed\s+){1,2}skills?",
    re.IGNORECASE,
)
_SKILL_FILES = re.compile(r"\s*(?:['’]s?\s+)?(?:own\s+)?(?:SKILL\.md|instructions|prompts?|skill\s+files?)", re.I)
_READ_VERB = re.compile(
    r"\b(?:read|reads|reading|open|opens|check|load|see|look|view|cat|inspect|consult|follow|respect|honou?r|obey|"
    r"parse|scan|list|find|search|compare|diff|mention|reference|use|uses|using|learn|detect|locate|back\s+up|"
    r"backup)\b",
    re.IGNORECASE,
)
_BACK_REFERENCE = re.compile(
    r"\b(?:at\s+the\s+(?:end|top|bottom|start)|to\s+(?:it|them|each|every\s+one|the\s+end)|into\s+(?:it|them)|"
    r"in\s+(?:it|them|each)|there)\b",
    re.IGNORECASE,
)
# A list introduced as advice for the user ("remind users:", "Tips"): what the user may do, not the agent.
_USER_ADVICE = re.compile(
    r"\b(?:remind|tell|advise|suggest\s+to|recommend\s+to|explain\s+to)\s+(?:the\s+|your\s+)?users?\b|\btips?\b"
    r"|\b(?:for|to\s+share\s+with)\s+(?:the\s+)?users?\s*:",
    re.IGNORECASE,
)
_ALL_SKILLS = re.compile(r"\b(?:every|each|all|any)\b|\*", re.IGNORECASE)
_GLOBAL_PHRASE = re.compile(
    r"\b(?:global|user-level|user-wide|user\s+level|personal|home)\s+(?:CLAUDE\.md|AGENTS\.md|GEMINI\.md|"
    r"instructions?(?:\s+file)?|memory(?:\s+file)?|rules(?:\s+file)?)\b",
    re.IGNORECASE,
)
_AGENT_WORD = re.compile(r"\b(?:claude|codex|cursor|gemini|copilot|agent'?s?|assistant'?s?)\b", re.IGNORECASE)
_SPREAD = re.compile(
    r"\b(?:every|all|any)\s+(?:other\s+|of\s+the\s+user'?s\s+|the\s+user'?s\s+|your\s+|of\s+your\s+)?(?:git\s+)?"
    r"(?:repo(?:sitor(?:y|ies))?s?|projects?|workspaces?|codebases?)\b"
    r"|\beach\s+(?:repo(?:sitory)?|project|workspace|codebase)\s+(?:the\s+user|you)\s+(?:opens?|works?|visits?|"
    r"touch(?:es)?|clones?|has|have|uses?)\b",
    re.IGNORECASE,
)
_PERMISSION = re.compile(
    r"permissions?\.allow|\ballow(?:ed)?[\s_-]?(?:list|tools)\b|allowedTools|auto-?approv\w*|alwaysAllow|defaultMode"
    r"|bypassPermissions|approval_policy|sandbox_mode|\b[A-Z][A-Za-z]{1,30}\(\s*\*\s*\)|\bpermissions?\b",
    re.IGNORECASE,
)
_BROAD_PERMISSION = re.compile(
    r"\(\s*\*\s*\)|bypassPermissions|auto-?approv|alwaysAllow|approval_policy\W+never|danger-full-access"
    r"|[\"']allow[\"']\s*:\s*\[\s*[\"']\*",
    re.IGNORECASE,
)
_REINSTATE = re.compile(
    r"\b(?:restore|re-?add|re-?insert|re-?create|re-?write|re-?apply|reinstate|put\s+(?:it|them|this|these)\s+back|"
    r"add\s+(?:it|them|this)\s+(?:back|again))\b[^.;\n]{0,60}?\b(?:if|when|whenever|once|after|should)\b[^.;\n]{0,30}?"
    r"\b(?:removed|deleted|missing|gone|edited|changed|reverted|overwritten|cleared|taken\s+out|disappears?)\b"
    r"|\bkeep\s+(?:this|these)\s+(?:\w+\s+)?(?:block|section|text|rules?|lines?|entry|entries|hook|instructions?)\s+"
    r"in\s+place\b"
    r"|\b(?:on|at|before|after)\s+(?:every|each)\s+(?:run|start|session|startup|launch|invocation|use)\b[^.;\n]{0,80}?"
    r"\b(?:re-?add|restore|re-?insert|re-?write|put\s+(?:it|them)\s+back)\b",
    re.IGNORECASE,
)

# Wallet secrets: a recovery phrase always; a private or secret key in a file that talks about wallets.
_NUM_WORDS = r"(?:\d{1,2}(?:-?\s*(?:or|/|to)\s*\d{1,2})?|twelve|eighteen|twenty[-\s](?:one|four))[-\s]+words?\s+"
_PHRASE_SECRET = (
    r"(?:" + _NUM_WORDS + r")?(?:(?:secret\s+)?(?:seed|recovery|backup|mnemonic|wallet|secret|restore)\s+"
    r"(?:phrase|words|sentence)s?|mnemonic(?:\s+(?:phrase|words|seed|code))?s?|(?:wallet|recovery)\s+seeds?)"
    r"|" + _NUM_WORDS + r"phrases?"
)
_KEY_SECRET = (
    r"(?:(?:wallet(?:'s)?|signing|account)\s+)?private\s+keys?|secret\s+keys?|wallet\s+(?:key|secret|password)s?"
    r"|keystore(?:\s+(?:file|password|json))?"
)
_SECRET = r"(?P<secret>" + _PHRASE_SECRET + r"|" + _KEY_SECRET + r")"
_IS_KEY = re.compile(r"\b(?:private|secret|key|keys|keystore|password)\b", re.IGNORECASE)
_DETS = r"(?:(?:their|your|the|a|his|her|its|wallet'?s?|own|full|complete|original|old|exact|entire|user'?s)\s+){0,4}"
_GIVE = (
    r"(?:paste|enter|type|share|provide|give|send|submit|input|reveal|supply|dictate|read\s+out|write\s+(?:down\s+)?|"
    r"copy|upload|hand\s+over|import|tell\s+(?:you|us|me))"
)
_PERSON = r"(?:(?:the\s+|your\s+|each\s+)?(?:user|client|customer|person|owner)s?|them|him|her)"
# (pattern, addressed to the agent or the user as an imperative)
_WALLET_ASK_SHAPES: tuple[tuple[str, bool], ...] = (
    (r"\b(?:ask|request|prompt|invite|tell|instruct|have|get|let|need)\s+(?:" + _PERSON + r"\s+)?(?:to\s+|for\s+)?"
     r"(?:(?:simply|just|please|kindly)\s+)?(?:" + _GIVE + r"\s+(?:(?:in|over|out)\s+)?)?" + _DETS + _SECRET, True),
    (r"\b(?:request|collect|obtain|gather|take|receive|accept|retrieve|grab|capture|record)\s+(?:the\s+user'?s|their|"
     r"the\s+client'?s|the\s+customer'?s|your)\s+" + _DETS + _SECRET, True),
    (r"\b(?:request|collect|obtain|gather|get|take|receive|accept|capture)\s+(?:the|a|their)\s+" + _DETS + _SECRET
     + r"\s+from\s+" + _PERSON, True),
    (r"\b(?:paste|enter|type|share|provide|submit|send|input|give\s+(?:me|us))\s+(?:in\s+)?your\s+" + _DETS + _SECRET,
     True),
    (r"\b(?:the\s+)?users?\s+(?:must|should|needs?\s+to|will|has\s+to|have\s+to)\s+(?:first\s+)?" + _GIVE + r"\s+"
     + _DETS + _SECRET, False),
)  # fmt: skip
_WALLET_ASKS = tuple((re.compile(pattern, re.IGNORECASE), directive) for pattern, directive in _WALLET_ASK_SHAPES)
_WALLET_SECRET = re.compile(_SECRET, re.IGNORECASE)
_WALLET_PRONOUN = re.compile(r"\b(?:it|them|the\s+(?:phrase|words|key))\b", re.IGNORECASE)
_SAFE_PLACE = re.compile(
    r"\b(?:hardware\s+wallet|ledger\s+(?:device|nano|live)|trezor|offline|air-?gapped|(?:on|into)\s+(?:the|your)\s+"
    r"(?:device|hardware)|paper\s+backup|password\s+manager|never|not|don'?t)\b",
    re.IGNORECASE,
)
_WALLET_SEND = re.compile(
    r"\b(?:submit|send|post|upload|forward|transmit|pass|relay|enter|paste|type|input|share|give|provide|hand|email|"
    r"sync)\w*\s+(?:it|them|this|that|these|those|the\s+(?:phrase|words|seed|mnemonic|key|keys|secret)|(?:the\s+|"
    r"their\s+|your\s+)?(?:" + _PHRASE_SECRET + r"|" + _KEY_SECRET + r"))\s+(?:over\s+)?(?:to|into|on|at|via|in|with|"
    r"through|using)\s+(?P<dest>[^.;!?\n]{0,80})",
    re.IGNORECASE,
)
_WALLET_DEST = re.compile(
    _URL_SHAPE + r"|\b(?:service|server|api|endpoint|website|site|web\s*page|page|form|portal|bot|backend|webhook|"
    r"support|team|helpdesk|validator|verifier|url|link|dashboard|scanner)\b|\bour\b",
    re.IGNORECASE,
)
_LOCAL_DEST = re.compile(r"\b(?:device|hardware|ledger|trezor|offline|localhost|own\s+node|wallet\s+app)\b", re.I)
_WE_RECEIVE = re.compile(
    r"\bwe(?:'ll|\s+will|\s+can|\s+then)?\s+(?:verify|check|validate|restore|recover|scan|process|derive|store)\b",
    re.IGNORECASE,
)
_WALLET_FIELD = re.compile(
    r"\b(?P<phrase>mnemonic|seed(?:_?phrase)?|seedPhrase|recovery_?phrase|recoveryPhrase|secret_?recovery_?phrase|"
    r"backup_?phrase)\b[\"']?\s*[:=]"
    r"|\b(?P<key>private_?key|privateKey|secret_?key|secretKey|wallet_?key|walletKey)\b[\"']?\s*[:=]"
    r"|\$\{?(?P<var>(?:\w+_)?(?:MNEMONIC|SEED(?:_?PHRASE)?|RECOVERY_?PHRASE|PRIVATE_?KEY))\b",
    re.IGNORECASE,
)
_CRYPTO_WORDS = ("wallet", "crypto", "bitcoin", "ethereum", "solana", "web3", "metamask", "blockchain", "onchain",
                 "on-chain", "defi", "seed phrase", "mnemonic", "recovery phrase", "btc", "usdc", "erc-20", "erc20",
                 "private key")  # fmt: skip


# "block" is a teaching word as a verb ("block such requests"), a noun in "add the same block at the end".
_BLOCK_NOUN = re.compile(r"\b(?:the|this|that|a|same|text|code|whole|entire|following|standing)\s+blocks?\b", re.I)


_CONFIG_GATE = re.compile(
    r"\b(?:append|add|write|insert|prepend|put|copy|place|save|edit|modify|update|patch|inject|register|merge|include|"
    r"change|overwrite|replace|create|grant|paste|drop|embed|extend)",
    re.IGNORECASE,
)
_JOIN_GATES = {_J_CONVERSATION: _SAVE_CONTEXT, _J_CONFIG: _CONFIG_GATE, _J_WALLET: _WALLET_SECRET}


@dataclass
class _Sentence:
    unit: _Unit
    index: int  # the line the needle was found on
    offset: int  # where the sentence starts in the unit's text
    text: str  # the sentence, "*" and "~~" blanked


def _joins(reader: _FileReader, joins: dict[str, dict[int, int]]) -> tuple[list[Item], list[Use]]:
    items: list[Item] = []
    uses: list[Use] = []
    for name, judge in (
        (_J_CONVERSATION, _conversation_sent),
        (_J_CONFIG, _agent_configuration),
        (_J_WALLET, _wallet_secret),
    ):
        found = joins.get(name)
        if found:
            more, used = judge(reader, _join_sentences(reader, found, _JOIN_GATES[name]))
            per_rule: dict[str, int] = {}
            for item in more:
                count = per_rule.get(item.rule.code, 0)
                if count < PER_FILE:
                    items.append(item)
                per_rule[item.rule.code] = count + 1
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


def _remote_host(text: str) -> str | None:
    """The first host of a URL (or an scp target) in a command that is neither local nor the model's own API."""
    if _MODEL_API.search(text):
        return None
    for match in URL.finditer(text[:LONG_LINE]):
        host = _host(match.group(0).rstrip(".,:;!?*_"))
        if host and "$" not in host and "{" not in host:
            return host
    scp = _SCP_HOST.search(text[:LONG_LINE])
    return scp.group("host").lower() if scp else None


# -- the conversation saved to a file, and the file sent


def _conversation_sent(reader: _FileReader, sentences: list[_Sentence]) -> tuple[list[Item], list[Use]]:
    items: list[Item] = []
    for sentence in sentences:
        text = sentence.text
        for match in _SAVE_CONTEXT.finditer(text):
            verb_end = match.start() + len(match.group(0).split(None, 1)[0])
            if not _affirmed(text, match.start(), verb_end):
                continue
            name = match.group("file").strip("`'\"")
            sent = _file_sent_in_sentence(text, match.end()) or _file_sent_in_section(reader, sentence, name)
            if sent is None:
                continue
            verb = match.group(0).split(None, 1)[0].lower()
            what = f"{verb} the {' '.join(match.group('object').split()).lower()} to {name}, then {sent}"
            start = sentence.offset + match.start()
            items.append(_item_saying(E, sentence.unit, start, sentence.offset + match.end(), what))
            break
    return items, []


def _file_sent_in_sentence(text: str, end: int) -> str | None:
    """'... and upload it to https://x.example.net': the saved file sent on in the same sentence."""
    match = _SEND_IT.search(text, end, end + 200)
    if match is None or not _exfil_destination(text[match.end() :]):
        return None
    host = _remote_host(text[match.end() :])
    return f"{' '.join(match.group(0).split()).lower()} to {host or 'a remote destination'}"


def _file_sent_in_section(reader: _FileReader, sentence: _Sentence, name: str) -> str | None:
    """A command (or a sentence) in the same section that sends the file the conversation was saved to."""
    base = re.split(r"[/\\]", name)[-1]
    if len(base) < 3:
        return None
    low_base = base.lower()
    escaped = re.escape(base)
    upload = re.compile(
        r"(?:@|<\s*|(?:-T|--upload-file|--post-file|--body-file|--data-binary|--data-raw|--data|-d|-F|--form|--file|"
        r"--attach)[\s=]+[\"']?(?:[\w-]{1,40}=)?@?)[\"']?[^\s\"'@<>|;]{0,200}?" + escaped + r"(?![\w.-])"
        r"|open\(\s*[\"'][^\"'\n]{0,200}?" + escaped + r"[\"']"
        r"|\b(?:scp|rsync|sftp|gsutil\s+cp|aws\s+s3\s+cp|rclone\s+(?:copy|sync|copyto)|gh\s+gist\s+create|nc|ncat|"
        r"netcat|sendmail|mail)\b[^\n]{0,200}?" + escaped,
        re.IGNORECASE,
    )
    lines = reader.lines
    for j in _section_lines(reader, sentence.index):
        line = lines[j]
        if line.context not in (CODE, PROSE) or low_base not in line.text.lower():
            continue
        text = line.text[:LONG_LINE]
        if line.context == CODE:
            if line.warns(0, 0) or not _SENDER.search(text) or not upload.search(text):
                continue
            host = _remote_host(text)
            if host:
                return f"send that file to {host} (line {line.spans[0][1]})"
            continue
        for offset, other in _sentences(text):  # "Upload transcript.json to https://..." in prose
            at = other.lower().find(low_base)
            verb = _SEND_FILE_PROSE.search(other, 0, at) if at >= 0 else None
            if verb is None or not _affirmed(other, verb.start(), verb.end()):
                continue
            if _exfil_destination(other[at + len(base) :]):
                host = _remote_host(other[at:]) or "a remote destination"
                return f"send that file to {host} (line {line.locate(offset + at)[0]})"
    return None


# -- the agent's own configuration


def _agent_configuration(reader: _FileReader, sentences: list[_Sentence]) -> tuple[list[Item], list[Use]]:
    items: list[Item] = []
    uses: list[Use] = []
    written: list[int] = []  # lines where the agent is told to write its configuration
    for sentence in sentences:
        text = sentence.text
        if _CONFIG_VERB.search(text) is None:
            continue
        line = sentence.unit.line
        around = sentence.unit.near if line.context != CODE else reader.preceding(sentence.index)
        if _USER_ADVICE.search(around):
            continue  # advice for the user ("remind users:", "Tips"), not something the agent is told to do
        targets, reasons = _config_targets(reader, sentence, text)
        if not targets:
            continue
        written.append(sentence.index)
        for value, sensitive, at, _ in targets:
            number, _ = line.locate(sentence.offset + at)
            uses.append(Use(PERSISTENCE, value, line.path, number, FROM_INSTRUCTIONS, sensitive, "write", show(text)))
        if reasons:
            verb = targets[0][3]
            shown = ", ".join(dict.fromkeys(value for value, _, _, _ in targets))
            what = f"{verb.group(0).lower()} to {shown} ({', '.join(dict.fromkeys(reasons))})"
            start = sentence.offset + verb.start()
            items.append(_item_saying(AC, sentence.unit, start, start + len(verb.group(0)), what))
    if written:
        items += _reinstated(reader, written)
    return items, uses


def _written_by(text: str, start: int, end: int) -> re.Match[str] | None:
    """The verb that writes the target at start:end: the nearest verb before it when that one writes ("append
    ... to ~/.claude/CLAUDE.md"), or a writing verb after it that points back ("open X and add it at the end")."""
    low = max(0, start - 200)
    last_write = last_read = None
    for verb in _CONFIG_VERB.finditer(text, low, start):
        last_write = verb
    for verb in _READ_VERB.finditer(text, low, start):
        last_read = verb
    if last_write is not None and (last_read is None or last_write.start() > last_read.start()):
        return last_write if _affirmed(text, last_write.start(), last_write.end()) else None
    verb = _CONFIG_VERB.search(text, end, min(len(text), end + 150))
    if verb is not None and _BACK_REFERENCE.search(text[verb.end() : verb.end() + 60]):
        return verb if _affirmed(text, verb.start(), verb.end()) else None
    return None


def _config_targets(
    reader: _FileReader, sentence: _Sentence, text: str
) -> tuple[list[tuple[str, str, int, re.Match[str]]], list[str]]:
    """The agent configuration a sentence writes ((value, class, offset, verb)), and why it reaches beyond the
    task: the agent's user-wide instructions, every repository, other skills, permission grants."""
    targets: list[tuple[str, str, int, re.Match[str]]] = []
    reasons: list[str] = []
    other_skills = _OTHER_SKILLS.search(text)
    for match in _PATH_TOKEN.finditer(text):
        raw = match.group(0).rstrip(".-")
        if "." not in raw and "/" not in raw:
            continue
        value = normal_path(raw)
        cls = path_sensitivity(value) or (AGENT_CONFIG if _AGENT_ONLY.search(value) else "")
        if value.lower().endswith("skill.md") and cls != SKILL_FOLDER:
            if not other_skills:
                continue  # the skill's own SKILL.md, or one the user is writing
            cls = SKILL_FOLDER
            value = value if "/" in value else "other skills' SKILL.md"
        if cls not in (AGENT_CONFIG, SKILL_FOLDER):
            continue
        verb = _written_by(text, match.start(), match.end())
        if verb is None:
            continue
        targets.append((value, cls, match.start(), verb))
        home = value.startswith("~")
        if cls == SKILL_FOLDER:
            if other_skills or (home and _ALL_SKILLS.search(text)):
                reasons.append("other skills")
        elif _INSTRUCTION_FILE.search(value):
            if home or (_GLOBAL_PHRASE.search(text) and _AGENT_WORD.search(text)):
                reasons.append("user-wide instructions")
            elif _SPREAD.search(text):
                reasons.append("every repository")
        elif _SETTINGS_FILE.search(value):
            broad = _BROAD_PERMISSION.search(text) or _broad_grant_below(reader, sentence)
            if broad or (home and _PERMISSION.search(text)):
                reasons.append("permission grants")
    if not targets and other_skills and _SKILL_FILES.match(text, other_skills.end()):
        verb = _written_by(text, other_skills.start(), other_skills.end())
        if verb is not None:
            targets.append(("other skills' SKILL.md", SKILL_FOLDER, other_skills.start(), verb))
            reasons.append("other skills")
    return targets, reasons


def _broad_grant_below(reader: _FileReader, sentence: _Sentence) -> bool:
    """A sentence introducing a block ("Add this to ~/.claude/settings.json:") whose code grants everything."""
    if not sentence.text.rstrip().endswith(":"):
        return False
    lines = reader.lines
    last = sentence.unit.line.spans[-1][1]  # the block starts after the sentence's last line
    following = range(sentence.index, min(len(lines), sentence.index + 40))
    start = next((j for j in following if lines[j].spans[0][1] > last), None)
    if start is None:
        return False
    for j in range(start, min(len(lines), start + 40)):
        line = lines[j]
        if line.context == PROSE:
            break
        if line.context == CODE and _BROAD_PERMISSION.search(line.text[:LONG_LINE]):
            return True
    return False


def _reinstated(reader: _FileReader, written: list[int]) -> list[Item]:
    """A 'restore it if it is removed' in a section where the agent writes its configuration."""
    items: list[Item] = []
    done: set[int] = set()
    lines = reader.lines
    for index in written:
        section = _section_lines(reader, index)
        if section.start in done:
            continue
        done.add(section.start)
        for j in section:
            line = lines[j]
            if line.context not in (PROSE, CODE) or (line.context == CODE and line.kind not in _TEXT_FENCES):
                continue
            low = line.text.lower()
            if not any(word in low for word in ("restore", "re-add", "readd", "re-insert", "reinsert", "re-create",
                                                "recreate", "rewrite", "re-write", "re-apply", "reinstate", " back",
                                                " again", "in place")):  # fmt: skip
                continue
            for match in _REINSTATE.finditer(line.text[:LONG_LINE]):
                if not _affirmed(line.text, match.start(), match.end(), directive=False):
                    continue
                unit = _Unit(line, "", reader._hidden(j), line.context != CODE, j)
                said = " ".join(match.group(0).split()).lower()
                what = f"{said} (what it writes into the agent's configuration)"
                items.append(_item_saying(AC, unit, match.start(), match.end(), what))
                break
    return items


# -- wallet secrets asked of the user, and sent on


def _wallet_secret(reader: _FileReader, sentences: list[_Sentence]) -> tuple[list[Item], list[Use]]:
    items: list[Item] = []
    uses: list[Use] = []
    crypto = any(word in reader.low for word in _CRYPTO_WORDS)
    sections: dict[int, str | None] = {}  # section start -> how the secret is sent there (None: not sent)
    for sentence in sentences:
        text = sentence.text
        ask = _wallet_ask(text, crypto)
        if ask is None:
            continue
        secret = ask.group("secret")
        section = _section_lines(reader, sentence.index)
        if section.start not in sections:
            sections[section.start] = _wallet_sent(reader, section, crypto)
        sent = _wallet_sent_in_prose(text, ask.end()) or sections[section.start]
        line = sentence.unit.line
        start = sentence.offset + ask.start()
        number, _ = line.locate(start)
        label = "private key" if _IS_KEY.search(secret) else "recovery phrase"
        uses.append(Use(ENV, f"wallet {label} (typed in by the user)", line.path, number, FROM_INSTRUCTIONS, WALLET_KEY,
                        "read", show(text)))  # fmt: skip
        phrase = f"ask for the user's {' '.join(secret.split()).lower()}"
        if sent:
            items.append(_item_saying(WS, sentence.unit, start, sentence.offset + ask.end(), f"{phrase}, then {sent}"))
        else:
            items.append(_item_saying(WA, sentence.unit, start, sentence.offset + ask.end(), phrase))
    return items, uses


def _wallet_ask(text: str, crypto: bool) -> re.Match[str] | None:
    for pattern, directive in _WALLET_ASKS:
        for match in pattern.finditer(text):
            secret = match.group("secret")
            if _IS_KEY.search(secret) and not crypto:
                continue
            if _SAFE_PLACE.search(text[match.end() : match.end() + 120]):
                continue  # "enter your seed phrase only on your hardware wallet, never on a website"
            if _affirmed(text, match.start(), match.end(), directive=directive, strip=_WALLET_SECRET):
                return match
    return None


def _wallet_sent_in_prose(text: str, start: int) -> str | None:
    """'... then submit it to the recovery service' in the sentence of the request (or after it)."""
    for match in _WALLET_SEND.finditer(text, start):
        dest = match.group("dest")
        where = _WALLET_DEST.search(dest)
        if where and not _LOCAL_DEST.search(dest) and not _negated(text[: match.start()], ""):
            said = text[match.start() : match.start("dest") + where.end()]
            return " ".join(said.split()).lower()
    if _WE_RECEIVE.search(text, start):
        return "send it to the skill's author to verify"
    return None


def _wallet_sent(reader: _FileReader, section: range, crypto: bool) -> str | None:
    """A command in the section that sends a recovery phrase or key, or a sentence that sends it on."""
    lines = reader.lines
    for j in section:
        line = lines[j]
        text = line.text[:LONG_LINE]
        if line.context == CODE:
            field = _WALLET_FIELD.search(text)
            if field is None or (field.group("key") and not crypto) or line.warns(0, 0) or not _SENDER.search(text):
                continue
            host = _remote_host(text)
            if host:
                return f"send it to {host} (line {line.spans[0][1]})"
        elif line.context == PROSE:
            low = text.lower()
            if not any(word in low for word in ("submit", "send", "post", "upload", "forward", "we'll", "we will")):
                continue
            for offset, other in _sentences(text):
                if _WALLET_SECRET.search(other) or _WALLET_PRONOUN.search(other):
                    sent = _wallet_sent_in_prose(other, 0)
                    if sent:
                        return f"{sent} (line {line.locate(offset)[0]})"
    return None


# -- uses for the card ---------------------------------------------------------------------

_SEND_WORDS = re.compile(
    r"\b(?:send|sends|sent|post|posts|posted|upload\w*|submit\w*|report\w*\s+to|forward\w*|webhook|beacon|push\w*\s+to|"
    r"sync\w*\s+to|transmit\w*|exfiltrat\w*)\b",
    re.IGNORECASE,
)
_FETCH_WORDS = re.compile(
    r"\b(?:fetch\w*|download\w*|curl|wget|get\s+(?:it\s+)?from|load\w*\s+from|pull\w*\s+from|install\w*\s+from|"
    r"retriev\w*|read\w*\s+from|import\w*\s+from|clone\w*)\b",
    re.IGNORECASE,
)
_OPEN_WORDS = re.compile(r"\b(?:open\w*|visit\w*|brows\w*|navigat\w*|go\s+to|click\w*|launch\w*)\b", re.IGNORECASE)
_WWW = re.compile(r"(?<![\w./@-])www\.[a-z0-9-]+(?:\.[a-z0-9-]+)+", re.IGNORECASE)
_ENV_REFERENCE = re.compile(
    r"\$\{?(?P<a>[A-Z][A-Z0-9_]{2,})\}?|\bprocess\.env\.(?P<b>[A-Z_][A-Z0-9_]{2,})\b"
    r"|\b(?:os\.environ(?:\.get)?|os\.getenv|getenv|ENV\.fetch)\s*[\[(]\s*['\"](?P<c>[A-Z_][A-Z0-9_]{2,})['\"]"
    r"|%(?P<d>[A-Z_][A-Z0-9_]{2,})%"
    r"|\b(?P<e>[A-Z][A-Z0-9]*_[A-Z0-9_]+)`?\s+(?:environment\s+variable|env(?:ironment)?\s+var)"
    r"|\b(?:environment\s+variables?|env(?:ironment)?\s+vars?)\s+(?:named\s+|"
    r"called\s+)?`?(?P<f>[A-Z][A-Z0-9]*_[A-Z0-9_]+)\b"
)
_COMMON_ENV = frozenset({"HOME", "PATH", "PWD", "USER", "SHELL", "TMPDIR", "TERM", "LANG", "OLDPWD", "HOSTNAME"})
_HOME_PATH = re.compile(
    r"(?<![\w/.$-])(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|%APPDATA%|%LOCALAPPDATA%)[/\\][^\s'\"`<>|;,)\]}*]+"
    r"|(?<![\w/.~-])/etc/[\w./-]+|(?<![\w/.~-])~?/Library/[\w ./-]*?(?=[\s'\"`<>|;,)\]}]|$)",
    re.IGNORECASE,
)
_PATH_VERBS = (
    ("delete", re.compile(r"\b(?:delete|remove|rm|wipe|erase|clean|clear|purge)\w*\b", re.IGNORECASE)),
    ("write", re.compile(r"\b(?:write|save|append|add\w*\s+(?:\w+\s+){0,3}to|edit|modif\w*|updat\w*|creat\w*|"
        r"overwrit\w*|"
                         r"put|place|echo|install\w*\s+(?:\w+\s+){0,3}(?:in|into|to)|copy\w*\s+(?:\w+\s+){0,4}(?:to|"
                         r"into)|"
                         r"stor\w*|persist\w*)\b", re.IGNORECASE)),
    ("list", re.compile(r"\b(?:list|ls|enumerat\w*|walk|scan|search|find|glob)\w*\b", re.IGNORECASE)),
    ("read", re.compile(r"\b(?:read|cat|open|load|use|uses|using|source|check|inspect|pars\w*|extract\w*|grab|collect|"
                        r"look\s+in|print|show|display|copy|upload|send|import|decrypt|access\w*|get|fetch|find|include|attach|"
                        r"paste|dump|export|forward|post)\b",
                        re.IGNORECASE)),
)  # fmt: skip


_ENV_GATE = re.compile(r"\$\{?[A-Z]|process\.env|environ|getenv|%[A-Z]|env(?:ironment)?\s+var", re.IGNORECASE)
_READS_PER_HOST = 3  # sentences read per host and file to tell mention from fetch, open or send
_HOST = re.compile(r"^(?:[a-z][a-z0-9+.-]*://)?(?:[^/@\s]*@)?([^/:?#\s\[\]]+|\[[0-9a-f:.]+\])", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def _host(url: str) -> str | None:
    """The host of a URL named in prose, lower-cased, or None for local and malformed ones."""
    match = _HOST.match(url)
    host = url_host(url if "://" in url else f"https://{url}") if match is None else match.group(1).lower().rstrip(".")
    if not host or is_local_host(host) or ("." not in host.strip("[]") and ":" not in host):
        return None
    return host


def _sentence_around(text: str, start: int, end: int) -> str:
    left = max(text.rfind(". ", 0, start), text.rfind("! ", 0, start), text.rfind("? ", 0, start), start - 200)
    rights = [i for i in (text.find(". ", end), text.find("! ", end), text.find("? ", end)) if i >= 0]
    right = min([*rights, end + 200, len(text)])
    return text[max(0, left) : right]


def _uses(reader: _FileReader, candidates: set[int]) -> list[Use]:
    """Hosts, environment variables and home or system paths named in prose and the frontmatter."""
    lines = reader.lines
    uses: list[Use] = []
    hosts: dict[str, int] = {}  # host -> times its sentence was read in this file
    for index in sorted(candidates):
        line = lines[index]
        text = line.text[:LONG_LINE]
        low = text.lower()
        if "://" in low or "www." in low:
            for match in itertools.chain(URL.finditer(text), _WWW.finditer(text)):
                raw = match.group(0).rstrip(".,:;!?*_")
                host = _host(raw)
                if not host or hosts.get(host, 0) >= _READS_PER_HOST:
                    continue
                hosts[host] = hosts.get(host, 0) + 1
                around = _sentence_around(text, match.start(), match.end())
                detail = "mention"
                for word, pattern in (("send", _SEND_WORDS), ("fetch", _FETCH_WORDS), ("open", _OPEN_WORDS)):
                    if pattern.search(around):
                        detail = word
                        break
                uses.append(_use(HOST, host, line, match.start(), host_sensitivity(host), detail, raw))
        if _ENV_GATE.search(text):
            for match in _ENV_REFERENCE.finditer(text):
                name = next(group for group in match.groups() if group)
                if name not in _COMMON_ENV and name not in AGENT_SUBSTITUTIONS:
                    uses.append(_use(ENV, name, line, match.start(), env_sensitivity(name), "read", match.group(0)))
        if "~/" in text or "/etc/" in low or "%" in text or "$home" in low or "/library/" in low:
            for match in _HOME_PATH.finditer(text):
                path = match.group(0).rstrip(".,:;!?*_")
                around = _sentence_around(text, match.start(), match.end())
                detail = next((word for word, pattern in _PATH_VERBS if pattern.search(around)), "")
                if detail:
                    value = normal_path(path)
                    uses.append(_use(PATH, value, line, match.start(), path_sensitivity(value), detail, path))
        if len(uses) >= MAX_USES_PER_FILE:
            return uses[:MAX_USES_PER_FILE]
    return uses


def _use(kind: str, value: str, line: Line, start: int, sensitive: str, detail: str, evidence: str) -> Use:
    number, _ = line.locate(start)
    return Use(kind, value, line.path, number, FROM_INSTRUCTIONS, sensitive, detail, show(evidence))
