#!/usr/bin/env python3
"""Report documentation gaps in an OpenAPI 3 specification.

Usage: python3 openapi_gaps.py SPEC_FILE
SPEC_FILE may be JSON, or YAML when PyYAML is installed.
"""
import json
import sys

METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


def load(path):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    if path.endswith((".yaml", ".yml")):
        try:
            import yaml
        except ImportError:
            sys.exit("PyYAML is needed for YAML specs; convert to JSON or install it")
        return yaml.safe_load(text)
    return json.loads(text)


def has_example(media):
    return bool(media.get("example") or media.get("examples")
                or (media.get("schema") or {}).get("example"))


def gaps(spec):
    found = []
    for path, item in sorted((spec.get("paths") or {}).items()):
        shared = item.get("parameters") or []
        for method in METHODS:
            op = item.get(method)
            if not isinstance(op, dict):
                continue
            where = "%s %s" % (method.upper(), path)
            if not op.get("operationId"):
                found.append((where, "no operationId"))
            if not op.get("summary") and not op.get("description"):
                found.append((where, "no summary or description"))
            for param in shared + (op.get("parameters") or []):
                if "$ref" in param:
                    continue
                if not param.get("description"):
                    found.append((where, "parameter '%s' has no description" % param.get("name")))
            responses = op.get("responses") or {}
            if not any(str(code).startswith(("4", "5")) or code == "default" for code in responses):
                found.append((where, "no error responses documented"))
            for code, response in sorted(responses.items(), key=lambda kv: str(kv[0])):
                content = (response or {}).get("content") or {}
                for media_type, media in content.items():
                    if str(code).startswith("2") and not has_example(media or {}):
                        found.append((where, "response %s (%s) has no example" % (code, media_type)))
    return found


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2])
        return 2
    found = gaps(load(argv[1]))
    for where, message in found:
        print("%-40s %s" % (where, message))
    print("%d gap(s)" % len(found))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
