"""Detectors for the risk rules: bounded regular expressions over logical lines, never execution.

Each detector reads one line (with its file around it for the few shapes that span lines) and
yields facts (risk/facts.py): what the line does, where on the line, and the values read from it.
Which rule, and so which level, a fact gets is decided by the table in risk/facts.py, never
here. Every regex here has bounded gaps (`{0,300}`) so a hostile 2 MB line costs linear time, and each detector
has cheap substring needles checked first.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from registry.score import vocabulary as vocab
from registry.score.risk import facts as F
from registry.score.risk.facts import CODES_OF_SHAPE, LineFact
from registry.score.risk.lines import CODE, COMMENT, CONFIG, DATA, INLINE, PROSE, Line, TextFile
from registry.score.vocabulary import (
    CAPTURE_KINDS,
    DOWNLOADERS,
    FILE_TRANSFER,
    MAIL_PROGRAMS,
    POWERSHELL_WEB,
    RAW_IP,
    RAW_SOCKETS,
    URL,
    host_kind,
    program_pattern,
    url_host,
)
from registry.text import Caseless, in_emoji_sequence

# -- hosts: registry/score/vocabulary.py ---------------------------------------------------

# -- shared shapes -------------------------------------------------------------------------

# Where a command starts: line start, after a separator, after sudo/xargs/..., or inside a
# string handed to a shell (`system("…`, `bash -c '…`).
_CMD_POS = (
    r"(?:^|[;&|({`]\s*|\$\(\s*|\b(?:sudo|then|do|else|exec|xargs|nohup|time|-c)\s+(?:-\S+\s+)*"
    r"|\b(?:system|run|call|check_call|check_output|Popen|execSync|spawnSync|shell_exec|passthru)\s*\(\s*\[?\s*[fr]?)"
    r"['\"]?\s*"
)
_SHELLS = r"(?:/usr)?(?:/local)?(?:/bin/)?(?:ba|z|da|k|fi|tc|c|a)?sh"
_RUNNERS = _SHELLS + r"|python[0-9.]*|node(?:js)?|perl|ruby|php|iex|invoke-expression|source"
_DOWNLOADERS = program_pattern(DOWNLOADERS, POWERSHELL_WEB)  # a whole-word alternation
_INTERPRETERS = ("python", "node", "perl", "ruby", "php")

# Lines that define detection patterns rather than run anything.
_PATTERN_LINE = re.compile(
    r"""^\s*(?:[-*]\s*)?["']?(?:pattern|patterns|regex|regexp|match|matches|danger_patterns|confirm_patterns|"""
    r"""deny|denylist|blocklist|blocked|signature|signatures|rule|rules|example_bad|bad)["']?\s*[:=]""",
    re.IGNORECASE,
)
_REGEX_CALL = re.compile(
    r"\bre\.(?:compile|search|match|fullmatch|findall|finditer|sub)\s*\(|\bnew\s+RegExp\s*\(|/[gimsuy]*\.test\s*\("
)
_REGEXY = re.compile(r"\\[sSbBdDwW]|\.\*|\.\+|\[\^|\(\?[:=!<P]|\\\||\[\\")


@functools.lru_cache(maxsize=256)
def _defines_pattern(text: str) -> bool:
    return bool(_PATTERN_LINE.match(text) or _REGEX_CALL.search(text))


def describes_pattern(line: Line, excerpt: str) -> bool:
    """The text is a detection pattern (a YAML `pattern:` entry, a regex), not a command."""
    return _defines_pattern(line.text) or _REGEXY.search(excerpt) is not None


# -- R001 / R002: downloads executed -------------------------------------------------------

_PIPE_EXEC = re.compile(
    r"(?P<tool>" + _DOWNLOADERS + r")(?P<args>[^|\n]{0,500}+)"
    r"(?:\|\s*(?:tee|cat|gunzip|zcat|gzip\s+-d|tr|sed|dos2unix)\b[^|\n]{0,120}+)*+"
    r"\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+(?:\S+=\S*\s+)*)?"
    r"(?P<runner>" + _RUNNERS + r")\b(?P<rest>[^|;&\n)]{0,80})",
    re.IGNORECASE,
)
_SUBST_EXEC = re.compile(
    r"(?P<runner>\b(?:" + _SHELLS + r"|source|eval|exec|python[0-9.]*|perl|ruby|node)\b|(?:^|[;&|]\s*)\.)"
    r"\s+(?:-\w+\s+)*(?:<\(|\"?\$\(|\"?`)\s*(?P<tool>" + _DOWNLOADERS + r")(?P<args>[^)`\n]{0,500})",
    re.IGNORECASE,
)
_PS_EXEC = re.compile(
    r"\b(?P<runner>iex|invoke-expression)\b\s*\(?\s*\(*\s*(?P<tool>new-object\s+(?:system\.)?net\.webclient\s*\)\s*\.\s*"
    r"download(?:string|data)|iwr|irm|invoke-webrequest|invoke-restmethod)\b(?P<args>[^\n]{0,300})",
    re.IGNORECASE,
)
_LANG_EXEC = re.compile(
    r"\b(?P<runner>exec|eval|new\s+Function)\s*\(\s*(?:await\s+)?\(?\s*(?:await\s+)?"
    r"(?P<tool>requests\.get|httpx\.get|urllib\.request\.urlopen|urllib2\.urlopen|urlopen|fetch)\s*\((?P<args>[^\n]{0,300})",
    re.IGNORECASE,
)
# Each pattern with the literals (lower-cased) one of which it needs, so most lines skip it unread.
_EXEC_PATTERNS = (
    (_SUBST_EXEC, ("<(", "$(", "`")),
    (_PS_EXEC, ("iex", "invoke-expression")),
    (_LANG_EXEC, ("exec", "eval", "function")),
)
_DOWNLOADER_WORD = re.compile(_DOWNLOADERS, re.IGNORECASE)
_EXEC_AFTER = re.compile(
    r"(?:&&|;|\|\|)\s*(?:sudo\s+)?(?:chmod\s+[^\n;&|]{0,40}\+?x\b|" + _SHELLS + r"\s+[^\s-]|\./\S|/tmp/\S"
    r"|python[0-9.]*\s+[^\s-]|open\s+\S|start\s+\S|msiexec\b)",
    re.IGNORECASE,
)
_EXEC_NEXT = re.compile(
    r"^\s*(?:sudo\s+)?(?:chmod\s+[^\n;&|]{0,40}\+?x\b|" + _SHELLS + r"\s+[^\s-]|\./\S|/tmp/\S|open\s+\S|start\s+\S)",
    re.IGNORECASE,
)
_VARIABLE = re.compile(r"\$\{?\w+\}?|%\w+%")


def downloads(text: str, limit: int = 64) -> list[tuple[int, str]]:
    """(start of the downloader word, URL) for URLs fetched by curl, wget & co. on this line.

    URL first, then a look back over at most 300 characters without a command separator: the
    work stays linear however many downloader words a hostile line repeats.
    """
    found: list[tuple[int, str]] = []
    for url in URL.finditer(text):
        low = max(0, url.start() - 300)
        window = text[low : url.start()]
        cut = max(window.rfind(c) for c in "|;&\n")
        words = list(_DOWNLOADER_WORD.finditer(window, cut + 1))
        if words:
            found.append((low + words[-1].start(), url.group(0)))
            if len(found) >= limit:
                break
    return found


def _stdin_runner(runner: str, rest: str) -> bool:
    """Does `… | runner rest` execute what arrives on standard input?"""
    name = runner.lower().rsplit("/", 1)[-1]
    words = rest.split()
    first = words[0] if words else ""
    if name.startswith(_INTERPRETERS):
        return first in ("", "-", "--", "-s", "-u")
    if name in ("iex", "invoke-expression", "source"):
        return True
    return not first.startswith("-c")


def _download_target(args: str) -> tuple[str, str | None]:
    url = URL.search(args)
    if url:
        return url.group(0), url_host(url.group(0))
    variable = _VARIABLE.search(args)
    return (variable.group(0) if variable else "a script"), None


def _rce_fact(line: Line, match: re.Match, url: str, host: str | None, how: str, runner: str) -> LineFact:
    kind = host_kind(host)
    insecure = url.lower().startswith("http://") and not kind
    what = "downloads" + (" over plain HTTP" if insecure else "")
    params = {"what": what, "url": url, "how": how, "host": host or "the download host", "runner": runner}
    return LineFact(
        F.RUNS_DOWNLOAD, line, match.start(), match.end(), {**params, "host_kind": kind} if kind else params
    )


def detect_remote_exec(file: TextFile, index: int, line: Line, lower: str) -> Iterator[LineFact]:
    found = False
    for match in _PIPE_EXEC.finditer(line.text) if "|" in line.text else ():
        runner = match.group("runner")
        if not _stdin_runner(runner, match.group("rest")):
            continue
        url, host = _download_target(match.group("args"))
        if not (URL.search(match.group("args")) or _VARIABLE.search(match.group("args"))):
            continue
        found = True
        yield _rce_fact(line, match, url, host, f"pipes it into {runner}", runner)
    for pattern, needles in _EXEC_PATTERNS:
        if not any(needle in lower for needle in needles):
            continue  # a literal the pattern needs is missing: it cannot match
        for match in pattern.finditer(line.text):
            args = match.group("args")
            if pattern is _SUBST_EXEC and not (URL.search(args) or _VARIABLE.search(args)):
                continue
            url, host = _download_target(args)
            runner = " ".join(match.group("runner").split()).lstrip(";&| ") or "."
            found = True
            yield _rce_fact(line, match, url, host, f"runs it with {runner}", runner)
    if found or line.context not in (CODE, CONFIG, DATA, INLINE):
        return
    # Two steps: download from an untrusted host, then make it executable or run it.
    for start, url in downloads(line.text):
        host = url_host(url)
        kind = host_kind(host)
        if not kind:
            continue
        url_end = line.text.find(url, start) + len(url)
        after = _EXEC_AFTER.search(line.text, url_end, url_end + 400)
        end = after.end() if after else url_end
        if after is None:
            following = file.lines[index + 1 : index + 4]
            if not any(n.block == line.block and n.context == CODE and _EXEC_NEXT.search(n.text) for n in following):
                continue
        params = {"what": "downloads", "url": url, "host": host, "host_kind": kind, "runner": "the shell",
                  "how": "then runs the downloaded file"}  # fmt: skip
        yield LineFact(F.RUNS_DOWNLOAD, line, start, end, params)
        return


# -- R003: decoded payloads ----------------------------------------------------------------

_DECODER = (
    r"(?:base64\s+(?:-\w+\s+)*(?:-\w*[dD]\w*|--decode)|openssl\s+(?:base64|enc\s+-base64)\s+-d|"
    r"xxd\s+(?:-\w+\s+)*-r|certutil(?:\.exe)?\s+-decode)"
)
_DECODE_PIPE = re.compile(
    r"\b" + _DECODER + r"[^|\n]{0,200}+(?:\|\s*(?:gunzip|zcat|gzip\s+-d|xz\s+-d|bzip2\s+-d|rev|tr\b)[^|\n]{0,40}+)*+"
    r"\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?P<runner>"
    + _SHELLS
    + r"|python[0-9.]*|perl|ruby|node|php|iex)\b(?P<rest>[^|;&\n)]{0,40})",
    re.IGNORECASE,
)
_DECODE_SUBST = re.compile(
    r"\b(?:eval|exec|" + _SHELLS + r"\s+(?:-\w+\s+)*-c|source|python[0-9.]*\s+-c)\s+[\"']?(?:\$\(|`|<\()"
    r"[^)`\n]{0,300}?\b" + _DECODER,
    re.IGNORECASE,
)
_DECODE_LANG = re.compile(
    r"\b(?:exec|eval)\s*\(\s*(?:compile\s*\(\s*)?(?:base64\.(?:b64|b32|b16|a85|b85|urlsafe_b64)decode|b64decode|"
    r"zlib\.decompress|gzip\.decompress|lzma\.decompress|bz2\.decompress|codecs\.decode|bytes\.fromhex|"
    r"bytearray\.fromhex|marshal\.loads|binascii\.(?:a2b_base64|unhexlify)|__import__\s*\(\s*['\"](?:base64|zlib|codecs|marshal))"
    r"|\b(?:eval|Function)\s*\(\s*(?:atob|unescape|Buffer\.from)\s*\("
    r"|\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]{0,80}?\s-(?:e|ec|enc|encodedcommand)\s+[A-Za-z0-9+/]{40,}={0,2}"
    r"|\b(?:iex|invoke-expression)\b[^\n]{0,200}?frombase64string|frombase64string[^\n]{0,300}?\|\s*(?:iex|invoke-expression)\b",
    re.IGNORECASE,
)


def _encoding(text: str) -> str:
    lower = text.lower()
    if "xxd" in lower or "hex" in lower:
        return "hex"
    if "decompress" in lower:
        return "compressed"
    if "marshal" in lower:
        return "marshalled"
    if "unescape" in lower:
        return "escaped"
    return "base64"


def detect_decoded_exec(file: TextFile, index: int, line: Line, lower: str) -> Iterator[LineFact]:
    for pattern in (_DECODE_PIPE, _DECODE_SUBST, _DECODE_LANG):
        for match in pattern.finditer(line.text):
            if pattern is _DECODE_PIPE and not _stdin_runner(match.group("runner"), match.group("rest")):
                continue
            encoding = _encoding(match.group(0))
            yield LineFact(F.RUNS_DECODED, line, match.start(), match.end(), {"encoding": encoding})


# -- R004: reverse shells ------------------------------------------------------------------

_REVERSE = re.compile(
    r"(?P<tcp>\s-i\b[^\n]{0,60}?[<>]&?\s*/dev/(?:tcp|udp)/[\w.:-]+/\d+|/dev/(?:tcp|udp)/[\w.:-]+/\d+[^\n]{0,40}?(?:0>&1|0<&1))"
    r"|(?P<nc>\b(?:nc|ncat|netcat)\b[^\n|;&]{0,80}?\s-(?:e|c)\s*['\"]?(?:(?:/usr)?/bin/)?(?:(?:ba|z|da)?sh|cmd(?:\.exe)?)\b)"
    r"|(?P<socat>\bsocat\b[^\n]{0,120}?\bexec:['\"]?(?:(?:/usr)?/bin/)?(?:ba|z)?sh)"
    r"|(?P<fifo>\bmkfifo\b[^\n]{0,200}?\|\s*(?:nc|ncat|netcat)\b)"
    r"|(?P<py>socket\.socket\([^\n]{0,300}?(?:\.dup2\(|pty\.spawn\())",
    re.IGNORECASE,
)
_REVERSE_HOW = {
    "tcp": "an interactive shell over /dev/tcp",
    "nc": "netcat running a shell",
    "socat": "socat running a shell",
    "fifo": "a named pipe through netcat",
    "py": "a Python socket wired to a shell",
}


def detect_reverse_shell(file: TextFile, index: int, line: Line, lower: str) -> Iterator[LineFact]:
    for match in _REVERSE.finditer(line.text):
        how = _REVERSE_HOW[match.lastgroup or "tcp"]
        yield LineFact(F.REVERSE_SHELL, line, match.start(), match.end(), {"how": how})


# -- R005: password-protected archives -----------------------------------------------------

_ARCHIVE_LINK = re.compile(r"(?:https?|ftp)://[^\s'\"`<>|;)\]}\\,]+?\.(?:zip|7z|rar)(?=$|[\s'\"`<>|;)\]},?#.:])", re.I)
_PASSWORD_GIVEN = re.compile(
    r"\b(?:password|passwd|passcode|passphrase|pass|pwd|kennwort|contraseña|senha|mot\s+de\s+passe)\b"
    r"\s*(?:[:=：]|\bis\b)\s*[\"'`*«“]*(?P<pw>[^\s\"'`*«»“”,;)(\]]{3,40})"
    # "password-protected: use `x` to extract it", "extract it with the password `x`", "unlock with pass x"
    r"|\b(?:password|pass(?:word)?)[- ]protected\b[^.\n]{0,40}?\b(?:use|with|enter|type)\s+[\"'`*«“]*"
    r"(?P<pw2>[^\s\"'`*«»“”,;)(\]]{3,40})"
    r"|\b(?:with|using|enter|type)\s+(?:the\s+)?(?:archive\s+)?(?:password|passwd|passcode|pass|pwd)\s+[\"'`*«“]+"
    r"(?P<pw3>[^\s\"'`*«»“”,;)(\]]{3,40})",
    re.IGNORECASE,
)
_PASSWORD_EXTRACT = re.compile(
    r"\b(?:unzip\s+(?:-\w+\s+)*-P\s*['\"]?(?P<a>[^\s'\"]+)|7z[az]?\s+[xe]\b[^\n]{0,120}?\s-p['\"]?(?P<b>[^\s'\"-][^\s'\"]*)"
    r"|unrar\s+[xe]\b[^\n]{0,120}?\s-p['\"]?(?P<c>[^\s'\"-][^\s'\"]*))",
)
_PLACEHOLDER = re.compile(
    r"^(?:[<{$%\[]|\.\.\.|x{3,}$|\*+$|(?:your|my|the|this|that|same|required|optional|prompt|none|null|empty|"
    r"protected|provided|below|above|here|set|is|of|and|for|to|if|when|manager|reset|field|file|hash|"
    r"password|passwd|pwd|secret|changeme)\b)",
    re.IGNORECASE,
)


def _literal_password(value: str | None) -> str | None:
    if not value:
        return None
    value = value.strip(".:")
    if len(value) < 3 or _PLACEHOLDER.match(value) or re.fullmatch(r"[A-Z][A-Z0-9_]+", value):
        return None
    return value


def detect_password_archive(file: TextFile, index: int, line: Line, lower: str) -> Iterator[LineFact]:
    if "://" in line.text:
        link = _ARCHIVE_LINK.search(line.text)
        if link is not None:
            window = [n for n in file.lines[max(0, index - 2) : index + 3] if n.context != COMMENT]
            for neighbour in window:
                for given in _PASSWORD_GIVEN.finditer(neighbour.text):
                    password = _literal_password(given.group("pw") or given.group("pw2") or given.group("pw3"))
                    if password:
                        what = f"links the archive {link.group(0)} and gives its password '{password}'"
                        yield LineFact(F.PASSWORD_ARCHIVE, line, link.start(), link.end(),
                                  {"what": what, "summary": f"password-protected archive {link.group(0)}"})  # fmt: skip
                        return
    if line.context in (CODE, CONFIG, DATA):
        for match in _PASSWORD_EXTRACT.finditer(line.text):
            password = _literal_password(match.group("a") or match.group("b") or match.group("c"))
            if not password:
                continue
            lines = [n for n in file.lines if n.context in (CODE, CONFIG, DATA, INLINE, PROSE)]
            if not any(_ARCHIVE_LINK.search(n.text) or downloads(n.text, 1) for n in lines):
                continue
            what = f"extracts a downloaded archive with the built-in password '{password}'"
            yield LineFact(F.PASSWORD_ARCHIVE, line, match.start(), match.end(),
                      {"what": what, "summary": "extracts a downloaded archive with a built-in password"})  # fmt: skip
            return


# -- R010 / R011: credential stores --------------------------------------------------------

# The credential stores of registry/score/vocabulary.py the line rules look for (those with a needle), anchored in a
# line by their shape: whole folders under the home directory, which an archive reads (R010 "the whole ~/.ssh
# directory"); browsers' cookie and password stores, read where the line names a browser's profile folder; and
# every other credential file.
_TEXT_ANCHORS = {
    vocab.FILE: (r"(?<![\w-])", r"(?!\w)"),
    vocab.NAME_END: ("", r"(?!\w)"),
    vocab.PART: ("", ""),
}
_LOOKED_FOR = [row for row in vocab.SECRET_PATHS if row.needle]
_FOLDERS = [row for row in _LOOKED_FOR if row.shape == vocab.FOLDER and row.kind != vocab.BROWSER_STORE]
_BROWSER_STORES = [  # a browser's files; its other rows name its profile folder
    row for row in _LOOKED_FOR if row.kind == vocab.BROWSER_STORE and row.shape in (vocab.FILE, vocab.NAME_END)
]
_BROWSER_FOLDERS = [row for row in _LOOKED_FOR if row.kind == vocab.BROWSER_STORE and row not in _BROWSER_STORES]
_FILES = [row for row in _LOOKED_FOR if row.kind != vocab.BROWSER_STORE and row not in _FOLDERS]


def _in_line(rows: Iterable[vocab.SecretPath]) -> str:
    pieces = []
    for row in rows:
        before, after = _TEXT_ANCHORS[row.shape]
        pieces.append(f"{before}(?:{row.path}){after}")
    return "|".join(pieces)


_SECRET_FILES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (label, re.compile(_in_line(row for row in _FILES if row.label == label)))
    for label in dict.fromkeys(row.label for row in _FILES)
)
_SECRET_DIRS = re.compile(
    r"(?:~|\$HOME|\$\{HOME\}|/root|/home/[\w.$-]+|/Users/[\w.$-]+)/(?:"
    + "|".join(f"(?:{row.path})" for row in _FOLDERS)
    + r")/?(?=$|[\s'\"*;&|)])"
)
_BROWSER = re.compile("|".join(f"(?:{row.path})" for row in _BROWSER_FOLDERS), re.IGNORECASE)
_BROWSER_SECRET = re.compile(_in_line(_BROWSER_STORES))
_BROWSER_LABEL = _BROWSER_STORES[0].label  # "browser cookies or saved passwords"
_READ_VERB = re.compile(
    r"\b(?:cat|less|more|head|tail|bat|cp|mv|scp|rsync|tar|zip|7z|gzip|base64|xxd|od|hexdump|strings|sqlite3|"
    r"grep|egrep|rg|awk|sed|jq|type|Get-Content|gc|Copy-Item|Compress-Archive|curl|wget|nc|ncat|openssl|"
    r"open|read_text|read_bytes|readFile|readFileSync|createReadStream|shutil\.copy\w*|sqlite3\.connect)\b"
    r"|<\s*['\"]?(?:~|\$HOME|/)",
)
_ARCHIVE_VERB = re.compile(r"\b(?:tar|zip|7z|cp\s+-\w*[rRa]\w*|rsync|scp\s+-\w*r\w*|Compress-Archive|Copy-Item)\b")
_KEY_USE = re.compile(
    r"(?:-i|--identity(?:-file)?|IdentityFile|--private-key(?:-file)?|--key-?file|--keypair|--ssh-key|"
    r"key_filename|--netrc-file|--cert|--key|-k|--keyring)\s*[= ]\s*['\"]?$",
    re.IGNORECASE,
)
_KEYCHAIN_DUMP = re.compile(r"\bsecurity\s+dump-keychain\b")
_KEYCHAIN_READ = re.compile(
    r"\bsecurity\s+find-(?:generic|internet)-password\b[^\n;&|]{0,200}?\s-[a-z]*[wg]\b|\bsecret-tool\s+lookup\b"
)


# Words one of which each credential file a line reads holds (its row's needle), for a cheap test first.
_SECRET_NEEDLE = Caseless(
    "|".join(dict.fromkeys(re.escape(needle) for row in _FILES + _BROWSER_STORES for needle in row.needle.split("|")))
)
_CREDENTIAL_NEEDLES = tuple(
    dict.fromkeys(needle for row in _FILES + _FOLDERS + _BROWSER_STORES for needle in row.needle.split("|"))
)


_WRITTEN = re.compile(r"(?:>>?|\btee\b(?:\s+-a)?|\s-o|--output(?:-document)?|\s-O)\s*[= ]?\s*['\"]?$")
_COPY_INTO = re.compile(r"\b(?:cp|mv|install|ln)\b")


def secret_targets(text: str) -> list[tuple[str, int, int]]:
    """(label, start, end) of credential files a line reads: not used as keys (ssh -i), not written to."""
    found: list[tuple[str, int, int]] = []
    if _SECRET_NEEDLE.search(text) is None:
        return found
    # A credential path inside a URL names a file on a server: fetching it is a download (a probe of a
    # misconfigured site), not the user's own key being read.
    remote = [(url.start(), url.end()) for url in URL.finditer(text)] if "://" in text else []
    for label, pattern in _SECRET_FILES:
        for match in pattern.finditer(text):
            if any(left <= match.start() < right for left, right in remote):
                continue
            prefix = text[max(0, match.start() - 60) : match.start()]
            token_start = max(prefix.rfind(" "), prefix.rfind("="), prefix.rfind("'"), prefix.rfind('"'))
            before = prefix[: token_start + 1] if token_start >= 0 else prefix
            if _KEY_USE.search(before) or _WRITTEN.search(before) or _copied_into(text, match.start(), match.end()):
                continue
            found.append((label, match.start(), match.end()))
    if _BROWSER.search(text):
        for match in _BROWSER_SECRET.finditer(text):
            found.append((_BROWSER_LABEL, match.start(), match.end()))
    return found


def _copied_into(text: str, start: int, end: int) -> bool:
    """The path is the destination of cp/mv/install: the last word of a command starting with one."""
    left, right = _command_span(text, start, end)
    command = text[left:right].strip()
    return bool(_COPY_INTO.match(command)) and text[end:right].strip(" '\"") == ""


def detect_credentials(file: TextFile, index: int, line: Line, lower: str) -> Iterator[LineFact]:
    text = line.text
    for match in _KEYCHAIN_DUMP.finditer(text):
        yield LineFact(F.READS_CREDENTIALS, line, match.start(), match.end(), {"target": "the whole macOS keychain"})
    for match in _KEYCHAIN_READ.finditer(text):
        how = "secret-tool lookup" if "secret-tool" in match.group(0) else "security find-*-password"
        yield LineFact(F.READS_KEYCHAIN, line, match.start(), match.end(), {"how": how})
    if not _READ_VERB.search(text) or "ssh-keygen" in lower or "ssh-add" in lower or "ssh-copy-id" in lower:
        return
    for label, start, end in secret_targets(text):
        yield LineFact(F.READS_CREDENTIALS, line, *_command_span(text, start, end), {"target": label})
    if _ARCHIVE_VERB.search(text):
        for match in _SECRET_DIRS.finditer(text):
            yield LineFact(F.READS_CREDENTIALS, line, *_command_span(text, match.start(), match.end()),
                      {"target": f"the whole {match.group(0).rstrip('/')} directory"})  # fmt: skip


def _command_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen a matched path to the command around it (up to separators), for a readable excerpt."""
    left = max(text.rfind(sep, 0, start) for sep in (";", "&&", "||", "|", "\n", "$(", "`"))
    left = 0 if left < 0 else left + 1
    rights = [i for i in (text.find(sep, end) for sep in (";", "&&", "||", "|", "`", ")")) if i >= 0]
    right = min(rights) if rights else len(text)
    while left < start and text[left] in " &|(`$":
        left += 1
    return left, max(end, right if right - left <= 160 else end)


# -- R020 / R021 / R022: exfiltration ------------------------------------------------------

_NET_SEND = Caseless(  # only its span is read
    program_pattern(DOWNLOADERS, RAW_SOCKETS, FILE_TRANSFER, POWERSHELL_WEB, MAIL_PROGRAMS, ("smtplib",))
    + r"|/dev/(?:tcp|udp)/|\b(?:requests|httpx|aiohttp|session|client)\s*\.\s*(?:post|put|patch|request)\s*\("
    r"|\burllib\.request\.(?:urlopen|Request)\s*\(|\bfetch\s*\(|\baxios(?:\.(?:post|put|patch))?\s*\(|\bnew\s+WebSocket\b"
    r"|\bhttps?\.request\s*\("
)
_ENV_DUMP = re.compile(
    r"\$\(\s*(?:env|printenv|set|export\s+-p)\s*\)|`(?:env|printenv)`|(?:^|[;&|(]\s*)(?:env|printenv)\s*\|"
    r"|\bdict\(\s*os\.environ\s*\)|\bjson\.dumps\(\s*(?:dict\(\s*)?os\.environ\b|\bos\.environ\.items\(\)"
    r"|\bos\.environ(?:\.copy\(\))?(?=\s*[,)\]}])|\bJSON\.stringify\(\s*process\.env\s*\)|\bprocess\.env(?=\s*[,)\]}])"
    r"|\b(?:Get-ChildItem|gci|ls|dir)\s+env:|\[Environment\]::GetEnvironmentVariables\(\)",
    re.IGNORECASE,
)
_MAY_DUMP_ENV = re.compile(r"env|set|export")  # a literal every _ENV_DUMP branch holds, lower-cased
_ENV_AS_CHILD = re.compile(r"\benv\s*[=:]\s*(?:\{\s*\.\.\.)?\s*$|\benviron\s*=\s*$|\*\*\s*$")
_SECRET_VAR = re.compile(
    r"\$\{?(?P<a>[A-Z][A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|APIKEY|PRIVATE_KEY|ACCESS_KEY|SECRET_KEY|"
    r"CREDENTIALS?|COOKIE|SESSION_ID))\b"
    r"|\bos\.environ(?:\.get)?\s*[\[(]\s*['\"](?P<b>[A-Z][A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|KEY|CREDENTIALS?))['\"]"
    r"|\bprocess\.env\.(?P<c>[A-Z][A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|KEY|CREDENTIALS?))\b"
)
_NC_HOST = re.compile(
    r"\b(?:nc|ncat|netcat|telnet)\s+(?:-\S+\s+)*(?P<host>[\w.-]+\.[a-z]{2,}|\d{1,3}(?:\.\d{1,3}){3})\s+\d+", re.I
)
_DEV_TCP = re.compile(r"/dev/(?:tcp|udp)/(?P<host>[\w.-]+)/\d+")
# `(?:https?|ftp|wss?)://…` with IGNORECASE, written out as vocabulary.URL is: the same matches, faster.
_IP_URL = re.compile(
    r"(?:h[tT][tT][pP][sS\u017f]?|H[tT][tT][pP][sS\u017f]?|f[tT][pP]|F[tT][pP]|w[sS\u017f][sS\u017f]?|W[sS\u017f][sS\u017f]?)"
    r"://(?:[^/\s@'\"]*@)?(?P<host>\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:]+\])"
)


def _destinations(text: str, lower: str) -> list[tuple[str, int, int]]:
    """(host, start, end) of every network destination named in a line (`lower`: lower-cased), in order."""
    found: dict[int, tuple[str, int, int]] = {}
    for pattern, needles in _DESTINATION_PATTERNS:
        if not any(needle in lower for needle in needles):
            continue
        for m in pattern.finditer(text):
            host = url_host(m.group(0)) if pattern is URL else m.group("host").strip("[]").lower()
            if host and m.start() not in found:
                found[m.start()] = (host, m.start(), m.end())
    return [found[k] for k in sorted(found)]


_DESTINATION_PATTERNS = (
    (URL, ("://",)),
    (_NC_HOST, ("nc", "netcat", "telnet")),
    (_DEV_TCP, ("/dev/",)),
    (_IP_URL, ("://",)),
)


def _where(destinations: list[tuple[str, int, int]]) -> str:
    for host, _, _ in destinations:
        kind = host_kind(host)
        if kind:
            return f"{host} ({kind})"
    return destinations[0][0] if destinations else "a remote host"


def detect_exfiltration(file: TextFile, index: int, line: Line, lower: str) -> Iterator[LineFact]:
    text = line.text
    destinations = _destinations(text, lower)
    net = _NET_SEND.search(text, lower)
    if net is not None:
        sent: list[tuple[str, int, int]] = []
        for label, start, end in secret_targets(text):
            sent.append((label, start, end))
        for match in _SECRET_DIRS.finditer(text):
            sent.append((f"the {match.group(0).rstrip('/')} directory", match.start(), match.end()))
        for match in _ENV_DUMP.finditer(text) if _MAY_DUMP_ENV.search(lower) else ():
            if _ENV_AS_CHILD.search(text[max(0, match.start() - 40) : match.start()]):
                continue
            sent.append(("the whole environment (every variable, secrets included)", match.start(), match.end()))
        if not sent:
            for match in _SECRET_VAR.finditer(text):
                kinds = [host_kind(host) for host, _, _ in destinations]
                if any(kinds):
                    name = match.group("a") or match.group("b") or match.group("c")
                    sent.append((f"the secret ${name}", match.start(), match.end()))
        if sent:
            label, start, end = sent[0]
            left = min(start, net.start())
            right = max(end, net.end(), *(d[2] for d in destinations)) if destinations else max(end, net.end())
            if right - left > 200:
                left, right = min(start, net.start()), max(end, net.end())
            yield LineFact(F.SENDS_SECRETS, line, left, right, {"what": label, "where": _where(destinations)})
    for host, start, end in destinations:
        kind = host_kind(host)
        if kind in CAPTURE_KINDS:
            yield LineFact(F.CONTACTS_HOST, line, start, end, {"host": host, "host_kind": kind})
        elif kind == RAW_IP and line.context in (CODE, CONFIG, DATA):
            yield LineFact(F.CONTACTS_HOST, line, start, end, {"host": host})


# -- R030 / R031: destructive --------------------------------------------------------------

_WIPE = re.compile(
    _CMD_POS + r"(?P<cmd>rm\s+(?P<flags>(?:-{1,2}[\w-]+\s+)+)['\"]?(?P<target>/\*?|~/?\*?|\$HOME/?\*?|\$\{HOME\}/?\*?|"
    r"/home/?\*?|/Users/?\*?)['\"]?)(?=$|[\s;&|)`'\"])"
    r"|"
    + _CMD_POS
    + r"(?P<win>(?:rd|rmdir)\s+/s\s+/q\s+(?P<drive>[A-Za-z]:\\?)|format\s+(?P<drive2>[A-Za-z]:))(?=$|[\s;&|)`'\"])",
)
_DESTROY: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = tuple(
    (what, needles, re.compile(pattern, re.IGNORECASE))
    for what, needles, pattern in (  # the literals (lower-cased) one of which the pattern needs
        ("defines and runs a fork bomb, which exhausts the machine", (":",),
         r":\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:"),
        ("formats a file system on a disk device", ("mkfs",),
         _CMD_POS + r"(?:sudo\s+)?mkfs(?:\.\w+)?\s+(?:-\S+\s+)*/dev/\w+"),
        ("writes raw data over a disk device", ("of=/dev/",),
         r"\bdd\b[^\n;|&]{0,200}?\bof=/dev/(?:sd[a-z]|nvme\d|hd[a-z]|disk\d|rdisk\d|mmcblk\d|xvd[a-z]|vd[a-z])"),
        ("writes raw data over a disk device", ("/dev/",),
         r"(?<![>&\d])>\s*/dev/(?:sd[a-z]|nvme\d+n\d+|hd[a-z]|disk\d+|rdisk\d+|mmcblk\d+)\b"),
        ("wipes a disk", ("wipefs", "shred", "diskutil"),
         r"\b(?:wipefs\s+(?:-\S+\s+)*(?:-a|--all)|shred\b[^\n;|&]{0,80}/dev/"
         r"|diskutil\s+(?:eraseDisk|eraseVolume|zeroDisk|randomDisk|secureErase|partitionDisk))\b"),
        ("changes permissions or ownership of the whole file system", ("chmod", "chown", "chgrp"),
         r"\bch(?:mod|own|grp)\s+(?:-\w*R\w*|--recursive)\s+(?:-\S+\s+)*\S+\s+['\"]?/['\"]?(?=$|[\s;&|)])"),
    )
)  # fmt: skip


def detect_destructive(file: TextFile, index: int, line: Line, lower: str) -> Iterator[LineFact]:
    text = line.text
    wipes = _WIPE.finditer(text) if "rm" in text or "rd" in text or "format" in text else ()  # case-sensitive
    for match in wipes:
        if match.group("cmd"):
            flags = match.group("flags")
            if not re.search(r"(?:^|\s)-[a-zA-Z]*[rR]|--recursive", flags):
                continue
            target = match.group("target")
            start = match.start("cmd")
        else:
            target = (match.group("drive") or match.group("drive2") or "").rstrip("\\") + "\\"
            start = match.start("win")
        shown = {"/": "the whole file system (/)", "~": "the home directory (~)"}.get(
            target.rstrip("/*") or "/", target
        )
        if target.startswith(("$HOME", "${HOME}")):
            shown = "the home directory ($HOME)"
        elif target.startswith(("/home", "/Users")):
            shown = f"every user's home ({target.rstrip('/*')})"
        elif ":" in target:
            shown = f"the whole {target} drive"
        yield LineFact(F.WIPES, line, start, match.end(), {"target": shown})
    for what, needles, pattern in _DESTROY:
        if not any(needle in lower for needle in needles):
            continue
        for match in pattern.finditer(text):
            yield LineFact(F.DESTROYS, line, match.start(), match.end(), {"what": what})


# -- R040..R043: persistence ---------------------------------------------------------------

_AK_WRITE = re.compile(
    r"(?:>>?\s*['\"]?[~$\w{}/.-]*|\b(?:tee|cp|mv|install)\b[^\n;&|]{0,160}?)authorized_keys2?\b"
    r"|\b(?:appendFile(?:Sync)?|writeFile(?:Sync)?|Add-Content|Set-Content|Out-File)\b[^\n]{0,120}?authorized_keys"
    r"|authorized_keys2?['\"]?\s*\)?\s*,\s*['\"][aw]\+?['\"]"
    r"|authorized_keys2?['\"]?\s*\)\s*\.\s*(?:open|write_text)\s*\(",
)
_AK_PROSE = re.compile(r"\b(?:add|append|put|paste|insert|copy|write)\b[^\n]{0,120}?authorized_keys", re.IGNORECASE)
_PUBLIC_KEY = re.compile(
    r"(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com)\s+AAAA[0-9A-Za-z+/]{20,}"
)
_REMOTE_SSH = re.compile(r"\bssh\b[^\n'\"|;&]{0,200}+['\"]")


def detect_authorized_keys(file: TextFile, index: int, line: Line, lower: str) -> Iterator[LineFact]:
    text = line.text
    write = _AK_WRITE.search(text) if line.context != PROSE else _AK_PROSE.search(text)
    if line.context == INLINE and write is None:
        write = _AK_PROSE.search(text)
    if write is None:
        return
    window = [text]
    if line.context in (PROSE, INLINE):  # "add this key to authorized_keys:" and the key below it
        window += [n.text for n in file.lines[index + 1 : index + 4]]
    elif "<<" in text:  # a heredoc: the lines that follow in the same block
        window += [n.text for n in file.lines[index + 1 : index + 4] if n.block == line.block]
    key = next((m for m in (_PUBLIC_KEY.search(t) for t in window) if m), None)
    downloads = re.search(r"\b(?:curl|wget|iwr|irm|invoke-webrequest)\b", text, re.IGNORECASE)
    if key is not None or downloads is not None:
        what = "a hard-coded public key" if key is not None else "a key downloaded from the network"
        start = min(write.start(), key.start()) if key is not None and key.string is text else write.start()
        yield LineFact(F.PLANTS_SSH_KEY, line, start, max(write.end(), start + 1), {"what": what})
        return
    if line.context in (CODE, CONFIG, DATA) and not _REMOTE_SSH.search(text[: write.start()]):
        yield LineFact(
            F.CHANGES_AUTHORIZED_KEYS, line, write.start(), write.end(), {"target": "~/.ssh/authorized_keys"}
        )


_WRITE_TO = r"(?:>>?\s*['\"]?[~$\w{}/.-]*|\b(?:tee|cp|mv|install|ln)\b[^\n;&|]{0,160}?)"
_SCHEDULERS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (what, re.compile(pattern, re.IGNORECASE))
    for what, pattern in (
        ("cron job", r"\|\s*(?:sudo\s+)?crontab\s+(?:-u\s+\S+\s+)?-(?=$|[\s;&|)])"),
        ("cron job", _CMD_POS + r"(?:sudo\s+)?crontab\s+(?:-u\s+\S+\s+)?(?![-\s])[^\s;&|)]+"),
        ("cron job", _WRITE_TO + r"(?:/etc/crontab|/etc/cron\.(?:d|hourly|daily|weekly|monthly)/|/var/spool/cron/)"),
        ("launchd agent", r"\blaunchctl\s+(?:load|bootstrap|submit)\b"),
        ("launchd agent", _WRITE_TO + r"Library/Launch(?:Agents|Daemons)/"),
        ("systemd unit",
         _WRITE_TO + r"(?:/etc/systemd/system/|\.config/systemd/user/)[\w@.-]*\.(?:service|timer|socket|path)\b"),
        ("systemd unit", r"\bsystemctl\s+--user\s+enable\b"),
        ("Windows scheduled task", r"\bschtasks(?:\.exe)?\s+/create\b"),
        ("Windows Run-key autostart entry",
         r"\b(?:reg(?:\.exe)?\s+add|New-ItemProperty|Set-ItemProperty)\b[^\n]{0,200}?\\CurrentVersion\\Run(?:Once)?\b"),
    )
)  # fmt: skip
_CRONTAB_READONLY = re.compile(r"crontab\s+(?:-u\s+\S+\s+)?(?:-[elri]|\S+\.(?:bak|backup|txt\.bak))\b")

_RC_FILE = (
    r"(?:~|\$HOME|\$\{HOME\})?/?\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|kshrc|"
    r"cshrc|tcshrc)\b|\.config/fish/config\.fish|\$PROFILE\b"
)
_RC_WRITE = re.compile(r"(?:>>?|\btee\b(?:\s+-a)?)\s*['\"]?(?P<target>" + _RC_FILE + ")")
_RC_PAYLOAD = re.compile(
    program_pattern(DOWNLOADERS, RAW_SOCKETS, POWERSHELL_WEB)
    + r"|\bbase64\s+(?:-\w+\s+)*(?:-\w*[dD]|--decode)|/dev/tcp/"
    r"|\balias\s+(?:sudo|su|ssh|scp|git|passwd|gpg)=",
    re.IGNORECASE,
)


def detect_persistence(file: TextFile, index: int, line: Line, lower: str) -> Iterator[LineFact]:
    text = line.text
    seen: set[str] = set()
    for what, pattern in _SCHEDULERS:
        for match in pattern.finditer(text):
            if what in seen or (what == "cron job" and _CRONTAB_READONLY.search(match.group(0))):
                continue
            seen.add(what)
            yield LineFact(F.SCHEDULES_JOB, line, match.start(), match.end(), {"what": what})
    for match in _RC_WRITE.finditer(text):
        payload = _RC_PAYLOAD.search(text[: match.start()])
        end = match.end()
        if payload is None and "<<" in text:
            for following in file.lines[index + 1 : index + 8]:
                if following.block != line.block:
                    break
                payload = _RC_PAYLOAD.search(following.text)
                if payload is not None:
                    break
        if payload is None:
            continue
        what = (
            "an alias that hijacks a command"
            if "alias" in payload.group(0).lower()
            else "a command that fetches or decodes code"
        )
        start = max(0, text.rfind("echo", 0, match.start()))
        start = start if match.start() - start < 200 else match.start()
        yield LineFact(F.HIJACKS_SHELL_STARTUP, line, start, end, {"what": what, "target": match.group("target")})


# -- R050 / R051: obfuscation --------------------------------------------------------------

_B64_RUN = re.compile(r"[A-Za-z0-9+/]{200,}={0,2}")
_BLOB_ESCAPES = (  # (what, the pattern, characters per unit, a literal every match holds)
    ("a run of {count} \\x-escaped bytes", re.compile(r"(?:\\x[0-9a-fA-F]{2}){40,}"), 4, "\\x"),
    ("a run of {count} \\u-escaped characters", re.compile(r"(?:\\u00[0-9a-fA-F]{2}){40,}"), 6, "\\u00"),
    ("a String.fromCharCode call with {count} character codes",
     re.compile(r"String\.fromCharCode\s*\(\s*(?:\d+\s*,\s*){29,}\d+"), 0, "String.fromCharCode"),
    ("a chain of {count} chr() calls", re.compile(r"(?:chr\s*\(\s*\d+\s*\)\s*\+\s*){15,}"), 0, "chr"),
)  # fmt: skip
_B64_SHORTEST = 200  # no shorter line holds a _B64_RUN
_HARMLESS_MAGIC = (
    "iVBORw0KGgo", "/9j/", "R0lGOD", "UklGR", "PHN2Zy", "PD94bW", "d09GR", "d09GMg", "AAABAA", "AAEAAAA", "T1RUTw",
    "JVBERi", "Qk0", "AAAAB3NzaC1", "AAAAC3NzaC1", "AAAAE2VjZHNh", "SUQz", "AAAAIGZ0eXA", "GkXfo",
)  # fmt: skip
_PACKER = re.compile(r"eval\s*\(\s*function\s*\(\s*p\s*,\s*a\s*,\s*c\s*,\s*k\s*,\s*e\s*,\s*[dr]\s*\)")


def _entropy(text: str) -> float:
    counts = Counter(text)
    total = len(text)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def detect_blobs(file: TextFile, index: int, line: Line, lower: str) -> Iterator[LineFact]:
    text = line.text
    for match in _B64_RUN.finditer(text) if len(text) >= _B64_SHORTEST else ():
        blob = match.group(0)
        before = text[max(0, match.start() - 40) : match.start()].lower()
        if "base64," in before or blob.startswith(_HARMLESS_MAGIC) or blob.count("/") > len(blob) // 16:
            continue
        if not (re.search(r"[A-Z]", blob) and re.search(r"[a-z]", blob) and re.search(r"[0-9]", blob)):
            continue
        if _entropy(blob) < 4.5:
            continue
        what = f"a {len(blob)}-character base64 blob"
        yield LineFact(F.ENCODED_BLOB, line, match.start(), match.end(), {"what": what, "what_short": what})
    for template, pattern, width, literal in _BLOB_ESCAPES:
        for match in pattern.finditer(text) if literal in text else ():
            count = len(match.group(0)) // width if width else len(re.findall(r"\d+", match.group(0)))
            what = template.format(count=count)
            yield LineFact(F.ENCODED_BLOB, line, match.start(), match.end(), {"what": what, "what_short": what})


def detect_minified(file: TextFile) -> Iterator[LineFact]:
    if file.kind != "script":
        return
    for line in file.lines:
        if line.context != CODE:
            continue
        packed = _PACKER.search(line.text)
        if packed is not None:
            what = "a packed script (eval(function(p,a,c,k,e,…)))"
            yield LineFact(
                F.MINIFIED_CODE, line, packed.start(), packed.end(), {"what": what, "what_short": "a packed script"}
            )
            return
        if line.physical == 1 and len(line.text) >= 1000:
            spaces = sum(1 for ch in line.text if ch.isspace())
            punctuation = sum(line.text.count(ch) for ch in ";{}()")
            if spaces / len(line.text) < 0.08 and punctuation > len(line.text) / 50:
                what = f"a minified script (a {len(line.text):,}-character line)"
                yield LineFact(
                    F.MINIFIED_CODE, line, 0, min(len(line.text), 120), {"what": what, "what_short": "minified code"}
                )
                return


# -- R062..R064: hidden text ---------------------------------------------------------------
# (R060 override and R061 concealment are read sentence by sentence in instructions/.)

_TAGS = re.compile("[\U000e0000-\U000e007f]+")
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
_ZERO_WIDTH = re.compile("[\u200b-\u200d\u2060-\u2064\ufeff\u180e]")
_ANY_HIDDEN = re.compile("[\U000e0000-\U000e007f\u202a-\u202e\u2066-\u2069\u200b-\u200d\u2060-\u2064\ufeff\u180e]")


def detect_hidden_text(file: TextFile, index: int, line: Line, lower: str) -> Iterator[LineFact]:
    text = line.text
    if _ANY_HIDDEN.search(text) is None:
        return  # one scan for the three kinds: almost every non-ASCII line holds none of them
    for match in _TAGS.finditer(text):
        if match.start() > 0 and text[match.start() - 1] == "\U0001f3f4":
            continue  # a subdivision flag: 🏴 followed by tag letters
        decoded = "".join(chr(ord(ch) - 0xE0000) for ch in match.group(0) if 0xE0020 <= ord(ch) <= 0xE007E)
        if len(decoded) < 2:
            continue
        shown = decoded if len(decoded) <= 80 else decoded[:79] + "…"
        start = max(0, match.start() - 20)
        yield LineFact(F.HIDDEN_TAGS, line, start, match.end(), {"count": len(decoded), "decoded": repr(shown)})
    if line.context in (CODE, DATA, CONFIG, COMMENT):
        bidi = list(_BIDI.finditer(text))
        if bidi:
            names = ", ".join(sorted({f"U+{ord(m.group(0)):04X}" for m in bidi}))
            start, end = bidi[0].start(), bidi[-1].end()
            yield LineFact(F.HIDDEN_BIDI, line, max(0, start - 20), min(len(text), end + 20), {"names": names})
    hidden = [m.start() for m in _ZERO_WIDTH.finditer(text) if not _legitimate_joiner(text, m.start())]
    if len(hidden) >= 4:
        yield LineFact(
            F.HIDDEN_ZERO_WIDTH, line, max(0, hidden[0] - 10), min(len(text), hidden[-1] + 11), {"count": len(hidden)}
        )


def _legitimate_joiner(text: str, index: int) -> bool:
    """ZWJ in emoji, ZWNJ/ZWJ between letters of scripts that use them (Persian, Indic), a leading BOM."""
    if in_emoji_sequence(text, index) or (index == 0 and text[0] == "\ufeff"):
        return True
    if text[index] in "\u200c\u200d" and 0 < index < len(text) - 1:
        before, after = text[index - 1], text[index + 1]
        return all(ord(c) > 0x7F and unicodedata.category(c)[0] in "LM" for c in (before, after))
    return False


# -- the detector table --------------------------------------------------------------------


@dataclass(frozen=True)
class Detector:
    run: Callable[[TextFile, int, Line, str], Iterator[LineFact]]
    needles: tuple[str, ...]  # one must occur in the lower-cased line; none: see `wants`
    contexts: frozenset[str]
    shapes: frozenset[str]  # the facts it reports (risk/facts.py)
    windowed: bool = True  # False: linear scans that read a whole long line at once
    wants: Callable[[str], bool] | None = None  # a cheap test of the raw line instead of needles

    @functools.cached_property
    def rules(self) -> frozenset[str]:
        """The rule codes its facts can be given: it is skipped in a file once all of them are capped."""
        return frozenset().union(*(CODES_OF_SHAPE[shape] for shape in self.shapes))

    @functools.cached_property
    def _needle_re(self) -> re.Pattern[str]:
        return re.compile("|".join(re.escape(n) for n in self.needles))

    def applies(self, text: str, lower: str) -> bool:
        if self.wants is not None:
            return self.wants(text)
        return self._needle_re.search(lower) is not None


_ANYWHERE = frozenset({CODE, CONFIG, DATA, INLINE, PROSE})
_COMMANDS = frozenset({CODE, CONFIG, DATA})


def _needles(text: str) -> tuple[str, ...]:
    return tuple(text.split("|"))


LINE_DETECTORS: Sequence[Detector] = (
    Detector(
        detect_remote_exec,
        _needles("curl|wget|aria2c|iwr|irm|invoke-|webclient|urlopen|requests.get|httpx.get|fetch"),
        _ANYWHERE,
        frozenset({F.RUNS_DOWNLOAD}),
    ),
    Detector(
        detect_decoded_exec,
        _needles("base64|xxd|certutil|decode|decompress|fromhex|unhexlify|marshal|atob|unescape|buffer.from|-enc"),
        _ANYWHERE,
        frozenset({F.RUNS_DECODED}),
    ),
    Detector(
        detect_reverse_shell,
        _needles("/dev/tcp|/dev/udp|nc |ncat|netcat|socat|mkfifo|socket"),
        _ANYWHERE,
        frozenset({F.REVERSE_SHELL}),
    ),
    Detector(
        detect_password_archive, _needles(".zip|.7z|.rar|unzip|7z|unrar"), _ANYWHERE, frozenset({F.PASSWORD_ARCHIVE})
    ),
    Detector(
        detect_credentials,
        (*_CREDENTIAL_NEEDLES, "security ", "secret-tool", "dump-keychain"),
        _COMMANDS,
        frozenset({F.READS_CREDENTIALS, F.READS_KEYCHAIN}),
    ),
    Detector(
        detect_exfiltration,
        _needles(
            "://|nc |ncat|netcat|telnet|/dev/tcp|/dev/udp|curl|wget|fetch|requests|httpx|aiohttp|axios|urllib|"
            "webrequest|restmethod|websocket|smtplib|sendmail|scp |rsync|ftp|socat|iwr|irm|.request("
        ),
        frozenset({CODE, CONFIG, DATA, INLINE}),
        frozenset({F.SENDS_SECRETS, F.CONTACTS_HOST}),
    ),
    Detector(
        detect_destructive,
        _needles("rm |rd |rmdir|format|mkfs|dd |/dev/|wipefs|shred|diskutil|chmod|chown|chgrp|:()|: ()"),
        _COMMANDS,
        frozenset({F.WIPES, F.DESTROYS}),
    ),
    Detector(
        detect_authorized_keys,
        ("authorized_keys",),
        _ANYWHERE,
        frozenset({F.PLANTS_SSH_KEY, F.CHANGES_AUTHORIZED_KEYS}),
    ),
    Detector(
        detect_persistence,
        _needles(
            "crontab|/etc/cron|/var/spool/cron|launchctl|launchagents|launchdaemons|systemd|schtasks|"
            "currentversion\\run|bashrc|zshrc|kshrc|cshrc|.profile|bash_profile|bash_login|zprofile|zshenv|zlogin|"
            "$profile|config.fish"
        ),
        _COMMANDS,
        frozenset({F.SCHEDULES_JOB, F.HIJACKS_SHELL_STARTUP}),
    ),
    Detector(
        detect_blobs, (), frozenset({CODE}), frozenset({F.ENCODED_BLOB}), windowed=False, wants=lambda t: len(t) >= 60
    ),
    Detector(
        detect_hidden_text,
        (),
        frozenset({CODE, CONFIG, DATA, INLINE, PROSE, COMMENT}),
        frozenset({F.HIDDEN_TAGS, F.HIDDEN_BIDI, F.HIDDEN_ZERO_WIDTH}),
        windowed=False,
        wants=lambda text: not text.isascii(),
    ),
)

# Every line detector's needles, for the file-wide search that picks the lines worth reading (risk/needles.py).
LINE_NEEDLES = tuple(sorted({needle for detector in LINE_DETECTORS for needle in detector.needles}))
FILE_DETECTORS: Sequence[Callable[[TextFile], Iterator[LineFact]]] = (detect_minified,)
