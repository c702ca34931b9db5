#!/usr/bin/env python3
"""Create and update Markdown meeting notes.

    meeting_notes.py new --title TITLE [--dir DIR] [--attendees NAME ...]
    meeting_notes.py add FILE --text TEXT [--section SECTION]
    meeting_notes.py actions FILE_OR_DIR [--open-only]
"""
import argparse
import datetime
import os
import re
import sys

SECTIONS = ("Agenda", "Notes", "Decisions", "Action items")
TEMPLATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "assets", "meeting-template.md")


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "meeting"


def new(args):
    today = datetime.date.today().isoformat()
    os.makedirs(args.dir, exist_ok=True)
    path = os.path.join(args.dir, "%s-%s.md" % (today, slug(args.title)))
    if os.path.exists(path):
        print(path)
        return 0
    with open(TEMPLATE, encoding="utf-8") as handle:
        template = handle.read()
    text = template.replace("{title}", args.title).replace("{date}", today) \
                   .replace("{attendees}", ", ".join(args.attendees) or "not recorded")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    print(path)
    return 0


def add(args):
    section = next((s for s in SECTIONS if s.lower() == args.section.lower()), None)
    if not section:
        print("unknown section %r; use one of: %s" % (args.section, ", ".join(SECTIONS)))
        return 2
    with open(args.file, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    try:
        start = lines.index("## " + section)
    except ValueError:
        print("section %r not found in %s" % (section, args.file))
        return 2
    end = start + 1
    while end < len(lines) and not lines[end].startswith("## "):
        end += 1
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    item = "- [ ] " + args.text if section == "Action items" else "- " + args.text
    if end == start + 1:
        lines[end:end] = ["", item]
    else:
        lines.insert(end, item)
    with open(args.file, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    print("added to %s: %s" % (section, args.text))
    return 0


def action_items(path):
    with open(path, encoding="utf-8") as handle:
        in_actions = False
        for line in handle:
            if line.startswith("## "):
                in_actions = line.strip() == "## Action items"
            elif in_actions:
                match = re.match(r"- \[( |x|X)\] (.+)", line.strip())
                if match:
                    yield match.group(1) != " ", match.group(2)


def actions(args):
    if os.path.isdir(args.path):
        files = sorted(os.path.join(args.path, n) for n in os.listdir(args.path) if n.endswith(".md"))
    else:
        files = [args.path]
    total = 0
    for path in files:
        items = [(done, text) for done, text in action_items(path) if not (args.open_only and done)]
        if not items:
            continue
        print(os.path.basename(path))
        for done, text in items:
            total += 1
            print("  [%s] %s" % ("x" if done else " ", text))
    print("%d action item(s)" % total)
    return 0


def main():
    parser = argparse.ArgumentParser(description="Markdown meeting notes.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("new")
    p.add_argument("--title", required=True)
    p.add_argument("--dir", default="notes/meetings")
    p.add_argument("--attendees", nargs="*", default=[])
    p = sub.add_parser("add")
    p.add_argument("file")
    p.add_argument("--text", required=True)
    p.add_argument("--section", default="Notes")
    p = sub.add_parser("actions")
    p.add_argument("path")
    p.add_argument("--open-only", action="store_true")
    args = parser.parse_args()
    return {"new": new, "add": add, "actions": actions}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
