from hypothesis import given, settings
from hypothesis import strategies as st

from registry.config import Limits
from registry.parse.document import decode, read_document, split

LIMITS = Limits()


def codes(document):
    return [f.code for f in document.findings]


def test_body_rules_do_not_close_frontmatter():
    text = "---\nname: a\ndescription: b\n---\n# Title\n\n---\n\nmore\n---\n"
    document = read_document(text.encode(), "x/SKILL.md", LIMITS)
    assert document.frontmatter == {"name": "a", "description": "b"}
    assert document.body == "# Title\n\n---\n\nmore\n---\n"
    assert document.body_line == 5


def test_bom_crlf_and_lone_cr_are_normalised_and_reported():
    document = read_document(b"\xef\xbb\xbf---\r\nname: a\r\ndescription: b\r\n---\r\nbody\r\n", "S", LIMITS)
    assert document.frontmatter == {"name": "a", "description": "b"}
    assert {"P002", "P003"} <= set(codes(document))
    lone = read_document(b"---\rname: a\rdescription: b\r---\rbody", "S", LIMITS)
    assert lone.frontmatter == {"name": "a", "description": "b"}
    assert "P004" in codes(lone)


def test_no_frontmatter_and_unclosed_frontmatter():
    document = read_document(b"# Just a title\n\ntext\n", "S", LIMITS)
    assert document.frontmatter is None and codes(document) == ["P010"]
    unclosed = read_document(b"---\nname: a\ndescription: |\n  text\n  ---\nbody\n", "S", LIMITS)
    assert "P011" in codes(unclosed)
    finding = next(f for f in unclosed.findings if f.code == "P011")
    assert finding.line == 1


def test_blank_lines_before_frontmatter_are_accepted_with_a_warning():
    document = read_document(b"\n\n---\nname: a\ndescription: b\n---\nbody\n", "S", LIMITS)
    assert document.frontmatter == {"name": "a", "description": "b"}
    assert codes(document) == ["P012"]
    assert document.key_lines["name"] == 4


def test_invalid_utf8_reports_the_byte_offset_and_keeps_going():
    data = b"---\nname: a\ndescription: caf\xe9 time\n---\nbody\n"
    document = read_document(data, "S", LIMITS)
    finding = next(f for f in document.findings if f.code == "P001")
    assert str(data.index(b"\xe9")) in finding.message
    assert finding.line == 3
    assert document.frontmatter["name"] == "a"


def test_unquoted_colon_gives_line_column_fix_and_recovers_name_and_description():
    data = b"---\nname: helper\ndescription: Use this skill when: the user asks\n---\nbody\n"
    document = read_document(data, "S", LIMITS)
    finding = next(f for f in document.findings if f.code == "P013")
    assert finding.line == 3 and finding.column is not None
    assert "quote the value" in finding.hint
    assert document.recovered
    assert document.frontmatter == {"name": "helper", "description": "Use this skill when: the user asks"}


def test_argument_hint_brackets_get_a_quoting_hint():
    data = b"---\nname: x\ndescription: y\nargument-hint: [date] [reason]\n---\nbody\n"
    document = read_document(data, "S", LIMITS)
    finding = next(f for f in document.findings if f.code == "P013")
    assert finding.line == 4
    assert 'argument-hint: "[date] [reason]"' in finding.hint


def test_scalars_keep_their_text():
    data = b"---\nname: x\ndescription: y\nversion: 1.0\ncreated: 2024-01-02\nflag: yes\nempty:\n---\n"
    document = read_document(data, "S", LIMITS)
    assert document.frontmatter["version"] == "1.0"
    assert document.frontmatter["created"] == "2024-01-02"
    assert document.frontmatter["flag"] == "yes"
    assert document.frontmatter["empty"] is None


def test_empty_and_oversized_files():
    assert codes(read_document(b"", "S", LIMITS)) == ["P019"]
    small = Limits(skill_md_bytes=100)
    big = b"---\nname: a\ndescription: b\n---\n" + b"x" * 500
    assert "P018" in codes(read_document(big, "S", small))


@given(st.text(max_size=400))
@settings(max_examples=300, deadline=None)
def test_reader_never_raises_on_any_text(text):
    read_document(text.encode("utf-8", "surrogatepass"), "S", LIMITS)


@given(st.binary(max_size=400))
@settings(max_examples=300, deadline=None)
def test_reader_never_raises_on_any_bytes(data):
    read_document(data, "S", LIMITS)


@given(
    st.lists(st.text(alphabet=st.characters(blacklist_characters="\r\n"), max_size=30), max_size=8),
    st.lists(st.text(alphabet=st.characters(blacklist_characters="\r\n"), max_size=30), max_size=8),
)
@settings(max_examples=300, deadline=None)
def test_split_takes_the_first_two_delimiter_lines(frontmatter_lines, body_lines):
    frontmatter_lines = [line for line in frontmatter_lines if line.rstrip(" \t") != "---"]
    text = "\n".join(["---", *frontmatter_lines, "---", *body_lines])
    opening, closing, blank = split(text)
    assert (opening, closing, blank) == (0, len(frontmatter_lines) + 1, 0)


@given(st.text(max_size=200))
@settings(max_examples=200, deadline=None)
def test_decode_output_has_only_lf_line_ends(text):
    decoded, _ = decode(text.encode("utf-8", "surrogatepass"), "S")
    assert "\r" not in decoded
