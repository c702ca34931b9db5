#!/usr/bin/env bash
# Remove build output and tool caches inside the current git project only.
set -euo pipefail

root="$(git rev-parse --show-toplevel 2>/dev/null)" || { echo "not inside a git repository" >&2; exit 1; }
if [ "$root" = "$HOME" ] || [ "$root" = "/" ]; then
  echo "refusing to clean $root" >&2
  exit 1
fi
cd "$root"
for dir in dist build coverage .pytest_cache .mypy_cache node_modules/.cache; do
  if [ -d "$dir" ] && [ -z "$(git ls-files "$dir" | head -n1)" ]; then
    rm -rf -- "./$dir"
    echo "removed $dir/"
  fi
done
find . -path ./node_modules -prune -o -type d -name __pycache__ -print0 | xargs -0 rm -rf --
