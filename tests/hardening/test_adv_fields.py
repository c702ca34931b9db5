"""Script in every field that reaches a page: each payload is shown as text or the skill is left out."""

from __future__ import annotations

import json

import pytest
from conftest import write_skill
from hardening_support import baseline, check_contained, run_case
from markupsafe import escape

PAYLOADS = {
    "script": "<script>alert(1)</script>",
    "img-onerror": "<img src=x onerror=alert(1)>",
    "svg-onload": "<svg/onload=alert(1)>",
    "mathml": "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    "attribute-breakout": "\"' autofocus onfocus=alert(1) x='",
    "entities": "&lt;script&gt;alert(1)&lt;/script&gt; &#60;img src=x onerror=alert(1)&#62;",
    "javascript-url": "javascript:alert(document.domain)",
    "template": "{{ 7*7 }} {% raw %}${7*7}#{7*7}",
    "path-like": "../../../../index",
}


def q(value: str) -> str:
    """A YAML double-quoted scalar (JSON strings are valid YAML flow scalars)."""
    return json.dumps(value, ensure_ascii=False)


def field_skills(p: str) -> dict[str, str]:
    """One skill per field, so that a field that fails validation cannot hide another."""
    head = "---\nname: {name}\ndescription: {description}\nlicense: MIT\n"
    plain = "Benign description. Use when testing."
    skills = {
        "f-description": head.format(name="f-description", description=q(p)) + "---\nFollow these steps with care.\n",
        "f-meta": head.format(name="f-meta", description=q(plain))
        + f"author: {q(p)}\ncompatibility: {q(p)}\nhomepage: {q(p)}\nrepository: {q(p)}\n"
        + f"metadata:\n  version: {q(p)}\n---\nFollow these steps with care.\n",
        "f-license": f"---\nname: f-license\ndescription: {q(plain)}\nlicense: {q(p)}\n---\nFollow these steps with care.\n",
        "f-tags": head.format(name="f-tags", description=q(plain))
        + f'tags: [{q(p)}, ok]\ncategory: {q(p)}\nversion: "1.0.0"\n---\nFollow these steps with care.\n',
        "f-inputs": head.format(name="f-inputs", description=q(plain))
        + f"inputs:\n  - name: x\n    label: {q(p)}\n    type: text\n    default: {q(p)}\n"
        + f"    description: {q(p)}\n  - name: {q(p)}\n    label: y\n    type: textarea\n    default: {q(p)}\n"
        + "model:\n  temperature: 0.1\n---\nUse {{x}}.\n",
        "f-tools": head.format(name="f-tools", description=q(plain))
        + f"tools:\n  - name: {q(p)}\n    description: {q(p)}\n    parameters:\n"
        + f"      {q(p)}:\n        type: string\n        required: true\n        description: {q(p)}\n"
        + f"danger_patterns:\n  - pattern: {q(p)}\n    level: block\n    reason: {q(p)}\n---\nFollow these steps with care.\n",
        "f-tool-ok-name": head.format(name="f-tool-ok-name", description=q(plain))
        + f"tools:\n  - name: lookup\n    description: {q(p)}\n    parameters:\n"
        + f"      term:\n        type: string\n        required: true\n        description: {q(p)}\n---\nFollow these steps with care.\n",
        "f-quiz": head.format(name="f-quiz", description=q(plain))
        + f"quiz:\n  - title: {q(p)}\n    description: {q(p)}\n    questions:\n"
        + f"      - question: {q(p)}\n        options:\n          - label: {q(p)}\n            correct: true\n"
        + f"          - label: other\n        explanation: {q(p)}\n        on-incorrect:\n          message: {q(p)}\n"
        + "---\nFollow these steps with care.\n",
        "f-arguments": head.format(name="f-arguments", description=q(plain))
        + f"arguments:\n  - name: {q(p)}\n    description: {q(p)}\n    default: {q(p)}\n    required: false\n"
        + f"auto-discover: true\ntriggers: [{q(p)}]\n---\nFollow these steps with care.\n",
        "f-claude": head.format(name="f-claude", description=q(plain))
        + f"allowed-tools: {q(p)}\nargument-hint: {q(p)}\nwhen_to_use: {q(p)}\nmodel: {q(p)}\n---\nFollow these steps for $ARGUMENTS.\n",
        "f-body": head.format(name="f-body", description=q(plain))
        + f"---\n# {p}\n\n{p}\n\n> {p}\n\n| {p} | x |\n|---|---|\n| {p} | y |\n\n- {p}\n",
    }
    return skills


def hostile_for(p: str):
    def make(source, _outside):
        for name, text in field_skills(p).items():
            write_skill(source, f"evil/{name}", text)
        # the payload in a file name and in the publisher folder
        write_skill(source, "evil/f-files", field_skills("x")["f-description"].replace("f-description", "f-files"),
                    {(p.replace("/", "-") or "x") + ".md": "x"})  # fmt: skip
        write_skill(source, p.replace("/", "-") + "/f-publisher", field_skills("x")["f-description"].replace(
            "f-description", "f-publisher"))  # fmt: skip

    return make


@pytest.fixture(scope="module")
def honest(tmp_path_factory):
    return baseline(tmp_path_factory)


@pytest.mark.parametrize("key", sorted(PAYLOADS))
def test_payload_in_every_field_is_text_or_left_out(key, honest, tmp_path):
    payload = PAYLOADS[key]
    case = run_case(tmp_path, hostile_for(payload))
    check_contained(case, honest)
    expected = set(field_skills(payload)) | {"f-files", "f-publisher"}
    seen = {i.rsplit("/", 1)[1] for i in case.published_ids() + case.left_out_ids() if not i.startswith("honest/")}
    assert seen == expected, "every hostile skill is either published or reported as left out"
    for item in case.result.left_out:
        assert item.reasons and all(r.path.endswith("SKILL.md") for r in item.reasons), item
    published = {s.id.rsplit("/", 1)[1]: s for s in case.result.published if not s.id.startswith("honest/")}
    assert sorted(published) == sorted(expected), "each field reaches a page, neutralised"
    page = (case.out / "skills" / published["f-description"].id / "index.html").read_text(encoding="utf-8")
    assert str(escape(payload)) in page, "shown as text, not dropped"
    for skill in case.result.published:
        page = (case.out / "skills" / skill.id / "index.html").read_text(encoding="utf-8")
        if "<" in payload:
            assert payload not in page, skill.id
    # every listing page the payload may have named stays inside the site
    for path in case.out.rglob("*"):
        assert path.resolve().is_relative_to(case.out.resolve())
