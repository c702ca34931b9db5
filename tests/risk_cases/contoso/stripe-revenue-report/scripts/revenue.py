"""Monthly revenue from Stripe balance transactions (read-only)."""

import argparse
import base64
import datetime as dt
import json
import os
import urllib.parse
import urllib.request
from collections import defaultdict

API = "https://api.stripe.com/v1"


def get(path, **params):
    token = base64.b64encode(f"{os.environ['STRIPE_API_KEY']}:".encode()).decode()
    url = f"{API}/{path}?{urllib.parse.urlencode(params)}"
    req = urllib.request.Request(url, headers={"Authorization": f"Basic {token}"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--from", dest="start", required=True)
    parser.add_argument("--to", dest="end", required=True)
    args = parser.parse_args()
    start = int(dt.datetime.fromisoformat(args.start).timestamp())
    end = int(dt.datetime.fromisoformat(args.end).timestamp())
    months = defaultdict(lambda: defaultdict(int))
    cursor = None
    while True:
        params = {"limit": 100, "created[gte]": start, "created[lte]": end}
        if cursor:
            params["starting_after"] = cursor
        page = get("balance_transactions", **params)
        for tx in page["data"]:
            month = dt.datetime.fromtimestamp(tx["created"]).strftime("%Y-%m")
            months[month][tx["type"]] += tx["amount"]
            months[month]["fee"] += tx["fee"]
        if not page["has_more"]:
            break
        cursor = page["data"][-1]["id"]
    for month in sorted(months):
        m = months[month]
        print(f"{month}  gross {m['charge'] / 100:.2f}  refunds {m['refund'] / 100:.2f}  fees {m['fee'] / 100:.2f}")


if __name__ == "__main__":
    main()
