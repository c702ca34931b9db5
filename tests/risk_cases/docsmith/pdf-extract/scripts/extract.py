"""Extract text, tables or images from a PDF with pdfplumber."""

import argparse
import csv
import sys
from pathlib import Path

import pdfplumber


def page_range(spec, count):
    if not spec:
        return range(count)
    pages = []
    for part in spec.split(","):
        start, _, end = part.partition("-")
        pages.extend(range(int(start) - 1, int(end or start)))
    return [p for p in pages if 0 <= p < count]


def text(pdf, pages, ocr):
    for index in pages:
        page = pdf.pages[index]
        print(f"=== page {index + 1} ===")
        content = page.extract_text(layout=True) or ""
        if not content.strip():
            if ocr:
                import pytesseract

                content = pytesseract.image_to_string(page.to_image(resolution=300).original)
            else:
                print("(no text layer)", file=sys.stderr)
        print(content)


def tables(pdf, pages, out):
    out.mkdir(parents=True, exist_ok=True)
    for index in pages:
        for number, table in enumerate(pdf.pages[index].extract_tables(), start=1):
            path = out / f"p{index + 1}-t{number}.csv"
            with open(path, "w", newline="", encoding="utf-8") as handle:
                csv.writer(handle).writerows(table)
            print(path)


def images(pdf, pages, out):
    out.mkdir(parents=True, exist_ok=True)
    for index in pages:
        page = pdf.pages[index]
        for number, image in enumerate(page.images, start=1):
            box = (image["x0"], image["top"], image["x1"], image["bottom"])
            path = out / f"p{index + 1}-i{number}.png"
            page.crop(box).to_image(resolution=200).save(path)
            print(path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["text", "tables", "images"])
    parser.add_argument("pdf")
    parser.add_argument("--pages")
    parser.add_argument("--out", default=".")
    parser.add_argument("--ocr", action="store_true")
    args = parser.parse_args()
    with pdfplumber.open(args.pdf) as pdf:
        pages = page_range(args.pages, len(pdf.pages))
        if args.command == "text":
            text(pdf, pages, args.ocr)
        elif args.command == "tables":
            tables(pdf, pages, Path(args.out))
        else:
            images(pdf, pages, Path(args.out))


if __name__ == "__main__":
    main()
