"""Archive and document members (R150-R156): what is inside a file, read as more files of the skill.

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

What could not be read is R150 with the reason (binaries.py fires it too, for bytes of no known
format); encrypted members are R151, compression bombs R152, and in documents macros R153, embedded
objects and remote templates R154, hidden content R155 and comments R156 (binaries.py fires R153
and R154 for legacy Office files and PDFs).

Bounds: at most 1,000 members and 8 MB of member bytes per skill, 2 MB per member, a decompressed
stream read to 16 MB at most, an archive declaring more than 10,000 members is not opened, an
expansion ratio over 100:1 past the member limit is a compression bomb; nothing is written to
disk and member paths are names only, never followed. XML parts with a DTD are not parsed.
"""

from __future__ import annotations

import bz2
import dataclasses
import gzip
import io
import lzma
import re
import tarfile
import xml.etree.ElementTree as ElementTree
import zipfile
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from registry.score.card import NOT_ANALYSED, READ_MEMBERS, READ_TEXT
from registry.score.every_byte.probe import PER_FILE, SEP
from registry.score.risk.facts import Row
from registry.score.risk.rules import EVERYWHERE, METADATA, RiskRule, _rule, show

MAX_MEMBERS = 1000  # members read per skill, every archive together
MAX_DECLARED_MEMBERS = 10_000  # an archive declaring more is not opened at all
MAX_MEMBER_BYTES = 2 * 1024 * 1024
MAX_EXPANDED_BYTES = 8 * 1024 * 1024
MAX_STREAM_BYTES = 16 * 1024 * 1024  # decompressed bytes read from one gzip/bzip2/xz stream
MAX_RATIO = 100
MAX_XML_DEPTH = 256
MAX_NESTING = 2  # a.zip!/b.zip!/c is read; one more level is listed, not opened

ARCHIVE_SUFFIXES = frozenset(
    {".zip", ".jar", ".war", ".whl", ".nupkg", ".vsix", ".apk", ".xpi", ".crx", ".egg", ".tar", ".tgz", ".gz",
     ".bz2", ".tbz", ".tbz2", ".xz", ".txz", ".7z", ".rar", ".docx", ".docm", ".xlsx", ".xlsm", ".pptx", ".pptm",
     ".dotx", ".dotm", ".xltx", ".xltm", ".potx", ".potm", ".odt", ".ods", ".odp", ".odg"}
)  # fmt: skip

# -- what could not be read ----------------------------------------------------------------
BYTES_NOT_ANALYSED = _rule(
    "R150", "low", "coverage",
    "file or member not analysed",
    "{path} was not analysed ({reason})",
    "whatever it holds is not reflected in this risk level",
    "Reviewers: open this file yourself. Authors: ship readable text, or a format the registry reads "
    "(zip, tar, OOXML, OpenDocument), within the size limits.",
    "{path} not analysed ({reason})",
    METADATA,
    "assets/blob.dat: unknown binary format (40,960 bytes)",
)  # fmt: skip
ENCRYPTED_MEMBER = _rule(
    "R151", "medium", "obfuscation",
    "encrypted archive member",
    "{path} is encrypted and cannot be read",
    "an encrypted member hides its content from every reviewer and scanner; password-protected archives "
    "are a common way to slip a payload past review",
    "Ship the file unencrypted, or leave it out of the skill.",
    "ships encrypted {path}",
    METADATA,
    "tools.zip holding setup.py encrypted with a password",
)  # fmt: skip
COMPRESSION_BOMB = _rule(
    "R152", "medium", "obfuscation",
    "compression bomb",
    "{path} {what}",
    "an archive that expands far beyond its size is built to exhaust disks and memory or to make "
    "scanners give up; its content was not read",
    "Remove it. Ship data at its real size.",
    "ships a compression bomb ({path})",
    METADATA,
    "a 40 KB zip whose member expands to 4 GB",
)  # fmt: skip
OFFICE_MACROS = _rule(
    "R153", "high", "obfuscation",
    "office document with macros",
    "{path} carries {what}",
    "macros run code when the document is opened and cannot be reviewed from the skill's text; they are "
    "a classic malware carrier",
    "Ship the document without macros (.docx/.xlsx/.pptx), and any automation as a readable script.",
    "ships a document with macros ({path})",
    METADATA,
    "report.docm holding word/vbaProject.bin",
)  # fmt: skip
EMBEDDED_OBJECT = _rule(
    "R154", "medium", "obfuscation",
    "embedded or remote object in a document",
    "{path} {what}",
    "embedded objects and remote templates load content that is not in the document's text: a way to "
    "deliver a payload or instructions when the file is opened",
    "Reviewers: check what the object or remote target is. Authors: remove it, or link to it in plain text.",
    "{path} {what}",
    METADATA,
    "a .docx whose settings load an attachedTemplate from http://203.0.113.9/t.dotm",
)  # fmt: skip
HIDDEN_DOCUMENT_CONTENT = _rule(
    "R155", "medium", "injection",
    "hidden content in a document",
    "{path} {what}",
    "hidden text, sheets and slides are read by the model but not seen by a person opening the document: "
    "a place to keep hidden state or instructions",
    "Unhide the content or remove it; a skill's documents should show everything they say.",
    "{path} {what}",
    EVERYWHERE,
    "a hidden spreadsheet sheet (state=\"veryHidden\") named 'config'",
)  # fmt: skip
DOCUMENT_COMMENTS = _rule(
    "R156", "low", "injection",
    "comments in a document",
    "{path} holds {count} reviewer comment(s), starting: {text}",
    "comments are not shown in a document's body but are read by the model",
    "Resolve and remove the comments before shipping the document.",
    "{path} holds comments",
    EVERYWHERE,
    "word/comments.xml in a .docx",
)  # fmt: skip

# The rules declared here; the package's RULES gathers every module's, R150-R169 in order.
RULES: tuple[RiskRule, ...] = (
    BYTES_NOT_ANALYSED,
    ENCRYPTED_MEMBER,
    COMPRESSION_BOMB,
    OFFICE_MACROS,
    EMBEDDED_OBJECT,
    HIDDEN_DOCUMENT_CONTENT,
    DOCUMENT_COMMENTS,
)

# What the checks below find, and the rule each fact is given (rows of the one fact table).
UNREADABLE = "a file or member could not be read"
ENCRYPTED = "an archive member is encrypted"
BOMB = "a compressed member expands past any reason"
MACROS = "a document holds macros"
EMBEDS = "a document embeds an object or a remote template"
HIDES_CONTENT = "a document hides content"
COMMENTS = "a document holds comments"
ROWS = (
    Row(UNREADABLE, BYTES_NOT_ANALYSED),
    Row(ENCRYPTED, ENCRYPTED_MEMBER),
    Row(BOMB, COMPRESSION_BOMB),
    Row(MACROS, OFFICE_MACROS),
    Row(EMBEDS, EMBEDDED_OBJECT),
    Row(HIDES_CONTENT, HIDDEN_DOCUMENT_CONTENT),
    Row(COMMENTS, DOCUMENT_COMMENTS),
)


# -- exploring archives --------------------------------------------------------------------


@dataclass
class Note:
    """What exploring found about one archive or member: its coverage and, if any, a finding."""

    name: str  # the contents key ("a.zip", "a.zip!/x.py", "a.docx!/word/document.xml.txt")
    how: str = ""  # a coverage "how", or "" for a finding only
    detail: str = ""
    shape: str = ""  # what a finding found (a fact shape of ROWS), or "" for coverage only
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
        result.notes.append(Note(found[0][0], "", "", UNREADABLE, {"path": found[0][0], "reason": reason}))
    _cache = (key, result)
    return result


def expand(contents: Mapping[str, bytes]) -> Mapping[str, bytes]:
    """risk.EXPANDERS entry: the members of the skill's archives and documents, as more files."""
    return explore(contents).members


def _unread(result: Exploration, name: str, reason: str, shape: str = UNREADABLE, **params) -> None:
    result.described.add(name)
    result.notes.append(Note(name, NOT_ANALYSED, reason, shape, {"path": name, "reason": reason, **params}))


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
            _unread(result, member, reason, ENCRYPTED)
            continue
        ratio = info.file_size / max(1, info.compress_size)
        if info.file_size > MAX_MEMBER_BYTES:
            if ratio > MAX_RATIO:
                what = f"expands {info.compress_size:,} bytes to {info.file_size:,} (ratio {ratio:,.0f}:1)"
                _unread(result, member, f"compression bomb: {what}", BOMB, what=what)
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
            _unread(result, member, f"compression bomb: {what}", BOMB, what=what)
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
            _unread(result, member, f"compression bomb: {what}", BOMB, what=what)
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
                        _unread(result, member, f"compression bomb: {what_bomb}", BOMB, what=what_bomb)
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
                BOMB,
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
        result.notes.append(Note(member, "", "", MACROS, {"path": member, "what": what}))
    elif "/embeddings/" in lower or base.startswith("oleobject") or re.match(r"object \d+/", lower):
        result.notes.append(Note(member, "", "", EMBEDS, {"path": doc, "what": f"embeds {part}"}))
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
            result.notes.append(Note(member, "", "", EMBEDS, {"path": doc, "what": what}))


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
                Note(text_name, "", "", COMMENTS,
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
        return Note(text_name, "", "", HIDES_CONTENT, {"path": path, "what": what}, number, show(text))
    params = {"where": where, "how": how, "what": order}
    return Note(text_name, "", "", hidden_channels.ORDERS_IN_HIDDEN_DOCUMENT, params, number, show(text))


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
            result.notes.append(Note(book_text, "", "", HIDES_CONTENT, params, listed_at, show(sheet)))
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
