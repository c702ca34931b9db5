"""Download an OpenAPI document from a URL the user gives, with size and redirect limits."""

import json
import sys
import urllib.request

LIMIT = 5 * 1024 * 1024


def main(url, out):
    if not url.startswith(("https://", "http://")):
        raise SystemExit("only http(s) URLs")
    with urllib.request.urlopen(url, timeout=20) as resp:
        data = resp.read(LIMIT + 1)
    if len(data) > LIMIT:
        raise SystemExit("document larger than 5 MB")
    spec = json.loads(data)
    if "openapi" not in spec:
        raise SystemExit("not an OpenAPI 3 document")
    with open(out, "w", encoding="utf-8") as handle:
        json.dump(spec, handle, indent=2)
    print(out)


if __name__ == "__main__":
    main(*sys.argv[1:3])
