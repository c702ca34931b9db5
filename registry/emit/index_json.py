"""`index.json`: the registry for agents, one entry per published skill (schema/index.schema.json)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from registry.emit import capabilities
from registry.emit import verdict as verdicts
from registry.emit.signatures import signature_path
from registry.emit.urls import FileHomes, SiteUrls
from registry.emit.writer import SiteWriter, dump_json
from registry.history import RepositoryInfo, SkillHistory, distinct_versions
from registry.lifecycle import Lifecycle
from registry.model import Severity, Skill
from registry.score import Assessment
from registry.signing import FORMAT, PUBLIC_KEY_PATH, SigningKey

if TYPE_CHECKING:
    from registry.emit.context import SiteContext, SkillContext

FORMAT_VERSION = 1
SINGLE_FILE_MAX = 1000  # skills; above this index.json lists shards (schema/index.schema.json)
SHARD_SIZE = 500
MAX_SHARDS = 1024


def skill_entry(
    skill: Skill,
    urls: SiteUrls,
    history: SkillHistory | None,
    homes: FileHomes,
    assessment: Assessment,
    lifecycle: Lifecycle,
) -> dict:
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
        "skill_md_url": urls.absolute(homes.url("SKILL.md")),
        "digest": skill.digest,
        "content_digest": skill.content_digest,
        "files": [
            {
                "path": f.path,
                "size": f.size,
                "digest": f.digest,
                "url": urls.absolute(homes.url(f.path)),
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
        "trust": trust_entry(assessment),
        "risk": {
            "level": skill.risk_level,
            "reasons": list(assessment.risk.reasons),
            "override": assessment.risk_override,
            "verdict": verdicts.index_entry(
                verdicts.build(assessment.risk), skill.location.rel_folder, urls.absolute(urls.skill_page(skill.id))
            ),
        },
        "capabilities": capabilities.index_entry(assessment.risk.card, skill.location.rel_folder),
        "clones": [clone_entry(clone.to_json()) for clone in assessment.clones],
        "context_cost": assessment.context.to_json() if assessment.context else None,
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
        "discovery_name": homes.discovery_name,
        "finding_counts": counts,
        "findings": [f.to_json() for f in sorted(skill.findings, key=lambda f: f.sort_key())],
        # Outside reviewers' results (registry/reviewers.py), apart from our own findings; [] without reviewers.
        "reviews": assessment.reviews_json() if hasattr(assessment, "reviews_json") else [],
    }


def trust_entry(assessment: Assessment) -> dict:
    """The skill's trust with each signal's `held` and `detail` only: every skill has the same signals, in the same
    order, and their names and weights are said once, in the index's `trust_signals` (trust_signals below)."""
    data = assessment.trust.to_json()
    data["signals"] = [{"held": signal["held"], "detail": signal["detail"]} for signal in data["signals"]]
    return data


def trust_signals(assessment: Assessment) -> tuple[tuple[str, int], ...]:
    """The trust signals' names and weights, in the order every skill's `trust.signals` lists them."""
    return tuple((signal.name, signal.weight) for signal in assessment.trust.signals)


def clone_entry(clone: dict) -> dict:
    """A near-copy without the text of its first differing lines: they are the two skills' own lines, served in
    both skills' `files` (and shown on the skill's page), so an entry keeps only where and how much they differ."""
    files = [{k: v for k, v in f.items() if k not in ("added_lines", "removed_lines")} for f in clone["files"]]
    return {**clone, "files": files}


def signing_entry(urls: SiteUrls, key: SigningKey | None) -> dict[str, Any] | None:
    """How the site is signed (README "Signing"): None when it is not."""
    if key is None:
        return None
    return {
        "key_url": urls.absolute(PUBLIC_KEY_PATH),
        "key_id": key.key_id,
        "public_key": key.public_pem.decode("ascii"),
        "algorithm": key.algorithm,
        "format": FORMAT,
    }


def with_signature(entry: bytes, urls: SiteUrls, skill_id: str, key: SigningKey | None) -> bytes:
    """A serialised skill entry with its `signature`: the URL of its signature, or null when the site is unsigned."""
    value = urls.absolute(signature_path(skill_id)) if key is not None else None
    return entry[:-1] + b',"signature":' + dump_json(value).rstrip(b"\n") + b"}"


def _signals(signals: Sequence[tuple[str, int]]) -> list[dict[str, Any]]:
    return [{"name": name, "weight": weight} for name, weight in signals]


def _header(
    urls: SiteUrls, repository: RepositoryInfo, title: str, count: int, key: SigningKey | None = None,
    signals: Sequence[tuple[str, int]] = (),
) -> dict[str, Any]:  # fmt: skip
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
        "skill_count": count,
        "signing": signing_entry(urls, key),
        "trust_signals": _signals(signals),
    }


def shard_count(skills: int) -> int:
    """0 (one file) up to SINGLE_FILE_MAX skills, then a power of two giving shards of about SHARD_SIZE."""
    if skills <= SINGLE_FILE_MAX:
        return 0
    count = 2
    while skills / count > SHARD_SIZE and count < MAX_SHARDS:
        count *= 2
    return count


def shard_of(skill_id: str, count: int) -> int:
    """The shard holding a skill: an agent looking for one id fetches one shard (README "For agents")."""
    return int(hashlib.sha256(skill_id.encode("utf-8")).hexdigest()[:8], 16) % count


def emit_index(
    writer: SiteWriter,
    entries: Sequence[bytes],
    ids: Sequence[str],
    urls: SiteUrls,
    repository: RepositoryInfo,
    title: str,
    lifecycle: Lifecycle,
    key: SigningKey | None = None,
    signals: Sequence[tuple[str, int]] = (),
) -> None:
    """Write index.json from serialised skill entries (in id order): one file, or a manifest of shards.
    `signals` are the trust signals' names and weights, said once in the index and in each shard.

    Entries arrive serialised (rendered and cached per skill), so the index is spliced, never held
    as one large structure in memory: a shard's entries are read (`entries` may read each from a file
    when asked) as the shard is written, and only one shard is in memory at once.
    """
    tail = {
        "redirects": [
            {"from": old, "to": new, "url": urls.absolute(SiteUrls.skill_page(new))}
            for old, new in sorted(lifecycle.renamed.items())
        ],
        "withdrawn": [{"id": skill_id, "reason": reason} for skill_id, reason in sorted(lifecycle.withdrawn.items())],
    }
    count = shard_count(len(ids))
    if count == 0:
        signed = [with_signature(entries[number], urls, skill_id, key) for number, skill_id in enumerate(ids)]
        writer.write_bytes(
            "index.json", _splice(_header(urls, repository, title, len(ids), key, signals), "skills", signed, tail)
        )
        return
    members: list[list[int]] = [[] for _ in range(count)]
    for number, skill_id in enumerate(ids):
        members[shard_of(skill_id, count)].append(number)
    shards = []
    for shard, numbers in enumerate(members):
        path = f"index/{shard}.json"
        head = {"format_version": FORMAT_VERSION, "shard": shard, "shard_count": count,
                "trust_signals": _signals(signals)}  # fmt: skip
        signed = [with_signature(entries[number], urls, ids[number], key) for number in numbers]
        data = _splice({**head, "skill_count": len(signed)}, "skills", signed, {})
        del signed
        writer.write_bytes(path, data)
        shards.append(
            {
                "url": urls.absolute(path),
                "skill_count": len(numbers),
                "digest": "sha256:" + hashlib.sha256(data).hexdigest(),
                "bytes": len(data),
            }
        )
    manifest = _header(urls, repository, title, len(ids), key, signals)
    manifest["shard_rule"] = "int(sha256(skill id as UTF-8) first 8 hex digits, 16) % shard count"
    manifest["shards"] = shards
    manifest.update(tail)
    writer.write_bytes("index.json", dump_json(manifest))


def _splice(head: dict[str, Any], key: str, entries: Sequence[bytes], tail: dict[str, Any]) -> bytes:
    """dump_json({**head, key: entries, **tail}) where entries are already serialised."""
    parts = [dump_json(head).rstrip(b"\n")[:-1], b"," if head else b"", dump_json(key).rstrip(b"\n"), b":["]
    parts.append(b",".join(entries))
    parts.append(b"]")
    for name, value in tail.items():
        parts += [b",", dump_json(name).rstrip(b"\n"), b":", dump_json(value).rstrip(b"\n")]
    parts.append(b"}\n")
    return b"".join(parts)


@dataclass(frozen=True)
class IndexEntry:
    """One skill's entry, serialised, and the names and weights of its trust signals (said once per index)."""

    entry: bytes
    signals: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class IndexJson:
    """Per skill its entry, serialised (the site-wide hook splices them); per site index.json, its
    shards and the schema it names."""

    name: ClassVar[str] = "index_json"
    stage: ClassVar[str] = "emit"

    def skill(self, context: SkillContext, writer: SiteWriter) -> IndexEntry:
        entry = skill_entry(
            context.skill, context.urls, context.history, context.homes, context.assessment, context.lifecycle
        )
        return IndexEntry(dump_json(entry).rstrip(b"\n"), trust_signals(context.assessment))

    def site(self, context: SiteContext, writer: SiteWriter, results: Sequence[IndexEntry]) -> None:
        entries = _CheckedEntries(results)
        emit_index(
            writer, entries, [s.id for s in context.published], context.urls, context.repository, context.title,
            context.lifecycle, context.options.signing, entries.signals,
        )  # fmt: skip
        writer.write_bytes("schema/index.schema.json", (context.options.schema / "index.schema.json").read_bytes())


class _CheckedEntries(Sequence[bytes]):
    """The skills' serialised entries, each read from `results` when asked for (the site-wide hook reads them back
    from a file one at a time), checked to carry the first skill's trust signals: said once for every skill, they
    must be the same for every skill."""

    def __init__(self, results: Sequence[IndexEntry]) -> None:
        self.results = results
        self.signals: tuple[tuple[str, int], ...] = results[0].signals if len(results) else ()

    def __len__(self) -> int:
        return len(self.results)

    def __getitem__(self, number):  # type: ignore[override]
        result = self.results[number]
        if result.signals != self.signals:
            raise ValueError(f"trust signals differ between skills: {result.signals} and {self.signals}")
        return result.entry
