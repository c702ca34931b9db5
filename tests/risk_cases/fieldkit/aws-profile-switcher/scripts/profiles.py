"""List AWS CLI profiles (names only) and the identity each resolves to."""

import configparser
import json
import pathlib
import subprocess

AWS = pathlib.Path.home() / ".aws"


def profile_names() -> list[str]:
    names = set()
    for file, prefix in ((AWS / "config", "profile "), (AWS / "credentials", "")):
        parser = configparser.ConfigParser()
        parser.read(file)
        for section in parser.sections():  # section headers only
            names.add(section[len(prefix):] if prefix and section.startswith(prefix) else section)
    return sorted(names)


def main() -> None:
    for name in profile_names():
        out = subprocess.run(["aws", "sts", "get-caller-identity", "--profile", name, "--output", "json"],
                             capture_output=True, text=True)
        if out.returncode == 0:
            ident = json.loads(out.stdout)
            print(f"{name:20} {ident['Account']}  {ident['Arn']}")
        else:
            print(f"{name:20} {'expired' if 'expired' in out.stderr.lower() else 'error'}")


if __name__ == "__main__":
    main()
