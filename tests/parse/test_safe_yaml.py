import time

import pytest
import yaml

from registry.parse import safe_yaml

BILLION_LAUGHS = """
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


def test_alias_bomb_is_refused_before_expansion():
    started = time.process_time()
    with pytest.raises(safe_yaml.YamlLimitError) as err:
        safe_yaml.load(BILLION_LAUGHS, max_depth=32, max_nodes=20_000)
    assert err.value.limit == 20_000
    assert time.process_time() - started < 5  # generous: the point is it is not exponential


def test_small_aliases_are_fine():
    loaded = safe_yaml.load("base: &b {x: 1}\nother: *b\n")
    assert loaded.value == {"base": {"x": "1"}, "other": {"x": "1"}}


def test_deep_flow_nesting_is_refused_without_recursion():
    with pytest.raises(safe_yaml.YamlLimitError) as err:
        safe_yaml.load("a: " + "[" * 50_000 + "]" * 50_000)
    assert "depth" in err.value.what


def test_everything_is_text_and_duplicates_are_reported():
    loaded = safe_yaml.load("n: 1.0\nb: true\nd: 2024-01-01\nn: 2\nq: 'null'\nz: ~\n")
    assert loaded.value == {"n": "2", "b": "true", "d": "2024-01-01", "q": "null", "z": None}
    assert loaded.duplicate_keys == [("n", 3)]
    assert loaded.key_lines["b"] == 1


def test_yaml_errors_propagate_as_yaml_errors():
    with pytest.raises(yaml.YAMLError):
        safe_yaml.load("description: a: b\n")


def test_python_tags_are_not_constructed():
    loaded = safe_yaml.load("x: !!python/object/apply:os.system ['echo hi']\n")
    assert loaded.value == {"x": ["echo hi"]}


def test_an_alias_counts_the_depth_of_what_it_stands_for():
    # Found by hypothesis (tests/hardening/test_fuzz.py): each level is within the limit where it is
    # written, but the alias to a nested list lands one level deeper than the limit once expanded.
    text = "f0: &a10 [&a2 [&a0 [], *a0, *a0, &a1 a], &a9 [&a8 [&a3 a, &a4 a, &a7 [&a5 a, &a6 {<<: *a0}]]]]\n"
    with pytest.raises(safe_yaml.YamlLimitError) as caught:
        safe_yaml.load(text, max_depth=6, max_nodes=60, max_aliases=4)
    assert caught.value.setting == "yaml_depth" and caught.value.actual == 7
    deep = "a: &x [[[1]]]\nb: [*x]\n"
    assert safe_yaml.load(deep, max_depth=5).value == {"a": [[["1"]]], "b": [[[["1"]]]]}
    with pytest.raises(safe_yaml.YamlLimitError):
        safe_yaml.load(deep, max_depth=4)
