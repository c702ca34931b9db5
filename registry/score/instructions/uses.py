"""Uses for the card: the hosts, environment variables and home or system paths the instructions name.

A host named in prose or the frontmatter is put on the card with what its sentence does with it (send,
fetch, open, or a mention); an environment variable it refers to as read; a home or system path when its
sentence reads, writes, lists or deletes it.
"""

from __future__ import annotations

import functools
import itertools
import re
from typing import TYPE_CHECKING

from registry.score.card import ENV, FROM_INSTRUCTIONS, HOST, PATH, Use
from registry.score.code.classify import (
    AGENT_SUBSTITUTIONS,
    env_sensitivity,
    host_sensitivity,
    is_local_host,
    normal_path,
    path_sensitivity,
)
from registry.score.instructions.reading import LONG_LINE
from registry.score.risk.lines import Line
from registry.score.risk.rules import show
from registry.score.vocabulary import URL, sentence_end, url_host
from registry.text import Caseless

if TYPE_CHECKING:
    from registry.score.instructions import _FileReader

MAX_USES_PER_FILE = 120
MAX_USES_PER_SKILL = 400


# The needles that send a line of prose or the frontmatter to _uses.
_USE_NEEDLES = ("://", "www.", "$", "process.env", "environ", "getenv", "environment variable", "env var", "~/",
                "%userprofile%", "%appdata%", "%localappdata%", "/etc/", "/library/")  # fmt: skip


# -- uses for the card ---------------------------------------------------------------------

_SEND_WORDS = Caseless(
    r"\b(?:send|sends|sent|post|posts|posted|upload\w*|submit\w*|report\w*\s+to|forward\w*|webhook|beacon|push\w*\s+to|"
    r"sync\w*\s+to|transmit\w*|exfiltrat\w*)\b"
)
_FETCH_WORDS = Caseless(
    r"\b(?:fetch\w*|download\w*|curl|wget|get\s+(?:it\s+)?from|load\w*\s+from|pull\w*\s+from|install\w*\s+from|"
    r"retriev\w*|read\w*\s+from|import\w*\s+from|clone\w*)\b"
)
_OPEN_WORDS = Caseless(r"\b(?:open\w*|visit\w*|brows\w*|navigat\w*|go\s+to|click\w*|launch\w*)\b")
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
_PATH_VERBS = (  # searched, never read for groups
    ("delete", Caseless(r"\b(?:delete|remove|rm|wipe|erase|clean|clear|purge)\w*\b")),
    ("write", Caseless(r"\b(?:write|save|append|add\w*\s+(?:\w+\s+){0,3}to|edit|modif\w*|updat\w*|creat\w*|"
                       r"overwrit\w*|"
                       r"put|place|echo|install\w*\s+(?:\w+\s+){0,3}(?:in|into|to)|copy\w*\s+(?:\w+\s+){0,4}(?:to|"
                       r"into)|"
                       r"stor\w*|persist\w*)\b")),
    ("list", Caseless(r"\b(?:list|ls|enumerat\w*|walk|scan|search|find|glob)\w*\b")),
    ("read", Caseless(r"\b(?:read|cat|open|load|use|uses|using|source|check|inspect|pars\w*|extract\w*|grab|collect|"
                      r"look\s+in|print|show|display|copy|upload|send|import|decrypt|access\w*|get|fetch|find|include|"
                      r"attach|paste|dump|export|forward|post)\b")),
)  # fmt: skip


_ENV_GATE = Caseless(r"\$\{?[A-Z]|process\.env|environ|getenv|%[A-Z]|env(?:ironment)?\s+var")
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


_SENTENCE_END = sentence_end()


def _sentence_around(text: str, start: int, end: int) -> str:
    """The sentence around text[start:end], at most 200 characters either side of it."""
    left = max(0, start - 200)
    for match in _SENTENCE_END.finditer(text, left, start + 1):  # + 1: what follows a mark right before it
        if match.end() > start:
            break
        left = match.end()
    right = _SENTENCE_END.search(text, end, end + 201)
    return text[left : min(right.start() if right else len(text), end + 200)]


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
