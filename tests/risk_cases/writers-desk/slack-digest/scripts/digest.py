"""Print Slack channel history since a date as JSON lines, using the user's token."""

import argparse
import datetime as dt
import json
import os
import urllib.parse
import urllib.request

API = "https://slack.com/api"


def call(method, **params):
    token = os.environ["SLACK_USER_TOKEN"]
    url = f"{API}/{method}?{urllib.parse.urlencode(params)}"
    req = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        data = json.load(resp)
    if not data.get("ok"):
        raise SystemExit(f"{method}: {data.get('error')}")
    return data


def channel_ids(names):
    wanted, found, cursor = set(names), {}, None
    while True:
        data = call("conversations.list", limit=1000, **({"cursor": cursor} if cursor else {}))
        for channel in data["channels"]:
            if channel["name"] in wanted:
                found[channel["name"]] = channel["id"]
        cursor = data.get("response_metadata", {}).get("next_cursor")
        if not cursor:
            return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--since", required=True)
    parser.add_argument("--channels", required=True)
    args = parser.parse_args()
    oldest = dt.datetime.fromisoformat(args.since).timestamp()
    for name, cid in channel_ids(args.channels.split(",")).items():
        data = call("conversations.history", channel=cid, oldest=oldest, limit=500)
        for message in data["messages"]:
            print(json.dumps({
                "channel": name,
                "user": message.get("user"),
                "ts": message["ts"],
                "text": message.get("text", ""),
                "replies": message.get("reply_count", 0),
                "reactions": [r["name"] for r in message.get("reactions", [])],
            }))


if __name__ == "__main__":
    main()
