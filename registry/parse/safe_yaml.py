"""YAML for untrusted frontmatter: bounded, and every scalar kept as the text it was written as.

Two passes over the libyaml event stream. The first counts nesting depth and the node count
after alias expansion without building anything, so an alias bomb or a 10,000-deep flow list
is refused before the recursive composer could expand it or exhaust the C stack. The second
builds plain dicts, lists and strings: `version: 1.0` stays "1.0", dates stay as written,
`true` stays "true". Only an unquoted empty value, `~` or `null` becomes None. Rules check
types later; the loader never guesses them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml

_BaseLoader = getattr(yaml, "CBaseLoader", yaml.BaseLoader)
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})


class YamlLimitError(Exception):
    def __init__(self, what: str, limit: int, actual: int, line: int | None, setting: str = ""):
        super().__init__(f"{what} exceeds the limit of {limit} (found {actual})")
        self.what = what
        self.limit = limit
        self.actual = actual
        self.line = line
        self.setting = setting  # the registry.yaml `limits:` key that sets it


@dataclass
class LoadedYaml:
    value: Any
    key_lines: dict[str, int] = field(default_factory=dict)  # top-level key -> 0-based line
    duplicate_keys: list[tuple[str, int]] = field(default_factory=list)  # (key, 0-based line)


class _TextLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """BaseLoader resolves every scalar to str; we add null and duplicate-key tracking."""

    def __init__(self, stream: str):
        super().__init__(stream)
        self.duplicate_keys: list[tuple[str, int]] = []

    def construct_scalar(self, node: yaml.ScalarNode) -> Any:
        value = super().construct_scalar(node)
        if not node.style and value in _NULLS:  # plain style is None (Python) or "" (libyaml)
            return None
        return value

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        if not isinstance(node, yaml.MappingNode):
            raise yaml.constructor.ConstructorError(
                None, None, f"expected a mapping node, but found {node.id}", node.start_mark
            )
        mapping: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, str):
                key = "" if key is None else str(key)
            if key in mapping:
                self.duplicate_keys.append((key, key_node.start_mark.line))
            mapping[key] = self.construct_object(value_node, deep=deep)
        return mapping


def _events(text: str, max_depth: int) -> Iterator[yaml.Event]:
    try:
        yield from yaml.parse(text, Loader=_BaseLoader)
    except yaml.MarkedYAMLError as error:
        # libyaml (0.2.5 as bundled with PyYAML 6.0.3 and later) stops flow nesting deeper than 1,000
        # itself, while scanning ahead, before the events reach the depth count in check_bounds.
        # Nesting grows one level at a time, so it went past our limit at limit + 1 first.
        if "maximum nesting depth" in str(error.problem) and max_depth < 1000:
            line = error.problem_mark.line if error.problem_mark else None
            raise YamlLimitError("YAML nesting depth", max_depth, max_depth + 1, line, "yaml_depth") from None
        raise


def check_bounds(text: str, max_depth: int, max_nodes: int, max_aliases: int = 100) -> None:
    """Walk the event stream once; raise YamlLimitError before anything is expanded."""
    depth = 0
    nodes = 0
    aliases = 0
    anchor_sizes: dict[str, int] = {}
    anchor_heights: dict[str, int] = {}  # levels of nesting an alias to the anchor adds where it is used
    open_collections: list[tuple[str | None, int, int]] = []  # (anchor, nodes before it, its depth)
    deepest: list[int] = []  # for each open collection, the deepest level reached inside it, aliases expanded
    for event in _events(text, max_depth):
        line = event.start_mark.line if event.start_mark else None
        if isinstance(event, yaml.ScalarEvent):
            nodes += 1
            if event.anchor:
                anchor_sizes[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            nodes += anchor_sizes.get(event.anchor, 1)
            aliases += 1
            if aliases > max_aliases:
                raise YamlLimitError("YAML alias count", max_aliases, aliases, line, "yaml_aliases")
            reach = depth + anchor_heights.get(event.anchor, 0)
            if reach > max_depth:
                raise YamlLimitError("YAML nesting depth", max_depth, reach, line, "yaml_depth")
            if deepest:
                deepest[-1] = max(deepest[-1], reach)
        elif isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            nodes += 1
            if depth > max_depth:
                raise YamlLimitError("YAML nesting depth", max_depth, depth, line, "yaml_depth")
            open_collections.append((event.anchor, nodes, depth))
            deepest.append(depth)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
            anchor, start, level = open_collections.pop()
            reached = deepest.pop()
            if deepest:
                deepest[-1] = max(deepest[-1], reached)
            if anchor:
                anchor_sizes[anchor] = nodes - start + 1
                anchor_heights[anchor] = reached - level + 1
        if nodes > max_nodes:
            raise YamlLimitError("YAML node count (after alias expansion)", max_nodes, nodes, line, "yaml_nodes")


def load(text: str, max_depth: int = 32, max_nodes: int = 20_000, max_aliases: int = 100) -> LoadedYaml:
    """Load one YAML document. Raises yaml.YAMLError or YamlLimitError."""
    check_bounds(text, max_depth, max_nodes, max_aliases)
    loader = _TextLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return LoadedYaml(None)
        key_lines: dict[str, int] = {}
        if isinstance(node, yaml.MappingNode):
            for key_node, _ in node.value:
                if isinstance(key_node, yaml.ScalarNode):
                    key_lines.setdefault(key_node.value, key_node.start_mark.line)
        value = loader.construct_document(node)
        return LoadedYaml(value, key_lines, list(loader.duplicate_keys))
    finally:
        loader.dispose()
