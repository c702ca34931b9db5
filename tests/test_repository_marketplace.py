"""The repository's own marketplace (.claude-plugin/marketplace.json): what `npx skills add <this repository>` and
Claude Code's `/plugin marketplace add` read. Without it the skills CLI falls back to searching every folder and
offers the test fixtures too, malicious ones included (tests/risk_cases). It must list every skill of
skills-index/, one plugin per publisher, and nothing else; tests/interop checks what the real clients make of it."""

from __future__ import annotations

import json

import yaml
from conftest import REPO_ROOT, SKILLS_INDEX

MARKETPLACE = REPO_ROOT / ".claude-plugin" / "marketplace.json"


def expected() -> dict:
    """The file as it should be: one plugin per publisher folder, its skill folders in order."""
    publishers = yaml.safe_load((REPO_ROOT / "registry.yaml").read_text())["publishers"]
    plugins = []
    for folder in sorted(p for p in SKILLS_INDEX.iterdir() if p.is_dir()):
        shown = publishers.get(folder.name, {}).get("display_name", folder.name)
        plugins.append({
            "name": folder.name, "source": f"./{folder.name}",
            "description": f"The skills {shown} publishes in this registry.", "strict": False,
            "skills": sorted(f"./{skill.name}" for skill in folder.iterdir() if (skill / "SKILL.md").is_file()),
        })  # fmt: skip
    return {
        "name": "skill-registry",
        "owner": {"name": "Registry team"},
        "metadata": {
            "description": "This repository's own skills (skills-index/), one plugin per publisher.",
            "pluginRoot": "./skills-index",
        },
        "plugins": plugins,
    }


def test_the_repository_marketplace_lists_every_skill_of_skills_index_and_nothing_else():
    wanted = json.dumps(expected(), indent=2) + "\n"
    assert MARKETPLACE.read_text() == wanted, f"write this to {MARKETPLACE.relative_to(REPO_ROOT)}:\n{wanted}"


def test_every_listed_skill_is_a_skill_folder_inside_skills_index():
    manifest = json.loads(MARKETPLACE.read_text())
    root = (MARKETPLACE.parent.parent / manifest["metadata"]["pluginRoot"]).resolve()
    assert root == SKILLS_INDEX.resolve()
    listed = [
        (root / plugin["source"] / skill).resolve() for plugin in manifest["plugins"] for skill in plugin["skills"]
    ]
    assert sorted(listed) == sorted(p.parent.resolve() for p in SKILLS_INDEX.glob("*/*/SKILL.md"))
