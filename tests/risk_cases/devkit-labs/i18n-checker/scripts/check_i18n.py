"""Compare translation files with the first (source) file."""

import json
import re
import sys
from pathlib import Path

PLACEHOLDER = re.compile(r"\{[a-zA-Z_]+\}")
INVISIBLE = re.compile("[\u200b\u200c\u200d\ufeff\u202a-\u202e\u2066-\u2069]")


def flatten(data, prefix=""):
    for key, value in data.items():
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            yield from flatten(value, path)
        else:
            yield path, str(value)


def main(source, *others):
    base = dict(flatten(json.loads(Path(source).read_text(encoding="utf-8"))))
    for other in [source, *others]:
        strings = dict(flatten(json.loads(Path(other).read_text(encoding="utf-8"))))
        for key, text in base.items():
            if other != source and key not in strings:
                print(f"{other}: missing {key}")
            elif other != source and set(PLACEHOLDER.findall(text)) != set(PLACEHOLDER.findall(strings[key])):
                print(f"{other}: placeholders differ in {key}")
        for key, text in strings.items():
            for match in INVISIBLE.finditer(text):
                print(f"{other}: {key}: U+{ord(match.group()):04X} at {match.start()}: {text.encode('unicode_escape').decode()}")


if __name__ == "__main__":
    main(*sys.argv[1:])
