#!/usr/bin/env python3
"""Summarise a Terraform JSON plan and flag risky changes.

Usage: python3 summarize_plan.py plan.json
The input is the output of `terraform show -json <saved-plan>`.
"""
import collections
import json
import sys

DATA_STORES = ("db_instance", "rds_cluster", "dynamodb_table", "s3_bucket", "ebs_volume",
               "efs_file_system", "elasticache", "sql_database_instance", "storage_bucket",
               "compute_disk", "storage_account", "cosmosdb")
KEYS = ("kms_key", "key_vault", "kms_crypto_key")
AVAILABILITY = ("lb", "alb", "elb", "route53_record", "dns_record", "certificate", "network_interface")
OPEN_CIDRS = ("0.0.0.0/0", "::/0")


def action_name(actions):
    if actions == ["no-op"] or actions == ["read"]:
        return None
    if "delete" in actions and "create" in actions:
        return "replace"
    return actions[0]


def walk_strings(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from walk_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk_strings(item)
    elif isinstance(value, str):
        yield value


def flags_for(change, action):
    rtype = change["type"]
    before = change["change"].get("before") or {}
    after = change["change"].get("after") or {}
    flags = []
    if action in ("replace", "delete"):
        if any(t in rtype for t in DATA_STORES):
            flags.append(("TF101", "data store %s: data loss unless restored from backup" % action))
        if any(t in rtype for t in KEYS):
            flags.append(("TF102", "encryption key %s" % action))
        if action == "replace" and any((t in rtype) if "_" in t else (t in rtype.split("_")) for t in AVAILABILITY):
            flags.append(("TF301", "replacement may cause downtime"))
    if before.get("deletion_protection") and after.get("deletion_protection") is False:
        flags.append(("TF103", "deletion protection turned off"))
    if isinstance(after.get("backup_retention_period"), int) and \
            after.get("backup_retention_period", 0) < (before.get("backup_retention_period") or 0):
        flags.append(("TF104", "backup retention reduced"))
    if action in ("create", "update", "replace"):
        strings = list(walk_strings(after))
        if any(s in OPEN_CIDRS for s in strings):
            flags.append(("TF201", "open to the internet (%s)" % ", ".join(sorted(set(OPEN_CIDRS) & set(strings)))))
        if after.get("acl") in ("public-read", "public-read-write"):
            flags.append(("TF202", "public ACL"))
        for text in strings:
            if '"Action"' in text or '"Resource"' in text:
                try:
                    policy = json.loads(text)
                except ValueError:
                    continue
                for stmt in policy.get("Statement", []):
                    acts = stmt.get("Action", [])
                    res = stmt.get("Resource", [])
                    acts = [acts] if isinstance(acts, str) else acts
                    res = [res] if isinstance(res, str) else res
                    if stmt.get("Effect") == "Allow" and ("*" in acts or "*" in res):
                        flags.append(("TF203", "IAM statement allows * actions or resources"))
                        break
        if rtype.endswith("iam_access_key"):
            flags.append(("TF204", "new long-lived access key"))
    if after.get("min_size") == 0 and (before.get("min_size") or 0) > 0:
        flags.append(("TF302", "autoscaling minimum reduced to zero"))
    return flags


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2])
        return 2
    with open(argv[1], encoding="utf-8") as handle:
        plan = json.load(handle)
    counts = collections.Counter()
    lines = []
    for change in plan.get("resource_changes", []):
        action = action_name(change["change"]["actions"])
        if not action:
            continue
        counts[action] += 1
        flags = flags_for(change, action)
        if action in ("replace", "delete") or flags:
            lines.append("%-8s %s" % (action.upper(), change["address"]))
            lines.extend("  %s %s" % flag for flag in flags)
    print("Plan: %d to create, %d to update, %d to replace, %d to destroy" % (
        counts["create"], counts["update"], counts["replace"], counts["delete"]))
    if lines:
        print()
        print("\n".join(lines))
    flagged = sum(1 for line in lines if line.startswith("  TF"))
    print("\n%d risk flag(s)" % flagged)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
