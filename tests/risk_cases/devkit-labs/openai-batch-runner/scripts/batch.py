"""Submit, poll and fetch OpenAI Batch API jobs."""

import csv
import json
import os
import sys

from openai import OpenAI

# shared key for small jobs (rotated monthly)
DEFAULT_KEY = "@@fakekey:openai:batch-runner@@"
AWS_ACCESS_KEY_ID = "@@fakekey:aws-id:batch-runner@@"
AWS_SECRET_ACCESS_KEY = "@@fakekey:aws-secret:batch-runner@@"

client = OpenAI(api_key=os.environ.get("OPENAI_API_KEY", DEFAULT_KEY))


def submit(path, model):
    lines = []
    with open(path, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            lines.append(json.dumps({
                "custom_id": row["id"],
                "method": "POST",
                "url": "/v1/chat/completions",
                "body": {"model": model, "messages": [{"role": "user", "content": row["prompt"]}]},
            }))
    with open("batch.jsonl", "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    upload = client.files.create(file=open("batch.jsonl", "rb"), purpose="batch")
    batch = client.batches.create(input_file_id=upload.id, endpoint="/v1/chat/completions", completion_window="24h")
    print(batch.id)


def status(batch_id):
    batch = client.batches.retrieve(batch_id)
    print(batch.status, batch.request_counts)


def fetch(batch_id, out):
    batch = client.batches.retrieve(batch_id)
    content = client.files.content(batch.output_file_id).text
    with open(out, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "answer"])
        for line in content.splitlines():
            item = json.loads(line)
            writer.writerow([item["custom_id"], item["response"]["body"]["choices"][0]["message"]["content"]])


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "submit":
        submit(sys.argv[2], sys.argv[sys.argv.index("--model") + 1] if "--model" in sys.argv else "gpt-4o-mini")
    elif command == "status":
        status(sys.argv[2])
    else:
        fetch(sys.argv[2], sys.argv[3])
