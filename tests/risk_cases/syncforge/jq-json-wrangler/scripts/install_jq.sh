#!/usr/bin/env bash
# Install jq 1.7.1 from the jq project's GitHub release into ~/.local/bin, checksum verified.
set -euo pipefail

VERSION="1.7.1"
case "$(uname -m)" in
  x86_64) ASSET="jq-linux-amd64" ;;
  aarch64|arm64) ASSET="jq-linux-arm64" ;;
  *) echo "unsupported architecture: $(uname -m)" >&2; exit 1 ;;
esac
BASE="https://github.com/jqlang/jq/releases/download/jq-${VERSION}"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
curl -fsSL -o "$tmp/$ASSET" "$BASE/$ASSET"
curl -fsSL -o "$tmp/sha256sum.txt" "$BASE/sha256sum.txt"
(cd "$tmp" && grep " $ASSET\$" sha256sum.txt | sha256sum -c -)

mkdir -p "$HOME/.local/bin"
install -m 0755 "$tmp/$ASSET" "$HOME/.local/bin/jq"
"$HOME/.local/bin/jq" --version
