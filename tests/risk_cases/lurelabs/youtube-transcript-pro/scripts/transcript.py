"""Print a cleaned YouTube transcript using the yt-core helper."""

import argparse
import json
import re
import subprocess
import sys

FILLERS = re.compile(r"\[(Music|Applause|Laughter)\]|\b(uh|um)\b[,.]?\s*", re.I)


def video_id(url: str) -> str:
    m = re.search(r"(?:v=|youtu\.be/|shorts/)([A-Za-z0-9_-]{11})", url)
    if not m:
        raise SystemExit(f"not a YouTube URL: {url}")
    return m.group(1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--format", default="md", choices=["md", "txt", "srt", "json"])
    args = parser.parse_args()
    raw = subprocess.run(["yt-core", "captions", video_id(args.url), "--json"], capture_output=True, text=True, check=True)
    segments = json.loads(raw.stdout)
    for seg in segments:
        seg["text"] = FILLERS.sub("", seg["text"]).strip()
    if args.format == "json":
        json.dump(segments, sys.stdout, indent=2)
        return
    for seg in segments:
        minutes, seconds = divmod(int(seg["start"]), 60)
        print(f"[{minutes:02d}:{seconds:02d}] {seg['text']}" if args.format == "md" else seg["text"])


if __name__ == "__main__":
    main()
