"""Reading typed values out of text-only YAML. The loader keeps every scalar as a string."""

from __future__ import annotations

from typing import Any

_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


def as_bool(value: Any) -> bool | None:
    """A YAML-ish boolean, or None when the value is not one."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        lowered = value.strip().lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
    return None


def as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return int(value.strip(), 10)
        except ValueError:
            return None
    return None


def as_float(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return None
        return number if number == number and number not in (float("inf"), float("-inf")) else None
    return None


def as_str_list(value: Any, separators: str = ",") -> list[str] | None:
    """A list of strings from a YAML list or a separated string; None when neither."""
    if value is None:
        return []
    if isinstance(value, str):
        text = value
        for separator in separators[1:]:
            text = text.replace(separator, separators[0])
        return [part.strip() for part in text.split(separators[0]) if part.strip()]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return [item.strip() for item in value if item.strip()]
    return None


def describe_type(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return "text"
