"""Every byte of a skill: archives and documents opened, binaries named, padding, hidden characters,
look-alike hosts, hard-coded secrets and resource abuse.

Nothing is skipped silently. `expand` (a risk.EXPANDERS entry) lists and reads the members of zip
archives (also .jar, .whl, .nupkg, .vsix, .apk), tar archives (plain, gzip, bzip2, xz), single
compressed files and office documents (OOXML .docx/.xlsx/.pptx and their macro variants,
OpenDocument), found by their magic bytes rather than their names. Each member becomes one more
entry of the skill's contents, named `<file>!/<member>` (archives inside archives are opened once
more: `a.zip!/b.tar!/c.py`, never deeper), so every analyser reads it like a file of the skill. The
text of an office document's parts (paragraphs, cells, slides, notes, comments, document
properties) becomes a `<file>!/<part>.txt` entry, one paragraph per line, so prose analysis reads
it; hidden text (w:vanish), hidden sheets and slides, comments, macros, embedded objects and
remote templates are findings of their own. A hidden sheet is read with its cells (shared strings
resolved) into its part's text: a lookup list of plain values is no finding, text is R155, and hidden
content that orders the agent is R259 (families/hidden_channels.py judges the order).

`analyse` (a risk.ANALYSERS entry) gives a coverage entry for every file and member: read as
text, opened (members), inspected as bytes (the format named: an image, a font, an executable),
or not analysed with the reason (unknown binary format, encrypted, a compression bomb, over a
limit, corrupt). It reports compiled Python and native executables, URLs inside binaries (as
hosts of the card), padding (long runs of blank lines or spaces with content after them) and
lines far past any reader's width, bidirectional controls in text without right-to-left script,
invisible characters inside URLs and file names, look-alike hosts, hard-coded secrets and
resource abuse (miners, fork bombs, request floods). `contacted_lookalikes` (a risk.CARD_RULES
entry) rates a look-alike host high when any analyser saw the skill contact it.

Bounds: at most 1,000 members and 8 MB of member bytes per skill, 2 MB per member, a decompressed
stream read to 16 MB at most, an archive declaring more than 10,000 members is not opened, an
expansion ratio over 100:1 past the member limit is a compression bomb; nothing is written to
disk and member paths are names only, never followed. XML parts with a DTD are not parsed.
Binaries are searched for URLs in their first 4 MB. Every regex has bounded repetitions or runs
after a cheap substring test. Nothing from a skill is executed, imported or unmarshalled.
"""

from __future__ import annotations

import base64
import binascii
import bz2
import dataclasses
import functools
import gzip
import io
import itertools
import json
import lzma
import math
import re
import tarfile
import unicodedata
import xml.etree.ElementTree as ElementTree
import zipfile
import zlib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath

import ahocorasick_rs
from rapidfuzz.distance import OSA

from registry.model import Skill
from registry.score import every_byte_rules as E
from registry.score.card import (
    FROM_CODE,
    FROM_INSTRUCTIONS,
    HOST,
    NOT_ANALYSED,
    READ_BINARY,
    READ_MEMBERS,
    READ_TEXT,
    AnalyserResult,
    CapabilityCard,
    Coverage,
    Use,
)
from registry.score.risk.lines import CODE, CONFIG, DATA, INLINE, PROSE, Line, TextFile, file_kind, is_binary
from registry.score.risk.rules import Item, RiskRule, show
from registry.score.vocabulary import host_of

SEP = "!/"
MAX_MEMBERS = 1000  # members read per skill, every archive together
MAX_DECLARED_MEMBERS = 10_000  # an archive declaring more is not opened at all
MAX_MEMBER_BYTES = 2 * 1024 * 1024
MAX_EXPANDED_BYTES = 8 * 1024 * 1024
MAX_STREAM_BYTES = 16 * 1024 * 1024  # decompressed bytes read from one gzip/bzip2/xz stream
MAX_RATIO = 100
MAX_XML_DEPTH = 256
MAX_NESTING = 2  # a.zip!/b.zip!/c is read; one more level is listed, not opened
STRINGS_BYTES = 4 * 1024 * 1024
MAX_BINARY_HOSTS = 50
BLANK_RUN = 200  # consecutive blank lines that count as padding
SPACE_RUN = 200  # consecutive spaces on one line that count as padding
LONG_LINE = 2000
PER_FILE = 5
MAX_SEED_WORDS = 96  # words of one run checked for a seed phrase

ARCHIVE_SUFFIXES = frozenset(
    {".zip", ".jar", ".war", ".whl", ".nupkg", ".vsix", ".apk", ".xpi", ".crx", ".egg", ".tar", ".tgz", ".gz",
     ".bz2", ".tbz", ".tbz2", ".xz", ".txz", ".7z", ".rar", ".docx", ".docm", ".xlsx", ".xlsm", ".pptx", ".pptm",
     ".dotx", ".dotm", ".xltx", ".xltm", ".potx", ".potm", ".odt", ".ods", ".odp", ".odg"}
)  # fmt: skip


# -- exploring archives --------------------------------------------------------------------


@dataclass
class Note:
    """What exploring found about one archive or member: its coverage and, if any, a finding."""

    name: str  # the contents key ("a.zip", "a.zip!/x.py", "a.docx!/word/document.xml.txt")
    how: str = ""  # a coverage "how", or "" for a finding only
    detail: str = ""
    rule: RiskRule | None = None
    params: dict = field(default_factory=dict)
    line: int | None = None
    excerpt: str = ""


@dataclass
class Exploration:
    members: dict[str, bytes] = field(default_factory=dict)
    notes: list[Note] = field(default_factory=list)
    hosts: list[tuple[str, str, str]] = field(default_factory=list)  # (name, url, detail) from document relations
    described: set[str] = field(default_factory=set)  # names whose coverage a note gives


@dataclass
class _Budget:
    members: int
    bytes: int
    skipped: int = 0


class _TooLong(Exception):
    pass


class _Bounded:
    """A reader that refuses to return more than `limit` bytes in total (a decompression bound)."""

    def __init__(self, raw, limit: int, head: bytes = b"") -> None:
        self.raw, self.limit, self.head, self.total = raw, limit, head, 0

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            size = self.limit + 1
        out = b""
        if self.head:
            out, self.head = self.head[:size], self.head[size:]
        if len(out) < size:
            out += self.raw.read(size - len(out))
        self.total += len(out)
        if self.total > self.limit:
            raise _TooLong
        return out


def container_kind(name: str, data: bytes) -> str | None:
    """'zip', 'tar', 'gzip', 'bzip2', 'xz', '7z', 'rar' by magic bytes, 'misnamed' for an archive suffix
    on something else, or None."""
    head = data[:8]
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")):
        return "zip"
    if head.startswith(b"\x1f\x8b"):
        return "gzip"
    if head.startswith(b"BZh") and data[4:10] in (b"1AY&SY", b"\x17rE8P\x90"):
        return "bzip2"
    if head.startswith(b"\xfd7zXZ\x00"):
        return "xz"
    if len(data) >= 262 and data[257:262] == b"ustar":
        return "tar"
    if head.startswith(b"7z\xbc\xaf\x27\x1c"):
        return "7z"
    if head.startswith(b"Rar!\x1a\x07"):
        return "rar"
    if PurePosixPath(name.rsplit(SEP, 1)[-1]).suffix.lower() in ARCHIVE_SUFFIXES:
        return "misnamed"
    return None


_cache: tuple[tuple, Exploration] | None = None


def explore(contents: Mapping[str, bytes]) -> Exploration:
    """The members of every archive and document among `contents` (top-level entries), with notes."""
    global _cache
    found = [
        (name, data)
        for name, data in sorted(contents.items())
        if SEP not in name and isinstance(data, bytes | bytearray) and container_kind(name, bytes(data[:300]))
    ]
    if not found:
        return Exploration()
    limits = (MAX_MEMBERS, MAX_EXPANDED_BYTES, MAX_MEMBER_BYTES, MAX_DECLARED_MEMBERS)
    key = (limits, *((name, len(data), hash(bytes(data))) for name, data in found))
    if _cache is not None and _cache[0] == key:
        return _cache[1]
    result = Exploration()
    budget = _Budget(MAX_MEMBERS, MAX_EXPANDED_BYTES)
    for name, data in found:
        try:
            _open(name, bytes(data), 1, result, budget)
        except Exception as err:  # a parser's unexpected error on hostile bytes: reported, never fatal
            _unread(result, name, f"could not be read ({type(err).__name__})")
    if budget.skipped:
        reason = (
            f"{budget.skipped:,} members past the {MAX_MEMBERS:,} members or {MAX_EXPANDED_BYTES // 2**20} MB "
            "read per skill"
        )
        result.notes.append(Note(found[0][0], "", "", E.BYTES_NOT_ANALYSED, {"path": found[0][0], "reason": reason}))
    _cache = (key, result)
    return result


def expand(contents: Mapping[str, bytes]) -> Mapping[str, bytes]:
    """risk.EXPANDERS entry: the members of the skill's archives and documents, as more files."""
    return explore(contents).members


def _unread(result: Exploration, name: str, reason: str, rule: RiskRule = E.BYTES_NOT_ANALYSED, **params) -> None:
    result.described.add(name)
    result.notes.append(Note(name, NOT_ANALYSED, reason, rule, {"path": name, "reason": reason, **params}))


def _open(name: str, data: bytes, depth: int, result: Exploration, budget: _Budget) -> None:
    kind = container_kind(name, data)
    if kind is None:
        return
    result.described.add(name)
    if kind in ("7z", "rar"):
        _unread(result, name, f"{'7-Zip' if kind == '7z' else 'RAR'} archive: a format the registry does not open")
    elif kind == "misnamed":
        _unread(result, name, "named as an archive or document but is not one the registry recognises")
    elif depth > MAX_NESTING:
        _unread(result, name, f"an archive nested more than {MAX_NESTING - 1} level deep: not opened")
    elif kind == "zip":
        _open_zip(name, data, depth, result, budget)
    elif kind == "tar":
        _open_tar(name, _Bounded(io.BytesIO(data), MAX_STREAM_BYTES), len(data), depth, result, budget, "tar")
    else:
        _open_compressed(name, data, kind, depth, result, budget)


def _zip_declared_members(data: bytes) -> int | None:
    """The member count the end-of-central-directory record declares, read before parsing the directory."""
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - 65_557))
    if end < 0 or end + 22 > len(data):
        return None
    count = int.from_bytes(data[end + 10 : end + 12], "little")
    if count == 0xFFFF:
        locator = data.rfind(b"PK\x06\x06", 0, end)
        if locator >= 0 and locator + 40 <= len(data):
            count = int.from_bytes(data[locator + 32 : locator + 40], "little")
    return count


def _open_zip(name: str, data: bytes, depth: int, result: Exploration, budget: _Budget) -> None:
    declared = _zip_declared_members(data)
    if declared is None:
        _unread(result, name, "corrupt zip archive: no central directory")
        return
    if declared > MAX_DECLARED_MEMBERS:
        _unread(result, name, f"declares {declared:,} members, over the {MAX_DECLARED_MEMBERS:,} the registry opens")
        return
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = [info for info in archive.infolist() if not info.is_dir()]
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError, NotImplementedError) as err:
        _unread(result, name, f"corrupt zip archive: {_short(err)}")
        return
    names = {info.filename for info in infos}
    office = _office_kind(archive, names)
    read = 0
    sheet_parts: dict[str, bytes] = {}  # an Excel workbook's parts that say which sheets are hidden and what they hold
    for info in infos:
        member = f"{name}{SEP}{info.filename}"
        if budget.members <= 0 or info.file_size > budget.bytes:
            budget.skipped += 1
            result.described.add(member)
            result.notes.append(Note(member, NOT_ANALYSED, "past the members read per skill"))
            continue
        if info.flag_bits & 0x1:
            reason = "encrypted: cannot be read without its password"
            _unread(result, member, reason, E.ENCRYPTED_MEMBER)
            continue
        ratio = info.file_size / max(1, info.compress_size)
        if info.file_size > MAX_MEMBER_BYTES:
            if ratio > MAX_RATIO:
                what = f"expands {info.compress_size:,} bytes to {info.file_size:,} (ratio {ratio:,.0f}:1)"
                _unread(result, member, f"compression bomb: {what}", E.COMPRESSION_BOMB, what=what)
            else:
                _unread(
                    result, member, f"{info.file_size:,} bytes, over the {MAX_MEMBER_BYTES // 2**20} MB read per member"
                )
            continue
        try:
            with archive.open(info) as handle:
                body = handle.read(MAX_MEMBER_BYTES + 1)
        except (RuntimeError, NotImplementedError, zipfile.BadZipFile, zlib.error, lzma.LZMAError, OSError,
                EOFError, ValueError) as err:  # fmt: skip
            _unread(result, member, f"unreadable member: {_short(err)}")
            continue
        if len(body) > MAX_MEMBER_BYTES:
            what = f"declares {info.file_size:,} bytes but expands past {MAX_MEMBER_BYTES:,}"
            _unread(result, member, f"compression bomb: {what}", E.COMPRESSION_BOMB, what=what)
            continue
        budget.members -= 1
        budget.bytes -= len(body)
        read += 1
        if office is not None:
            _office_member(name, info.filename, body, office, depth, result, budget)
            if _SHEET_PART.match(info.filename):
                sheet_parts[info.filename] = body
        else:
            _member(member, body, depth, result, budget)
    if sheet_parts:
        _hidden_sheets(name, sheet_parts, result)
    what = f"{office} document" if office else "zip archive"
    result.notes.append(Note(name, READ_MEMBERS, f"{what}: {read:,} of {len(infos):,} members read"))


def _decompressor(kind: str, source: io.BytesIO) -> gzip.GzipFile | bz2.BZ2File | lzma.LZMAFile:
    """A reader of the decompressed stream (read in bounded chunks by _Bounded; closed with `source`)."""
    if kind == "gzip":
        return gzip.GzipFile(fileobj=source)
    if kind == "bzip2":
        return bz2.BZ2File(source)
    return lzma.LZMAFile(source)


def _open_compressed(name: str, data: bytes, kind: str, depth: int, result: Exploration, budget: _Budget) -> None:
    stream = _Bounded(_decompressor(kind, io.BytesIO(data)), MAX_STREAM_BYTES)
    try:
        head = stream.read(512)
    except (_TooLong, OSError, EOFError, lzma.LZMAError, zlib.error, ValueError) as err:
        _unread(result, name, f"corrupt {kind} stream: {_short(err)}")
        return
    if len(head) >= 262 and head[257:262] == b"ustar":
        stream.head, stream.total = head, 0
        _open_tar(name, stream, len(data), depth, result, budget, f"{kind}-compressed tar")
        return
    inner = PurePosixPath(name.rsplit(SEP, 1)[-1])
    inner_name = inner.stem if inner.suffix.lower() in (".gz", ".bz2", ".xz") else inner.name + ".data"
    member = f"{name}{SEP}{inner_name}"
    limit = min(MAX_MEMBER_BYTES, budget.bytes)
    try:
        body = head + stream.read(max(0, limit + 1 - len(head)))
    except (_TooLong, OSError, EOFError, lzma.LZMAError, zlib.error, ValueError) as err:
        _unread(result, name, f"corrupt {kind} stream: {_short(err)}")
        return
    if len(body) > limit:
        what = f"expands {len(data):,} bytes past {MAX_MEMBER_BYTES:,}"
        if len(data) * MAX_RATIO < MAX_MEMBER_BYTES:
            _unread(result, member, f"compression bomb: {what}", E.COMPRESSION_BOMB, what=what)
        else:
            _unread(result, member, f"over the {MAX_MEMBER_BYTES // 2**20} MB read per member")
        result.notes.append(Note(name, READ_MEMBERS, f"{kind} stream: its content is over the limit"))
        return
    budget.members -= 1
    budget.bytes -= len(body)
    _member(member, body, depth, result, budget)
    result.notes.append(Note(name, READ_MEMBERS, f"{kind}-compressed file"))


def _open_tar(
    name: str, stream: _Bounded, size: int, depth: int, result: Exploration, budget: _Budget, what: str
) -> None:
    read = listed = 0
    try:
        with tarfile.open(fileobj=stream, mode="r|") as archive:  # a stream: headers in order, nothing seeks
            for info in archive:
                listed += 1
                if listed > MAX_DECLARED_MEMBERS:
                    _unread(result, name, f"more than {MAX_DECLARED_MEMBERS:,} members: the rest was not read")
                    break
                member = f"{name}{SEP}{info.name}"
                if info.isdir():
                    continue
                if not info.isfile():
                    kind = "link" if info.issym() or info.islnk() else "special file"
                    target = f" to {info.linkname}" if info.linkname else ""
                    result.described.add(member)
                    result.notes.append(Note(member, NOT_ANALYSED, f"a {kind}{target}: not followed"))
                    continue
                if budget.members <= 0 or info.size > budget.bytes:
                    budget.skipped += 1
                    result.described.add(member)
                    result.notes.append(Note(member, NOT_ANALYSED, "past the members read per skill"))
                    continue
                if info.size > MAX_MEMBER_BYTES:
                    if info.size > size * MAX_RATIO:
                        what_bomb = f"expands to {info.size:,} bytes from a {size:,}-byte archive"
                        _unread(result, member, f"compression bomb: {what_bomb}", E.COMPRESSION_BOMB, what=what_bomb)
                    else:
                        _unread(
                            result,
                            member,
                            f"{info.size:,} bytes, over the {MAX_MEMBER_BYTES // 2**20} MB read per member",
                        )
                    continue
                handle = archive.extractfile(info)
                body = handle.read(MAX_MEMBER_BYTES + 1) if handle is not None else b""
                budget.members -= 1
                budget.bytes -= len(body)
                read += 1
                _member(member, body, depth, result, budget)
    except _TooLong:
        reason = f"only the first {MAX_STREAM_BYTES // 2**20} MB of its decompressed stream were read"
        if stream.total > size * MAX_RATIO:
            _unread(
                result,
                name,
                f"compression bomb: {reason}",
                E.COMPRESSION_BOMB,
                what=f"expands past {MAX_STREAM_BYTES:,} bytes",
            )
        else:
            _unread(result, name, reason)
    except (tarfile.TarError, OSError, EOFError, lzma.LZMAError, zlib.error, ValueError) as err:
        _unread(result, name, f"corrupt {what} archive: {_short(err)}")
    result.notes.append(Note(name, READ_MEMBERS, f"{what} archive: {read:,} members read"))


def _member(member: str, body: bytes, depth: int, result: Exploration, budget: _Budget) -> None:
    result.members[member] = body
    if container_kind(member, body[:300]) not in (None, "misnamed"):
        _open(member, body, depth + 1, result, budget)


def _short(err: BaseException) -> str:
    text = str(err) or type(err).__name__
    return show(text)[:80]


# -- office documents ----------------------------------------------------------------------

_OOXML_TYPES = (("word/", "Word"), ("xl/", "Excel"), ("ppt/", "PowerPoint"))
_TEXT_PART = re.compile(
    r"^(?:word/(?:document|header\d*|footer\d*|footnotes|endnotes|comments\w*|glossary/document)\.xml"
    r"|xl/(?:sharedStrings|workbook|worksheets/sheet\d+|comments\d*|threadedComments/\w+)\.xml"
    r"|ppt/(?:slides/slide\d+|notesSlides/notesSlide\d+|comments/\w+)\.xml"
    r"|docProps/(?:core|app|custom)\.xml|content\.xml|meta\.xml|styles\.xml)$",
    re.IGNORECASE,
)
_COMMENT_PART = re.compile(r"(?:^|/)(?:comments\w*|threadedComments\w*|comment\w*)\.xml$|^ppt/comments/", re.I)
_REMOTE_TYPES = ("attachedTemplate", "oleObject", "frame", "subDocument", "externalLinkPath", "image")


def _office_kind(archive: zipfile.ZipFile, names: set[str]) -> str | None:
    if "[Content_Types].xml" in names:
        for prefix, kind in _OOXML_TYPES:
            if any(n.startswith(prefix) for n in names):
                return f"{kind} (OOXML)"
        return "Office Open XML"
    if "mimetype" in names:
        try:
            with archive.open("mimetype") as handle:
                mime = handle.read(100)
        except (RuntimeError, NotImplementedError, zipfile.BadZipFile, zlib.error, OSError, ValueError):
            return None
        if mime.startswith(b"application/vnd.oasis.opendocument"):
            return "OpenDocument"
    return None


def _office_member(
    doc: str, part: str, body: bytes, office: str, depth: int, result: Exploration, budget: _Budget
) -> None:
    member = f"{doc}{SEP}{part}"
    lower = part.lower()
    base = lower.rsplit("/", 1)[-1]
    if base == "vbaproject.bin" or (lower.startswith(("basic/", "scripts/")) and not lower.endswith("/")):
        what = "a VBA macro project (vbaProject.bin)" if base == "vbaproject.bin" else f"macros ({part})"
        result.notes.append(Note(member, "", "", E.OFFICE_MACROS, {"path": member, "what": what}))
    elif "/embeddings/" in lower or base.startswith("oleobject") or re.match(r"object \d+/", lower):
        result.notes.append(Note(member, "", "", E.EMBEDDED_OBJECT, {"path": doc, "what": f"embeds {part}"}))
    if lower.endswith(".rels"):
        _relations(doc, member, body, result)
    if _TEXT_PART.match(part) and (office != "OpenDocument" or lower in ("content.xml", "meta.xml", "styles.xml")):
        text = _part_text(member, part, body, result)
        if text is not None:
            result.members[f"{member}.txt"] = text.encode("utf-8")
            result.described.add(member)
            result.notes.append(Note(member, READ_TEXT, f"{office} part: its text is read as {part}.txt"))
            return
    _member(member, body, depth, result, budget)


def _xml(member: str, body: bytes, result: Exploration) -> ElementTree.Element | None:
    if b"<!DOCTYPE" in body or b"<!ENTITY" in body:
        _unread(result, member, "XML part with a document type declaration: not parsed")
        return None
    try:
        return ElementTree.fromstring(body)
    except (ElementTree.ParseError, ValueError, RecursionError) as err:
        _unread(result, member, f"malformed XML part: {_short(err)}")
        return None


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _attribute(element: ElementTree.Element, name: str) -> str | None:
    for key, value in element.attrib.items():
        if _local(key) == name:
            return value
    return None


def _relations(doc: str, member: str, body: bytes, result: Exploration) -> None:
    root = _xml(member, body, result)
    if root is None:
        return
    for element in root.iter():
        if _local(element.tag) != "Relationship" or (_attribute(element, "TargetMode") or "").lower() != "external":
            continue
        target = _attribute(element, "Target") or ""
        kind = (_attribute(element, "Type") or "").rsplit("/", 1)[-1]
        loads = kind in _REMOTE_TYPES
        if "://" in target:
            result.hosts.append((member, target, "fetch" if loads else "mention"))
        if loads and not target.lower().startswith("mailto:"):
            what = f"loads {show(target)} when opened ({kind})"
            result.notes.append(Note(member, "", "", E.EMBEDDED_OBJECT, {"path": doc, "what": what}))


_FALSE = ("0", "false", "off")


def _part_text(member: str, part: str, body: bytes, result: Exploration) -> str | None:
    """The text of an office XML part, one paragraph per line; hidden content and comments noted."""
    root = _xml(member, body, result)
    if root is None:
        return None
    lines: list[str] = []
    hidden: list[tuple[int, str, str]] = []  # (line, what, text)
    lower = part.lower()
    text_name = f"{member}.txt"
    if lower == "xl/workbook.xml":
        for element in root.iter():
            if _local(element.tag) == "sheet":
                sheet = _attribute(element, "name") or ""
                lines.append(f"sheet: {sheet}")
                state = (_attribute(element, "state") or "").strip()
                if state in ("hidden", "veryHidden"):
                    very = "very " if state == "veryHidden" else ""
                    hidden.append((len(lines), f"has a {very}hidden sheet '{show(sheet)}' (state=\"{state}\")", sheet))
    elif lower.startswith("ppt/slides/") and (_attribute(root, "show") or "1").lower() in _FALSE:
        _paragraphs(root, lines, hidden)
        hidden.append((1, "is a slide hidden from the show", " ".join(lines)[:200]))
    elif lower.startswith("xl/worksheets/"):
        for element in root.iter():
            name = _local(element.tag)
            if name == "f" and element.text:
                lines.append(f"={element.text.strip()}")
            elif name == "is":
                lines.append("".join(t.text or "" for t in element.iter() if _local(t.tag) == "t"))
            elif name == "row" and (_attribute(element, "hidden") or "").lower() in ("1", "true") and len(element):
                hidden.append((max(1, len(lines)), f"hides row {_attribute(element, 'r') or '?'}", ""))
    else:
        _paragraphs(root, lines, hidden)
    if _COMMENT_PART.search(part) or any(_local(e.tag) == "annotation" for e in root.iter()):
        count = sum(1 for e in root.iter() if _local(e.tag) in ("comment", "threadedComment", "cm", "annotation"))
        if count:
            first = next((line for line in lines if line.strip()), "")
            result.notes.append(
                Note(text_name, "", "", E.DOCUMENT_COMMENTS,
                     {"path": member, "count": count, "text": show(first)[:80] or "(empty)"}, 1 if lines else None)
            )  # fmt: skip
    for number, what, text in hidden[:PER_FILE]:
        if lower == "xl/workbook.xml":
            continue  # a hidden sheet is judged by what it holds (_hidden_sheets)
        how = "a hidden slide" if what.startswith("is a slide") else "hidden text"
        where = f"the hidden slide {member}" if what.startswith("is a slide") else f"hidden text in {member}"
        result.notes.append(_hidden_note(text_name, member, what, number, text, where, how))
    return "\n".join(lines) + "\n"


def _hidden_note(text_name: str, path: str, what: str, number: int, text: str, where: str, how: str) -> Note:
    """R155 for hidden document content, or R259 when it gives the agent an order (families/hidden_channels.py)."""
    from registry.score.families import hidden_channels  # the family module imports the score package

    order = hidden_channels.document_order(text)
    if order is None:
        return Note(text_name, "", "", E.HIDDEN_DOCUMENT_CONTENT, {"path": path, "what": what}, number, show(text))
    params = {"where": where, "how": how, "what": order}
    return Note(text_name, "", "", hidden_channels.HIDDEN_DOCUMENT_ORDER, params, number, show(text))


_SHEET_PART = re.compile(
    r"^xl/(?:workbook\.xml|_rels/workbook\.xml\.rels|sharedStrings\.xml|worksheets/sheet\d+\.xml)$"
)
MAX_SHEET_CELLS = 5000  # cells of a hidden sheet read


def _hidden_sheets(doc: str, parts: dict[str, bytes], result: Exploration) -> None:
    """Each hidden sheet of a workbook, read with its cells (shared strings resolved): its text becomes the sheet's
    member text, headed by the sheet's name; R259 when it orders the agent, R155 when it holds text, nothing for a
    lookup list of plain values (the "Lists" sheet that feeds a dropdown). A sheet whose part cannot be found is
    R155, as nothing tells what it holds."""
    from registry.score.families import hidden_channels

    workbook = _quiet_xml(parts.get("xl/workbook.xml"))
    if workbook is None:
        return
    sheets = []  # (line of workbook.xml.txt, name, state, relation id)
    listed = 0
    for element in workbook.iter():
        if _local(element.tag) != "sheet":
            continue
        listed += 1
        state = (_attribute(element, "state") or "").strip()
        if state in ("hidden", "veryHidden"):
            sheets.append((listed, _attribute(element, "name") or "", state, _attribute(element, "id") or ""))
    if not sheets:
        return
    targets = {}
    rels = _quiet_xml(parts.get("xl/_rels/workbook.xml.rels"))
    for element in rels.iter() if rels is not None else ():
        if _local(element.tag) == "Relationship":
            target = (_attribute(element, "Target") or "").lstrip("/").removeprefix("xl/")
            targets[_attribute(element, "Id") or ""] = f"xl/{target}"
    strings = []
    shared = _quiet_xml(parts.get("xl/sharedStrings.xml"))
    for element in shared.iter() if shared is not None else ():
        if _local(element.tag) == "si":
            strings.append("".join(t.text or "" for t in element.iter() if _local(t.tag) == "t"))
    book_text = f"{doc}{SEP}xl/workbook.xml.txt"
    for listed_at, sheet, state, rel in sheets[:PER_FILE]:
        very = "very " if state == "veryHidden" else ""
        what = f"has a {very}hidden sheet '{show(sheet)}' (state=\"{state}\")"
        part = targets.get(rel, "")
        cells = _sheet_cells(parts.get(part), strings)
        if cells is None:
            params = {"path": f"{doc}{SEP}xl/workbook.xml", "what": what}
            result.notes.append(Note(book_text, "", "", E.HIDDEN_DOCUMENT_CONTENT, params, listed_at, show(sheet)))
            continue
        if hidden_channels.plain_values(cells):
            continue
        text_name = f"{doc}{SEP}{part}.txt"
        result.members[text_name] = ("\n".join([f"{very}hidden sheet: {sheet}", *cells]) + "\n").encode("utf-8")
        number = next((i for i, cell in enumerate(cells, start=2) if hidden_channels.document_order(cell)), 2)
        where = f"the {very}hidden sheet '{show(sheet)}' of {doc}"
        note = _hidden_note(text_name, doc, what, number, "\n".join(cells), where, f"a {very}hidden sheet")
        result.notes.append(dataclasses.replace(note, excerpt=show(cells[number - 2])))


def _quiet_xml(body: bytes | None) -> ElementTree.Element | None:
    if not body or b"<!DOCTYPE" in body or b"<!ENTITY" in body:
        return None
    try:
        return ElementTree.fromstring(body)
    except (ElementTree.ParseError, ValueError, RecursionError):
        return None


def _sheet_cells(body: bytes | None, strings: list[str]) -> list[str] | None:
    """The text of a worksheet's cells, in order (shared strings resolved, empty cells left out); None unread."""
    root = _quiet_xml(body)
    if root is None:
        return None
    cells: list[str] = []
    for element in root.iter():
        if _local(element.tag) != "c":
            continue
        kind = _attribute(element, "t") or ""
        value = ""
        for child in element:
            name = _local(child.tag)
            if name == "v" and child.text:
                value = child.text
            elif name == "is":
                value = "".join(t.text or "" for t in child.iter() if _local(t.tag) == "t")
        if kind == "s" and value.strip().isdigit():
            index = int(value)
            value = strings[index] if index < len(strings) else ""
        if value.strip():
            cells.append(" ".join(value.split()))
        if len(cells) >= MAX_SHEET_CELLS:
            break
    return cells


_PARAGRAPHS = frozenset({"p", "h", "si"})


def _run_hidden(run: ElementTree.Element) -> bool:
    """A Word run whose properties say vanish or specVanish (not switched off)."""
    for props in run:
        if _local(props.tag) == "rPr":
            for prop in props:
                if _local(prop.tag) in ("vanish", "specVanish", "webHidden"):
                    return (_attribute(prop, "val") or "1").lower() not in _FALSE
    return False


def _paragraphs(root: ElementTree.Element, lines: list[str], hidden: list[tuple[int, str, str]]) -> None:
    """Paragraph text (Word w:p, DrawingML a:p, OpenDocument text:p/text:h, shared strings si), one per
    line; text outside paragraphs (document properties) as `name: text` lines."""

    def walk(
        element: ElementTree.Element, depth: int, concealed: bool, current: list[str] | None, runs: list[str] | None
    ) -> None:
        if depth > MAX_XML_DEPTH:
            return
        name = _local(element.tag)
        if name == "delText":
            return
        if name == "r" and _run_hidden(element):
            concealed = True
        if name in ("hidden-text", "hidden-paragraph"):  # OpenDocument
            concealed = True
            value = _attribute(element, "string-value") or ""
            if value and current is not None and runs is not None:
                current.append(value)
                runs.append(value)
        paragraph = name in _PARAGRAPHS
        mine, mine_runs = ([], []) if paragraph else (current, runs)
        text = element.text or ""
        if text.strip() or (name in ("t", "instrText") and text):
            if mine is None:
                lines.append(f"{name}: {' '.join(text.split())}")
            else:
                mine.append(text)
                if concealed and text.strip() and mine_runs is not None:
                    mine_runs.append(text)
        elif name == "tab" and mine is not None:
            mine.append("\t")
        for child in element:
            walk(child, depth + 1, concealed, mine, mine_runs)
            if child.tail and mine is not None:
                mine.append(child.tail)
        if paragraph and mine is not None:
            joined = " ".join("".join(mine).split())
            if joined:
                lines.append(joined)
                if mine_runs:
                    words = " ".join(" ".join(mine_runs).split())
                    hidden.append((len(lines), f"hides text from the reader ({len(words):,} characters)", words))

    walk(root, 0, False, None, None)


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
        result.items.append(_item(E.BYTES_NOT_ANALYSED, path, None, "", path=path, reason=reason))
    elif found is None:
        reason = f"unknown binary format ({len(data):,} bytes)"
        result.coverage.append(Coverage(path, NOT_ANALYSED, reason))
        result.items.append(_item(E.BYTES_NOT_ANALYSED, path, None, "", path=path, reason=reason))
    else:
        what, family = found
        result.coverage.append(Coverage(path, READ_BINARY, f"{what}: magic number and strings read"))
        if family == EXECUTABLE:
            result.items.append(_item(E.COMPILED_OR_NATIVE, path, None, show(repr(data[:16])), path=path, format=what))
        elif family == OLE and _VBA_STREAM in data[:STRINGS_BYTES] and not name.lower().endswith("vbaproject.bin"):
            result.items.append(_item(E.OFFICE_MACROS, path, None, "", path=path, what="a VBA macro project"))
        elif family == DOCUMENT:
            head = data[:STRINGS_BYTES]
            actions = [text for marker, text in _PDF_ACTIVE if marker in head]
            if actions:
                result.items.append(_item(E.EMBEDDED_OBJECT, path, None, "", path=path, what=" and ".join(actions)))
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
            result.items.append(
                _item(E.LOOKALIKE_HOST_MENTIONED, path, None, show(url), host=host, why_lookalike=verdict)
            )


# -- the analyser --------------------------------------------------------------------------


def _item(rule: RiskRule, where: str, line: int | None, excerpt: str, column: int | None = None, /, **params) -> Item:
    shown = excerpt or show(str(params.get("what") or params.get("reason") or params.get("format") or where))
    return Item(rule.at(where, line, column, excerpt=shown, **params), rule, params)


def analyse(skill: Skill, files: list[TextFile], contents: Mapping[str, bytes], shown: str) -> AnalyserResult:
    """risk.ANALYSERS entry: coverage for every file and member, and the every-byte findings."""

    def shown_path(name: str) -> str:
        return name if shown in (".", "") else f"{shown}/{name}"

    result = AnalyserResult()
    own = own_names(skill)
    exploration = explore({name: data for name, data in contents.items() if SEP not in name})
    for note in exploration.notes:
        path = shown_path(note.name)
        if note.how:
            result.coverage.append(Coverage(path, note.how, note.detail))
        if note.rule is not None:
            params = dict(note.params)
            if "path" in params:
                params["path"] = shown_path(params["path"])
            result.items.append(_item(note.rule, path, note.line, note.excerpt, **params))
    for name, url, detail in exploration.hosts:
        host = host_of(url)
        if host:
            verdict = judge(host, own)
            sensitive = "look-alike host" if verdict else ""
            result.uses.append(Use(HOST, host, shown_path(name), None, FROM_INSTRUCTIONS, sensitive, detail, show(url)))
    for name in sorted(contents):
        data = contents[name]
        path = shown_path(name)
        _file_name(name, path, result)
        if not isinstance(data, bytes | bytearray):
            result.coverage.append(Coverage(path, NOT_ANALYSED, "no bytes to read"))
            continue
        data = bytes(data)
        if name in exploration.described:
            continue
        if is_binary(data):
            _binary(name, path, data, result)
            continue
        result.coverage.append(Coverage(path, READ_TEXT, "text"))
        _padding(name, path, data, result)
        _long_line(name, path, data, result)
    for skill_file in skill.location.files:
        if skill_file.path not in contents:
            result.coverage.append(Coverage(shown_path(skill_file.path), NOT_ANALYSED, "not among the files read"))
    for file in files:
        data = contents.get(file.name)
        if not isinstance(data, bytes | bytearray):
            continue
        data = bytes(data)
        hits = probe(data)
        if not hits:
            continue
        if INVISIBLE_HITS in hits:
            _hidden_characters(file, result)
        if HOST_HITS in hits:
            _hosts(file, data, hits[HOST_HITS], own, result)
        if SECRET_HITS in hits or WALLET_HITS in hits:
            _secrets(file, data, hits, result)
        if RESOURCE_HITS in hits:
            _resources(file, data, hits[RESOURCE_HITS], result)
    return result


# -- one pass over each file for every needle --------------------------------------------

SECRET_HITS, WALLET_HITS, RESOURCE_HITS, HOST_HITS, INVISIBLE_HITS = "secret", "wallet", "resource", "host", "invisible"
_INVISIBLE_CHARS = (
    "\u00ad\u061c\u180e" + "".join(map(chr, range(0x200B, 0x2010))) + "".join(map(chr, range(0x202A, 0x202F)))
    + "".join(map(chr, range(0x2060, 0x2065))) + "".join(map(chr, range(0x2066, 0x206A))) + "\ufeff"
)  # fmt: skip
_NEEDLES: tuple[tuple[bytes, str], ...] = (
    *((n, SECRET_HITS) for n in (
        b"akia", b"asia", b"ghp_", b"gho_", b"ghu_", b"ghs_", b"ghr_", b"github_pat_", b"xoxb-", b"xoxa-", b"xoxp-",
        b"xoxo-", b"xoxs-", b"xoxr-", b"k_live_", b"sk-proj-", b"sk-ant-", b"sk-svcacct-", b"sk-admin-", b"t3blbkfj",
        b"private key-----", b"eyj", b"aiza",
        b"hooks.slack.com/services/", b"/api/webhooks/", b":aa", b"aws_secret_access_key",
    )),
    *((n, WALLET_HITS) for n in (
        b"mnemonic", b"seed", b"recovery phrase", b"secret phrase", b"private_key", b"private key", b"privatekey",
        b"private-key", b"priv_key", b"privkey", b"secret_key", b"secretkey", b"secret key", b"keypair", b"bip39",
        b"bip-39", b"wallet_key", b"wallet key", b"walletkey", b"wallet_secret", b"signer_key", b"signing_key",
        b"signing key", b"eth_key", b"account_key",
    )),
    *((n, RESOURCE_HITS) for n in (
        b"xmrig", b"xmr-stak", b"minerd", b"cpuminer", b"ccminer", b"ethminer", b"nbminer", b"lolminer", b"t-rex",
        b"phoenixminer", b"nanominer", b"srbminer", b"gminer", b"teamredminer", b"bminer", b"cgminer", b"bfgminer",
        b"stratum+", b"stratum://", b"donate-level", b"nicehash", b"minexmr", b"supportxmr", b"moneroocean",
        b"nanopool", b"2miners", b"f2pool", b"c3pool", b"hashvault", b"herominers", b"unmineable", b"ethermine",
        b"viabtc", b"antpool", b":|:", b"&}", b"& }", b"%0|%0", b"%0 | %0", b"fork while fork", b"fork()", b"hping",
        b"slowloris", b"slowhttptest", b"ab -n", b"__filename", b"__file__", b"$0", b"process.argv[1]",
        b"while true", b"while :", b"while [ 1", b"while ((1",
        b"while (true)", b"while(true)", b"while (1)", b"while(1)", b"for (;;)", b"for(;;)", b"until false",
    )),
    (b"://", HOST_HITS),
    (b"xn--", HOST_HITS),
    *((ch.encode("utf-8"), INVISIBLE_HITS) for ch in _INVISIBLE_CHARS),
    (b"\xf3\xa0\x80", INVISIBLE_HITS),  # Unicode tag characters U+E0000-U+E007F
    (b"\xf3\xa0\x81", INVISIBLE_HITS),
)  # fmt: skip
# DFA: the same matches as the default automaton, about 3 times faster over a file.
_PROBE = ahocorasick_rs.BytesAhoCorasick(
    [needle for needle, _ in _NEEDLES], implementation=ahocorasick_rs.Implementation.DFA
)


def probe(data: bytes) -> dict[str, list[int]]:
    """The offsets of every needle in `data` (ASCII case ignored), by the check that wants them: one pass."""
    hits: dict[str, list[int]] = {}
    for index, start, _end in _PROBE.find_matches_as_indexes(data.lower(), overlapping=True):
        hits.setdefault(_NEEDLES[index][1], []).append(start)
    return hits


def _line_numbers(data: bytes, offsets: list[int], limit: int = 200) -> set[int]:
    numbers: set[int] = set()
    last_offset, last_number = 0, 1
    for offset in sorted(offsets)[:limit]:
        last_number += data.count(b"\n", last_offset, offset)
        last_offset = offset
        numbers.add(last_number)
    return numbers


def _lines_on(file: TextFile, numbers: set[int]) -> list[tuple[int, Line]]:
    """(index, line) of the file's lines that cover any of the physical line numbers."""
    return [(i, line) for i, line in enumerate(file.lines) if any(span[1] in numbers for span in line.spans)]


# -- padding and long lines ----------------------------------------------------------------

_WS = (
    rb"(?:[ \t\f\v\r]|\xc2\xa0|\xe2\x80[\x80-\x8b]|\xe2\x81\x9f|\xe3\x80\x80|\xe2\xa0\x80|\xe3\x85\xa4|\xef\xbe\xa0"
    rb"|\xe1\x85[\x9f\xa0])"
)
_BLANK_RUN = re.compile(rb"\n(?:" + _WS + rb"*\n){%d,}" % BLANK_RUN)
_LEADING_BLANK = re.compile(rb"(?:" + _WS + rb"*\n){%d,}" % BLANK_RUN)
_SPACE_RUN = re.compile(_WS + rb"{%d,}" % SPACE_RUN)
_SPACE_PROBE = (
    b" " * 64,
    b"\t" * 32,
    b"\xe2\xa0\x80" * 16,
    b"\xe3\x80\x80" * 16,
    b"\xc2\xa0" * 32,
    b"\xe3\x85\xa4" * 16,
)
_CONTENT = re.compile(rb"(?!" + _WS + rb")[^\n]")
_PAYLOAD = re.compile(
    r"(?P<url>\b(?:https?|ftp|wss?)://\S+|\bwww\.\w+\.\w+)"
    r"|(?P<command>\b(?:curl|wget|bash|sh\s+-c|zsh|python3?\s+-c|node\s+-e|powershell|pwsh|iex|eval|exec|base64|"
    r"chmod|rm\s+-rf|nc|ncat|sudo|npx|pip3?\s+install|npm\s+install|Invoke-\w+)\b)"
    r"|(?P<instruction>\b(?:ignore|disregard|forget|override)\b.{0,40}\b(?:instructions?|rules|prompt|above|previous)\b"
    r"|\b(?:you\s+must|you\s+should|you\s+are\s+now|always|never\s+(?:tell|mention|reveal)|do\s+not\s+(?:tell|mention|"
    r"reveal|show|ask)|without\s+(?:telling|asking|confirm\w*)|the\s+user|the\s+assistant|system\s+prompt|"
    r"secretly|silently|instructions?)\b)",
    re.IGNORECASE,
)
_KIND_WORDS = {"url": "an address", "command": "a command", "instruction": "instructions"}


def _padding(name: str, path: str, data: bytes, result: AnalyserResult) -> None:
    reported = 0
    if data.count(b"\n") >= BLANK_RUN:
        leading = _LEADING_BLANK.match(data)
        after = leading.end() if leading else 0
        runs = itertools.islice((m for m in _BLANK_RUN.finditer(data, after) if m.start() >= after), PER_FILE)
        for match in ([leading] if leading else []) + list(runs):
            content = _CONTENT.search(data, match.end())
            if content is None:
                break  # blank lines at the end with nothing after them
            blank = match.group(0).count(b"\n") - (1 if match.group(0).startswith(b"\n") else 0)
            start = data.count(b"\n", 0, content.start()) + 1
            what = f"{blank:,} blank lines"
            _report_padding(path, data, content.start(), start, None, what, result)
            reported += 1
            if reported >= PER_FILE:
                return
    if not any(probe in data for probe in _SPACE_PROBE):
        return
    for match in _SPACE_RUN.finditer(data):
        end = match.end()
        if end >= len(data) or data[end : end + 1] == b"\n":
            continue  # trailing spaces, nothing to their right
        line_start = data.rfind(b"\n", 0, match.start()) + 1
        start = data.count(b"\n", 0, end) + 1
        column = len(data[line_start:end].decode("utf-8", "replace")) + 1
        run = len(match.group(0).decode("utf-8", "replace"))
        what = f"{run:,} spaces on one line" if line_start != match.start() else f"{run:,} spaces of indentation"
        _report_padding(path, data, end, start, column, what, result)
        reported += 1
        if reported >= PER_FILE:
            return


def _report_padding(
    path: str, data: bytes, offset: int, start: int, column: int | None, what: str, result: AnalyserResult
) -> None:
    hidden = data[offset : offset + 4000].decode("utf-8", "replace")
    payload = _PAYLOAD.search(hidden)
    if payload is not None:
        kind = _KIND_WORDS[payload.lastgroup or "command"]
        excerpt = show(hidden[max(0, payload.start() - 40) : payload.end() + 60])
        result.items.append(
            _item(E.PADDED_PAYLOAD, path, start, excerpt, column, what=what, start=start, hidden=excerpt, kind=kind,
                  what_short=what)
        )  # fmt: skip
    else:
        excerpt = show(hidden)
        result.items.append(
            _item(E.PADDING, path, start, excerpt, column, what=what, start=start, what_short=f"{what} then content")
        )


_EXEMPT_LONG = re.compile(rb"^\s*(?:\||<svg|<img|<path|!\[|\[!\[|data:|<\w+[^>]*\bsrc=\"data:)", re.IGNORECASE)


def _long_line(name: str, path: str, data: bytes, result: AnalyserResult) -> None:
    if len(data) <= LONG_LINE:
        return
    base = name.rsplit(SEP, 1)[-1]
    if re.search(r"\.(?:min|bundle|packed)\.|\.map$", base, re.IGNORECASE):
        return
    head = data[:2].decode("ascii", "replace")
    if file_kind(base, head) not in ("markdown", "script"):
        return
    physical = data.split(b"\n")
    if max(map(len, physical)) <= LONG_LINE:
        return
    for index, line in enumerate(physical):
        if len(line) <= LONG_LINE or _EXEMPT_LONG.match(line):
            continue
        text = line.decode("utf-8", "replace")
        if len(text) <= LONG_LINE:
            continue
        number = index + 1
        result.items.append(
            _item(E.LONG_LINE, path, number, show(text[LONG_LINE - 60 : LONG_LINE + 60]), 1, length=f"{len(text):,}")
        )
        return


# -- invisible and bidirectional characters ------------------------------------------------

_INVISIBLE = re.compile(
    "[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f]"
)
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\U00010800-\U00010fff\U0001e800-\U0001efff]")
_URL_WITH_HIDDEN = re.compile("(?:https?|ftp|wss?)://[^\\s<>\"'`()\\[\\]]{1,300}")
_COMMAND_OR_URL = re.compile(
    r"(?:https?|ftp)://|\b(?:curl|wget|bash|sh|rm|sudo|chmod|python3?|node|npx|pip|npm|git|eval|exec|powershell)\b",
    re.IGNORECASE,
)
_CONTROL_NAME = re.compile("[\x00-\x1f\x7f]")


def _names(chars: list[str]) -> str:
    return ", ".join(sorted({f"U+{ord(c):04X} ({unicodedata.name(c, 'unnamed')})" for c in chars}))


def _file_name(name: str, path: str, result: AnalyserResult) -> None:
    chars = _INVISIBLE.findall(name) + _CONTROL_NAME.findall(name)
    if chars:
        result.items.append(_item(E.INVISIBLE_IN_NAME, path, None, show(name), name=show(name), names=_names(chars)))


def _hidden_characters(file: TextFile, result: AnalyserResult) -> None:
    count = 0
    reported: set[int] = set()  # physical lines: a table row or an inline span is also read as its own line
    for line in file.lines:
        text = line.text
        if text.isascii() or _INVISIBLE.search(text) is None:
            continue
        for match in _URL_WITH_HIDDEN.finditer(text):
            hidden = _INVISIBLE.findall(match.group(0))
            if hidden:
                number, column = line.locate(match.start())
                result.items.append(
                    _item(E.INVISIBLE_IN_URL, line.path, number, show(match.group(0)), column,
                          url=show(match.group(0)), names=_names(hidden))
                )  # fmt: skip
                count += 1
        if line.context in (PROSE, INLINE):  # code, data and comments: R063 already
            bidi = _BIDI.findall(text)
            if bidi and _RTL.search(text) is None and line.spans[0][1] not in reported:
                reported.add(line.spans[0][1])
                first = _BIDI.search(text)
                start = first.start() if first else 0
                number, column = line.locate(start)
                target = _COMMAND_OR_URL.search(text)
                where = ", around a command or address" if target else ""
                result.items.append(
                    _item(E.BIDI_IN_TEXT, line.path, number, show(text[max(0, start - 40) : start + 80]), column,
                          names=_names(bidi), where=where)
                )  # fmt: skip
                count += 1
        if count >= PER_FILE:
            return


# -- hosts ---------------------------------------------------------------------------------

# Well-known hosts whose look-alikes are worth a finding: code hosts, package registries, AI and
# cloud vendors, payment and wallet services. Real subdomains (docs.github.com) never fire.
KNOWN_HOSTS = (
    "github.com", "githubusercontent.com", "githubassets.com", "gitlab.com", "bitbucket.org", "pypi.org",
    "pythonhosted.org", "python.org", "npmjs.com", "npmjs.org", "yarnpkg.com", "nodejs.org", "anthropic.com",
    "claude.ai", "claude.com", "openai.com", "chatgpt.com", "google.com", "googleapis.com", "gstatic.com",
    "googleusercontent.com", "microsoft.com", "windows.net", "azure.com", "live.com", "office.com", "outlook.com",
    "apple.com", "icloud.com", "amazonaws.com", "amazon.com", "cloudflare.com", "docker.com", "docker.io",
    "huggingface.co", "rust-lang.org", "crates.io", "rubygems.org", "golang.org", "brew.sh", "stripe.com",
    "paypal.com", "slack.com", "discord.com", "telegram.org", "dropbox.com", "vercel.com", "netlify.com",
    "supabase.co", "coinbase.com", "binance.com", "metamask.io", "phantom.app", "ledger.com", "trezor.io",
    "facebook.com", "twitter.com", "linkedin.com", "mozilla.org", "debian.org", "ubuntu.com", "jsdelivr.net",
    "unpkg.com", "astral.sh", "deno.land", "nuget.org", "packagist.org", "sourceforge.net", "atlassian.com",
    "notion.so", "figma.com", "shopify.com", "salesforce.com", "okta.com", "auth0.com", "mongodb.com",
)  # fmt: skip
_KNOWN_SET = frozenset(KNOWN_HOSTS)
# Real domains one letter away from a well-known name: never look-alikes.
KNOWN_NEIGHBOURS = frozenset({"openapi", "opencv", "gitlab", "github", "gitee", "googl", "goggles", "dockerhub"})
_GENERIC_TLDS = frozenset(
    {"com", "org", "net", "io", "co", "ai", "dev", "app", "sh", "so", "xyz", "info", "site", "online", "top", "cc",
     "me", "us", "pro", "live", "link", "click", "tech", "cloud"}
)  # fmt: skip
_SECOND_LEVEL = frozenset({"co", "com", "org", "net", "ac", "gov", "edu", "ne", "or"})
_DIGIT_SWAPS = (("0", "o"), ("1", "l"), ("3", "e"), ("5", "s"), ("rn", "m"), ("vv", "w"), ("cl", "d"))
_URL = re.compile(r"(?:https?|ftp|wss?|git|ssh|sftp)://[^\s<>\"'`()\[\]{}|\\^]{1,300}", re.IGNORECASE)
_HOST_PROBE = re.compile(rb"://|xn--", re.IGNORECASE)
_CONTACT = re.compile(
    r"\b(?:curl|wget|fetch|requests\.\w+|urlopen|urlretrieve|httpx|aiohttp|axios|got|http\.(?:get|request)|"
    r"Invoke-WebRequest|Invoke-RestMethod|iwr|irm|git\s+clone|pip3?\s+install|npm\s+(?:i|install)|open|xdg-open|"
    r"start|WebClient|DownloadString|DownloadFile|socket|connect|ws\.|WebSocket|XMLHttpRequest|sendBeacon)\b",
    re.IGNORECASE,
)


def registrable(labels: list[str]) -> str:
    if len(labels) >= 3 and labels[-2] in _SECOND_LEVEL and len(labels[-1]) == 2:
        return ".".join(labels[-3:])
    return ".".join(labels[-2:])


@functools.lru_cache(maxsize=4096)
def lookalike(host: str) -> str:
    """Why `host` imitates a well-known host, or "" when it does not (see KNOWN_HOSTS)."""
    host = host.rstrip(".").lower()
    if not host or "." not in host or host.replace(".", "").isdigit() or ":" in host:
        return ""
    labels = host.split(".")
    decoded: list[str] = []
    for label in labels:
        if label.startswith("xn--"):
            try:
                label = label.encode("ascii").decode("idna")
            except (UnicodeError, ValueError):
                return f"a punycode label ({label}) that does not decode"
        decoded.append(label)
    unicode_host = ".".join(decoded)
    if not unicode_host.isascii():
        return _unicode_lookalike(unicode_host, host)
    if host in _KNOWN_SET or any(host.endswith("." + known) for known in KNOWN_HOSTS):
        return ""
    domain = registrable(labels)
    for known in KNOWN_HOSTS:
        if f".{known}." in f".{host}" and not host.endswith(known):
            return f"which puts {known} in front of the unrelated domain {domain}"
    name, _, tld = domain.partition(".")
    swapped = _swap(name)
    for known in KNOWN_HOSTS:
        known_name, _, known_tld = known.partition(".")
        if name == known_name:
            continue
        if name in (f"{known_name}-{known_tld}", f"{known_name}{known_tld}"):
            return f"which spells {known} as a new domain"
        if known_name in swapped:
            return f"which imitates {known} with look-alike characters"
        if (
            len(known_name) >= 6
            and name not in KNOWN_NEIGHBOURS
            and (tld == known_tld or tld in _GENERIC_TLDS)
            and OSA.distance(name, known_name, score_cutoff=1) <= 1
        ):
            return f"one letter away from {known}"
    return ""


def own_names(skill: Skill) -> frozenset[str]:
    """Words the skill openly names itself with (its name, description, homepage and repository hosts).

    A skill about its own service (GIMHub at gimhub.dev) is not imitating github.com: a look-alike
    deceives only when the skill does not say whose host it is.
    """
    words = " ".join(str(v or "") for v in (skill.name, skill.description)).lower()
    own = set(re.findall(r"[a-z0-9][a-z0-9-]{2,62}", words))
    for value in (skill.homepage, skill.repository):
        host = host_of(str(value or ""))
        if host:
            own.add(registrable(host.split(".")).partition(".")[0])
    return frozenset(own)


def judge(host: str, own: frozenset[str] = frozenset()) -> str:
    """`lookalike(host)`, except for ASCII hosts whose domain name the skill names as its own."""
    verdict = lookalike(host)
    plain = host.isascii() and "xn--" not in host
    if verdict and plain and registrable(host.split(".")).partition(".")[0] in own:
        return ""
    return verdict


def _swap(name: str) -> set[str]:
    variants = {name}
    for old, new in _DIGIT_SWAPS:
        variants |= {variant.replace(old, new) for variant in variants}
    variants |= {variant.replace("1", "i") for variant in variants}
    variants.discard(name)
    return variants


def _unicode_lookalike(unicode_host: str, host: str) -> str:
    from confusable_homoglyphs import categories  # imported on first use: its tables take 30 ms to load

    shown = unicode_host if unicode_host == host else f"{unicode_host} ({host})"
    skeleton = "".join(_latin_skeleton(ch) for ch in unicode_host)
    if skeleton != unicode_host and skeleton.isascii():
        for known in KNOWN_HOSTS:
            if skeleton == known or skeleton.endswith("." + known):
                return f"which reads as {known} but is {shown}, written with look-alike letters"
    for label in unicode_host.split("."):
        scripts = {categories.alias(ch) for ch in label if ch.isalpha()} - {"COMMON"}
        if len(scripts) > 1:
            return f"whose label '{label}' mixes {' and '.join(sorted(s.title() for s in scripts))} letters"
    return ""


@functools.lru_cache(maxsize=2048)
def _latin_skeleton(ch: str) -> str:
    if ch.isascii():
        return ch
    from confusable_homoglyphs import confusables

    found = confusables.is_confusable(ch, greedy=True, preferred_aliases=["latin"]) or []
    for entry in found:
        for glyph in entry.get("homoglyphs", []):
            candidate = glyph.get("c", "")
            if candidate.isascii() and candidate:
                return candidate.lower()
    return ch


_HOST_AT = re.compile(rb"(?:[^\s/@?#\"'<>`()\[\]{}|\\^]{0,200}@)?([^\s/:?#\"'<>`()\[\]{}|\\^@,;*]{1,253})")
_PUNYCODE_HOST = re.compile(
    r"(?i)(?<![a-z0-9.-])(?:[a-z0-9-]{1,63}\.)*xn--[a-z0-9-]{1,59}(?:\.[a-z0-9-]{1,63})*\.[a-z]{2,63}"
)


def _hosts(file: TextFile, data: bytes, offsets: list[int], own: frozenset[str], result: AnalyserResult) -> None:
    """Look-alike hosts: each `://` and `xn--` the probe found, its host judged once per skill run."""
    flagged: list[int] = []
    for offset in offsets[:2000]:
        start = offset + 3 if data[offset : offset + 3] == b"://" else max(0, data.rfind(b"\n", 0, offset) + 1)
        if start == offset + 3:
            match = _HOST_AT.match(data, start)
            raw = match.group(1) if match else b""
        else:
            raw = data[start : start + 300]
        text = raw.decode("utf-8", "replace")
        if start != offset + 3:
            found = _PUNYCODE_HOST.search(text)
            text = found.group(0) if found else ""
        host = _INVISIBLE.sub("", text).rstrip(".").lower()
        if host and judge(host, own):
            flagged.append(offset)
    if not flagged:
        return
    origin = FROM_CODE if file.kind == "script" else FROM_INSTRUCTIONS
    count = 0
    seen: set[tuple[int, str]] = set()
    for _index, line in _lines_on(file, _line_numbers(data, flagged)):
        text = line.text
        candidates = [m.group(0) for m in itertools.islice(_URL.finditer(text), 200)]
        if "xn--" in text.lower():
            candidates += [m.group(0) for m in itertools.islice(_PUNYCODE_HOST.finditer(text), 200)]
        for url in candidates:
            host = host_of(_INVISIBLE.sub("", url))
            verdict = judge(host, own) if host else ""
            if not verdict:
                continue
            start = text.find(url)
            number, column = line.locate(max(0, start))
            if (number, host) in seen:
                continue
            seen.add((number, host))
            contacted = line.context in (CODE, CONFIG, DATA, INLINE) and _CONTACT.search(text) is not None
            detail = "fetch" if contacted else "mention"
            result.uses.append(Use(HOST, host, line.path, number, origin, "look-alike host", detail, show(text)))
            if not contacted:
                result.items.append(
                    _item(E.LOOKALIKE_HOST_MENTIONED, line.path, number, show(url), column, host=host,
                          why_lookalike=verdict)
                )  # fmt: skip
            count += 1
            if count >= PER_FILE:
                return


def contacted_lookalikes(skill: Skill, card: CapabilityCard, files: list[TextFile]) -> list[Item]:
    """risk.CARD_RULES entry: a look-alike host that any analyser saw the skill send to, fetch or open."""
    out: list[Item] = []
    seen: set[tuple[str, str, int | None]] = set()
    own = own_names(skill)
    for use in card.uses:
        if use.kind != HOST or use.detail not in ("send", "fetch", "open"):
            continue
        host = host_of(use.value)
        verdict = judge(host, own) if host else ""
        key = (host, use.path, use.line)
        if not verdict or key in seen:
            continue
        seen.add(key)
        out.append(_item(E.LOOKALIKE_HOST_CONTACTED, use.path, use.line, use.evidence or host, host=host,
                         why_lookalike=verdict))  # fmt: skip
        if len(out) >= PER_FILE * 4:
            break
    return out


# -- hard-coded secrets --------------------------------------------------------------------

# (what, pattern with the value as group 1, the length of the value's fixed prefix)
_TOKENS: tuple[tuple[str, re.Pattern[str], int], ...] = (
    ("an AWS access key id", re.compile(r"\b((?:AKIA|ASIA)[0-9A-Z]{16})\b"), 4),
    ("an AWS secret access key",
     re.compile(r"(?i)aws_secret_access_key\W{1,5}([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])"), 0),
    ("a GitHub token", re.compile(r"\b(gh[pousr]_[A-Za-z0-9]{36})\b"), 4),
    ("a GitHub fine-grained token", re.compile(r"\b(github_pat_[A-Za-z0-9_]{82})\b"), 11),
    ("a Slack token", re.compile(r"\b(xox[abposr]-[0-9A-Za-z-]{20,200})"), 5),
    ("a Slack webhook URL",
     re.compile(r"https://hooks\.slack\.com/services/(T[0-9A-Z]{8,12}/B[0-9A-Z]{8,12}/[0-9A-Za-z]{24})"), 0),
    ("a Discord webhook URL",
     re.compile(r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/(\d{17,20}/[\w-]{60,80})"), 0),
    ("a Stripe live key", re.compile(r"\b([rs]k_live_[0-9A-Za-z]{24,99})\b"), 8),
    ("an Anthropic API key", re.compile(r"\b(sk-ant-(?:api|admin|oat)\d{2}-[A-Za-z0-9_-]{80,120})"), 14),
    ("an OpenAI-style API key", re.compile(r"\b(sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,200})"), 3),
    ("a Google API key", re.compile(r"\b(AIza[0-9A-Za-z_-]{35})(?![0-9A-Za-z_-])"), 4),
    ("a Telegram bot token", re.compile(r"\b(\d{8,10}:AA[0-9A-Za-z_-]{33})(?![0-9A-Za-z_-])"), 0),
)  # fmt: skip
_JWT = re.compile(r"\b(eyJ[A-Za-z0-9_-]{10,2000})\.(eyJ[A-Za-z0-9_-]{10,4000})\.([A-Za-z0-9_-]{16,1000})")
_PEM = re.compile(r"-----BEGIN ((?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?)-----")
_PEM_BODY = re.compile(r"[A-Za-z0-9+/=]{16,}")
_WALLET_WORDS = re.compile(  # in identifiers too: SOLANA_PRIVATE_KEY, privateKey
    r"(?i)(?<![a-z])(?:private[\s_-]?key|priv_?key|secret[\s_-]?key|wallet|signer|mnemonic|seed|keypair|solana|"
    r"ethereum|eth_?key|account_?key|pk)(?![a-z])"
)
_HASH_WORDS = re.compile(r"(?i)sha-?\d|hash|digest|checksum|commit|txid|tx_?hash|block|nonce|salt|uuid|\bid\b")
_HEX_KEY = re.compile(r"(?<![0-9A-Za-z])(?:0x)?([0-9a-fA-F]{64})(?![0-9A-Za-z])")
_BASE58_KEY = re.compile(r"(?<![0-9A-Za-z])([1-9A-HJ-NP-Za-km-z]{87,88})(?![0-9A-Za-z])")
_BYTE_ARRAY = re.compile(r"\[\s*((?:\d{1,3}\s*,\s*){63}\d{1,3})\s*\]")
_WORD_RUN = re.compile(r"(?:\b[a-z]{3,8}\b[\s,\"'\d.)-]{1,6}){11,}\b[a-z]{3,8}\b")
_PLACEHOLDER = re.compile(
    r"(?i)example|xxxx|your|dummy|sample|fake|placeholder|redacted|replace|insert|changeme|change_me|here|test|demo|"
    r"1234567|abcdef|0000000|\.\.\.|…|<|>|\*\*\*|\$\{|\{\{"
)


def _entropy(text: str) -> float:
    counts = Counter(text)
    total = len(text)
    return -sum(n / total * math.log2(n / total) for n in counts.values()) if total else 0.0


def is_placeholder(value: str, body_from: int = 0) -> bool:
    """A documentation placeholder rather than a real secret: `sk-...`, `<your-key>`, EXAMPLE, xxxx, or a body
    that is base64 of such words (a test fixture's "NoTRealAPIKeyDoNotUse…" in a key's shape)."""
    body = value[body_from:]
    if _PLACEHOLDER.search(value) or re.search(r"(.)\1{5,}", body):
        return True
    return len(set(body)) < 10 or _entropy(body) < 3.0 or _encoded_placeholder(body)


_SAYS_FAKE = re.compile(r"(?i)not\W?real|do\W?not\W?use|fake|dummy|placeholder|example|test|sample")


def _encoded_placeholder(body: str) -> bool:
    """A random key decodes to random bytes; one whose base64 decodes to readable words saying it is not real
    is a placeholder."""
    body = re.sub(r"^[a-z]{2,10}[-_]", "", body)  # `proj-`, `live_`: the kind of key, before its body
    if len(body) < 16 or len(body) > 512 or not re.fullmatch(r"[A-Za-z0-9+/_-]+={0,2}", body):
        return False
    padded = body.rstrip("=") + "=" * (-len(body.rstrip("=")) % 4)
    try:
        decoded = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
    except (ValueError, binascii.Error):
        return False
    text = decoded.decode("ascii", errors="replace")
    readable = sum(1 for c in text if c.isalnum() or c in " _-.") >= 0.9 * len(text)
    return readable and (_SAYS_FAKE.search(text) is not None or _PLACEHOLDER.search(text) is not None)


def _mask(value: str) -> str:
    return f"{value[:8]}… ({len(value)} characters, the rest withheld)"


@functools.lru_cache(maxsize=1)
def _bip39() -> tuple[frozenset[str], object]:
    from mnemonic import Mnemonic

    checker = Mnemonic("english")
    return frozenset(checker.wordlist), checker


def _secrets(file: TextFile, data: bytes, hits: dict[str, list[int]], result: AnalyserResult) -> None:
    """Tokens on the lines the probe found, wallet keys on lines with wallet words, seed phrases in
    files that talk about them."""
    tokens = _line_numbers(data, hits.get(SECRET_HITS, []))
    wallet = _line_numbers(data, hits.get(WALLET_HITS, []))
    seeds = WALLET_HITS in hits and _SEED_WORDS.search(data.lower()) is not None
    lines = file.lines
    chosen = list(enumerate(lines)) if seeds else _lines_on(file, tokens | wallet)
    count = 0
    for index, line in chosen:
        text = line.text
        found: list[tuple[RiskRule, str, str, int]] = []
        numbers = {span[1] for span in line.spans}
        if numbers & tokens:
            found += _token_secrets(text, lines, index)
        if numbers & wallet:
            found += _wallet_secrets(text)
        if seeds:
            found += _seed_secrets(text)
        for rule, what, value, start in found:
            number, column = line.locate(start)
            result.items.append(_item(rule, line.path, number, _mask(value), column, what=what, masked=_mask(value)))
            count += 1
        if count >= PER_FILE:
            return


# Searched in the lower-cased bytes: the same matches as with (?i) (bytes fold ASCII only), and a
# case-sensitive alternation is faster over a whole file.
_SEED_WORDS = re.compile(
    rb"mnemonic|seed[ _-]?(?:phrase|words)|(?:recovery|secret)[ _-]?phrase|bip-?39|\b(?:12|24)[ -]words?\b"
    rb"|\bseed\s*[=:]"
)


def _token_secrets(text: str, lines: tuple[Line, ...], index: int) -> list[tuple[RiskRule, str, str, int]]:
    found: list[tuple[RiskRule, str, str, int]] = []
    for what, pattern, prefix in _TOKENS:
        for match in pattern.finditer(text):
            value = match.group(1)
            if not is_placeholder(value, prefix):
                found.append((E.HARDCODED_SECRET, what, value, match.start(1)))
    if "eyJ" in text:
        for match in _JWT.finditer(text):
            if _real_jwt(match.group(1), match.group(2)):
                found.append((E.HARDCODED_SECRET, "a signed JSON Web Token", match.group(0), match.start()))
    if "PRIVATE KEY" in text:
        for match in _PEM.finditer(text):
            body = _pem_body(text[match.end() :], lines, index)
            if len(body) >= 200 and not is_placeholder(body[:400]):
                kind = match.group(1)
                encrypted = kind.startswith("ENCRYPTED") or "Proc-Type: 4,ENCRYPTED" in text
                rule = E.HARDCODED_SECRET if encrypted else E.HARDCODED_PRIVATE_KEY
                what = f"an {'encrypted ' if encrypted else ''}{kind.lower()} (PEM)"
                found.append((rule, what, match.group(0), match.start()))
    return found


def _wallet_secrets(text: str) -> list[tuple[RiskRule, str, str, int]]:
    found: list[tuple[RiskRule, str, str, int]] = []
    if not _WALLET_WORDS.search(text) or _HASH_WORDS.search(text):
        return found
    for match in _HEX_KEY.finditer(text):
        value = match.group(1)
        if not is_placeholder(value) and _entropy(value) >= 3.2:
            found.append((E.HARDCODED_PRIVATE_KEY, "a wallet private key (64 hex digits)", value, match.start(1)))
    for match in _BASE58_KEY.finditer(text):
        value = match.group(1)
        if not is_placeholder(value) and _entropy(value) >= 4.5:
            found.append((E.HARDCODED_PRIVATE_KEY, "a wallet secret key (base58)", value, match.start(1)))
    for match in _BYTE_ARRAY.finditer(text):
        numbers = [int(n) for n in re.findall(r"\d+", match.group(1))]
        if all(n <= 255 for n in numbers) and len(set(numbers)) >= 24:
            found.append((E.HARDCODED_PRIVATE_KEY, "a 64-byte wallet keypair array", match.group(0), match.start()))
    return found


def _seed_secrets(text: str) -> list[tuple[RiskRule, str, str, int]]:
    found: list[tuple[RiskRule, str, str, int]] = []
    for match in itertools.islice(_WORD_RUN.finditer(text), 20):
        phrase = _seed_phrase(match.group(0))
        if phrase:
            what = f"a {len(phrase.split())}-word BIP-39 seed phrase"
            found.append((E.HARDCODED_PRIVATE_KEY, what, phrase, match.start()))
    return found


def _pem_body(rest: str, lines: tuple[Line, ...], index: int) -> str:
    """The base64 body after a BEGIN line: on the same line (JSON strings with \\n) or the next lines."""
    chunk = rest.replace("\\n", "\n")
    if len(_PEM_BODY.findall(chunk[:4000])) <= 1:
        following = [line.text for line in lines[index + 1 : index + 60]]
        chunk = "\n".join(following)
    end = chunk.find("-----END")
    chunk = chunk[: end if end >= 0 else 8000]
    return "".join(_PEM_BODY.findall(chunk))


def _b64json(part: str) -> object:
    try:
        return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return None


_JWT_PLACEHOLDERS = ("john doe", "jane doe", "1234567890", "example", "test", "demo", "sample", "your", "placeholder")


def _real_jwt(header: str, payload: str) -> bool:
    head, body = _b64json(header), _b64json(payload)
    if not isinstance(head, dict) or not isinstance(body, dict):
        return False
    if str(head.get("alg", "none")).lower() == "none":
        return False
    text = json.dumps(body).lower()
    return not any(word in text for word in _JWT_PLACEHOLDERS)


def _seed_phrase(run: str) -> str:
    """The longest valid BIP-39 phrase (12 to 24 words, checksum verified) in a run of words, or ""."""
    words = re.findall(r"[a-z]+", run)[:MAX_SEED_WORDS]
    wordlist, checker = _bip39()
    best = ""
    start = 0
    while start < len(words):
        end = start
        while end < len(words) and words[end] in wordlist:
            end += 1
        for size in (24, 21, 18, 15, 12):
            for offset in range(start, end - size + 1):
                candidate = words[offset : offset + size]
                if len(set(candidate)) < size * 3 // 4:
                    continue
                phrase = " ".join(candidate)
                try:
                    valid = checker.check(phrase)  # type: ignore[attr-defined]
                except (ValueError, LookupError):
                    valid = False
                if valid and len(phrase) > len(best):
                    best = phrase
            if best:
                return best
        start = end + 1
    return best


# -- resource abuse ------------------------------------------------------------------------

_MINER = re.compile(
    r"(?i)\b(xmrig|xmr-stak|minerd|cpuminer(?:-multi|-opt)?|ccminer|ethminer|nbminer|lolminer|t-rex|phoenixminer|"
    r"nanominer|srbminer(?:-multi)?|gminer|teamredminer|bminer|cgminer|bfgminer|xmrig-proxy)\b"
)
_POOL = re.compile(
    r"(?i)\bstratum(?:\+(?:tcp|ssl|tls))?://[^\s'\"]{3,200}|--donate-level\b|(?:[\w-]+\.){0,3}(?:minexmr\.com|"
    r"supportxmr\.com|moneroocean\.stream|nanopool\.org|2miners\.com|f2pool\.com|c3pool\.com|hashvault\.pro|"
    r"herominers\.com|unmineable\.com|nicehash\.com|ethermine\.org|viabtc\.com|antpool\.com)\b"
)
_FORK_BOMBS = (
    re.compile(r"(?P<f>[\w:.]{1,20})\s*\(\s*\)\s*\{\s*(?P=f)\s*\|\s*(?P=f)\s*&\s*\}\s*;?\s*(?P=f)"),
    re.compile(r"%0\s*\|\s*%0"),
    re.compile(r"\bfork\s+while\s+fork\b"),
    re.compile(r"while\s*(?:\(\s*(?:1|true)\s*\)|True\s*:)\s*(?:os\.)?fork\s*\(\s*\)"),
    re.compile(r"for\s*\(\s*;\s*;\s*\)\s*fork\s*\(\s*\)"),
)
_LOOP = re.compile(
    r"\bwhile\s+(?:true|:|\[\s*1\s*\]|\(\(\s*1\s*\)\))\s*;?\s*(?:do\b|$)|\bwhile\s*(?:\(\s*(?:1|true)\s*\)|True\s*:)"
    r"|\bfor\s*\(\s*;\s*;\s*\)|\buntil\s+false\b"
)
# A program starting copies of itself: node's fork(__filename), Python re-running __file__ or sys.argv[0],
# a shell script running "$0" in the background.
_SELF_SPAWN = re.compile(
    r"\b(?:fork|spawn|execFile|exec)\s*\(\s*(?:process\.execPath\s*,\s*\[\s*)?(?:__filename|process\.argv\[1\])"
    r"|\b(?:Popen|run|call|spawn\w*|exec\w*)\s*\(\s*\[?\s*sys\.executable\s*,\s*(?:__file__|sys\.argv\[0\])"
    r"|(?:^|[;&|]\s*)(?:bash\s+|sh\s+)?\"?\$0\"?(?:\s+\"?\$@\"?)?\s*&(?!&)"
)
_LOOP_HEAD = re.compile(r"\b(?:for|while|until)\b|\.forEach\s*\(|\brange\s*\(")


def _in_loop(text: str, lines: tuple[Line, ...], index: int) -> bool:
    """The line or one of the three before it in the same block opens a loop."""
    block = lines[index].block
    window = [text] + [lines[i].text for i in range(max(0, index - 3), index) if lines[i].block == block]
    return any(_LOOP_HEAD.search(part) for part in window)


_FORK_CALL = re.compile(r"^\s*(?:os\.)?fork\s*\(\s*\)\s*;?\s*$")
_REQUEST = re.compile(
    r"\b(?:curl|wget|Invoke-WebRequest|iwr|Invoke-RestMethod|irm)\b|requests\.(?:get|post|put|head)\s*\(|\bfetch\s*\("
    r"|urlopen\s*\(|httpx\.\w+\s*\(|\.(?:get|post)\s*\(\s*['\"]https?://"
)
_PAUSE = re.compile(
    r"(?i)\bsleep\b|setTimeout|setInterval|\bwait\b|Start-Sleep|\bbreak\b|\bexit\b|\breturn\b|\bretr(?:y|ies)\b|"
    r"backoff|rate.?limit|attempt|\bread\b|\bselect\b|\bif\b"
)
_FLOOD_TOOLS = re.compile(r"(?i)\bhping3?\b[^\n]{0,80}--flood\b|\bslowloris\b|\bslowhttptest\b|\bab\s+-n\s*\d{6,}")
_RESOURCE_CONTEXTS = frozenset({CODE, CONFIG, DATA, INLINE})


def _resources(file: TextFile, data: bytes, offsets: list[int], result: AnalyserResult) -> None:
    lines = file.lines
    count = 0
    for index, line in _lines_on(file, _line_numbers(data, offsets)):
        if line.context not in _RESOURCE_CONTEXTS:
            continue
        text = line.text
        found = _resource_hit(text, lines, index)
        if found is None:
            continue
        rule, what, start, end = found
        if file.kind != "script" and line.warns(start, end):  # a script runs whatever its comments say
            continue
        number, column = line.locate(start)
        result.items.append(_item(rule, line.path, number, show(text[start:end] or text), column, what=what))
        count += 1
        if count >= PER_FILE:
            return


def _resource_hit(text: str, lines: tuple[Line, ...], index: int) -> tuple[RiskRule, str, int, int] | None:
    pool = _POOL.search(text)
    miner = _MINER.search(text)
    if pool is not None:
        return E.RESOURCE_HIJACK, f"runs a crypto miner ({show(pool.group(0))})", pool.start(), pool.end()
    if miner is not None:
        return E.RESOURCE_HIJACK, f"runs the crypto miner {miner.group(1)}", miner.start(), miner.end()
    for pattern in _FORK_BOMBS:
        bomb = pattern.search(text)
        if bomb is not None:
            return E.RESOURCE_HIJACK, f"a fork bomb ({show(bomb.group(0))})", bomb.start(), bomb.end()
    clone = _SELF_SPAWN.search(text)
    if clone is not None and _in_loop(text, lines, index):
        return (
            E.RESOURCE_HIJACK,
            f"a fork bomb (starts copies of itself in a loop: {show(clone.group(0))})",
            clone.start(),
            clone.end(),
        )
    flood = _FLOOD_TOOLS.search(text)
    if flood is not None:
        return E.REQUEST_FLOOD, f"floods a host ({show(flood.group(0))})", flood.start(), flood.end()
    loop = _LOOP.search(text)
    if loop is None:
        return None
    line = lines[index]
    following = [other for other in lines[index + 1 : index + 61] if other.block == line.block]
    if following and _FORK_CALL.match(following[0].text):
        return E.RESOURCE_HIJACK, "a fork bomb (fork() in an endless loop)", loop.start(), len(text)
    body = [text]
    if not re.search(r"\bdone\b", text):  # the loop's body on the following lines, up to its end
        indent = len(text) - len(text.lstrip())
        header = text.rstrip()
        for other in following:
            stripped = other.text.strip()
            depth = len(other.text) - len(other.text.lstrip())
            if header.endswith(":") and depth <= indent:
                break
            body.append(other.text)
            if re.match(r"done\b", stripped) or (header.endswith("{") and stripped.startswith("}") and depth <= indent):
                break
    joined = "\n".join(body)
    if _REQUEST.search(joined) and not _PAUSE.search(joined):
        return E.REQUEST_FLOOD, "sends requests in an endless loop with no pause", loop.start(), len(text)
    return None


__all__ = [
    "MAX_MEMBERS",
    "MAX_MEMBER_BYTES",
    "Exploration",
    "analyse",
    "binary_format",
    "contacted_lookalikes",
    "container_kind",
    "expand",
    "explore",
    "host_of",
    "is_placeholder",
    "lookalike",
]
