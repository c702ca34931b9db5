"""Every dialect the registry understands, in the order they fill the model."""

from registry.dialects.agent_flow_lite import AgentFlowLiteDialect
from registry.dialects.base import Dialect, ParseContext, RegistryView
from registry.dialects.bouno import BounoDialect
from registry.dialects.claude_code import ClaudeCodeDialect
from registry.dialects.gibberish import GibberishDialect
from registry.dialects.skillli import SkillliDialect
from registry.dialects.standard import StandardDialect
from registry.dialects.wolffish import WolffishDialect

DIALECTS: tuple[Dialect, ...] = (
    StandardDialect(),
    ClaudeCodeDialect(),
    SkillliDialect(),
    GibberishDialect(),
    AgentFlowLiteDialect(),
    BounoDialect(),
    WolffishDialect(),
)

KNOWN_FIELDS = frozenset().union(*(d.fields for d in DIALECTS))

__all__ = ["DIALECTS", "KNOWN_FIELDS", "Dialect", "ParseContext", "RegistryView"]
