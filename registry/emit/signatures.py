"""Signatures of every published skill and of the indexes, with the build's key (registry/signing.py).

- Per skill (`skill`, in the worker): the sha256 of each published file, from the bytes published, by path in
  the skill's folder. The folder is what a user installs: the `.tar.gz` archive's members, or the files under
  `.well-known/skills/<name>/` and `raw/<id>/`.
- Per site (`site`, only with a key): `signatures/<id>.sig` for each skill, named after the skill's id; the
  public key at `.well-known/skill-registry/signing-key.pem`; and `<index>.sig` beside index.json and the two
  discovery indexes (index.json names every shard's digest, the v0.2 index every archive's). A signature is
  never inside what it signs, so a signed folder's file list is the skill's and nothing else.

Signing is deterministic (RFC 6979): an unchanged skill's signature comes out byte for byte as last build's,
so the site stays byte-identical across cold and incremental builds, and an unchanged file is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from registry.emit.files import served_paths
from registry.emit.output import SiteOutput
from registry.emit.writer import SiteWriter
from registry.signing import PUBLIC_KEY_PATH, SIGNATURES_DIR, SIGNED_INDEXES, Signer, sha256_hex

if TYPE_CHECKING:
    from registry.emit.context import SiteContext, SkillContext


def signature_path(skill_id: str) -> str:
    return f"{SIGNATURES_DIR}/{skill_id}.sig"


@dataclass(frozen=True)
class SkillDigests:
    skill_id: str
    name: str  # the folder's name as installed: the discovery name, else the id's last part
    files: tuple[tuple[str, str], ...]  # (path, sha256 hex), in the skill's file order


@dataclass(frozen=True)
class Signatures:
    name: ClassVar[str] = "signatures"
    stage: ClassVar[str] = "emit"

    def skill(self, context: SkillContext, writer: SiteWriter) -> SkillDigests:
        contents = context.contents
        files = tuple((path, sha256_hex(contents[path])) for path in served_paths(context.skill, contents))
        name = context.discovery_name or context.skill.id.rsplit("/", 1)[-1]
        return SkillDigests(context.skill.id, name, files)

    def site(self, context: SiteContext, writer: SiteWriter, results: Sequence[SkillDigests]) -> int:
        """Writes every signature; returns how many (0 for an unsigned build)."""
        key = context.options.signing
        if key is None:
            return 0
        signer = Signer(key)
        writer.write_bytes(PUBLIC_KEY_PATH, key.public_pem)
        count = 0
        for digests in results:
            writer.write_bytes(signature_path(digests.skill_id), signer.sign(digests.name, digests.files))
            count += 1
        desired = writer.desired if isinstance(writer, SiteOutput) else {}  # path -> sha256 of what was written
        for index in SIGNED_INDEXES:
            if index in desired:
                writer.write_bytes(f"{index}.sig", signer.sign(index.rsplit("/", 1)[-1], [(".", desired[index])]))
                count += 1
        return count
