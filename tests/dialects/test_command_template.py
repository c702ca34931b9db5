"""The gibb.eri.sh command template reader: words, placeholders, shell syntax; never raises."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from registry.dialects.command_template import PLACEHOLDER, format_command, parse_command, quote_word


def kinds(text):
    return [(s.kind, s.text) for s in parse_command(text).shell]


def test_program_and_arguments():
    template = parse_command("git log --oneline -n {{count:10}}")
    assert template.program == "git"
    assert template.arguments == ["log", "--oneline", "-n", "{{count:10}}"]
    (placeholder,) = template.placeholders
    assert (placeholder.name, placeholder.default, placeholder.flag) == ("count", "10", None)
    assert placeholder.offset == len("git log --oneline -n ")
    assert template.shell == ()


def test_flag_placeholder_and_plain_placeholder():
    template = parse_command("git diff {{staged:--staged}} {{file}}")
    staged, file = template.placeholders
    assert (staged.name, staged.flag, staged.default) == ("staged", "--staged", None)
    assert (file.name, file.flag, file.default) == ("file", None, None)


def test_single_dash_modifier_is_a_flag_and_dot_is_a_default():
    # gibb-eri-sh/files/SKILL.md: `{{all:-a}} {{path:.}}`
    flag, default = parse_command("ls -la {{all:-a}} {{path:.}}").placeholders
    assert flag.flag == "-a" and flag.default is None
    assert default.default == "." and default.flag is None


def test_quotes_follow_gibberish():
    assert parse_command("""echo "hello world" 'it''s' a\\ b""").argv == ["echo", "hello world", "its", "a b"]
    # a backslash escapes inside double quotes too (parser.rs tokenize_command)
    assert parse_command(r'echo "a\b"').argv == ["echo", "ab"]
    # empty quoted words vanish, as in gibb.eri.sh
    assert parse_command("echo '' x").argv == ["echo", "x"]
    # quoted placeholders are still placeholders
    assert [p.name for p in parse_command('echo "{{message}}"').placeholders] == ["message"]


def test_shell_operators_are_reported():
    assert kinds("git log | head") == [("pipe", "|")]
    assert kinds("a && b || c ; d") == [("and", "&&"), ("or", "||"), ("sequence", ";")]
    assert kinds("ls > out >> log < in") == [("redirect", ">"), ("redirect", ">>"), ("redirect", "<")]
    assert kinds("cmd 2>&1") == [("redirect", "2>&1")]
    assert kinds("echo $(date) `id`") == [("substitution", "$("), ("substitution", "`")]
    assert kinds("sleep 5 &") == [("background", "&")]
    assert kinds("ls # list") == [("comment", "#")]


def test_expansions_are_reported():
    assert kinds("ls ~/Documents *.pdf $HOME ${X}") == [
        ("tilde", "~"),
        ("glob", "*"),
        ("variable", "$HOME"),
        ("variable", "${X}"),
    ]
    # double quotes still expand variables in a shell: reported
    assert kinds('echo "$HOME"') == [("variable", "$HOME")]


def test_no_shell_syntax_where_a_shell_would_not_see_any():
    assert kinds("echo 'a | b && c; $HOME `x` > y'") == []
    assert kinds(r"echo a\|b \$HOME") == []
    assert kinds('curl "https://x.test/?q={{q}}&n=1"') == []
    assert kinds("curl https://x.test/?a=1&b=2") == []  # `&` inside a word is literal for gibb.eri.sh
    assert kinds("echo {{x:a|b}} {{y:a;b}}") == []  # inside a placeholder
    assert kinds("price $5") == [("variable", "$5")]
    assert kinds("a-b c#d") == []  # `#` inside a word is not a comment


def test_unterminated_quote_and_multiline():
    template = parse_command("echo 'hello world")
    assert template.unterminated_quote == ("'", 5)
    assert template.argv == ["echo", "hello world"]
    assert parse_command("git status\ngit log").multiline
    assert not parse_command("foo \\\n  --bar").multiline  # backslash continuation joins lines
    assert parse_command("foo \\\n  --bar").argv == ["foo", "--bar"]
    assert not parse_command("echo 'a\nb'").multiline  # the line break is inside quotes


def test_mixed_and_broken_words():
    words = parse_command("prog --limit={{limit}} {{a}}{{b}} {{x:a b}} {{ok}}").words
    assert [w.mixed for w in words] == [False, True, True, False, False, False]
    assert [w.broken_placeholder for w in words] == [False, False, False, True, True, False]


def test_positions():
    template = parse_command("echo hi\n  | grep x")
    (pipe,) = template.shell
    assert template.position(pipe.offset) == (1, 2)


def test_quote_word():
    assert quote_word("simple-word_1.2") == "simple-word_1.2"
    assert quote_word("it's a test") == "'it'\"'\"'s a test'"
    assert parse_command(quote_word("it's a test")).argv == ["it's a test"]


@settings(max_examples=400, deadline=None)
@given(st.text())
def test_never_raises_and_stays_in_bounds(text):
    template = parse_command(text)
    assert all(word.text for word in template.words)
    for word in template.words:
        assert 0 <= word.offset <= len(text)
    for syntax in template.shell:
        assert 0 <= syntax.offset < len(text)
    for placeholder in template.placeholders:
        assert re.fullmatch(r"\w+", placeholder.name)
        assert 0 <= placeholder.offset < len(text)
        line, column = template.position(placeholder.offset)
        assert line >= 0 and column >= 0


@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(min_size=1), max_size=8))
def test_format_then_parse_round_trips(argv):
    assert parse_command(format_command(argv)).argv == argv


_PLAIN = st.text(alphabet=st.sampled_from("abcxyz019_-./:=@%+,"), min_size=1, max_size=8)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PLAIN, min_size=1, max_size=8), st.lists(st.sampled_from([" ", "\t", "  "]), min_size=8, max_size=8))
def test_plain_words_split_on_blanks(words, blanks):
    text = "".join(word + blank for word, blank in zip(words, blanks, strict=False)).strip()
    template = parse_command(text)
    assert template.argv == words
    assert template.shell == ()


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(_PLAIN, st.builds("{{{{{}}}}}".format, st.from_regex(r"[a-z_]{1,6}", fullmatch=True))),
        min_size=1,
        max_size=6,
    )
)
def test_placeholders_are_whole_words_when_written_alone(words):
    template = parse_command(" ".join(words))
    expected = [m.group(1) for w in words for m in PLACEHOLDER.finditer(w)]
    assert [p.name for p in template.placeholders] == expected
    for word in template.words:
        if word.placeholders and len(word.placeholders) == 1 and word.text == word.placeholders[0].text:
            assert not word.mixed
