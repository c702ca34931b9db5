"""The raw files of every published skill, at stable URLs: raw/<id>/<path>."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from registry.emit.urls import SiteUrls
from registry.emit.writer import SiteWriter
from registry.model import Skill

if TYPE_CHECKING:
    from registry.emit.registry import SiteContext, SkillContext


def emit_skill(writer: SiteWriter, skill: Skill, contents: Mapping[str, bytes]) -> None:
    for skill_file in skill.location.files:
        if skill_file.path in contents:
            writer.write_bytes(SiteUrls.raw_file_path(skill.id, skill_file.path), contents[skill_file.path])


@dataclass(frozen=True)
class RawFiles:
    name: ClassVar[str] = "raw"
    stage: ClassVar[str] = "emit"

    def skill(self, context: SkillContext, writer: SiteWriter) -> None:
        emit_skill(writer, context.skill, context.contents)

    def site(self, context: SiteContext, writer: SiteWriter, results: Sequence[Any]) -> None:
        """Raw files have no registry-wide listing: index.json and the skill pages link them."""
