#!/usr/bin/env python3
"""Read-only CSV helpers: head, summary, duplicates, values."""
import argparse
import collections
import csv
import sys


def open_reader(path):
    handle = open(path, newline="", encoding="utf-8-sig", errors="replace")
    sample = handle.read(8192)
    handle.seek(0)
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    return handle, csv.reader(handle, dialect)


def head(args):
    handle, reader = open_reader(args.file)
    with handle:
        rows = []
        for i, row in enumerate(reader):
            if i > args.rows - (1 if args.no_header else 0):
                break
            rows.append(row)
    if args.no_header and rows:
        rows.insert(0, ["col%d" % (i + 1) for i in range(len(rows[0]))])
    widths = [min(30, max(len(r[i]) if i < len(r) else 0 for r in rows)) for i in range(len(rows[0]))] if rows else []
    for n, row in enumerate(rows):
        print("  ".join((row[i] if i < len(row) else "")[:30].ljust(widths[i]) for i in range(len(widths))))
        if n == 0:
            print("  ".join("-" * w for w in widths))


def guess(value):
    try:
        float(value.replace(",", ""))
        return "number"
    except ValueError:
        return "date" if len(value) >= 8 and value[:4].isdigit() and value[4:5] in "-/" else "text"


def sort_key(value):
    """Numbers sort numerically and before text; everything else sorts as text."""
    try:
        return (0, float(value.replace(",", "")), "")
    except ValueError:
        return (1, 0.0, value)


def summary(args):
    handle, reader = open_reader(args.file)
    with handle:
        header = next(reader, [])
        empty = collections.Counter()
        distinct = collections.defaultdict(set)
        kinds = collections.defaultdict(collections.Counter)
        low, high = {}, {}
        count = 0
        for row in reader:
            count += 1
            if count > args.max_rows:
                count -= 1
                print("(stopped after %d rows)" % args.max_rows)
                break
            for i, name in enumerate(header):
                value = row[i].strip() if i < len(row) else ""
                if not value:
                    empty[name] += 1
                    continue
                if len(distinct[name]) < 10000:
                    distinct[name].add(value)
                kinds[name][guess(value)] += 1
                key = sort_key(value)
                if name not in low or key < sort_key(low[name]):
                    low[name] = value
                if name not in high or key > sort_key(high[name]):
                    high[name] = value
    print("%d rows, %d columns" % (count, len(header)))
    for name in header:
        kind = kinds[name].most_common(1)[0][0] if kinds[name] else "empty"
        shown = len(distinct[name])
        print("- %s: %s, %d empty, %s distinct, min %s, max %s" % (
            name, kind, empty[name], "10000+" if shown >= 10000 else shown,
            low.get(name, "-"), high.get(name, "-")))


def duplicates(args):
    handle, reader = open_reader(args.file)
    with handle:
        header = next(reader, [])
        missing = [k for k in args.keys if k not in header]
        if missing:
            print("unknown column(s): %s; available: %s" % (", ".join(missing), ", ".join(header)))
            return 2
        index = [header.index(k) for k in args.keys]
        groups = collections.defaultdict(list)
        for line, row in enumerate(reader, start=2):
            groups[tuple(row[i] if i < len(row) else "" for i in index)].append(line)
    dupes = [(k, v) for k, v in groups.items() if len(v) > 1]
    print("%d duplicate group(s) on %s" % (len(dupes), ", ".join(args.keys)))
    for key, lines in sorted(dupes, key=lambda kv: -len(kv[1]))[:args.limit]:
        print("- %s: %d rows, lines %s" % (" | ".join(key), len(lines), ", ".join(map(str, lines[:10]))))
    return 0


def values(args):
    handle, reader = open_reader(args.file)
    with handle:
        header = next(reader, [])
        if args.column not in header:
            print("unknown column %r; available: %s" % (args.column, ", ".join(header)))
            return 2
        i = header.index(args.column)
        counts = collections.Counter((row[i] if i < len(row) else "") for row in reader)
    total = sum(counts.values())
    print("%s: %d rows, %d distinct values" % (args.column, total, len(counts)))
    for value, n in counts.most_common(args.top):
        print("- %s: %d (%.1f%%)" % (value if value else "(empty)", n, 100.0 * n / total))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("head")
    p.add_argument("file")
    p.add_argument("--rows", type=int, default=10)
    p.add_argument("--no-header", action="store_true")
    p = sub.add_parser("summary")
    p.add_argument("file")
    p.add_argument("--max-rows", type=int, default=200000)
    p = sub.add_parser("duplicates")
    p.add_argument("file")
    p.add_argument("--keys", nargs="+", required=True)
    p.add_argument("--limit", type=int, default=20)
    p = sub.add_parser("values")
    p.add_argument("file")
    p.add_argument("column")
    p.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    handler = {"head": head, "summary": summary, "duplicates": duplicates, "values": values}[args.command]
    return handler(args) or 0


if __name__ == "__main__":
    sys.exit(main())
