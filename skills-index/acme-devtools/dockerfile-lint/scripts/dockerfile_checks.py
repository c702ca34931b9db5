#!/usr/bin/env python3
"""A small, dependency-free Dockerfile checker.

Usage:
    dockerfile_checks.py [PATH] [--json]   check one Dockerfile (default: Dockerfile)
    dockerfile_checks.py --find            list Dockerfiles under the current directory
"""
import json
import os
import re
import sys

SKIP_DIRS = {".git", "node_modules", "vendor", ".venv", "dist", "build"}
SECRET_NAME = re.compile(r"(PASSWORD|PASSWD|SECRET|TOKEN|API_KEY|PRIVATE_KEY)", re.I)


def logical_lines(text):
    """Join backslash continuations; yield (first_line_number, instruction, args)."""
    buffer, start = "", None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not buffer and (not line or line.startswith("#")):
            continue
        if start is None:
            start = number
        if line.endswith("\\"):
            buffer += line[:-1] + " "
            continue
        buffer += line
        parts = buffer.split(None, 1)
        yield start, parts[0].upper(), parts[1] if len(parts) > 1 else ""
        buffer, start = "", None


def check(text):
    findings = []

    def add(line, rule, severity, message):
        findings.append({"line": line, "rule": rule, "severity": severity, "message": message})

    saw_user = False
    copied_all_at = None
    for line, instr, args in logical_lines(text):
        if instr == "FROM":
            image = args.split()[0] if args else ""
            if image.lower() != "scratch" and "@sha256:" not in image:
                name = image.rsplit("/", 1)[-1]
                if ":" not in name or name.endswith(":latest"):
                    add(line, "DF001", "warning", "pin the base image to a specific tag or digest")
        elif instr == "RUN":
            if "apt-get install" in args and "--no-install-recommends" not in args:
                add(line, "DF002", "warning", "add --no-install-recommends to apt-get install")
            if "apt-get update" in args and "apt-get install" not in args:
                add(line, "DF003", "error", "run apt-get update and install in the same RUN")
            if "apt-get install" in args and "/var/lib/apt/lists" not in args:
                add(line, "DF004", "info", "remove /var/lib/apt/lists/ in the same RUN")
            if re.search(r"\bpip3? install\b", args) and "--no-cache-dir" not in args:
                add(line, "DF009", "info", "use pip install --no-cache-dir")
            if copied_all_at and re.search(r"\b(npm (ci|install)|pip3? install|poetry install|go mod download|bundle install)\b", args):
                add(copied_all_at, "DF008", "warning", "copy dependency manifests and install before COPY . .")
                copied_all_at = None
        elif instr == "ADD":
            source = args.split()[0] if args else ""
            if not re.match(r"^[a-z]+://", source) and not source.endswith((".tar", ".tar.gz", ".tgz")):
                add(line, "DF005", "info", "use COPY for local files; ADD has implicit extraction rules")
        elif instr == "COPY":
            if re.match(r"^(--\S+\s+)*\.\s+\.?/?\S*$", args):
                copied_all_at = line
        elif instr in ("ENV", "ARG"):
            name = re.split(r"[=\s]", args, 1)[0]
            if SECRET_NAME.search(name):
                add(line, "DF007", "error", "%s looks like a secret; use build secrets or runtime config" % name)
        elif instr == "EXPOSE" and re.search(r"\b22\b", args):
            add(line, "DF010", "warning", "do not run an SSH server in the container")
        elif instr == "USER":
            saw_user = args.strip() not in ("root", "0", "0:0")
    if not saw_user:
        add(0, "DF006", "warning", "no non-root USER instruction; the container runs as root")
    return sorted(findings, key=lambda f: (f["line"], f["rule"]))


def find_dockerfiles(root="."):
    for current, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        for name in sorted(files):
            if name == "Dockerfile" or name.startswith("Dockerfile.") or name.endswith(".Dockerfile"):
                print(os.path.relpath(os.path.join(current, name), root))


def main(argv):
    if "--find" in argv:
        find_dockerfiles()
        return 0
    as_json = "--json" in argv
    paths = [a for a in argv if not a.startswith("--")]
    path = paths[0] if paths else "Dockerfile"
    try:
        with open(path, encoding="utf-8") as handle:
            findings = check(handle.read())
    except OSError as error:
        print("cannot read %s: %s" % (path, error.strerror))
        return 2
    if as_json:
        print(json.dumps({"file": path, "findings": findings}, indent=2))
    else:
        for f in findings:
            print("%s:%d %s %s %s" % (path, f["line"], f["severity"].upper(), f["rule"], f["message"]))
        print("%d finding(s)" % len(findings))
    return 1 if any(f["severity"] == "error" for f in findings) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
