"""Every published file of a skill, byte for byte, written once at its home (urls.FileHomes): under
`.well-known/skills/<name>/` when the v0.1 discovery layout lists it, under `raw/<id>/` otherwise."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from registry.emit.urls import FileHomes
from registry.emit.writer import SiteWriter
from registry.model import Skill

if TYPE_CHECKING:
    from registry.emit.context import SiteContext, SkillContext


def served_paths(skill: Skill, contents: Mapping[str, bytes]) -> list[str]:
    """The skill's files that are published, in the skill's file order."""
    return [f.path for f in skill.location.files if f.path in contents]


def file_homes(skill: Skill, discovery_name: str | None, contents: Mapping[str, bytes]) -> FileHomes:
    return FileHomes.of(skill.id, discovery_name, served_paths(skill, contents))


def emit_skill(writer: SiteWriter, homes: FileHomes, paths: Sequence[str], contents: Mapping[str, bytes]) -> None:
    for path in paths:
        writer.write_bytes(homes.path(path), contents[path])


@dataclass(frozen=True)
class SkillFiles:
    name: ClassVar[str] = "files"
    stage: ClassVar[str] = "emit"

    def skill(self, context: SkillContext, writer: SiteWriter) -> None:
        emit_skill(writer, context.homes, served_paths(context.skill, context.contents), context.contents)

    def site(self, context: SiteContext, writer: SiteWriter, results: Sequence[Any]) -> None:
        """The files have no registry-wide listing: index.json, the skill pages and the v0.1 index link them."""
