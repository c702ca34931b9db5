"""Export an Obsidian vault to static HTML with relative links."""

import html
import re
import shutil
import sys
from pathlib import Path

WIKI = re.compile(r"\[\[([^\]|#]+)(#[^\]|]+)?(\|[^\]]+)?\]\]")


def convert(text, names):
    def link(match):
        target, anchor, label = match.group(1).strip(), match.group(2) or "", match.group(3)
        href = names.get(target.lower(), target) + ".html" + anchor
        return f'<a href="{html.escape(href)}">{html.escape(label[1:] if label else target)}</a>'

    return "<br>\n".join(WIKI.sub(link, html.escape(line, quote=False)) for line in text.splitlines())


def main(vault, out):
    vault, out = Path(vault).expanduser(), Path(out).expanduser()
    notes = list(vault.rglob("*.md"))
    names = {n.stem.lower(): str(n.relative_to(vault).with_suffix("")) for n in notes}
    for note in notes:
        dest = out / note.relative_to(vault).with_suffix(".html")
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(convert(note.read_text(encoding="utf-8"), names), encoding="utf-8")
    for image in [*vault.rglob("*.png"), *vault.rglob("*.jpg")]:
        dest = out / image.relative_to(vault)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(image, dest)
    print(f"exported {len(notes)} notes to {out}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
