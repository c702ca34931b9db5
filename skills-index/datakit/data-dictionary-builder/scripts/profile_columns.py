#!/usr/bin/env python3
"""Profile the columns of a CSV file for a data dictionary.

Usage: python3 profile_columns.py FILE.csv [--max-rows N] [--json]
"""
import argparse
import collections
import csv
import json
import re
import sys


def shape(value):
    """Summarise a value's pattern: letters become A, digits 9, runs collapsed to 3 max."""
    pattern = re.sub(r"[A-Za-z]", "A", re.sub(r"\d", "9", value))
    return re.sub(r"(.)\1{3,}", lambda m: m.group(1) * 3 + "+", pattern)


def kind(value):
    if re.fullmatch(r"-?\d+", value):
        return "integer"
    if re.fullmatch(r"-?\d*\.\d+", value):
        return "decimal"
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?.*)?", value):
        return "date" if len(value) == 10 else "timestamp"
    if value.lower() in ("true", "false"):
        return "boolean"
    return "text"


def profile(path, max_rows):
    with open(path, newline="", encoding="utf-8-sig") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        stats = [{"values": collections.Counter(), "kinds": collections.Counter(),
                  "shapes": collections.Counter(), "nulls": 0} for _ in header]
        rows = 0
        for row in reader:
            rows += 1
            if rows > max_rows:
                rows -= 1
                break
            for i, stat in enumerate(stats):
                value = row[i].strip() if i < len(row) else ""
                if not value:
                    stat["nulls"] += 1
                    continue
                stat["values"][value] += 1
                stat["kinds"][kind(value)] += 1
                stat["shapes"][shape(value)] += 1
    result = []
    for name, stat in zip(header, stats):
        values = stat["values"]
        kinds = stat["kinds"]
        main_kind = kinds.most_common(1)[0][0] if kinds else "empty"
        entry = {
            "column": name,
            "type": main_kind if len(kinds) <= 1 else "%s (mixed: %s)" % (main_kind, ", ".join(sorted(kinds))),
            "null_pct": round(100.0 * stat["nulls"] / rows, 1) if rows else 0.0,
            "distinct": len(values),
            "top_values": values.most_common(5),
            "top_patterns": [p for p, _ in stat["shapes"].most_common(3)],
        }
        if main_kind in ("integer", "decimal"):
            numbers = [float(v) for v in values if kind(v) in ("integer", "decimal")]
            entry["min"], entry["max"] = min(numbers), max(numbers)
        elif main_kind in ("date", "timestamp"):
            dates = sorted(v for v in values if kind(v) in ("date", "timestamp"))
            entry["min"], entry["max"] = dates[0], dates[-1]
        result.append(entry)
    return {"file": path, "rows_profiled": rows, "columns": result}


def main():
    parser = argparse.ArgumentParser(description="Profile CSV columns.")
    parser.add_argument("file")
    parser.add_argument("--max-rows", type=int, default=100000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = profile(args.file, args.max_rows)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print("%s: %d rows profiled" % (report["file"], report["rows_profiled"]))
    for c in report["columns"]:
        print("\n%s" % c["column"])
        print("  type: %s, null: %s%%, distinct: %d" % (c["type"], c["null_pct"], c["distinct"]))
        if "min" in c:
            print("  range: %s to %s" % (c["min"], c["max"]))
        print("  top values: " + ", ".join("%s (%d)" % (v, n) for v, n in c["top_values"]))
        print("  patterns: " + ", ".join(c["top_patterns"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
