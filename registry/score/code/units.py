"""Which parts of a skill are code, and in which language: scripts, and the fences of Markdown files.

Scripts are recognised by suffix or shebang; Markdown fences by their info string (```python,
```bash, ```ts ...), and unlabelled fences by their first word when it is a well-known command.
Console fences (```console, ```terminal, and any shell fence whose commands carry a `$ ` prompt)
keep only the prompted lines, prompt stripped, so printed output is never read as commands.
Lines keep their numbers: a unit's row 0 sits on `first_line` of its file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from registry.score.card import FROM_CODE, FROM_INSTRUCTIONS
from registry.score.code.model import Unit
from registry.score.risk.lines import MARKDOWN_SUFFIXES, is_binary

PYTHON, SHELL, JAVASCRIPT, TYPESCRIPT, TSX = "python", "shell", "javascript", "typescript", "tsx"
WINDOWS = "windows"  # PowerShell and batch: no parser, searched for Windows security commands only (system.py)

SCRIPT_LANGUAGES = {
    ".py": PYTHON, ".pyw": PYTHON,
    ".sh": SHELL, ".bash": SHELL, ".zsh": SHELL, ".command": SHELL,
    ".js": JAVASCRIPT, ".mjs": JAVASCRIPT, ".cjs": JAVASCRIPT, ".jsx": JAVASCRIPT,
    ".ts": TYPESCRIPT, ".mts": TYPESCRIPT, ".cts": TYPESCRIPT, ".tsx": TSX,
    ".ps1": WINDOWS, ".psm1": WINDOWS, ".bat": WINDOWS, ".cmd": WINDOWS,
}  # fmt: skip
FENCE_LANGUAGES = {
    "python": PYTHON, "py": PYTHON, "python3": PYTHON, "py3": PYTHON,
    "bash": SHELL, "sh": SHELL, "shell": SHELL, "zsh": SHELL, "console": SHELL, "terminal": SHELL,
    "shell-session": SHELL, "shellsession": SHELL,
    "js": JAVASCRIPT, "javascript": JAVASCRIPT, "node": JAVASCRIPT, "jsx": JAVASCRIPT, "mjs": JAVASCRIPT,
    "cjs": JAVASCRIPT, "nodejs": JAVASCRIPT,
    "ts": TYPESCRIPT, "typescript": TYPESCRIPT, "mts": TYPESCRIPT, "tsx": TSX,
    "powershell": WINDOWS, "pwsh": WINDOWS, "ps1": WINDOWS, "ps": WINDOWS, "posh": WINDOWS, "cmd": WINDOWS,
    "bat": WINDOWS, "batch": WINDOWS, "dos": WINDOWS,
}  # fmt: skip
_PROMPTED = frozenset({"console", "terminal", "shell-session", "shellsession"})
# First words that make an unlabelled fence a shell command block.
KNOWN_COMMANDS = frozenset(
    """curl wget git pip pip3 pipx uv uvx npm npx pnpm yarn bun bunx brew apt apt-get yum dnf apk sudo cd ls cat
    echo export mkdir rm cp mv chmod chown python python3 node deno docker kubectl make go cargo rustup gem bundle
    ssh scp rsync tar unzip zip source bash sh zsh gh claude codex open xdg-open crontab systemctl launchctl
    nohup env printenv set eval exec aws gcloud az terraform helm ln touch find grep sed awk jq kill pkill
    openssl base64 tee nc ncat sqlite3 psql mysql redis-cli java mvn gradle dotnet composer php ruby perl
    conda mamba poetry tmux screen code cursor setenforce ufw iptables nft usermod useradd gpasswd visudo
    aa-teardown csrutil spctl""".split()
)
_SHEBANG = re.compile(r"^#!\s*(?:/usr)?(?:/local)?/bin/(?:env\s+(?:-S\s+)?)?(\w+)")
_SHEBANG_LANGUAGES = {
    "python": PYTHON,
    "python3": PYTHON,
    "python2": PYTHON,
    "sh": SHELL,
    "bash": SHELL,
    "zsh": SHELL,
    "dash": SHELL,
    "node": JAVASCRIPT,
    "deno": TYPESCRIPT,
    "bun": TYPESCRIPT,
}
_FENCE_ANYWHERE = re.compile(r" {0,3}(`{3,}|~{3,})[ \t]*([^\s`{]*)")


def _runs(text: str) -> list[int]:
    """Offsets where a run of three backticks or tildes starts (a run counted once), in order."""
    found: list[int] = []
    for marker in ("```", "~~~"):
        index = text.find(marker)
        while index >= 0:
            found.append(index)
            end = index + 3
            while end < len(text) and text[end] == marker[0]:
                end += 1
            index = text.find(marker, end)
    return sorted(found)


_PROMPT = re.compile(r"^\s*(?:\(\w[\w.-]*\)\s*)?(?:[\w.@~:/-]*)?[$%❯›>]\s")
_FIRST_WORD = re.compile(r"^\s*(?:\$\s+)?(?:sudo\s+)?([\w.-]+)")


def decode(data: bytes) -> str:
    return data.decode("utf-8", errors="replace").removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def _suffix(name: str) -> str:
    base = name.rsplit("/", 1)[-1]
    stem, dot, suffix = base.rpartition(".")
    return f".{suffix.lower()}" if dot and stem else ""


def script_language(name: str, text: str) -> str | None:
    language = SCRIPT_LANGUAGES.get(_suffix(name))
    if language:
        return language
    if text.startswith("#!"):
        match = _SHEBANG.match(text)
        return _SHEBANG_LANGUAGES.get(re.sub(r"[\d.]+$", "", match.group(1))) if match else None
    return None


def is_markdown(name: str) -> bool:
    suffix = _suffix(name)
    base = name.rsplit("/", 1)[-1]
    return suffix in MARKDOWN_SUFFIXES or (not suffix and base == base.upper())


def units_of(name: str, path: str, data: bytes, text: str | None = None) -> Iterator[Unit]:
    """The code units of one file: the whole file for a script, the fences of a Markdown file."""
    if text is None:
        if is_binary(data):
            return
        text = decode(data)
    language = script_language(name, text)
    if language:
        yield Unit(path, name, language, text, 1, FROM_CODE)
        return
    if is_markdown(name) and ("```" in text or "~~~" in text):
        yield from fences(name, path, text)


def fences(name: str, path: str, text: str) -> Iterator[Unit]:
    # (line index, offset of the line's start, fence marker, info word) of every fence line
    marks: list[tuple[int, int, str, str]] = []
    row, last = 0, 0
    for start in _runs(text):  # literal searches, then the line-start check
        line_start = text.rfind("\n", 0, start) + 1
        if start - line_start > 3 or text[line_start:start].strip(" "):
            continue
        match = _FENCE_ANYWHERE.match(text, line_start)
        if match is None:
            continue
        row += text.count("\n", last, line_start)
        last = line_start
        marks.append((row, line_start, match.group(1), match.group(2).lower()))
    position = 0
    while position < len(marks):
        start_row, offset, marker, label = marks[position]
        end = len(text)
        position += 1
        while position < len(marks):
            _row, close_offset, close, info = marks[position]
            position += 1
            if close[0] == marker[0] and len(close) >= len(marker) and not info:
                end = close_offset
                break
        opened = text.find("\n", offset)
        if opened < 0 or opened >= end:
            continue
        body = text[opened + 1 : end].removesuffix("\n").split("\n")
        language = FENCE_LANGUAGES.get(label)
        if language is None and label == "":
            first = next((b for b in body if b.strip() and not b.lstrip().startswith("#")), "")
            word = _FIRST_WORD.match(first)
            if word and word.group(1) in KNOWN_COMMANDS:
                language = SHELL
        if language is None or not any(b.strip() for b in body):
            continue
        if language == SHELL:
            body = [_documented(line) for line in _commands(body, label in _PROMPTED)]
        yield Unit(path, name, language, "\n".join(body), start_row + 2, FROM_INSTRUCTIONS, fence=True)


_PLACEHOLDER = re.compile(r"<([A-Za-z][\w.:-]*(?:[ |][A-Za-z][\w.:-]*){0,3})>")
_VERSION_SPEC = re.compile(r"(?<!\S)([\w.\[\],-]+(?:>=|<=|==|~=|!=|>|<)[\d*][\w.*,<>=!~-]*)(?=\s|$)")


def _documented(line: str) -> str:
    """A documentation command line as its reader means it: `<name>` is a placeholder, not two
    redirections, and `pkg>=1.2` is a version range, not a redirection to a file `=1.2`."""
    if "<" not in line and ">" not in line:
        return line
    line = _PLACEHOLDER.sub(lambda m: "_" + m.group(1).replace(" ", "_").replace("|", "_") + "_", line)
    return _VERSION_SPEC.sub(r"'\1'", line)


def _commands(body: list[str], console: bool) -> list[str]:
    """Shell fence lines with `$ ` prompts stripped; with prompts present, unprompted lines are output."""
    prompted = [_PROMPT.match(line) for line in body]
    if not console and sum(1 for m in prompted if m) < max(1, sum(1 for b in body if b.strip()) // 2):
        return body
    if not any(prompted):
        return body
    out: list[str] = []
    continued = False
    for line, match in zip(body, prompted, strict=True):
        if match:
            out.append(line[match.end() :])
            continued = line.rstrip().endswith("\\")
        elif continued:
            out.append(line)
            continued = line.rstrip().endswith("\\")
        else:
            out.append("")  # printed output: keep the line numbers, drop the text
    return out


def all_units(contents: Mapping[str, bytes], shown: str) -> Iterator[Unit]:
    for name in sorted(contents):
        data = contents[name]
        if not isinstance(data, bytes | bytearray):
            continue
        path = name if shown in (".", "") else f"{shown}/{name}"
        yield from units_of(name, path, bytes(data))
