"""Validate stage: the checks that need every skill at once (per-skill rules ran in parse)."""

from __future__ import annotations

from collections.abc import Sequence

from registry.dialects import DIALECTS, Dialect, RegistryView
from registry.model import Skill
from registry.rules import fields as rules


def registry_view(skills: Sequence[Skill]) -> RegistryView:
    names: dict[str, list[str]] = {}
    for skill in skills:
        if skill.name is not None and not skill.errors:
            names.setdefault(skill.name, []).append(skill.id)
    return RegistryView({name: tuple(sorted(ids)) for name, ids in names.items()})


def check_registry(skills: Sequence[Skill], dialects: Sequence[Dialect] = DIALECTS) -> None:
    view = registry_view(skills)
    by_key = {d.key: d for d in dialects}
    for skill in skills:
        if skill.name is None:
            continue
        others = [other for other in view.names.get(skill.name, ()) if other != skill.id]
        if others:
            shown = ", ".join(others[:5]) + (f" and {len(others) - 5} more" if len(others) > 5 else "")
            line = skill.document.key_lines.get("name")
            skill.findings.append(
                rules.DUPLICATE_NAME.at(skill.location.skill_md_path, line, 1, name=skill.name, others=shown)
            )
        for key in skill.dialects:
            dialect = by_key.get(key)
            if dialect is not None:
                skill.findings.extend(dialect.check_registry(skill, view))
