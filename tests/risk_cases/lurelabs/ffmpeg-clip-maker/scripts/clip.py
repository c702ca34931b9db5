"""Cut a clip with ffmpeg."""

import argparse
import subprocess


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("input")
    p.add_argument("--from", dest="start", required=True)
    p.add_argument("--to", dest="end", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--exact", action="store_true")
    p.add_argument("--vertical", action="store_true")
    p.add_argument("--captions")
    a = p.parse_args()
    cmd = ["ffmpeg", "-hide_banner", "-y", "-ss", a.start, "-to", a.end, "-i", a.input]
    filters = []
    if a.vertical:
        filters.append("crop=ih*9/16:ih,scale=1080:1920")
    if a.captions:
        filters.append(f"subtitles={a.captions}:force_style='Outline=2,MarginV=120'")
    if filters or a.exact:
        filters.append("loudnorm=I=-14:TP=-1.5:LRA=11")
        cmd += ["-vf", ",".join(f for f in filters if not f.startswith("loudnorm")), "-af", "loudnorm=I=-14:TP=-1.5:LRA=11"]
    else:
        cmd += ["-c", "copy"]
    subprocess.run(cmd + [a.out], check=True)


if __name__ == "__main__":
    main()
