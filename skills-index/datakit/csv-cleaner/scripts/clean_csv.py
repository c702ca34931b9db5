#!/usr/bin/env python3
"""Profile and clean CSV files using only the standard library.

    clean_csv.py profile INPUT [--sample N]
    clean_csv.py clean INPUT OUTPUT [--dayfirst] [--decimal-comma]
                 [--dedupe-key COLUMN ...] [--drop-bad-rows]
"""
import argparse
import collections
import csv
import datetime
import json
import re
import sys

NULLS = {"", "n/a", "na", "null", "none", "-", "nan"}
TRUE = {"true", "yes", "y", "1", "t"}
FALSE = {"false", "no", "n", "0", "f"}
ID_HINTS = ("id", "code", "zip", "postal", "phone", "sku")


def read_text(path):
    raw = open(path, "rb").read()
    for encoding in ("utf-8-sig", "utf-16", "cp1252"):
        try:
            text = raw.decode(encoding)
            if encoding == "utf-16" and not raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
                continue
            return text, "utf-8" if encoding == "utf-8-sig" and not raw.startswith(b"\xef\xbb\xbf") else encoding
        except UnicodeDecodeError:
            continue
    return raw.decode("latin-1"), "latin-1"


def detect_delimiter(text):
    """Pick the delimiter that gives the header's field count on the most lines."""
    lines = text.splitlines(True)[:50]
    best, best_score = ",", (-1, 0)
    for candidate in (",", ";", "\t", "|"):
        counts = [len(r) for r in csv.reader(lines, delimiter=candidate)]
        if not counts or counts[0] < 2:
            continue
        score = (sum(1 for c in counts if c == counts[0]), counts[0])
        if score > best_score:
            best, best_score = candidate, score
    return best


def read_rows(path, sample=None):
    text, encoding = read_text(path)
    delimiter = detect_delimiter(text)
    rows = []
    for i, row in enumerate(csv.reader(text.splitlines(True), delimiter=delimiter)):
        if sample and i > sample:
            break
        rows.append(row)
    return rows, encoding, delimiter


def snake(name, index):
    name = re.sub(r"[^0-9a-zA-Z]+", "_", name.strip()).strip("_").lower()
    return name or "column_%d" % index


def clean_headers(headers):
    seen, result = collections.Counter(), []
    for index, header in enumerate(headers, start=1):
        name = snake(header, index)
        seen[name] += 1
        result.append(name if seen[name] == 1 else "%s_%d" % (name, seen[name]))
    return result


def parse_date(value, dayfirst):
    formats = ["%Y-%m-%d", "%d/%m/%Y", "%d.%m.%Y", "%d-%m-%Y"] if dayfirst else \
              ["%Y-%m-%d", "%m/%d/%Y", "%m.%d.%Y", "%m-%d-%Y"]
    for fmt in formats:
        try:
            return datetime.datetime.strptime(value, fmt).date().isoformat()
        except ValueError:
            pass
    return None


def parse_number(value, decimal_comma):
    v = value.replace(" ", "")
    v = v.replace(".", "").replace(",", ".") if decimal_comma else v.replace(",", "")
    return v if re.fullmatch(r"-?\d+(\.\d+)?", v) else None


def normalise(cell):
    cell = re.sub(r"\s+", " ", cell.strip())
    return "" if cell.lower() in NULLS else cell


def infer(name, values, args):
    filled = [v for v in values if v]
    if not filled:
        return "empty"
    tokens = set(name.split("_"))
    if any(v.isdigit() and v.startswith("0") and len(v) > 1 for v in filled) or \
            (tokens & set(ID_HINTS) and len({len(v) for v in filled}) == 1):
        return "identifier"
    for kind, test in (("boolean", lambda v: v.lower() in TRUE | FALSE),
                       ("date", lambda v: parse_date(v, args.dayfirst)),
                       ("number", lambda v: parse_number(v, args.decimal_comma))):
        if sum(1 for v in filled if test(v)) >= 0.95 * len(filled):
            return kind
    return "text"


def profile(args):
    rows, encoding, delimiter = read_rows(args.input, args.sample)
    header, body = rows[0], rows[1:]
    widths = collections.Counter(len(r) for r in body)
    columns = []
    for i, name in enumerate(clean_headers(header)):
        values = [normalise(r[i]) if i < len(r) else "" for r in body]
        columns.append({"column": name, "original": header[i], "empty": values.count(""),
                        "distinct": len(set(values)), "guess": infer(name, values, args)})
    print(json.dumps({"encoding": encoding, "delimiter": delimiter, "rows": len(body),
                      "fields_per_row": dict(widths), "columns": columns}, indent=2))


def clean(args):
    rows, encoding, delimiter = read_rows(args.input)
    header = clean_headers(rows[0])
    good, rejects = [], []
    for row in rows[1:]:
        if len(row) != len(header):
            rejects.append(row + ["expected %d fields, got %d" % (len(header), len(row))])
        else:
            good.append([normalise(c) for c in row])
    kinds = [infer(name, [r[i] for r in good], args) for i, name in enumerate(header)]
    changed = collections.Counter()
    for row in good:
        for i, kind in enumerate(kinds):
            value, new = row[i], row[i]
            if not value:
                continue
            if kind == "date":
                new = parse_date(value, args.dayfirst) or value
            elif kind == "number":
                new = parse_number(value, args.decimal_comma) or value
            elif kind == "boolean":
                new = "true" if value.lower() in TRUE else "false" if value.lower() in FALSE else value
            if new != value:
                changed[header[i]] += 1
                row[i] = new
    seen, output, duplicates = set(), [], 0
    key_index = [header.index(k) for k in args.dedupe_key] if args.dedupe_key else None
    for row in good:
        key = tuple(row[i] for i in key_index) if key_index else tuple(row)
        if key in seen:
            duplicates += 1
            continue
        seen.add(key)
        output.append(row)
    with open(args.output, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(output)
    if rejects and not args.drop_bad_rows:
        reject_path = re.sub(r"\.csv$", "", args.output) + ".rejects.csv"
        with open(reject_path, "w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows([rows[0] + ["reason"]] + rejects)
    print(json.dumps({"input_encoding": encoding, "input_delimiter": delimiter,
                      "input_rows": len(rows) - 1, "output_rows": len(output),
                      "rejected_rows": len(rejects), "duplicates_removed": duplicates,
                      "column_types": dict(zip(header, kinds)),
                      "cells_converted": dict(changed)}, indent=2))


def main():
    parser = argparse.ArgumentParser(description="Profile and clean CSV files.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("profile", "clean"):
        p = sub.add_parser(name)
        p.add_argument("input")
        if name == "clean":
            p.add_argument("output")
            p.add_argument("--dedupe-key", action="append", default=[])
            p.add_argument("--drop-bad-rows", action="store_true")
        else:
            p.add_argument("--sample", type=int, default=None)
        p.add_argument("--dayfirst", action="store_true")
        p.add_argument("--decimal-comma", action="store_true")
    args = parser.parse_args()
    profile(args) if args.command == "profile" else clean(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
