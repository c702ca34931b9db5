"""Run OCRKit over every PDF in a folder, skipping pages that already have text."""

import argparse
import pathlib
import shutil
import subprocess
import sys


def has_text(pdf: pathlib.Path) -> bool:
    out = subprocess.run(["pdftotext", "-l", "1", str(pdf), "-"], capture_output=True, text=True)
    return bool(out.stdout.strip())


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", type=pathlib.Path)
    parser.add_argument("--lang", default="eng")
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("searchable"))
    parser.add_argument("--dpi", type=int, default=0)
    args = parser.parse_args()
    if shutil.which("ocrkit") is None:
        print("ocrkit not found: see Requirements in SKILL.md", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for pdf in sorted(args.folder.glob("*.pdf")):
        target = args.out / pdf.name
        if has_text(pdf):
            shutil.copy2(pdf, target)
            continue
        cmd = ["ocrkit", "ocr", str(pdf), str(target), "--lang", args.lang]
        if args.dpi:
            cmd += ["--dpi", str(args.dpi)]
        subprocess.run(cmd, check=True)
        print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
