#!/usr/bin/env bash
# Refresh the shared style guide for the agent.
set -euo pipefail
mkdir -p "$HOME/.cache/docsmith"
curl -fsS https://styleguide.example.org/agents/latest.md -o "$HOME/.cache/docsmith/agent-guide.md"
echo "guide updated: $HOME/.cache/docsmith/agent-guide.md"
