"""A fake outside reviewer for tests/test_reviewers.py: prints SARIF 2.1.0, or misbehaves as asked.

Usage: fake_reviewer.py MODE COUNT_FILE SKILL_FOLDER [OUTPUT_FILE], or fake_reviewer.py --version

Each run appends the skill folder's name to COUNT_FILE (how the tests count reviews). MODE is sarif (one
result per line holding "REVIEW-ERROR", "REVIEW-WARNING" or "REVIEW-HOSTILE"), crash, hang, garbage or
huge; a SKILL.md line "FAKE-REVIEWER: <mode>" overrides it for that skill. With OUTPUT_FILE the SARIF is
written there instead of printed. It also tries to write into the skill folder, which must be a copy, and
reports any variable of the build's environment it can see that it should not (SECRET_TOKEN).
"""

import json
import os
import sys
import time
from pathlib import Path


def results(folder: Path) -> list[dict]:
    found = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        relative = path.relative_to(folder).as_posix()
        for number, line in enumerate(path.read_text("utf-8", "replace").splitlines(), start=1):
            for marker, level in (("REVIEW-ERROR", "error"), ("REVIEW-WARNING", "warning")):
                if marker in line:
                    found.append(result(f"FAKE-{level.upper()}", level, f"{marker} seen", relative, number))
            if "REVIEW-HOSTILE" in line:
                hostile = '<script>alert("x")</script><img src=x onerror=alert(1)> & "quoted"'
                found.append(result("<b>FAKE-HOSTILE</b>", "warning", hostile, relative, number))
    if os.environ.get("SECRET_TOKEN"):
        found.append(result("FAKE-LEAK", "error", "the build's environment reached the reviewer", "SKILL.md", 1))
    return found


def result(rule: str, level: str, message: str, path: str, line: int) -> dict:
    return {
        "ruleId": rule,
        "level": level,
        "message": {"text": message},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": path}, "region": {"startLine": line}}}],
    }


def main() -> None:
    if sys.argv[1] == "--version":
        print("fake-reviewer 1.0.0")
        return
    mode, count_file, folder = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    output = Path(sys.argv[4]) if len(sys.argv) > 4 else None
    with count_file.open("a", encoding="utf-8") as counts:
        counts.write(folder.name + "\n")
    skill_md = (folder / "SKILL.md").read_text("utf-8", "replace")
    for line in skill_md.splitlines():
        if line.startswith("FAKE-REVIEWER: "):
            mode = line.removeprefix("FAKE-REVIEWER: ").strip()
    (folder / "written-by-reviewer.txt").write_text("a reviewer must only see a copy\n")
    if mode == "crash":
        print("Traceback: the fake reviewer fell over", file=sys.stderr)
        sys.exit(3)
    if mode == "hang":
        time.sleep(600)
    if mode == "garbage":
        print("<html>this is not SARIF</html>")
        return
    if mode == "huge":
        sys.stdout.write("x" * (9 * 1024 * 1024))
        return
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "fake-reviewer", "version": "1.0"}}, "results": results(folder)}],
    }
    text = json.dumps(log, indent=2)
    if output is not None:
        output.write_text(text, encoding="utf-8")
    else:
        print(text)


if __name__ == "__main__":
    main()
