"""List Discord roles with dangerous permissions from a roles.json export."""

import json
import sys

DANGEROUS = {
    "ADMINISTRATOR": 1 << 3,
    "MANAGE_GUILD": 1 << 5,
    "MANAGE_ROLES": 1 << 28,
    "MENTION_EVERYONE": 1 << 17,
    "BAN_MEMBERS": 1 << 2,
}


def main(path: str) -> None:
    roles = json.load(open(path, encoding="utf-8"))
    for role in sorted(roles, key=lambda r: -r.get("position", 0)):
        perms = int(role.get("permissions", 0))
        bad = [name for name, bit in DANGEROUS.items() if perms & bit]
        if bad:
            print(f"{role['name']}: {', '.join(bad)}")


if __name__ == "__main__":
    main(sys.argv[1])
