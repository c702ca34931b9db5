"""Where a cold build's memory goes in its emit stage, hook by hook:

    python -m bench.hook_memory --source DIR --out DIR [--json FILE]

One cold build in this process (the site, its cache and its state beside --out cleared first), every emitter's
site-wide hook wrapped: before each, the kernel's high-water mark of this process's resident memory is reset
(`/proc/self/clear_refs`, Linux), so each hook's peak is its own. Prints per hook the resident memory before it,
its peak during it, the difference (what the hook added), the resident memory after it and its seconds; then the
build report's peak after each stage (from the first hook on, peaks since the last reset). Linux only.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: bench/hook_memory.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.run import clear_state


def _status_mb(field: str) -> float:
    """A line of /proc/self/status (VmRSS: resident now, VmHWM: its high-water mark), in MB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def _reset_peak() -> None:
    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")  # 5: reset the resident high-water mark (proc(5))


def measured(name: str, hook, rows: list[dict]):
    """The hook, noting its memory and time in `rows`."""

    @functools.wraps(hook)
    def site(*args, **kwargs):
        before = _status_mb("VmRSS")
        _reset_peak()
        started = time.perf_counter()
        try:
            return hook(*args, **kwargs)
        finally:
            seconds = time.perf_counter() - started
            peak, after = _status_mb("VmHWM"), _status_mb("VmRSS")
            rows.append({"hook": name, "rss_before_mb": round(before, 1), "peak_mb": round(peak, 1),
                         "added_mb": round(peak - before, 1), "rss_after_mb": round(after, 1),
                         "seconds": round(seconds, 3)})  # fmt: skip

    return site


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, required=True, help="a skills folder (bench/synthetic.py makes one)")
    parser.add_argument("--out", type=Path, required=True, help="where the site is built (cleared first)")
    parser.add_argument("--json", type=Path, help="write every figure here")
    args = parser.parse_args(argv)

    from registry.build import build
    from registry.config import BuildOptions
    from registry.emit import registry

    rows: list[dict] = []
    for emitter in registry.EMITTERS:
        kind = type(emitter)
        kind.site = measured(kind.__name__, kind.site, rows)  # type: ignore[method-assign]
    clear_state(args.out)
    report_path = args.out.parent / f"{args.out.name}-report.json"
    started = time.perf_counter()
    build(BuildOptions(source=args.source, out=args.out, report=report_path))
    seconds = time.perf_counter() - started
    stages = json.loads(report_path.read_text())["peak_rss_mb_after_stage"]

    print(f"{'hook':14} {'RSS before':>10} {'peak':>8} {'added':>7} {'RSS after':>9} {'seconds':>8}")
    for row in rows:
        print(f"{row['hook']:14} {row['rss_before_mb']:10.1f} {row['peak_mb']:8.1f} {row['added_mb']:7.1f} "
              f"{row['rss_after_mb']:9.1f} {row['seconds']:8.2f}")  # fmt: skip
    print("peak after each stage (MB):", ", ".join(f"{stage} {peak}" for stage, peak in stages.items()))
    print(f"build {seconds:.1f} s")
    if args.json:
        args.json.write_text(json.dumps({"hooks": rows, "stages": stages, "seconds": round(seconds, 3)}, indent=1))


if __name__ == "__main__":
    main()
