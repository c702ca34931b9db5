"""The gibb.eri.sh `#### Command` template: program and arguments, never a shell string.

gibb.eri.sh runs a tool's command as program + argument list without a shell
(crates/skills/src/parser.rs and executor.rs, SKILL_SPEC.md §3.5). This module reads a
template the same way, so the registry can show what will run and point at what will not:

- Words split on spaces and tabs outside quotes. Single quotes keep everything literally;
  double quotes group words; a backslash outside single quotes takes the next character
  literally (gibb.eri.sh does this inside double quotes too, unlike a POSIX shell). Empty
  quoted words disappear, as they do in gibb.eri.sh. A line break outside quotes also splits
  words here (gibb.eri.sh keeps it inside the word; `multiline` reports such templates), and a
  backslash before a line break joins the lines.
- Placeholders are found per word after quote removal: `{{name}}`, `{{name:default}}`, and
  `{{name:-flag}}` (a modifier starting with '-' is a flag, emitted only when the value is true).
- Shell syntax outside single quotes (pipes, `&&`, `||`, `;`, redirections, `$( )`, backticks,
  `$VAR`, `~`, `*`, comments) is collected with its offset: without a shell it reaches the
  program as literal text.

`parse_command` never raises; it returns what it could read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

PLACEHOLDER = re.compile(r"\{\{(\w+)(?::([^}]+))?\}\}")
_SAFE_WORD = re.compile(r"[A-Za-z0-9_@%+=:,./-]+")

# Kinds of shell syntax. OPERATORS change what runs; EXPANSIONS change the arguments.
OPERATOR_KINDS = frozenset({"pipe", "and", "or", "sequence", "background", "redirect", "substitution", "comment"})
EXPANSION_KINDS = frozenset({"variable", "tilde", "glob"})


@dataclass(frozen=True)
class Placeholder:
    name: str
    default: str | None  # `{{count:10}}` -> "10"
    flag: str | None  # `{{staged:--staged}}` -> "--staged"
    text: str  # as written, e.g. "{{count:10}}"
    offset: int  # offset of "{{" in the template text


@dataclass(frozen=True)
class Word:
    """One argument after quote removal, with where it starts in the template."""

    text: str
    offset: int
    placeholders: tuple[Placeholder, ...] = ()
    positions: tuple[int, ...] = field(default=(), repr=False, compare=False)  # template offset of each char

    @property
    def mixed(self) -> bool:
        """Text and a placeholder in one word (`--limit={{n}}`), or several placeholders."""
        if not self.placeholders:
            return False
        return len(self.placeholders) > 1 or self.placeholders[0].text != self.text

    @property
    def broken_placeholder(self) -> bool:
        """`{{` in the word that does not form a placeholder (e.g. `{{x:a` split at a space)."""
        remainder = PLACEHOLDER.sub("", self.text)
        return "{{" in remainder or "}}" in remainder


@dataclass(frozen=True)
class ShellSyntax:
    kind: str  # one of OPERATOR_KINDS or EXPANSION_KINDS
    text: str  # the characters as written, e.g. "|", "2>", "$(", "$HOME"
    offset: int


@dataclass(frozen=True)
class CommandTemplate:
    text: str
    words: tuple[Word, ...]
    shell: tuple[ShellSyntax, ...]
    unterminated_quote: tuple[str, int] | None  # (quote character, offset where it opened)
    multiline: bool  # more than one non-blank line, not joined by backslashes

    @property
    def argv(self) -> list[str]:
        return [word.text for word in self.words]

    @property
    def program(self) -> str | None:
        return self.words[0].text if self.words else None

    @property
    def arguments(self) -> list[str]:
        return [word.text for word in self.words[1:]]

    @property
    def placeholders(self) -> tuple[Placeholder, ...]:
        return tuple(p for word in self.words for p in word.placeholders)

    def position(self, offset: int) -> tuple[int, int]:
        """0-based (line, column) of a template offset."""
        offset = max(0, min(offset, len(self.text)))
        line = self.text.count("\n", 0, offset)
        start = self.text.rfind("\n", 0, offset) + 1
        return line, offset - start


def parse_placeholder(match: re.Match[str], offset: int) -> Placeholder:
    modifier = match.group(2)
    flag = modifier if modifier is not None and modifier.startswith("-") else None
    default = modifier if modifier is not None and flag is None else None
    return Placeholder(match.group(1), default, flag, match.group(0), offset)


def parse_command(text: str) -> CommandTemplate:
    """Read a command template. Never raises, whatever the text."""
    if not isinstance(text, str):
        text = ""
    masked = _placeholder_spans(text)
    reader = _Reader(text, masked)
    reader.run()
    words = tuple(_finish_word(chars, positions) for chars, positions in reader.words)
    return CommandTemplate(
        text=text,
        words=words,
        shell=tuple(reader.shell),
        unterminated_quote=reader.unterminated,
        multiline=reader.multiline,
    )


def format_command(argv: list[str]) -> str:
    """Quote words so that `parse_command(format_command(argv)).argv == argv` (non-empty words)."""
    return " ".join(quote_word(word) for word in argv)


def quote_word(word: str) -> str:
    if word and _SAFE_WORD.fullmatch(word):
        return word
    return "'" + word.replace("'", "'\"'\"'") + "'"


def _placeholder_spans(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in PLACEHOLDER.finditer(text)]


def _finish_word(chars: list[str], positions: list[int]) -> Word:
    text = "".join(chars)
    placeholders = tuple(
        parse_placeholder(m, positions[m.start()] if m.start() < len(positions) else 0)
        for m in PLACEHOLDER.finditer(text)
    )
    return Word(text, positions[0] if positions else 0, placeholders, tuple(positions))


class _Reader:
    """One pass over the template: words (gibb.eri.sh quoting rules) and shell syntax."""

    def __init__(self, text: str, masked: list[tuple[int, int]]):
        self.text = text
        self.masked = masked
        self.words: list[tuple[list[str], list[int]]] = []
        self.shell: list[ShellSyntax] = []
        self.unterminated: tuple[str, int] | None = None
        self.multiline = False
        self._chars: list[str] = []
        self._positions: list[int] = []
        self._word_has_glob = False
        self._comment_lines: set[int] = set()
        self._in_backticks = False

    def _in_placeholder(self, index: int) -> bool:
        return any(start <= index < end for start, end in self.masked)

    def _end_word(self) -> None:
        if self._chars:
            self.words.append((self._chars, self._positions))
        self._chars = []
        self._positions = []
        self._word_has_glob = False

    def _add(self, char: str, index: int) -> None:
        self._chars.append(char)
        self._positions.append(index)

    def _note(self, kind: str, text: str, index: int) -> None:
        self.shell.append(ShellSyntax(kind, text, index))

    def run(self) -> None:
        text = self.text
        length = len(text)
        index = 0
        quote: str | None = None
        quote_start = 0
        while index < length:
            char = text[index]
            if quote == "'":
                if char == "'":
                    quote = None
                else:
                    self._add(char, index)
                index += 1
                continue
            if char == "\\":
                if index + 1 < length and text[index + 1] != "\n":
                    self._add(text[index + 1], index + 1)
                # a trailing backslash is dropped; backslash + line break joins the lines
                index += 2
                continue
            if quote == '"':
                if char == '"':
                    quote = None
                elif char in "$`" and not self._in_placeholder(index):
                    self._dollar_or_backtick(index, '"')
                else:
                    self._add(char, index)
                index += 1
                continue
            # outside quotes
            if char in " \t\n":
                if char == "\n" and (self.words or self._chars) and text[index + 1 :].strip():
                    self.multiline = True
                self._end_word()
                index += 1
                continue
            if char in "'\"":
                quote = char
                quote_start = index
                index += 1
                continue
            if self._in_placeholder(index):
                self._add(char, index)
                index += 1
                continue
            index = self._unquoted(index)
        if quote is not None:
            self.unterminated = (quote, quote_start)
        self._end_word()

    def _unquoted(self, index: int) -> int:
        """Record shell syntax at an unquoted character; the characters stay in the word."""
        text = self.text
        char = text[index]
        following = text[index + 1] if index + 1 < len(text) else ""
        at_word_start = not self._chars
        if char == "|":
            if following == "|":
                return self._take("or", "||", index)
            return self._take("pipe", "|&" if following == "&" else "|", index)
        if char == "&":
            if following == "&":
                return self._take("and", "&&", index)
            if following == ">":
                return self._take("redirect", "&>>" if text[index + 2 : index + 3] == ">" else "&>", index)
            if following in ("", " ", "\t", "\n", ";", ")") or at_word_start:
                return self._take("background", "&", index)
            self._add(char, index)  # `a=1&b=2` inside a word: literal for gibb.eri.sh, left alone
            return index + 1
        if char == ";":
            return self._take("sequence", ";;" if following == ";" else ";", index)
        if char == ">":
            start = index
            if self._chars and all(c.isdigit() for c in self._chars) and len(self._chars) == 1:
                start = self._positions[0]
            end = index + 1
            if following in ">|":
                end += 1
            if text[end : end + 1] == "&":
                end += 1
                while end < len(text) and (text[end].isdigit() or text[end] == "-"):
                    end += 1
            return self._take("redirect", text[start:end], index, start=start, end=end)
        if char == "<":
            if following == "(":
                return self._take("substitution", "<(", index)
            return self._take("redirect", "<<" if following == "<" else "<", index)
        if char in "$`":
            self._dollar_or_backtick(index)
            return index + 1
        if char == "#" and at_word_start:
            line = self.text.count("\n", 0, index)
            if line not in self._comment_lines:
                self._comment_lines.add(line)
                self._note("comment", "#", index)
            self._add(char, index)
            return index + 1
        if char == "~" and at_word_start:
            self._note("tilde", "~", index)
            self._add(char, index)
            return index + 1
        if char == "*" and not self._word_has_glob:
            self._word_has_glob = True
            self._note("glob", "*", index)
            self._add(char, index)
            return index + 1
        self._add(char, index)
        return index + 1

    def _take(self, kind: str, written: str, index: int, start: int | None = None, end: int | None = None) -> int:
        start = index if start is None else start
        end = index + len(written) if end is None else end
        self._note(kind, written, start)
        for position in range(index, min(end, len(self.text))):
            self._add(self.text[position], position)
        return max(end, index + 1)

    def _dollar_or_backtick(self, index: int, quote: str = "") -> None:
        """Note `$(`, `${x}`, `$x`, `$1` or a backtick at index; adds only that one character."""
        text = self.text
        char = text[index]
        self._add(char, index)
        if char == "`":
            if self._in_backticks:
                self._in_backticks = False
                return
            self._in_backticks = True
            self._note("substitution", "`", index)
            return
        following = text[index + 1] if index + 1 < len(text) else ""
        stop = "\n" + quote
        if following == "(":
            self._note("substitution", "$(", index)
        elif following == "{":
            end = index + 2
            while end < len(text) and text[end] not in stop and text[end] != "}":
                end += 1
            self._note("variable", text[index : min(end + 1, len(text))], index)
        elif following.isalpha() or following == "_":
            end = index + 1
            while end < len(text) and (text[end].isalnum() or text[end] == "_"):
                end += 1
            self._note("variable", text[index:end], index)
        elif following and (following.isdigit() or following in "@*#?!$-"):
            self._note("variable", text[index : index + 2], index)
