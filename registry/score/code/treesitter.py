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


# tree-sitter-bash 0.25.1 crashes the process (a segmentation fault in its external scanner) on some text with
# non-ASCII characters, e.g. `{𭈌<𣋙"𣑳;<{#($=#`, and skill text is untrusted. Bash is parsed from a stand-in of the
# same length where every byte above 0x7F is `x`: node offsets stay those of the real bytes, which the reader
# slices for text, and a non-ASCII character was a word character to the grammar anyway.
_ASCII_STAND_IN = bytes(range(128)) + b"x" * 128


def parse_bash(data: bytes) -> tree_sitter.Tree:
    """The bash syntax tree of `data` (UTF-8 bytes), read from its ASCII stand-in (see above)."""
    return parser("bash").parse(data.translate(_ASCII_STAND_IN))
