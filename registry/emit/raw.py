"""The raw files of every published skill, at stable URLs: raw/<id>/<path>."""

from __future__ import annotations

from collections.abc import Mapping

from registry.emit.urls import SiteUrls
from registry.emit.writer import SiteWriter
from registry.model import Skill


def emit_skill(writer: SiteWriter, skill: Skill, contents: Mapping[str, bytes]) -> None:
    for skill_file in skill.location.files:
        if skill_file.path in contents:
            writer.write_bytes(SiteUrls.raw_file_path(skill.id, skill_file.path), contents[skill_file.path])
