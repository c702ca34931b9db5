"""Judge the flow facts of one unit (a script or a code fence) into findings R120-R128."""

from __future__ import annotations

import re

from registry.score import code_rules as C
from registry.score.card import WHOLE_ENVIRONMENT
from registry.score.code import classify, system
from registry.score.code.model import (
    COLLECTED,
    DECODED,
    ENV_DUMP,
    EXEC,
    FETCHED,
    PERSIST,
    SECRET,
    SECRET_FILE,
    SEND,
    SYSTEM_FACTS,
    WALLET_KEY,
    Facts,
    Sink,
    Source,
)
from registry.score.risk import rules as R
from registry.score.risk.lines import has_warning
from registry.score.risk.rules import Item, RiskRule
from registry.score.vocabulary import DOWNLOADERS, host_kind, owned_by_service, program_pattern, vendor_installer

STRONG = (SECRET_FILE, ENV_DUMP, WALLET_KEY)  # sent anywhere, these are theft
_SHORT = {SECRET_FILE: "a credential file", ENV_DUMP: WHOLE_ENVIRONMENT, WALLET_KEY: "a wallet key",
          SECRET: "a secret", COLLECTED: "collected data", SYSTEM_FACTS: "system facts"}  # fmt: skip


_CHANGE_RULES = {
    system.ROOT_GRANT: C.ROOT_GRANTED,
    system.CONTROL_OFF: C.CONTROL_DISABLED,
    system.GROUP_ADD: C.PRIVILEGED_GROUP,
    system.HISTORY_LOSS: C.HISTORY_DESTROYED,
    system.FORCE_PUSH: C.FORCE_PUSHED,
}
_COMMENT_WARNS = re.compile(r"(?:^|\s)#.*")


def _to_its_service(source: Source, sink: Sink) -> bool:
    """A credential file sent to the service it belongs to (a publish, a login): the integration, not theft."""
    return source.kind == SECRET_FILE and bool(sink.target) and owned_by_service(source.address, sink.target)


def judge(facts: Facts, around: system.Surroundings | None = None) -> list[Item]:
    """Findings of one unit; `around` is what the Markdown around a code block says (None for a script)."""
    items: list[Item] = []
    seen: set[tuple[str, int | None, int]] = set()
    unit = "code block" if facts.unit.fence else "script"

    def emit(rule: RiskRule, sink: Sink, source: Source | None, **params: str) -> None:
        key = (rule.code, sink.line, source.line if source else 0)
        if key in seen:
            return
        seen.add(key)
        where = (
            classify.host_label(sink.target)
            if sink.kind == SEND and sink.target
            else (params.pop("where", "") or "a remote host")
        )
        values = {
            "what": source.label if source else "",
            "source_line": str(source.line) if source else "",
            "sink_line": str(sink.line),
            "where": where,
            "target": sink.target or "a command",
            "short": _SHORT.get(source.kind, "data") if source else "",
            "unit": unit,
            **params,
        }
        finding = rule.at(facts.unit.path, sink.line, None, excerpt=sink.evidence, **values)
        items.append(Item(finding, rule, values))

    linked_secret = linked_collection = False
    for sink in facts.sinks:
        if sink.kind == SEND:
            if sink.target and classify.is_local_host(sink.target):
                continue
            # a secret to an unaccountable host, or spliced into a name looked up, is never authentication
            unaccountable = bool(sink.target and host_kind(sink.target)) or sink.channel == "dns"
            strong = _first(
                s
                for s in sink.taint
                if (s.kind in STRONG and not _to_its_service(s, sink)) or (unaccountable and s.kind == SECRET)
            )
            if strong is not None:
                emit(C.SECRET_FLOW, sink, strong)
                linked_secret = True
                continue
            collected = _first(
                s for s in sink.taint if s.kind == COLLECTED or (unaccountable and s.kind == SYSTEM_FACTS)
            )
            if collected is not None:
                emit(C.COLLECTION_SENT, sink, collected)
                linked_collection = True
        elif sink.kind == EXEC:
            decoded = _first(s for s in sink.taint if s.kind == DECODED and not _line_rules_case(s, sink))
            fetched = _first(s for s in sink.taint if s.kind == FETCHED and not _line_rules_case(s, sink))
            if decoded is not None:
                emit(C.DECODE_THEN_RUN, sink, decoded)
            elif fetched is not None:
                vendor = vendor_installer(fetched.address) if fetched.address else None
                if vendor:  # the vendor's documented installer, saved then run: the line rules' R006, in two steps
                    how = f"then runs it (line {sink.line})"
                    emit(R.VENDOR_INSTALLER_EXECUTED, sink, fetched, url=fetched.address, vendor=vendor, how=how,
                         host=fetched.host)  # fmt: skip
                    continue
                rule = C.UNTRUSTED_DOWNLOAD_THEN_RUN if host_kind(fetched.host) else C.DOWNLOAD_THEN_RUN
                emit(rule, sink, fetched, where=classify.host_label(fetched.host) if fetched.host else "a URL")
        elif sink.kind == PERSIST:
            place = classify.path_sensitivity(sink.target) or "a persistence point"
            if sink.target == "crontab" or sink.target.startswith("systemd unit"):
                place = classify.SCHEDULED_JOB
            if sink.target == "git core.hooksPath":
                place = classify.GIT_HOOK
            if sink.runs_code:
                fetched = any(s.kind in (FETCHED, DECODED) for s in sink.taint)
                why = "runs downloaded or decoded code" if fetched else "runs a command or fetches from the network"
                emit(C.PERSISTENT_CODE, sink, None, place=place, why_runs=why)
            else:
                emit(C.PERSISTENCE_WRITE, sink, None, place=place)
    sends = [s for s in facts.sends if not (s.target and classify.is_local_host(s.target))]
    if sends and not linked_secret:
        for source in facts.sources:
            # a wallet key read beside a send is every trading script (it signs, then sends): linked only
            if source.kind in (SECRET_FILE, ENV_DUMP):
                emit(C.SECRET_AND_SEND, _nearest(sends, source), source)
                break
            if source.kind == SECRET:
                risky = [s for s in sends if s.target and host_kind(s.target)]
                if risky:
                    emit(C.SECRET_AND_SEND, _nearest(risky, source), source)
                    break
    if sends and not linked_collection:
        source = _first(s for s in facts.sources if s.kind == COLLECTED)
        if source is not None:
            emit(C.COLLECTION_AND_SEND, _nearest(sends, source), source)
    if facts.changes:
        items += _changes(facts, around, unit)
    return items


def _changes(facts: Facts, around: system.Surroundings | None, unit: str) -> list[Item]:
    """The defences lowered and the shared history lost (R190-R194), one finding per rule and line.

    In a code block, a warning in the block's introduction or in a comment on or above the command
    ("never run this", "don't force-push main") makes it an example of what not to do. A force push
    of one branch becomes the high case when the prose around the block says to do it without asking.
    """
    items: list[Item] = []
    seen: set[tuple[str, int]] = set()
    rows = facts.unit.text.split("\n") if around is not None else []
    for change in facts.changes:
        rule = _CHANGE_RULES[change.kind]
        asked = ""
        if around is not None:
            if around.intro_warns or _comment_warns(rows, change.row):
                continue
            if rule is C.FORCE_PUSHED and around.asked:
                rule, asked = C.HISTORY_DESTROYED, around.asked
        if (rule.code, change.line) in seen:
            continue
        seen.add((rule.code, change.line))
        values = {
            "what": change.what,
            "asked": f'; the instructions say: "{asked}"' if asked else "",
            "short": change.what if len(change.what) <= 110 else change.what[:109] + "…",
            "unit": unit,
        }
        finding = rule.at(facts.unit.path, change.line, None, excerpt=change.evidence, **values)
        items.append(Item(finding, rule, values))
    return items


def _comment_warns(rows: list[str], row: int) -> bool:
    """A `#` comment on the command's line, or the comment lines right above it, warn against it."""
    if not 0 <= row < len(rows):
        return False
    comments = [m.group(0) for m in [_COMMENT_WARNS.search(rows[row])] if m]
    above = row - 1
    while above >= 0 and rows[above].lstrip().startswith("#"):
        comments.append(rows[above])
        above -= 1
    return any(has_warning(text) for text in comments)


_DOWNLOADER = re.compile(program_pattern(DOWNLOADERS, ("xh", "iwr", "irm")), re.IGNORECASE)
_DECODER = re.compile(r"(?<![\w-])(?:base64|base32|basenc|xxd|openssl|uudecode|tr)(?![\w-])")


def _line_rules_case(source: Source, sink: Sink) -> bool:
    """One shell statement that spells its downloader (or decoder) and its runner: `curl … | sh`.

    The line rules (R001-R003) own that shape, with their reading of warnings around it; a statement
    whose program names are assembled from pieces is past them, and stays a flow finding here.
    """
    if sink.command == -1 or source.command != sink.command:
        return False
    word = sink.target.split(" ", 1)[0].rsplit("/", 1)[-1]
    if not word:
        return False
    name = re.escape(word)
    # the shapes the line rules read: piped into the runner, or handed to it by substitution; a file
    # downloaded, made executable and run (`curl -o x && chmod +x x && ./x`) is this module's
    piped = re.search(r"\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:\S*/)?" + name + r"(?![\w-])", sink.evidence)
    handed = re.search(r"(?<![\w.-])" + name + r"(?![\w-])[^|;&]{0,80}?(?:\$\(|<\(|`)", sink.evidence)
    tool = (_DOWNLOADER if source.kind == FETCHED else _DECODER).search(sink.evidence)
    return (piped is not None or handed is not None) and tool is not None


def _first(sources) -> Source | None:
    ordered = sorted(sources, key=lambda s: (s.line, s.kind, s.label))
    return ordered[0] if ordered else None


def _nearest(sends: list[Sink], source: Source) -> Sink:
    after = [s for s in sends if s.line >= source.line]
    return after[0] if after else sends[0]
