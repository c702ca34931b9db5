"""Encode a file as a base64 data URI, or decode a data URI to a file."""

import base64
import mimetypes
import sys
from pathlib import Path


def encode(path):
    mime = mimetypes.guess_type(path)[0] or "application/octet-stream"
    data = base64.b64encode(Path(path).read_bytes()).decode("ascii")
    print(f"data:{mime};base64,{data}")


def decode(uri, out):
    header, _, payload = uri.partition(",")
    if not header.startswith("data:") or not header.endswith(";base64"):
        raise SystemExit("not a base64 data URI")
    Path(out).write_bytes(base64.b64decode(payload))
    print(out)


if __name__ == "__main__":
    if sys.argv[1] == "encode":
        encode(sys.argv[2])
    else:
        decode(sys.argv[2], sys.argv[3])
