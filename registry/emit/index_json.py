"""`index.json`: the registry for agents, one entry per published skill (schema/index.schema.json)."""

from __future__ import annotations

from typing import Any

from registry.emit.urls import SiteUrls
from registry.history import RepositoryInfo, distinct_versions
from registry.lifecycle import Lifecycle
from registry.model import Severity, Skill
from registry.score import Assessment

FORMAT_VERSION = 1


def skill_entry(
    skill: Skill,
    urls: SiteUrls,
    repository: RepositoryInfo,
    discovery_name: str | None,
    assessment: Assessment,
    lifecycle: Lifecycle,
) -> dict:
    history = repository.histories.get(skill.location.rel_folder)
    yanked = lifecycle.yanked.get(skill.id, {})
    deprecation = lifecycle.deprecated.get(skill.id)
    counts = {severity.value: 0 for severity in Severity}
    for finding in skill.findings:
        counts[finding.severity.value] += 1
    return {
        "id": skill.id,
        "name": skill.name,
        "description": skill.description,
        "version": skill.version,
        "publisher": skill.publisher,
        "author": skill.author,
        "license": skill.license,
        "compatibility": skill.compatibility,
        "category": skill.category,
        "category_inferred": skill.category_inferred,
        "category_evidence": skill.category_evidence,
        "tags": skill.tags,
        "homepage": skill.homepage,
        "repository": skill.repository,
        "url": urls.absolute(urls.skill_page(skill.id)),
        "skill_md_url": urls.absolute(urls.raw_file(skill.id, "SKILL.md")),
        "digest": skill.digest,
        "content_digest": skill.content_digest,
        "files": [
            {
                "path": f.path,
                "size": f.size,
                "digest": f.digest,
                "url": urls.absolute(urls.raw_file(skill.id, f.path)),
            }
            for f in skill.location.files
        ],
        "source_path": skill.location.rel_folder,
        "first_published": history.first_published if history else None,
        "last_updated": history.last_updated if history else None,
        "contributors": list(history.contributors) if history else [],
        "previous_paths": list(history.previous_folders) if history else [],
        "version_valid": assessment.version_valid,
        "versions": [
            {
                "version": version,
                "commit": revision.commit,
                "date": revision.date,
                "digest": revision.digest,
                "yanked": yanked.get(version),
            }
            for version, revision in distinct_versions(assessment.revisions)
        ],
        "lifecycle": {
            "status": "deprecated" if deprecation else "active",
            "reason": deprecation.get("reason") if deprecation else None,
            "replacement": deprecation.get("replacement") if deprecation else None,
            "current_version_yanked": bool(skill.version and skill.version in yanked),
        },
        "revisions": [r.to_json() for r in assessment.revisions],
        "trust": assessment.trust.to_json(),
        "risk": {
            "level": skill.risk_level,
            "reasons": list(assessment.risk.reasons),
            "override": assessment.risk_override,
        },
        "dialects": skill.dialects,
        "allowed_tools": skill.allowed_tools,
        "extensions": skill.extensions,
        "metadata": skill.metadata,
        "tools": [t.to_json() for t in skill.tools],
        "inputs": [i.to_json() for i in skill.inputs],
        "arguments": [a.to_json() for a in skill.arguments],
        "triggers": skill.triggers,
        "danger_patterns": [p.to_json() for p in skill.danger_patterns],
        "confirm_patterns": [p.to_json() for p in skill.confirm_patterns],
        "quizzes": [q.to_json() for q in skill.quizzes],
        "requires": skill.requires,
        "model_settings": skill.model_settings,
        "knowledge_base": skill.knowledge_base,
        "settings": skill.settings,
        "discovery_name": discovery_name,
        "finding_counts": counts,
        "findings": [f.to_json() for f in sorted(skill.findings, key=lambda f: f.sort_key())],
    }


def build_index(
    skills: list[Skill],
    urls: SiteUrls,
    repository: RepositoryInfo,
    discovery_names: dict[str, str],
    assessments: dict[str, Assessment],
    title: str,
    lifecycle: Lifecycle,
) -> dict[str, Any]:
    generated_from = (
        {"commit": repository.commit, "shallow": repository.shallow, "dirty": repository.dirty}
        if repository.commit
        else None
    )
    return {
        "$schema": urls.absolute("schema/index.schema.json"),
        "format_version": FORMAT_VERSION,
        "registry": {"title": title, "url": urls.absolute("")},
        "generated_from": generated_from,
        "skill_count": len(skills),
        "skills": [
            skill_entry(s, urls, repository, discovery_names.get(s.id), assessments[s.id], lifecycle) for s in skills
        ],
        "redirects": [
            {"from": old, "to": new, "url": urls.absolute(SiteUrls.skill_page(new))}
            for old, new in sorted(lifecycle.renamed.items())
        ],
        "withdrawn": [{"id": skill_id, "reason": reason} for skill_id, reason in sorted(lifecycle.withdrawn.items())],
    }
