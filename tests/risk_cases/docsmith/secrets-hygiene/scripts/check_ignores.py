"""Report tracked files whose names look like secrets, and .gitignore patterns that are missing."""

import fnmatch
import subprocess
import sys
from pathlib import Path

SECRET_NAMES = [".env", ".env.*", "*.pem", "*.p12", "id_rsa", "id_ed25519", "credentials", ".npmrc", ".pypirc"]
ALLOWED = {".env.example", ".env.sample"}


def main(root="."):
    tracked = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True, check=True).stdout.split()
    for path in tracked:
        name = Path(path).name
        if name in ALLOWED:
            continue
        if any(fnmatch.fnmatch(name, pattern) for pattern in SECRET_NAMES):
            print(f"tracked secret-like file: {path}")
    ignore = Path(root, ".gitignore")
    patterns = ignore.read_text().splitlines() if ignore.exists() else []
    for wanted in (".env", "*.pem"):
        if wanted not in patterns:
            print(f".gitignore lacks: {wanted}")


if __name__ == "__main__":
    main(*sys.argv[1:])
