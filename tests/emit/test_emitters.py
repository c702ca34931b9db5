"""Outputs plug in: an emitter in EMITTERS gets every published skill through its per-skill hook (cached
with the render) and the whole registry through its site-wide hook, through the real build."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest
from conftest import simple_skill, write_skill

from registry.build import build
from registry.config import BuildOptions
from registry.emit import registry
from registry.emit.context import SiteContext, SkillContext
from registry.emit.registry import EMITTERS
from registry.emit.search import SiteSearch
from registry.emit.writer import SiteWriter


@dataclass(frozen=True)
class WordCounts:
    """A new output: per skill a text file with its body's word count (title heading included), and one file
    listing them all."""

    name: ClassVar[str] = "word_counts"
    stage: ClassVar[str] = "emit"

    def skill(self, context: SkillContext, writer: SiteWriter) -> tuple[str, int]:
        count = len(context.skill.document.body.split())
        writer.write_text(f"word-counts/{context.skill.id}.txt", f"{count}\n")
        return context.skill.id, count

    def site(self, context: SiteContext, writer: SiteWriter, results: Sequence[tuple[str, int]]) -> int:
        writer.write_text("word-counts/all.txt", "".join(f"{skill_id} {count}\n" for skill_id, count in results))
        return len(results)


@dataclass(frozen=True)
class FailsOn:
    """An output whose per-skill hook breaks on one skill."""

    skill_name: str
    name: ClassVar[str] = "fails_on"
    stage: ClassVar[str] = "emit"

    def skill(self, context: SkillContext, writer: SiteWriter) -> str:
        if context.skill.name == self.skill_name:
            raise ValueError("this output cannot handle it")
        return context.skill.id

    def site(self, context: SiteContext, writer: SiteWriter, results: Sequence[str]) -> None:
        writer.write_text("fails-on/seen.txt", "\n".join(results) + "\n")


def with_emitter(monkeypatch, emitter) -> None:
    """Register an emitter the way a new output would be: in the tuple, before search (which stays last)."""
    monkeypatch.setattr(registry, "EMITTERS", (*EMITTERS[:-1], emitter, EMITTERS[-1]))


def source_of(tmp_path: Path) -> Path:
    source = tmp_path / "src"
    write_skill(source, "acme/alpha", simple_skill("alpha", body="one two three"))
    write_skill(source, "acme/beta", simple_skill("beta", body="one two three four five"))
    write_skill(source, "zeta/gamma", simple_skill("gamma", body="one"))
    return source


def run_build(source: Path, out: Path):
    return build(BuildOptions(source=source, out=out, base_url="https://skills.example.org/"))


def test_a_new_output_is_one_emitter_in_the_tuple(tmp_path, monkeypatch):
    with_emitter(monkeypatch, WordCounts())
    out = tmp_path / "public"
    result = run_build(source_of(tmp_path), out)
    assert result.published_ids == ["acme/alpha", "acme/beta", "zeta/gamma"]
    assert (out / "word-counts" / "acme" / "beta.txt").read_text() == "7\n"
    assert (out / "word-counts" / "all.txt").read_text() == "acme/alpha 5\nacme/beta 7\nzeta/gamma 3\n"
    # The built-in outputs are still all there beside it.
    assert (out / "index.json").is_file() and (out / "skills" / "acme" / "beta" / "index.html").is_file()


def test_a_new_emitter_renders_every_skill_again_and_then_only_what_changed(tmp_path, monkeypatch):
    source, out = source_of(tmp_path), tmp_path / "public"
    run_build(source, out)
    with_emitter(monkeypatch, WordCounts())
    added = run_build(source, out)
    assert added.work["renders_reused"] == 0, "the set of emitters is part of the render cache key"
    assert (out / "word-counts" / "all.txt").read_text() == "acme/alpha 5\nacme/beta 7\nzeta/gamma 3\n"

    write_skill(source, "acme/beta", simple_skill("beta", body="just two"))
    changed = run_build(source, out)
    assert (changed.work["rendered"], changed.work["renders_reused"]) == (1, 2)
    # The site-wide hook gets the cached results of the unchanged skills and the fresh one of the edited skill.
    assert (out / "word-counts" / "all.txt").read_text() == "acme/alpha 5\nacme/beta 4\nzeta/gamma 3\n"


def test_a_skill_an_emitter_fails_on_is_left_out_of_every_output(tmp_path, monkeypatch):
    with_emitter(monkeypatch, FailsOn("beta"))
    out = tmp_path / "public"
    result = run_build(source_of(tmp_path), out)
    assert result.published_ids == ["acme/alpha", "zeta/gamma"]
    [left] = [item for item in result.left_out if item.id == "acme/beta"]
    assert [f.code for f in left.reasons] == ["E001"]
    assert "this output cannot handle it" in left.reasons[0].message
    assert (out / "fails-on" / "seen.txt").read_text() == "acme/alpha\nzeta/gamma\n"
    assert not (out / "skills" / "acme" / "beta").exists()
    assert b"acme/beta" not in (out / "index.json").read_bytes()
    assert b"acme/beta" not in (out / "sitemap.xml").read_bytes()


def test_every_emitter_has_its_own_name():
    names = [emitter.name for emitter in EMITTERS]
    assert len(names) == len(set(names))
    assert any(isinstance(emitter, SiteSearch) for emitter in EMITTERS)


@pytest.mark.parametrize("emitter", EMITTERS, ids=lambda e: e.name)
def test_an_emitters_repr_is_stable_for_the_render_cache_key(emitter):
    assert " at 0x" not in repr(emitter)
