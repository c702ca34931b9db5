"""tree-sitter parsers, built once per process (a Language and a Parser per grammar, on first use)."""

from __future__ import annotations

import functools

import tree_sitter


@functools.cache
def parser(grammar: str) -> tree_sitter.Parser:
    """The shared parser for 'bash', 'javascript', 'typescript' or 'tsx'."""
    if grammar == "bash":
        import tree_sitter_bash as module

        language = module.language()
    elif grammar == "javascript":
        import tree_sitter_javascript as module

        language = module.language()
    else:
        import tree_sitter_typescript as module

        language = module.language_tsx() if grammar == "tsx" else module.language_typescript()
    return tree_sitter.Parser(tree_sitter.Language(language))
