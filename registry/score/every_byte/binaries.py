"""Binaries (R157): files that are not text, named by their magic number, and the URLs inside them.

A file is inspected as bytes: the format named (an image, a font, a media file, an executable).
Compiled Python and native executables are R157; a legacy Office file holding a VBA project is R153
and a PDF that runs JavaScript, launches a program or embeds a file R154 (both declared in
members.py); bytes of no known format, and UTF-16 text, are not analysed (R150). URLs inside
binaries become hosts of the card, a look-alike among them R165 (lookalikes.py).

Bounds: binaries are searched for URLs in their first 4 MB.
"""

from __future__ import annotations

import re

from registry.score.card import FROM_CODE, HOST, NOT_ANALYSED, READ_BINARY, AnalyserResult, Coverage, Use
from registry.score.every_byte.lookalikes import LOOKALIKE_NAMED, lookalike
from registry.score.every_byte.members import EMBEDS, MACROS, UNREADABLE
from registry.score.every_byte.probe import _fact
from registry.score.risk.facts import Row
from registry.score.risk.rules import METADATA, RiskRule, _rule, show
from registry.score.vocabulary import host_of

STRINGS_BYTES = 4 * 1024 * 1024
MAX_BINARY_HOSTS = 50

COMPILED_OR_NATIVE = _rule(
    "R157", "high", "obfuscation",
    "compiled code or native executable shipped",
    "{path} is {format}",
    "compiled and native code cannot be reviewed by reading the skill: whatever it does is hidden from "
    "reviewers, and payloads are shipped this way to evade source scanners",
    "Ship the source (a .py, .js or shell script) instead; let users install binaries from their vendor.",
    "ships {format} ({path})",
    METADATA,
    "scripts/__pycache__/helper.cpython-312.pyc, or a bundled ELF executable",
)  # fmt: skip

# The rules declared here; the package's RULES gathers every module's, R150-R169 in order.
RULES: tuple[RiskRule, ...] = (COMPILED_OR_NATIVE,)

# What the checks below find, and the rule each fact is given (rows of the one fact table).
COMPILED = "compiled code or a native executable"
ROWS = (Row(COMPILED, COMPILED_OR_NATIVE),)


# -- binaries ------------------------------------------------------------------------------

EXECUTABLE, IMAGE, MEDIA, FONT, DOCUMENT, DATABASE, OLE = "executable", "image", "media", "font", "doc", "db", "ole"
_MAGIC: tuple[tuple[bytes, str, str], ...] = (
    (b"\x7fELF", "an ELF executable or shared library", EXECUTABLE),
    (b"\xfe\xed\xfa\xce", "a Mach-O executable (32-bit)", EXECUTABLE),
    (b"\xce\xfa\xed\xfe", "a Mach-O executable (32-bit)", EXECUTABLE),
    (b"\xfe\xed\xfa\xcf", "a Mach-O executable (64-bit)", EXECUTABLE),
    (b"\xcf\xfa\xed\xfe", "a Mach-O executable (64-bit)", EXECUTABLE),
    (b"\x00asm", "a WebAssembly module", EXECUTABLE),
    (b"dex\n0", "an Android DEX bytecode file", EXECUTABLE),
    (b"\x89PNG\r\n\x1a\n", "a PNG image", IMAGE),
    (b"\xff\xd8\xff", "a JPEG image", IMAGE),
    (b"GIF87a", "a GIF image", IMAGE),
    (b"GIF89a", "a GIF image", IMAGE),
    (b"II*\x00", "a TIFF image", IMAGE),
    (b"MM\x00*", "a TIFF image", IMAGE),
    (b"\x00\x00\x01\x00", "an ICO image", IMAGE),
    (b"%PDF-", "a PDF document", DOCUMENT),
    (b"wOFF", "a WOFF font", FONT),
    (b"wOF2", "a WOFF2 font", FONT),
    (b"OTTO", "an OpenType font", FONT),
    (b"\x00\x01\x00\x00\x00", "a TrueType font", FONT),
    (b"ID3", "an MP3 audio file", MEDIA),
    (b"fLaC", "a FLAC audio file", MEDIA),
    (b"OggS", "an Ogg media file", MEDIA),
    (b"\x1aE\xdf\xa3", "a Matroska/WebM video", MEDIA),
    (b"SQLite format 3\x00", "an SQLite database", DATABASE),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an OLE2 compound file (legacy Office document or installer)", OLE),
)
_VBA_STREAM = "_VBA_PROJECT".encode("utf-16-le")


def binary_format(data: bytes) -> tuple[str, str] | None:
    """(what the bytes are, their family) by magic number, or None when unknown."""
    for magic, what, family in _MAGIC:
        if data.startswith(magic):
            return what, family
    if data.startswith(b"MZ") and len(data) >= 64:
        offset = int.from_bytes(data[60:64], "little")
        if data[offset : offset + 4] == b"PE\x00\x00":
            return "a Windows PE executable or DLL", EXECUTABLE
        return "an MS-DOS executable", EXECUTABLE
    if data.startswith(b"\xca\xfe\xba\xbe") and len(data) >= 8:
        if int.from_bytes(data[4:8], "big") < 45:
            return "a Mach-O universal binary", EXECUTABLE
        return "a compiled Java class", EXECUTABLE
    if len(data) >= 16 and data[2:4] == b"\r\n":
        number = int.from_bytes(data[:2], "little")
        if 3000 <= number <= 4200:
            return "compiled Python bytecode (.pyc, Python 3)", EXECUTABLE
        if 62000 <= number <= 62300:
            return "compiled Python bytecode (.pyc, Python 2)", EXECUTABLE
    if data.startswith(b"RIFF") and data[8:12] in (b"WEBP", b"WAVE", b"AVI "):
        return {b"WEBP": "a WebP image", b"WAVE": "a WAV audio file", b"AVI ": "an AVI video"}[data[8:12]], MEDIA
    if data[4:8] == b"ftyp":
        return "an MP4/QuickTime/HEIF media file", MEDIA
    if data.startswith(b"BM") and len(data) >= 26 and int.from_bytes(data[2:6], "little") == len(data):
        return "a BMP image", IMAGE
    return None


_URL_BYTES = re.compile(rb"(?:https?|ftps?|wss?)://[\x21-\x7e]{3,300}")
_URL_UTF16 = re.compile(rb"h\x00t\x00t\x00p\x00(?:s\x00)?:\x00/\x00/\x00(?:[\x21-\x7e]\x00){3,300}")
_PDF_ACTIVE = (
    (b"/JavaScript", "runs JavaScript"),
    (b"/Launch", "launches a program"),
    (b"/EmbeddedFile", "embeds a file"),
)


def _binary(name: str, path: str, data: bytes, result: AnalyserResult) -> None:
    found = binary_format(data)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        reason = "UTF-16 text: not read as text"
        result.coverage.append(Coverage(path, NOT_ANALYSED, reason))
        result.facts.append(_fact(UNREADABLE, path, None, "", path=path, reason=reason))
    elif found is None:
        reason = f"unknown binary format ({len(data):,} bytes)"
        result.coverage.append(Coverage(path, NOT_ANALYSED, reason))
        result.facts.append(_fact(UNREADABLE, path, None, "", path=path, reason=reason))
    else:
        what, family = found
        result.coverage.append(Coverage(path, READ_BINARY, f"{what}: magic number and strings read"))
        if family == EXECUTABLE:
            result.facts.append(_fact(COMPILED, path, None, show(repr(data[:16])), path=path, format=what))
        elif family == OLE and _VBA_STREAM in data[:STRINGS_BYTES] and not name.lower().endswith("vbaproject.bin"):
            result.facts.append(_fact(MACROS, path, None, "", path=path, what="a VBA macro project"))
        elif family == DOCUMENT:
            head = data[:STRINGS_BYTES]
            actions = [text for marker, text in _PDF_ACTIVE if marker in head]
            if actions:
                result.facts.append(_fact(EMBEDS, path, None, "", path=path, what=" and ".join(actions)))
    hosts = 0
    head = data[:STRINGS_BYTES]
    urls = [m.group(0).decode("ascii", "replace") for m in _URL_BYTES.finditer(head)]
    urls += [m.group(0).decode("utf-16-le", "replace") for m in _URL_UTF16.finditer(head)]
    seen: set[str] = set()
    for url in urls:
        host = host_of(url)
        if not host or host in seen:
            continue
        seen.add(host)
        hosts += 1
        if hosts > MAX_BINARY_HOSTS:
            break
        verdict = lookalike(host)
        result.uses.append(
            Use(HOST, host, path, None, FROM_CODE, "look-alike host" if verdict else "", "mention", show(url))
        )
        if verdict:
            result.facts.append(_fact(LOOKALIKE_NAMED, path, None, show(url), host=host, why_lookalike=verdict))
