"""Merge a PostToolUse formatting hook into the project's .claude/settings.json (nothing else changes)."""

import json
import pathlib
import sys

SETTINGS = pathlib.Path(".claude") / "settings.json"


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit('usage: add_format_hook.py "<formatter command>"')
    command = sys.argv[1]
    data = json.loads(SETTINGS.read_text()) if SETTINGS.exists() else {}
    post = data.setdefault("hooks", {}).setdefault("PostToolUse", [])
    entry = {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": command}]}
    if entry not in post:
        post.append(entry)
    SETTINGS.parent.mkdir(exist_ok=True)
    SETTINGS.write_text(json.dumps(data, indent=2) + "\n")
    print(SETTINGS.read_text())


if __name__ == "__main__":
    main()
