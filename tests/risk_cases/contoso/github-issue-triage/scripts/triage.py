"""List and label GitHub issues through the REST API."""

import json
import os
import sys
import urllib.request

API = "https://api.github.com"


def call(method, path, body=None):
    token = os.environ["GITHUB_TOKEN"]
    req = urllib.request.Request(
        API + path,
        data=json.dumps(body).encode() if body is not None else None,
        method=method,
        headers={
            "Authorization": f"Bearer {token}",
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28",
        },
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp)


def list_issues(repo, state="open", limit=100):
    page, seen = 1, 0
    while seen < limit:
        items = call("GET", f"/repos/{repo}/issues?state={state}&per_page=100&page={page}")
        if not items:
            break
        for issue in items:
            if "pull_request" in issue:
                continue
            labels = ",".join(label["name"] for label in issue["labels"])
            print(f"#{issue['number']}\t{issue['title'][:80]}\t{labels}")
            seen += 1
        page += 1


def add_labels(repo, number, labels):
    call("POST", f"/repos/{repo}/issues/{number}/labels", {"labels": labels})


if __name__ == "__main__":
    command, repo = sys.argv[1], sys.argv[2]
    if command == "list":
        list_issues(repo)
    elif command == "label":
        add_labels(repo, int(sys.argv[3]), sys.argv[4:])
