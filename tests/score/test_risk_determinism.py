"""The same bytes always give the same assessment, whatever Python's hash seed (sets are never the order)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

DIGEST = """
import hashlib, json
from pathlib import Path
from registry.config import Limits
from registry.crawl import crawl
from registry.parse.skill import parse_skill
from registry.skill_jobs import load_contents
from registry.score.risk.assessment import assess
limits = Limits()
digest = hashlib.sha256()
for root in (Path("tests/risk_cases"), Path("skills-index")):
    for location in crawl(root, limits).locations:
        skill = parse_skill(location, limits)
        if skill.name is None or skill.description is None:
            continue
        result = assess(skill, load_contents(skill.location, limits))
        entry = [location.id, result.level, list(result.reasons), [f.to_json() for f in result.findings],
                 result.card.to_json(), [u.to_json() for u in result.card.uses]]
        digest.update(json.dumps(entry, sort_keys=True).encode())
print(digest.hexdigest())
"""


def _digest(seed: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", DIGEST],
        cwd=REPO_ROOT,
        env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return done.stdout.strip()


def test_assessments_and_cards_do_not_depend_on_the_hash_seed():
    first = _digest("0")
    assert len(first) == 64
    assert _digest("4242") == first
    assert _digest("77") == first
