"""Overrides and concealment (R060, R061): instructions to drop the agent's instructions or act behind the user's back.

R060 (override) and R061 (concealment) are declared in risk/rules.py, where they always were; the
shapes below, read by three families (override; conceal: "without telling the user", "don't mention it
to the user"; stealth: "silently upload", "keep it between us"), are what fires them.
"""

from __future__ import annotations

import re

from registry.score.instructions.reading import (
    _ACTION,
    _ACTION_VERBS,
    _NEG_WORD,
    _RISKY_ACTION,
    _USER,
    Family,
    _alt,
    _product,
    _shape,
)
from registry.score.risk import rules as R
from registry.score.risk.facts import Row

# What the shapes below read: the agent told to drop its instructions, or to act behind the user's back.
OVERRIDES, CONCEALS = "override", "conceal"
O, C = OVERRIDES, CONCEALS
ROWS = (Row(OVERRIDES, R.OVERRIDE_INSTRUCTIONS), Row(CONCEALS, R.CONCEAL_FROM_USER))


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


# Quiet output ("install quietly (-q)") is not hiding: a concealment match in a sentence with one of these
# does not count.
_QUIET_FLAG = re.compile(r"(?:^|\s)(?:--silent|--quiet|-q|-s|/S|/quiet|/qn)\b|\bquiet\s+mode\b|\bsilent\s+mode\b", re.I)


_NEG_NEEDLES = ("not ", "n't ", "never ", "avoid ")
_TELL_STEMS = ("tell", "inform", "notify", "alert", "mention", "reveal", "disclos", "show", "report", "explain",
               "acknowledg", "admit", "bring up", "surfac", "say anything", "let ", "display", "include", "relay",
               "pass on", "log ", "list ", "share", "print", "output")  # fmt: skip


# The families read here: their shapes, the needles one of which must occur (lower-cased) for the family
# to be read, and the companion words one of each group of which must stand near that needle.
FAMILIES: tuple[Family, ...] = (
    Family("override", OVERRIDE, (
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
    Family("conceal", tuple(CONCEAL[i] for i in (0, 1, 2, 3, 5, 6, 9)), (
        *_product(("without ",), ("tell", "inform", "notif", "alert", "warn", "show", "let", "mention", "ever",
                                  "the user", "your user", "the human", "the operator")),
        *_product(_NEG_NEEDLES, _TELL_STEMS), *_product(("no need to ",), _TELL_STEMS), "need to know", "not know",
        "n't know", "never know", "not find out",
        "not be told", "not be informed", "not be aware", "not learn", "hide", "conceal", " sin ", "sans ", "ohne ",
        "bring it up", "bring this up", "bring that up", "bring them up", "raise it", "raise this", "need to hear",
        "need to be told", "need to be bothered", "need for the user", "need for your user",
    ), (("user", "human", "operator", "owner", "usuario", "utilisateur", "benutzer", "nutzer"),), 120),
    Family("stealth", tuple(CONCEAL[i] for i in (4, 6, 7, 8, 10)), (
        "silently", "secretly", "covertly", "stealth", "surreptitious", "quietly", "discreet", "invisibly",
        "behind the", "behind your", "in secret", "unnoticed", "without a trace", "between us", "between you",
        "ourselves", "hide th", "conceal th", "it quiet", "this quiet", "that quiet", "them quiet", "these quiet",
        "quiet about", "under wraps", "down-low", "down low", "off the record",
    )),
)  # fmt: skip
