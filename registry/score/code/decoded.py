"""Code hidden as encoded text: base64 and hex runs in a unit (in strings and comments alike), decoded and read
as code of their own.

A payload shipped as a blob is invisible to every reader of the text: `exec(b64decode(BLOB))`, a blob kept in
a comment that the script reads back from its own file, or one that a later line pipes to a shell. Each run
that decodes to printable text that reads as Python, JavaScript or shell is parsed by that language's reader
into the same facts, every use on the blob's line and every source labelled with where the code was hidden,
so what the hidden code reads and sends reaches the card and the flow rules. Nothing is run.

Bounds: runs of 40 characters or more, at most MAX_BLOBS per unit and MAX_DECODED bytes each, MAX_TOTAL per
unit, decoded blobs inside decoded code read MAX_DEPTH deep; a run longer than the cap is not decoded.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import re

from registry.score.code.model import Facts

MAX_BLOBS = 16
MAX_DECODED = 64 * 1024
MAX_TOTAL = 256 * 1024
MAX_DEPTH = 2
_RUN = re.compile(r"(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_-]{40,}={0,2}(?![A-Za-z0-9+/_=-])")
_HEX = re.compile(r"[0-9a-fA-F]+")
_ESCAPED_HEX = re.compile(r"(?:\\x[0-9a-fA-F]{2}){20,}")
# The quick test before the `_RUN` search, exactly as strict: every character a run may hold is ASCII, so in the
# UTF-8 bytes with those characters made `a` and every other byte a space, a run is 40 `a`s in a row.
_RUN_BYTES = bytes(0x61 if chr(b).isascii() and (chr(b).isalnum() or chr(b) in "+/_-") else 0x20 for b in range(256))
_RUN_SEED = b"a" * 40
# What makes decoded text code rather than data, per language (checked in this order: a shell line can hold
# any word, so it comes last and needs a command at the start of a line).
_PYTHON = re.compile(
    r"^\s*(?:import\s+\w|from\s+[\w.]+\s+import\s)|\b(?:exec|eval)\s*\(|\bos\.(?:system|popen)\s*\(|\bsubprocess\."
    r"|\brequests\.\w+\s*\(|\burllib\.request\b|\bsocket\.socket\s*\(",
    re.MULTILINE,
)
_JAVASCRIPT = re.compile(
    r"\brequire\s*\(\s*['\"`]|\bchild_process\b|\bprocess\.env\b|\bfetch\s*\(|\bnew\s+Function\s*\(|\beval\s*\("
)
_SHELL = re.compile(
    r"(?:^|[;&|]\s*|\$\(\s*)(?:sudo\s+)?(?:curl|wget|bash|sh|zsh|chmod|nc|ncat|rm|base64|eval|python3?|node|"
    r"crontab|nohup|scp|rsync|dig|nslookup|tar|cat|echo|export|source|osascript|powershell|iex)\b",
    re.MULTILINE,
)


def rescan(facts: Facts, text: str | None = None, row: int = 0, pinned: bool = False) -> None:
    """Read the encoded code inside `text` (the unit's by default) into `facts`; `row` is where `text` starts,
    or, `pinned`, the row every blob in it is reported on (code that was itself decoded)."""
    if facts.depth >= MAX_DEPTH:
        return
    text = facts.unit.text if text is None else text
    runs = _RUN_SEED in text.encode("utf-8", "surrogatepass").translate(_RUN_BYTES)
    escaped = "\\x" in text
    if not runs and not escaped:
        return  # most units: nothing long enough to be a blob (each search is 5 times the cost of this test)
    total = 0
    candidates = itertools.chain(_RUN.finditer(text) if runs else (), _ESCAPED_HEX.finditer(text) if escaped else ())
    for match in itertools.islice(candidates, 4 * MAX_BLOBS):
        if total >= MAX_TOTAL:
            break
        blob = match.group(0)
        if len(blob) > MAX_DECODED * 2:
            continue
        decoded, how = _decode(blob)
        if decoded is None:
            continue
        language = _language(decoded)
        if language is None:
            continue
        total += len(decoded)
        at = row if pinned else row + text.count("\n", 0, match.start())
        _read(facts, decoded, language, at, how)
        if total >= MAX_TOTAL:
            break


def _decode(blob: str) -> tuple[str | None, str]:
    """(printable text, 'base64' or 'hex') when the run decodes to text, else (None, '')."""
    data: bytes | None = None
    how = ""
    if blob.startswith("\\x"):
        data, how = bytes.fromhex(blob.replace("\\x", "")), "hex"
    elif _HEX.fullmatch(blob) and len(blob) % 2 == 0:
        data, how = binascii.unhexlify(blob), "hex"
    else:
        padded = blob.rstrip("=")
        padded += "=" * (-len(padded) % 4)
        try:
            if "-" in blob or "_" in blob:
                data = base64.urlsafe_b64decode(padded)
            else:
                data = base64.b64decode(padded, validate=True)
        except (ValueError, binascii.Error):
            return None, ""
        how = "base64"
    if not data:
        return None, ""
    text = _text(data)
    return (text, how) if text is not None else (None, "")


def _text(data: bytes) -> str | None:
    if len(data) >= 4 and data[1::2].count(0) >= len(data) // 2 - 1:  # UTF-16LE, as PowerShell encodes
        try:
            return _printable(data.decode("utf-16-le"))
        except UnicodeDecodeError:
            return None
    try:
        return _printable(data.decode("utf-8"))
    except UnicodeDecodeError:
        return None


def _printable(text: str) -> str | None:
    if len(text) < 16:
        return None
    odd = sum(1 for c in text if not (c.isprintable() or c in "\n\r\t"))
    return text if odd <= len(text) // 50 else None


def _language(text: str) -> str | None:
    if _PYTHON.search(text):
        return "python"
    if _JAVASCRIPT.search(text):
        return "javascript"
    if _SHELL.search(text):
        return "shell"
    return None


def _read(facts: Facts, code: str, language: str, row: int, how: str) -> None:
    from registry.score.code import javascript, python, shell  # they are what reads the decoded code

    saved = facts.hidden
    facts.hidden = f"in code hidden as {how}"
    facts.depth += 1
    try:
        if language == "python":
            python.analyse(facts, code, row)
        elif language == "javascript":
            javascript.analyse(facts, code, row)
        else:
            shell.analyse(facts, code, row, 0, shell.MAX_NESTED - 1)
        rescan(facts, code, row, pinned=True)
    except (SyntaxError, ValueError, RecursionError, UnicodeError, MemoryError):
        pass  # not code after all
    finally:
        facts.depth -= 1
        facts.hidden = saved
