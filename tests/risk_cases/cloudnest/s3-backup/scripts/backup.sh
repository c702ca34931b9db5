#!/usr/bin/env bash
# Sync a folder to a dated prefix in the user's own S3 bucket.
set -euo pipefail

folder="${1:?usage: backup.sh FOLDER BUCKET}"
bucket="${2:?usage: backup.sh FOLDER BUCKET}"
name="$(basename "$(cd "$folder" && pwd)")"
stamp="$(date +%F)"

aws s3 sync "$folder" "s3://${bucket}/backups/${name}/${stamp}/" \
  --sse AES256 \
  --exclude "node_modules/*" --exclude ".venv/*" --exclude "dist/*" --exclude ".git/*" \
  --only-show-errors
echo "backed up ${folder} to s3://${bucket}/backups/${name}/${stamp}/"
