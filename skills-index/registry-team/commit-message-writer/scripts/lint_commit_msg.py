#!/usr/bin/env python3
"""Check a commit message against the Conventional Commits house rules.

Usage:
    python3 lint_commit_msg.py --message "feat(api): add pagination"
    python3 lint_commit_msg.py --file .git/COMMIT_EDITMSG

Exit status: 0 when there are no errors (warnings allowed), 1 otherwise.
"""
import argparse
import re
import sys

TYPES = ("feat", "fix", "perf", "refactor", "docs", "test", "build", "ci",
         "chore", "revert", "style")
SUBJECT_RE = re.compile(
    r"^(?P<type>[a-z]+)(?:\((?P<scope>[a-z0-9][a-z0-9._/-]*)\))?(?P<bang>!)?: (?P<desc>.+)$"
)
PAST_TENSE = re.compile(r"^(added|fixed|removed|updated|changed|renamed)\b", re.I)


def lint(message):
    errors, warnings = [], []
    lines = message.rstrip("\n").split("\n")
    lines = [line for line in lines if not line.startswith("#")]
    if not lines or not lines[0].strip():
        return ["empty commit message"], warnings
    subject = lines[0]
    match = SUBJECT_RE.match(subject)
    if not match:
        errors.append("subject must look like 'type(scope): description'")
    else:
        if match.group("type") not in TYPES:
            errors.append("unknown type '%s' (allowed: %s)" % (match.group("type"), ", ".join(TYPES)))
        desc = match.group("desc")
        if desc.endswith("."):
            errors.append("subject must not end with a period")
        if desc[:1].isupper() and not desc.split(" ")[0].isupper():
            warnings.append("description usually starts in lower case")
        if PAST_TENSE.match(desc):
            warnings.append("use the imperative mood ('add', not 'added')")
    if len(subject) > 72:
        errors.append("subject is %d characters; the limit is 72" % len(subject))
    elif len(subject) > 50:
        warnings.append("subject is %d characters; 50 or fewer reads best" % len(subject))
    if len(lines) > 1 and lines[1].strip():
        errors.append("leave a blank line between the subject and the body")
    for number, line in enumerate(lines[2:], start=3):
        if len(line) > 72 and "://" not in line:
            warnings.append("line %d is longer than 72 characters" % number)
    return errors, warnings


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--message", help="the commit message text")
    group.add_argument("--file", help="a file holding the commit message")
    args = parser.parse_args()
    if args.file:
        with open(args.file, encoding="utf-8") as handle:
            message = handle.read()
    else:
        message = args.message
    errors, warnings = lint(message)
    for item in errors:
        print("error: " + item)
    for item in warnings:
        print("warning: " + item)
    if not errors and not warnings:
        print("ok")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
