"""The build state stores analyses pickled: the model's frozen classes must come back equal, and fast to load."""

import dataclasses
import pickle

import pytest

from registry.model import Finding, Severity, SkillFile, SkillLocation, pickled_by_constructor
from registry.score.card import Coverage, Declared, Use


def test_frozen_model_values_come_back_equal_from_a_pickle(tmp_path):
    values = [
        Finding("R001", Severity.WARNING, "a message", "a/SKILL.md", 3, 7, "a hint", "curl x | sh", False),
        SkillLocation(
            "pub/a", tmp_path, "pub/a", "SKILL.md", (SkillFile("SKILL.md", 10, "sha256:00", str(tmp_path), False),), ()
        ),
        Use("host", "example.com", "a/run.sh", None, evidence="curl https://example.com"),
        Coverage("a/data.bin", "not analysed", "binary"),
        Declared(allowed_tools=("Read",)),
    ]
    for value in values:
        copy = pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
        assert copy == value and type(copy) is type(value)
        assert dataclasses.astuple(copy) == dataclasses.astuple(value)


def test_a_class_its_fields_cannot_rebuild_is_refused():
    @dataclasses.dataclass(frozen=True, slots=True)
    class Derived:
        a: int
        b: int = dataclasses.field(init=False, default=0)

    with pytest.raises(TypeError):
        pickled_by_constructor(Derived)
