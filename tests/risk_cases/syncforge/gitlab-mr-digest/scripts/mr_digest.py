"""Digest of open GitLab merge requests, using the user's own token for their GitLab host."""

import argparse
import json
import os
import pathlib
import urllib.parse
import urllib.request

import yaml


def token_for(host: str) -> str:
    if os.environ.get("GITLAB_TOKEN"):
        return os.environ["GITLAB_TOKEN"]
    config = pathlib.Path.home() / ".config" / "glab-cli" / "config.yml"
    data = yaml.safe_load(config.read_text()) if config.is_file() else {}
    hostname = urllib.parse.urlparse(host).hostname
    return ((data or {}).get("hosts", {}).get(hostname, {}) or {}).get("token", "")


def api(host: str, path: str, token: str):
    req = urllib.request.Request(f"{host}/api/v4{path}", headers={"PRIVATE-TOKEN": token})
    with urllib.request.urlopen(req, timeout=20) as resp:
        return json.load(resp)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--project", required=True)
    p.add_argument("--host", default="https://gitlab.com")
    a = p.parse_args()
    token = token_for(a.host)
    project = urllib.parse.quote(a.project, safe="")
    for mr in api(a.host, f"/projects/{project}/merge_requests?state=opened&per_page=100", token):
        pipeline = (mr.get("head_pipeline") or {}).get("status", "none")
        print(f"!{mr['iid']} {mr['title']} by {mr['author']['username']} - pipeline {pipeline}, conflicts {mr['has_conflicts']}")


if __name__ == "__main__":
    main()
