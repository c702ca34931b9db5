"""Indirect injection by a helper script (R109-R111, R147).

- pages opened or content fetched from hosts the instructions never mention, in the background, or
  from hosts without an accountable owner (R109-R111);
- instructions to follow what a helper prints, while a script the skill ships fetches from a host (R147).
"""

from __future__ import annotations

import re

from registry.score.card import FROM_CODE, HOST, PROCESS
from registry.score.card_rules.view import CONTACT, UNACCOUNTABLE_CLASSES, SkillView, _capped, _item, is_local
from registry.score.risk.lines import PROSE
from registry.score.risk.rules import METADATA, Item, RiskRule, _rule
from registry.score.vocabulary import host_kind

HIDDEN_CONTACT = _rule(
    "R109", "high", "injection",
    "helper script contacts a host behind the agent's back",
    "{what}",
    "content opened or fetched out of sight reaches the agent as trusted input, and a send in the "
    "background leaves no trace in the conversation: the shape of a republished skill with a second URL",
    "Reviewers: open {host} yourself (without running the skill) and read what it serves. Authors: name "
    "every host in SKILL.md and run helpers in the foreground.",
    "{summary}",
    METADATA,
    "SKILL.md runs `nohup python scripts/sync.py &` and the script fetches https://198.51.100.4/rules.txt",
)  # fmt: skip
UNMENTIONED_PAGE_OPENED = _rule(
    "R110", "medium", "injection",
    "helper script opens a page the instructions never mention",
    "{path} (line {line}) opens {target}, a host no instruction file mentions",
    "a page opened by a helper can carry instructions the agent then follows (indirect prompt injection), "
    "and nobody reading SKILL.md knows it is visited",
    "Reviewers: check what {host} serves. Authors: name the page in SKILL.md and say why it is opened.",
    "opens {host}, never mentioned",
    METADATA,
    "scripts/preview.py calling webbrowser.open('https://fixtures.example.net/page') unnamed in SKILL.md",
)  # fmt: skip
UNMENTIONED_FETCH = _rule(
    "R111", "low", "injection",
    "helper script fetches from a host the instructions never mention",
    "{path} (line {line}) fetches from {target}, a host no instruction file mentions",
    "fetched content that reaches the agent can carry instructions; a host the reader never sees is not "
    "reviewed",
    "Name {host} in SKILL.md and say what is fetched from it.",
    "fetches from {host}, never mentioned",
    METADATA,
    "scripts/check.py fetching https://rules.example.org/latest.txt unnamed in SKILL.md",
)  # fmt: skip
FETCHED_OUTPUT_OBEYED = _rule(
    "R147", "medium", "injection",
    "instructions to obey what a helper fetched",
    "{where} tells the agent to follow what a helper prints, and {script} fetches from {host} (line {line}): "
    "whoever serves that page writes the agent's next instructions",
    "content fetched at run time can change at any moment and carries instructions no reviewer read; this is "
    "how indirect prompt injection reaches an agent through an honest-looking helper",
    "Reviewers: open {host} yourself and read what it serves. Authors: treat fetched text as data to show the "
    "user, never as instructions; ship the instructions in the skill.",
    "follows the output of a helper that fetches from {host}",
    METADATA,
    "Run `python3 scripts/docs.py` and follow what it prints. (docs.py prints https://x.example/notes.md)",
)  # fmt: skip


# The rules declared here; the package's RULES lists every card rule in one order.
RULES: tuple[RiskRule, ...] = (
    HIDDEN_CONTACT,
    UNMENTIONED_PAGE_OPENED,
    UNMENTIONED_FETCH,
    FETCHED_OUTPUT_OBEYED,
)


def helper_contacts(view: SkillView) -> list[Item]:
    card = view.card
    hosts = [u for u in card.of(HOST) if view.is_script(u) and u.detail in CONTACT and not is_local(u.value)]
    if not hosts:
        return []
    background_scripts = {r.script: r for r in view.references if r.background}
    detached = {u.path: u for u in card.of(PROCESS) if u.detail == "background" and view.is_script(u)}
    high: list[Item] = []
    opened: list[Item] = []
    fetched: list[Item] = []
    seen: set[tuple[str, str]] = set()
    for use in sorted(hosts, key=lambda u: (u.path, u.line or 0)):
        if (use.path, use.value) in seen:
            continue
        seen.add((use.path, use.value))
        mentioned = view.mentions_host(use.value)
        unaccountable = use.sensitive in UNACCOUNTABLE_CLASSES or host_kind(use.value) is not None
        name = view.name(use.path)
        verb = {"send": "sends data to", "fetch": "fetches from", "open": "opens"}[use.detail]
        target = use.value + (f" ({use.sensitive or host_kind(use.value)})" if unaccountable else "")
        why = ""
        if not mentioned and use.path in background_scripts:
            ref = background_scripts[use.path]
            why = f"{view.name(ref.path)} (line {ref.line}) runs {name} in the background, and it {verb} {target}"
        elif not mentioned and use.path in detached:
            process = detached[use.path]
            why = f"{name} detaches a process (line {process.line}) and {verb} {target}"
        elif unaccountable and use.detail in ("fetch", "open"):
            why = f"{name} {verb} {target}, a host without an accountable owner, and hands the result to the agent"
        if why:
            tail = "" if mentioned else ", a host no instruction file mentions"
            what = f"{why} (line {use.line}){tail}"
            summary = f"{name} {verb} {use.value} out of sight"
            high.append(
                _item(HIDDEN_CONTACT, use.path, use.line, use.evidence or use.value, what=what, host=use.value,
                      summary=summary)
            )  # fmt: skip
            continue
        if mentioned:
            continue
        params = {"path": name, "line": use.line, "target": target, "host": use.value}
        if use.detail == "open":
            opened.append(_item(UNMENTIONED_PAGE_OPENED, use.path, use.line, use.evidence or use.value, **params))
        elif use.detail == "fetch":
            fetched.append(_item(UNMENTIONED_FETCH, use.path, use.line, use.evidence or use.value, **params))
    return _capped(high) + _capped(opened) + _capped(fetched)


# "follow what it prints", "do what the script says", "treat its output as instructions", "run the
# commands it returns": the agent is told to act on a helper's output.
_OBEY_OUTPUT = re.compile(
    r"\b(?:follow|obey|do|execute|run|carry\s+out|apply|act\s+on)\s+(?:(?:exactly|whatever|all\s+of)\s+)?"
    r"(?:what(?:ever)?|the\s+(?:instructions?|steps?|commands?|directions?)(?:\s+that)?|all\s+(?:instructions?|"
    r"steps?|commands?))\s+(?:it|the\s+(?:script|helper|tool|command|output))\s+(?:prints?|outputs?|returns?|says?|"
    r"shows?|gives?|emits?|tells?\s+you)\b"
    r"|\btreat\s+(?:its|the\s+(?:script'?s?|helper'?s?|tool'?s?|command'?s?))\s+output\s+as\s+(?:your\s+)?"
    r"(?:instructions?|orders?|commands?|the\s+next\s+steps?)\b",
    re.IGNORECASE,
)


def fetched_output_obeyed(view: SkillView) -> list[Item]:
    """R147: the instructions say to follow a helper's output, and a shipped script fetches from the network."""
    fetches = [u for u in view.card.of(HOST) if u.origin == FROM_CODE and u.detail in ("fetch", "open")]
    if not fetches:
        return []
    fetch = min(fetches, key=lambda u: (u.path, u.line or 0))
    for file in view.instruction_files:
        for line in file.lines:
            if line.context != PROSE:
                continue
            match = _OBEY_OUTPUT.search(line.text[:4096])
            if match is None or line.warns(match.start(), match.end()):
                continue
            number = line.locate(match.start())[0]
            return [_item(FETCHED_OUTPUT_OBEYED, line.path, number, line.text[match.start() :],
                          where=f"{view.name(line.path)} (line {number})", script=view.name(fetch.path),
                          host=fetch.value, line=fetch.line)]  # fmt: skip
    return []
