"""NUL bytes, invalid and overlong UTF-8, UTF-16, BOMs, line ends and invisible characters."""

from __future__ import annotations

import pytest
from conftest import simple_skill, write_skill
from hardening_support import baseline, check_contained, run_case
from site_checks import served_files

GOOD = simple_skill("{name}").encode()
# name -> (SKILL.md bytes, expected code, published?)
CASES = {
    "nul-bytes": (b"---\nname: nul-bytes\ndescription: a\x00b. Use when testing.\n---\nBody\x00text.\n", "P005", False),
    "latin1": (b"---\nname: latin1\ndescription: caf\xe9 au lait. Use when testing.\n---\nBody.\n", "P001", False),
    "overlong-lt": (
        b"---\nname: overlong-lt\ndescription: x. Use when testing.\n---\n\xc0\xbcscript\xc0\xbe\n",
        "P001",
        False,
    ),
    "surrogate": (b"---\nname: surrogate\ndescription: \xed\xa0\x80. Use when testing.\n---\nBody.\n", "P001", False),
    "utf16": (simple_skill("utf16").encode("utf-16"), "P005", False),
    "truncated": (GOOD.replace(b"{name}", b"truncated") + b"\xe2\x82", "P001", False),
    "bom": (b"\xef\xbb\xbf" + GOOD.replace(b"{name}", b"bom"), "P002", True),
    "crlf": (GOOD.replace(b"{name}", b"crlf").replace(b"\n", b"\r\n"), "P003", True),
    "lone-cr": (GOOD.replace(b"{name}", b"lone-cr").replace(b"\n", b"\r"), "P004", True),
    "bidi": (
        simple_skill("bidi", body="Run `rm -rf /tmp/x\u202e\u2066` now.\u200b <scr\u200bipt>").encode(),
        "S022",
        True,
    ),
    "empty": (b"", "P019", False),
    "only-whitespace": (b" \n\t\n", "P019", False),
}


def hostile(source, _outside):
    for name, (data, _code, _published) in CASES.items():
        write_skill(
            source, f"enc/{name}", data, {"notes.md": b"\xff\xfe binary \x00 bytes", "data.bin": bytes(range(256))}
        )


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    return run_case(tmp_path_factory.mktemp("encodings"), hostile)


@pytest.fixture(scope="module")
def honest(tmp_path_factory):
    return baseline(tmp_path_factory)


def test_the_build_is_contained(case, honest):
    check_contained(case, honest)


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_encoding_problem_is_reported(case, name):
    data, code, published = CASES[name]
    skill_id = f"enc/{name}"
    found = [f for f in case.result.findings if f.code == code and f.path.startswith(skill_id + "/")]
    assert found, [(f.code, f.message) for f in case.result.findings if f.path.startswith(skill_id + "/")]
    if published:
        assert skill_id in case.published_ids()
        served = served_files(case.out, skill_id)
        assert served["SKILL.md"].read_bytes() == data, "served byte for byte, whatever the encoding"
        assert served["data.bin"].read_bytes() == bytes(range(256))
        page = (case.out / "skills" / skill_id / "index.html").read_text(encoding="utf-8")
        assert "\x00" not in page and "\u202e" not in page
    else:
        assert skill_id in case.left_out_ids()
        assert served_files(case.out, skill_id) == {}


def test_invisible_characters_are_shown_not_hidden(case):
    page = (case.out / "skills" / "enc" / "bidi" / "index.html").read_text(encoding="utf-8")
    assert "⟦U+202E⟧" in page and "⟦U+2066⟧" in page and "⟦U+200B⟧" in page
