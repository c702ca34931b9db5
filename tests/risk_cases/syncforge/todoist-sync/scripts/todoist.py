"""Todoist tasks from the command line, using the skill's own config file."""

import argparse
import json
import os
import pathlib
import urllib.request

CONFIG = pathlib.Path.home() / ".config" / "todoist-sync" / ".env"
API = "https://api.todoist.com/rest/v2"


def settings() -> dict:
    values = {}
    if CONFIG.is_file():
        for line in CONFIG.read_text().splitlines():
            key, sep, value = line.partition("=")
            if sep and not key.startswith("#"):
                values[key.strip()] = value.strip()
    if os.environ.get("TODOIST_API_TOKEN"):
        values["TODOIST_API_TOKEN"] = os.environ["TODOIST_API_TOKEN"]
    return values


def call(method: str, path: str, body=None):
    token = settings()["TODOIST_API_TOKEN"]
    req = urllib.request.Request(f"{API}{path}", method=method, data=json.dumps(body).encode() if body else None,
                                 headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=15) as resp:
        return json.load(resp) if resp.status == 200 else None


def main() -> None:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("today")
    add = sub.add_parser("add")
    add.add_argument("content")
    add.add_argument("--due")
    add.add_argument("--labels", default="")
    done = sub.add_parser("done")
    done.add_argument("name")
    a = p.parse_args()
    if a.cmd == "today":
        for task in call("GET", "/tasks?filter=today%20%7C%20overdue"):
            print(f"- {task['content']} ({(task.get('due') or {}).get('string', '')})")
    elif a.cmd == "add":
        body = {"content": a.content, "labels": [l for l in a.labels.split(",") if l]}
        if a.due:
            body["due_string"] = a.due
        print(call("POST", "/tasks", body)["url"])
    else:
        matches = [t for t in call("GET", "/tasks") if a.name.lower() in t["content"].lower()]
        if len(matches) != 1:
            print("\n".join(t["content"] for t in matches) or "no match")
            return
        call("POST", f"/tasks/{matches[0]['id']}/close")


if __name__ == "__main__":
    main()
