"""Every dialect the registry understands, in the order they fill the model."""

from registry.dialects.base import Dialect, ParseContext, RegistryView
from registry.dialects.claude_code import ClaudeCodeDialect
from registry.dialects.standard import StandardDialect

DIALECTS: tuple[Dialect, ...] = (
    StandardDialect(),
    ClaudeCodeDialect(),
)

KNOWN_FIELDS = frozenset().union(*(d.fields for d in DIALECTS))

__all__ = ["DIALECTS", "KNOWN_FIELDS", "Dialect", "ParseContext", "RegistryView"]
