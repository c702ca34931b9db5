"""Extract invoice fields and line items from PDFs."""

import argparse
import csv
import pathlib
import re

import pdfplumber
from invoice_field_models import detect_fields

TOTAL = re.compile(r"(?i)(total|gesamt|totaal)\D{0,20}([\d.,]+)")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("folder", type=pathlib.Path)
    p.add_argument("--out", type=pathlib.Path, default=pathlib.Path("invoices.csv"))
    a = p.parse_args()
    with a.out.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["file", "supplier", "number", "date", "description", "amount"])
        for pdf in sorted(a.folder.glob("*.pdf")):
            with pdfplumber.open(pdf) as doc:
                text = "\n".join(page.extract_text() or "" for page in doc.pages)
                tables = [t for page in doc.pages for t in page.extract_tables()]
            fields = detect_fields(text)
            for table in tables:
                for row in table[1:]:
                    writer.writerow([pdf.name, fields.supplier, fields.number, fields.date, row[0], row[-1]])


if __name__ == "__main__":
    main()
