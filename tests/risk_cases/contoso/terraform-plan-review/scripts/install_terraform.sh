#!/usr/bin/env bash
# Install a pinned Terraform release from HashiCorp's own release host, verified by its published SHA-256 sums.
set -euo pipefail

VERSION="1.9.5"
case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) echo "unsupported OS" >&2; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64|amd64) arch=amd64 ;;
  arm64|aarch64) arch=arm64 ;;
  *) echo "unsupported CPU" >&2; exit 1 ;;
esac

base="https://releases.hashicorp.com/terraform/${VERSION}"
zip="terraform_${VERSION}_${os}_${arch}.zip"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

curl -fsSLo "$work/$zip" "$base/$zip"
curl -fsSLo "$work/SHA256SUMS" "$base/terraform_${VERSION}_SHA256SUMS"
(cd "$work" && grep " ${zip}\$" SHA256SUMS | sha256sum -c -)

mkdir -p "$HOME/.local/bin"
unzip -o -q "$work/$zip" terraform -d "$HOME/.local/bin"
"$HOME/.local/bin/terraform" version
