"""Personalised emails from a CSV through the user's SMTP account."""

import argparse
import csv
import os
import pathlib
import smtplib
import time
from email.message import EmailMessage


def render(template: str, row: dict) -> tuple[str, str]:
    subject_line, _, body = template.partition("\n")
    return subject_line.removeprefix("Subject:").strip().format(**row), body.strip().format(**row)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("csv")
    p.add_argument("template")
    p.add_argument("--preview", type=int, default=0)
    p.add_argument("--send", action="store_true")
    p.add_argument("--per-minute", type=int, default=20)
    a = p.parse_args()
    rows = list(csv.DictReader(open(a.csv, newline="", encoding="utf-8")))
    template = pathlib.Path(a.template).read_text(encoding="utf-8")
    if not a.send:
        for row in rows[: a.preview or 3]:
            subject, body = render(template, row)
            print(f"To: {row['email']}\nSubject: {subject}\n\n{body}\n{'-' * 40}")
        print(f"{len(rows)} messages")
        return
    log = pathlib.Path("sent.log")
    done = set(log.read_text().split()) if log.exists() else set()
    with smtplib.SMTP(os.environ["SMTP_HOST"], int(os.environ.get("SMTP_PORT", "587"))) as smtp:
        smtp.starttls()
        smtp.login(os.environ["SMTP_USER"], os.environ["SMTP_PASSWORD"])
        for row in rows:
            if row["email"] in done:
                continue
            subject, body = render(template, row)
            msg = EmailMessage()
            msg["From"], msg["To"], msg["Subject"] = os.environ["SMTP_USER"], row["email"], subject
            msg.set_content(body)
            smtp.send_message(msg)
            with log.open("a") as f:
                f.write(f"{row['email']} {time.strftime('%Y-%m-%dT%H:%M:%S')}\n")
            time.sleep(60 / a.per_minute)


if __name__ == "__main__":
    main()
