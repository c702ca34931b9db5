"""Near-copy detection proportional to the change (registry/score/clones.py detect_clones): the candidates
equal a full datasketch LSH, and an incremental detection equals a full one while comparing only the
pairs a change touches."""

import hashlib
import random
import shutil
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from conftest import commit_all, write_skill
from test_clones import BODY, SCRIPT, _scored, make_registry, page, run_build, skill_md

from registry.policy import Policy, Publisher
from registry.score import clones
from registry.score.clones import (
    BANDS,
    ESTIMATE_FLOOR,
    LSH_THRESHOLD,
    MAX_CANDIDATES,
    NUM_PERM,
    ROWS,
    SEED,
    CloneMemory,
    detect_clones,
    find_clones,
)
from registry.state import BuildState


def datasketch_candidates(values: dict[str, np.ndarray]) -> dict[str, tuple[str, ...]]:
    """What the detector proposed before it kept its own index: datasketch's MinHashLSH over every skill."""
    from datasketch import LeanMinHash, MinHashLSH

    lsh = MinHashLSH(threshold=LSH_THRESHOLD, num_perm=NUM_PERM)
    sketches = {i: LeanMinHash(seed=SEED, hashvalues=v, scheme="affine32") for i, v in values.items()}
    with lsh.insertion_session() as session:
        for skill_id, sketch in sketches.items():
            session.insert(skill_id, sketch, check_duplication=False)
    found = {}
    for skill_id, sketch in sketches.items():
        near = []
        for other in lsh.query(sketch):
            estimate = float(np.count_nonzero(values[skill_id] == values[other])) / NUM_PERM
            if other != skill_id and estimate >= ESTIMATE_FLOOR:
                near.append((-estimate, other))
        if near:
            found[skill_id] = tuple(other for _, other in sorted(near)[:MAX_CANDIDATES])
    return found


def clustered(rng: random.Random, clusters: int, size: int) -> dict[str, np.ndarray]:
    """Families of MinHashes that share a random part of a common base: estimates around the floor, and
    families larger than MAX_CANDIDATES so that a skill's list is cut."""
    values = {}
    for c in range(clusters):
        base = np.array([rng.randrange(1 << 32) for _ in range(NUM_PERM)], dtype="<u4")
        for m in range(size):
            values[f"c{c:02}/s{m:02}"] = mutated(rng, base, rng.uniform(0.0, 0.6))
    return values


def mutated(rng: random.Random, base: np.ndarray, share: float) -> np.ndarray:
    out = base.copy()
    for position in rng.sample(range(NUM_PERM), int(share * NUM_PERM)):
        out[position] = rng.randrange(1 << 32)
    return out


def entries_of(values: dict[str, np.ndarray]) -> dict:
    return {skill_id: SimpleNamespace(values=v) for skill_id, v in values.items()}


def test_the_bands_are_the_ones_datasketch_chooses():
    from datasketch import MinHashLSH

    lsh = MinHashLSH(threshold=LSH_THRESHOLD, num_perm=NUM_PERM)
    assert (lsh.b, lsh.r) == (BANDS, ROWS)


def test_candidates_equal_a_full_lsh_after_edits_additions_and_removals():
    rng = random.Random(14)
    values = clustered(rng, clusters=6, size=14)
    nearest = clones._nearest(entries_of(values), None, set(), set())
    assert nearest == datasketch_candidates(values)
    assert max(len(near) for near in nearest.values()) == MAX_CANDIDATES  # lists are cut: displacement can happen
    displaced = 0
    for round_number in range(12):
        previous = CloneMemory({s: v.tobytes().hex() for s, v in values.items()}, nearest, {})
        new = dict(values)
        for skill_id in rng.sample(sorted(new), 3):
            new[skill_id] = mutated(rng, new[skill_id], rng.uniform(0.05, 0.5))  # edited
        for skill_id in rng.sample(sorted(new), 2):
            del new[skill_id]  # removed
        for n, skill_id in enumerate(rng.sample(sorted(new), 2)):
            new[f"added/r{round_number}-{n}"] = mutated(rng, new[skill_id], 0.02)  # a near-exact copy
        changed = {s for s, v in new.items() if s not in values or not np.array_equal(v, values[s])}
        departed = set(values) - set(new)
        nearest = clones._nearest(entries_of(new), previous, changed, departed)
        assert nearest == datasketch_candidates(new), f"round {round_number}"
        displaced += sum(
            1 for s in set(new) - changed if nearest.get(s) != previous.nearest.get(s) and departed.isdisjoint(
                previous.nearest.get(s, ()))
        )  # fmt: skip
        values = new
    assert displaced > 0  # an added or edited skill pushed another out of an unchanged skill's list


def _inputs(root: Path, ids: list[str]) -> dict[str, str]:
    """A digest of each skill folder's files: what the build's analysis key stands for here."""
    out = {}
    for skill_id in ids:
        digest = hashlib.sha256()
        for path in sorted((root / skill_id).rglob("*")):
            if path.is_file():
                digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
        out[skill_id] = digest.hexdigest()
    return out


def test_an_incremental_detection_equals_a_full_one_and_compares_only_the_touched_pairs(tmp_path, monkeypatch):
    root = tmp_path / "skills"
    variants = {
        "acme/pdf-tools": SCRIPT,
        "mallory/pdf-tools": SCRIPT.replace('echo "wrote $out"', 'echo "done: $out"'),
        "zed/pdf-tools": SCRIPT.replace("pdftotext -layout", "pdftotext -enc UTF-8 -layout"),
        "bob/pdf-tools": SCRIPT + "echo finished\n",
        "eve/pdf-tools": SCRIPT.replace("set -eu", "set -euo pipefail"),
    }
    for skill_id, script in variants.items():
        write_skill(root, skill_id, skill_md("pdf-tools"), {"scripts/extract.sh": script})
    policy = Policy(publishers={"acme": Publisher("acme", "verified", ("acme",))})
    state = BuildState(tmp_path / "state.sqlite")
    compared: list[tuple[str, str]] = []
    real_verify = clones._verify

    def counting_verify(one, two, lines):
        compared.append((one.skill.id, two.skill.id))
        return real_verify(one, two, lines)

    monkeypatch.setattr(clones, "_verify", counting_verify)

    def detect(previous):
        scored = {skill_id: _scored(root / skill_id, skill_id) for skill_id in sorted(variants)}
        skills = [skill for skill, _ in scored.values()]
        contents = {skill_id: content for skill_id, (_, content) in scored.items()}
        compared.clear()
        memory = detect_clones(skills, contents, policy, None, None, previous, _inputs(root, list(scored)), state)
        seen = list(compared)
        assert memory.found == find_clones(skills, contents, policy)  # the full detection, for comparison
        return memory, seen

    memory, seen = detect(None)
    assert len(seen) == 10 and len(memory.found) == 5  # five near-identical skills: every pair is a clone
    again, seen = detect(memory)
    assert again is memory and seen == []  # nothing changed: nothing read, nothing compared

    (root / "zed/pdf-tools/scripts/extract.sh").write_text(variants["zed/pdf-tools"] + "echo zed\n")
    memory, seen = detect(memory)
    assert sorted(seen) and all("zed/pdf-tools" in pair for pair in seen) and len(seen) == 4

    shutil.rmtree(root / "eve/pdf-tools")
    del variants["eve/pdf-tools"]
    memory, seen = detect(memory)
    assert seen == [] and all(c.other_id != "eve/pdf-tools" for found in memory.found.values() for c in found)

    variants["fred/pdf-tools"] = SCRIPT
    write_skill(root, "fred/pdf-tools", skill_md("pdf-tools"), {"scripts/extract.sh": SCRIPT})
    memory, seen = detect(memory)
    assert len(seen) == 4 and all("fred/pdf-tools" in pair for pair in seen)
    # Verdicts no pair uses any more are counted, and deleted once they pass STALE_SHARE of the pairs:
    # here every edit of a skill with four pairs passes it, so the state holds only the current ones.
    for round_number in range(3):
        (root / "bob/pdf-tools/scripts/extract.sh").write_text(SCRIPT + f"echo round {round_number}\n")
        memory, _ = detect(memory)
        pairs = {tuple(sorted((s, o))) for s, near in memory.nearest.items() for o in near}
        assert rows(state) == len(pairs) == 10 and memory.stale == 0
    state.close()


def rows(state: BuildState) -> int:
    with sqlite3.connect(state.path) as db:
        return db.execute("SELECT count(*) FROM cache WHERE kind = ?", (clones.PAIR_KIND,)).fetchone()[0]


def test_an_incremental_build_drops_a_removed_copy_from_its_unchanged_original(tmp_path):
    reworded = BODY.replace("Keep the original file untouched", "Keep the source file untouched")
    root = make_registry(tmp_path / "reg", {"mallory/pdf-helper": (skill_md("pdf-helper", body=reworded), SCRIPT)})
    out = tmp_path / "out"
    run_build(root, out)
    assert "mallory/pdf-helper" in page(out, "registry-team/pdf-tools")
    shutil.rmtree(root / "skills" / "mallory" / "pdf-helper")
    commit_all(root, "remove the copy", "2025-04-01T00:00:00+00:00")
    result, _ = run_build(root, out)
    assert result.work["analyses_reused"] == 1 and result.assessments["registry-team/pdf-tools"].clones == ()
    _, clean = run_build(root, tmp_path / "clean")
    assert page(out, "registry-team/pdf-tools") == page(clean, "registry-team/pdf-tools")
    assert "mallory/pdf-helper" not in page(out, "registry-team/pdf-tools")
