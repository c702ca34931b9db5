"""Property-based tests, bounded for CI: YAML bounds, the frontmatter reader, Markdown, command templates, archives.

The archive checks encode each client rule of formats.md section 4.4 and read every header by hand
as well as with `tarfile`.
"""

from __future__ import annotations

import gzip
import io
import re
import stat
import tarfile

import pytest
from hardening_support import constructs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from registry.config import Limits
from registry.crawl import _unsafe_reason
from registry.dialects.command_template import parse_command
from registry.discovery import client_rejects, ustar_fits
from registry.emit.archive import build_tar_gz
from registry.emit.markdown import LinkContext, make_renderer, render
from registry.emit.urls import FileHomes
from registry.parse import safe_yaml
from registry.parse.document import read_document

FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ---------------------------------------------------------------- YAML bounds and the frontmatter reader

SCALAR = st.sampled_from(["a", "1", "''", '"x"', "~", "true", "<script>", "&x y", "*x", "!!str z", "? k"])


@st.composite
def yaml_documents(draw):
    """Flow-style YAML with anchors and aliases to earlier anchors: bombs, deep nests, merges."""
    anchors: list[str] = []

    def node(depth: int) -> str:
        choice = draw(st.integers(0, 5 if depth < 12 else 1))
        if choice == 0 or (choice == 1 and not anchors):
            text = draw(SCALAR)
        elif choice == 1:
            return "*" + draw(st.sampled_from(anchors))
        elif choice in (2, 3):
            items = [node(depth + 1) for _ in range(draw(st.integers(0, 4)))]
            text = "[" + ", ".join(items) + "]"
        else:
            pairs = [f"k{n}: {node(depth + 1)}" for n in range(draw(st.integers(0, 3)))]
            if anchors and draw(st.booleans()):
                pairs.append(f"<<: *{draw(st.sampled_from(anchors))}")
            text = "{" + ", ".join(pairs) + "}"
        if draw(st.integers(0, 3)) == 0:
            name = f"a{len(anchors)}"
            anchors.append(name)
            return f"&{name} {text}"
        return text

    return "".join(f"f{n}: {node(0)}\n" for n in range(draw(st.integers(1, 6))))


def size_and_depth(value, depth=1) -> tuple[int, int]:
    """Nodes (keys counted, as the event stream counts them) and the deepest collection level."""
    if isinstance(value, dict):
        parts = [size_and_depth(v, depth + 1) for v in value.values()]
        return 1 + len(value) + sum(p[0] for p in parts), max([depth] + [p[1] for p in parts])
    if isinstance(value, list):
        parts = [size_and_depth(v, depth + 1) for v in value]
        return 1 + sum(p[0] for p in parts), max([depth] + [p[1] for p in parts])
    return 1, depth - 1


@FAST
@given(yaml_documents(), st.integers(2, 12), st.integers(5, 300), st.integers(0, 6))
def test_yaml_bounds_hold_for_whatever_loads(text, max_depth, max_nodes, max_aliases):
    try:
        loaded = safe_yaml.load(text, max_depth, max_nodes, max_aliases)
    except safe_yaml.YamlLimitError as err:
        assert err.actual > err.limit and err.setting in ("yaml_depth", "yaml_nodes", "yaml_aliases")
        return
    except Exception as err:
        assert isinstance(err, safe_yaml.yaml.YAMLError), repr(err)
        return
    nodes, depth = size_and_depth(loaded.value)
    assert depth <= max_depth and nodes <= max_nodes


SMALL = Limits(frontmatter_bytes=2000, yaml_depth=6, yaml_nodes=60, yaml_aliases=4)


@FAST
@given(yaml_documents(), st.text(max_size=60), st.sampled_from(["\n", "\r\n", "\r"]), st.booleans())
def test_frontmatter_reader_gives_findings_never_exceptions(yaml_text, body, newline, bom):
    text = ("\ufeff" if bom else "") + "---\n" + yaml_text + "---\n" + body
    document = read_document(text.replace("\n", newline).encode("utf-8", "surrogatepass"), "p/s/SKILL.md", SMALL)
    for finding in document.findings:
        assert finding.path == "p/s/SKILL.md" and (finding.line is None or finding.line >= 1)
    if document.frontmatter is not None and not document.recovered:
        nodes, depth = size_and_depth(document.frontmatter)
        assert depth <= SMALL.yaml_depth and nodes <= SMALL.yaml_nodes
        assert all(isinstance(key, str) for key in document.frontmatter)


# ---------------------------------------------------------------- Markdown to HTML

MD = make_renderer()
LINKS = LinkContext("../../../", FileHomes.of("p/s", None, {"SKILL.md", "assets/a.svg", "references/r.md"}))
# fmt: off
PIECES = st.sampled_from([
    "<svg onload=alert(1)>", "<math><mi xlink:href=javascript:alert(1)>x</mi></math>", "<script>", "</script>",
    "&lt;script&gt;", "&#60;img src=x onerror=alert(1)&#62;", "&#x6A;avascript:", "&colon;", "&Tab;", "&NewLine;",
    "[x](", "](", ")", "![i](", "<javascript:alert(1)>", "<data:text/html,x>", "[r]: javascript:x\n", "[r]",
    "data:image/svg+xml;base64,PHN2Zz4=", "javascript:alert(1)", "java\tscript:", "\\", "\"", "'", "`", "```",
    "~~~", "\n", "\n\n", "    ", "> ", "- ", "# ", "|", "|---|\n", "<!--", "-->", "<![CDATA[", "]]>",
    "https://ok.example/", "assets/a.svg", "../../etc", "#frag", " onerror=alert(1) ", "<a href=", "<img src=",
    "<iframe srcdoc=", "<base href=", "<meta http-equiv=refresh content=0;url=", "\u202e", "\u200b", "\x00",
])
# fmt: on


@FAST
@given(st.lists(st.one_of(PIECES, st.text(max_size=6)), max_size=40).map("".join))
def test_no_markdown_ever_becomes_an_executable_construct(text):
    html = render(MD, text, LINKS)
    assert constructs(html) == []
    assert "<svg" not in html and "<math" not in html


# ---------------------------------------------------------------- command templates

# fmt: off
SHELL_PIECES = ["{{", "}}", "{{x}}", "{{a:--b}}", "{{c:d}}", "'", '"', "\\", "$(", "`", "|", "&&", ";", ">",
                "2>&1", "<", "&", "#", "~", "*", "$HOME", "${X}", " ", "\t", "\n"]
# fmt: on
SHELLISH = st.lists(
    st.one_of(st.sampled_from(SHELL_PIECES), st.text(max_size=5)),
    max_size=30,
).map("".join)


@FAST
@given(SHELLISH)
def test_command_template_parser_never_raises_and_points_inside_the_text(text):
    template = parse_command(text)
    for placeholder in template.placeholders:
        assert 0 <= placeholder.offset <= len(text)
        assert text.startswith("{{", placeholder.offset)
        line, column = template.position(placeholder.offset)
        assert line >= 0 and column >= 0
    for operator in template.shell:
        assert operator.text and operator.text in text


# ---------------------------------------------------------------- the archive writer against formats.md 4.4

SEGMENT = st.one_of(
    st.text(st.characters(exclude_categories=("Cs",), exclude_characters="/\x00"), min_size=1, max_size=40),
    st.sampled_from(["scripts", "references", "assets", "a..b", "-rf", "C:", "c:x", "..", ".", "x" * 100, "é" * 60]),
)
PATHS = st.lists(SEGMENT, min_size=1, max_size=6).map("/".join)


@st.composite
def file_sets(draw):
    paths = draw(st.lists(PATHS, max_size=12, unique=True))
    files = {"SKILL.md": (draw(st.binary(max_size=200)), False)}
    for path in paths:
        if path == "SKILL.md" or any(
            p != path and (p.startswith(path + "/") or path.startswith(p + "/")) for p in paths
        ):
            continue  # a path cannot be both a file and a folder
        files[path] = (draw(st.sampled_from([b"", b"x", bytes(range(256)), b"\x00" * 1025])), draw(st.booleans()))
    return files


def parse_headers(raw_tar: bytes) -> list[dict]:
    """A minimal USTAR reader, as the `skills` CLI has one: name + prefix, typeflag, size."""
    headers = []
    offset = 0
    while offset + 512 <= len(raw_tar):
        block = raw_tar[offset : offset + 512]
        if block == b"\x00" * 512:
            break
        stored = int(block[148:156].split(b"\x00")[0].strip() or b"0", 8)
        assert stored == sum(block[:148]) + 8 * 32 + sum(block[156:]), "header checksum"
        name = block[0:100].split(b"\x00")[0]
        prefix = block[345:500].split(b"\x00")[0]
        size = int(block[124:136].split(b"\x00")[0].strip() or b"0", 8)
        headers.append(
            {
                "path": (prefix + b"/" + name if prefix else name).decode("utf-8"),
                "type": block[156:157],
                "magic": block[257:265],
                "size": size,
                "mode": int(block[100:108].split(b"\x00")[0].strip() or b"0", 8),
                "uid": int(block[108:116].split(b"\x00")[0].strip() or b"0", 8),
                "gid": int(block[116:124].split(b"\x00")[0].strip() or b"0", 8),
                "mtime": int(block[136:148].split(b"\x00")[0].strip() or b"0", 8),
                "data": raw_tar[offset + 512 : offset + 512 + size],
            }
        )
        offset += 512 + (size + 511) // 512 * 512
    return headers


def client_accepts(path: str) -> bool:
    """formats.md 4.4 path normalisation, written out again independently of the product's code."""
    return not (
        "\x00" in path
        or path.startswith(("/", "\\"))
        or re.match(r"^[A-Za-z]:", path)
        or "\\" in path
        or any(part in (".", "..") for part in path.split("/"))
    )


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(file_sets(), st.randoms(use_true_random=False))
def test_every_archive_passes_the_client_rules(files, random):
    # the pipeline's own filters: the crawler's name rules, then the archive's
    members = [(p, d, x) for p, (d, x) in files.items() if _unsafe_reason(p) is None and ustar_fits(p)]
    for path in files:
        if not ustar_fits(path):
            assert client_rejects(path) or len(path.encode()) > 100
    random.shuffle(members)
    data = build_tar_gz(members)
    assert data == build_tar_gz(list(reversed(members))), "same files, same bytes, whatever the order"

    # gzip: magic, deflate, no file name, mtime 0 (format sniffing: bytes start 1f 8b)
    assert data[:3] == b"\x1f\x8b\x08" and data[3] & 0x08 == 0 and data[4:8] == b"\x00\x00\x00\x00"
    raw_tar = gzip.decompress(data)
    headers = parse_headers(raw_tar)
    expected = {p: (d, x) for p, d, x in members}
    assert [h["path"] for h in headers] == ["SKILL.md", *sorted(set(expected) - {"SKILL.md"}, key=str.encode)]
    assert len(headers) <= 1000 and sum(h["size"] for h in headers) <= 50 * 1024 * 1024
    for header in headers:
        assert header["type"] == b"0", "only regular files: no directories, links, PAX or GNU headers"
        assert header["magic"] == b"ustar\x0000"
        assert client_accepts(header["path"]), header["path"]
        assert not header["path"].startswith("./")
        content, executable = expected[header["path"]]
        assert header["data"] == content and header["size"] == len(content)
        assert header["mode"] == (0o755 if executable else 0o644)
        assert header["uid"] == header["gid"] == header["mtime"] == 0
    with tarfile.open(fileobj=io.BytesIO(raw_tar), mode="r:") as archive:
        members_read = archive.getmembers()
        assert [m.name for m in members_read] == [h["path"] for h in headers]
        for member in members_read:
            assert member.isreg() and member.uname == member.gname == ""
            assert stat.S_IMODE(member.mode) in (0o644, 0o755)
            assert archive.extractfile(member).read() == expected[member.name][0]


@pytest.mark.parametrize("path", ["C:notes.md", "c:/x.md", "a\\b.md", "./SKILL.md", "a/../b.md", "/etc/x", "a//b"])
def test_paths_a_client_would_reject_never_enter_an_archive(path):
    assert not ustar_fits(path)
    with pytest.raises(ValueError):
        build_tar_gz([("SKILL.md", b"x", False), (path, b"y", False)])
