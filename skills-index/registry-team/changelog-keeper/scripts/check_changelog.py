#!/usr/bin/env python3
"""Check a Keep a Changelog style CHANGELOG.md for structural problems.

Usage: python3 check_changelog.py CHANGELOG.md
Prints one finding per line and exits with 1 if any error was found.
"""
import re
import sys

GROUPS = ["Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"]
SEMVER = r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?"
VERSION_HEADING = re.compile(r"^## \[(?P<version>[^\]]+)\](?: - (?P<date>\S+))?(?P<rest>.*)$")
GROUP_HEADING = re.compile(r"^### (?P<group>.+?)\s*$")
LINK_DEF = re.compile(r"^\[(?P<label>[^\]]+)\]:\s+\S+")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def check(lines):
    errors, warnings = [], []
    versions, links, dates = [], set(), []
    saw_unreleased = False
    for number, line in enumerate(lines, start=1):
        heading = VERSION_HEADING.match(line)
        if heading:
            version = heading.group("version")
            if version == "Unreleased":
                if versions:
                    errors.append((number, "[Unreleased] must be the first section"))
                saw_unreleased = True
            elif not re.fullmatch(SEMVER, version):
                errors.append((number, "'%s' is not a semantic version" % version))
            else:
                date = heading.group("date")
                if not date or not DATE.match(date):
                    errors.append((number, "release %s needs a YYYY-MM-DD date" % version))
                else:
                    dates.append((number, date))
            versions.append((number, version))
            continue
        group = GROUP_HEADING.match(line)
        if group and group.group("group") not in GROUPS:
            errors.append((number, "unknown group '%s'" % group.group("group")))
        link = LINK_DEF.match(line)
        if link:
            links.add(link.group("label"))
    if not saw_unreleased:
        warnings.append((1, "no [Unreleased] section"))
    for (first_line, first), (_, second) in zip(dates, dates[1:]):
        if first < second:
            errors.append((first_line, "dates are not in descending order"))
    for number, version in versions:
        if version not in links:
            warnings.append((number, "no comparison link for [%s]" % version))
    return errors, warnings


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2])
        return 2
    with open(argv[1], encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    errors, warnings = check(lines)
    for number, message in sorted(errors):
        print("line %d: error: %s" % (number, message))
    for number, message in sorted(warnings):
        print("line %d: warning: %s" % (number, message))
    if not errors and not warnings:
        print("ok")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
