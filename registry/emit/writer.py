"""Writing the site: every path checked to stay inside the output folder."""

from __future__ import annotations

import json
import os
from pathlib import Path, PurePosixPath
from typing import Any


class UnsafeOutputPath(ValueError):
    pass


class SiteWriter:
    """Writes files under one root; refuses any path that could land outside it."""

    def __init__(self, root: Path):
        self.root = root
        self.written: list[str] = []
        self._made: set[Path] = {root}

    def _target(self, relative: str) -> Path:
        pure = PurePosixPath(relative)
        if pure.is_absolute() or any(part in ("", ".", "..") for part in pure.parts) or "\\" in relative:
            raise UnsafeOutputPath(relative)
        if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in relative):
            raise UnsafeOutputPath(relative)
        target = self.root.joinpath(*pure.parts)
        if target.parent not in self._made:
            target.parent.mkdir(parents=True, exist_ok=True)
            self._made.update(target.parents)
        return target

    def write_bytes(self, relative: str, data: bytes) -> None:
        target = self._target(relative)
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(target, flags, 0o644)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        self.written.append(relative)

    def write_text(self, relative: str, text: str) -> None:
        self.write_bytes(relative, text.encode("utf-8"))

    def write_json(self, relative: str, value: Any, pretty: bool = False) -> bytes:
        data = dump_json(value, pretty)
        self.write_bytes(relative, data)
        return data


def dump_json(value: Any, pretty: bool = False) -> bytes:
    if pretty:
        text = json.dumps(value, ensure_ascii=False, indent=2)
    else:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return (text + "\n").encode("utf-8")
