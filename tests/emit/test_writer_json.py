"""dump_json writes the bytes the standard library would (ensure_ascii=False), only faster.

One known difference, both valid JSON and equal when read: a float in exponent notation is written
the shortest way (5.960464477539063e-8 where the standard library writes e-08)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from registry.emit.writer import dump_json
from registry.model import Severity


def standard(value, pretty: bool) -> bytes:
    if pretty:
        text = json.dumps(value, ensure_ascii=False, indent=2)
    else:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return (text + "\n").encode("utf-8")


texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)  # lone surrogates are not UTF-8
scalars = st.none() | st.booleans() | texts | st.integers(-(2**63), 2**64 - 1) | st.sampled_from(list(Severity))
plain_floats = st.floats(min_value=1e-4, max_value=1e15) | st.floats(min_value=-1e15, max_value=-1e-4) | st.just(0.0)


def structures(leaves):
    return st.recursive(
        leaves,
        lambda children: st.lists(children, max_size=4) | st.dictionaries(texts, children, max_size=4),
        max_leaves=30,
    )


@settings(max_examples=400, deadline=None)
@given(structures(scalars | plain_floats), st.booleans())
def test_the_same_bytes_as_the_standard_library(value, pretty):
    assert dump_json(value, pretty) == standard(value, pretty)


@settings(max_examples=200, deadline=None)
@given(structures(scalars | st.floats(allow_nan=False, allow_infinity=False)), st.booleans())
def test_any_float_reads_back_the_same(value, pretty):
    assert json.loads(dump_json(value, pretty)) == json.loads(standard(value, pretty))


def test_values_beyond_the_fast_encoder_still_write():
    huge = {"n": 2**70, "nested": [{"id": 1}]}
    assert dump_json(huge) == standard(huge, False)
    assert dump_json({1: "a", "b": (1, 2)}) == standard({1: "a", "b": (1, 2)}, False)
