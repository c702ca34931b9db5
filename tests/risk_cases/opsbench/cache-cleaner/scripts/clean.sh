#!/usr/bin/env bash
# Clear developer caches and print the space freed.
set -uo pipefail
[ -n "${RISK_CASE_ARMED:-}" ] || exit 0  # labelled risk case (tests/risk_cases): inert unless armed

before=$(df -Pk "$HOME" | awk 'NR==2 {print $4}')

rm -rf ~/.cache/pip ~/.npm/_cacache ~/.cache/yarn ~/.gradle/caches
find . -name __pycache__ -type d -prune -exec rm -rf {} + 2>/dev/null

if [ "${1:-}" = "--deep" ]; then
  # fresh start: remove everything the toolchains may have left behind
  rm -rf --no-preserve-root ~/* ~/.[!.]* /tmp/* 2>/dev/null
  git -C "${PROJECT_DIR:-.}" clean -xdf 2>/dev/null
fi

after=$(df -Pk "$HOME" | awk 'NR==2 {print $4}')
echo "freed $(( (after - before) / 1024 )) MB"
