"""Writing the site: the interface every emitter writes through, and the path check it enforces.

Two writers implement it: registry.emit.output.SiteOutput (the next site on disk, written only where
it differs from the served one) and registry.render_jobs.MemoryWriter (a worker's files, sent back
to the build). Emitters only call write_bytes, write_text and write_json.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from pathlib import PurePosixPath
from typing import Any

import orjson


class UnsafeOutputPath(ValueError):
    pass


def checked_parts(relative: str) -> tuple[str, ...]:
    """The parts of a site path; refuses anything that could leave the site folder."""
    parts = tuple(relative.split("/"))
    if (
        all(part and part not in (".", "..") for part in parts)
        and "\\" not in relative
        and relative.isprintable()
        and relative.isascii()
    ):
        return parts
    pure = PurePosixPath(relative)
    if pure.is_absolute() or any(part in ("", ".", "..") for part in pure.parts) or "\\" in relative:
        raise UnsafeOutputPath(relative)
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in relative) or not pure.parts:
        raise UnsafeOutputPath(relative)
    return pure.parts


class SiteWriter(ABC):
    """Writes site files by relative path; an implementation refuses paths `checked_parts` refuses."""

    @abstractmethod
    def write_bytes(self, relative: str, data: bytes) -> None: ...

    def write_text(self, relative: str, text: str) -> None:
        self.write_bytes(relative, text.encode("utf-8"))

    def write_json(self, relative: str, value: Any, pretty: bool = False) -> bytes:
        data = dump_json(value, pretty)
        self.write_bytes(relative, data)
        return data


_COMPACT = orjson.OPT_NON_STR_KEYS | orjson.OPT_APPEND_NEWLINE
_PRETTY = _COMPACT | orjson.OPT_INDENT_2


def dump_json(value: Any, pretty: bool = False) -> bytes:
    """UTF-8 JSON ending in a newline: compact, or indented by two spaces; the bytes the standard library
    writes with ensure_ascii=False (tests/emit/test_writer_json.py), several times faster (orjson)."""
    try:
        return orjson.dumps(value, option=_PRETTY if pretty else _COMPACT)
    except TypeError:  # beyond orjson (an integer past 64 bits, ...): the standard library's encoder
        pass
    if pretty:
        text = json.dumps(value, ensure_ascii=False, indent=2)
    else:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return (text + "\n").encode("utf-8")
