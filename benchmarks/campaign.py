"""What a campaign costs a big batch: the same NPCs with and without --campaign.

    .venv/bin/python benchmarks/campaign.py                  # karma, 100,000 NPCs
    .venv/bin/python benchmarks/campaign.py matinee -n 20000

Each run is `chargen SYSTEM npc -n N --seed 1 -f jsonl -o /dev/null`, into a new
campaign file or none, alternated `--rounds` times. It reports the CPU time (user +
system, of the chargen process: what a busy machine changes least), the wall time,
and the peak memory of each, and the ratios; then the peak memory of a batch a fifth
the size, to show it stays flat. The figures of the development machine are in
benchmarks/campaign.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def one(system: str, count: int, campaign: str | None) -> tuple[float, float, int]:
    """(cpu seconds, wall seconds, peak KB) of one run."""
    args = [sys.executable, "-m", "chargen", system, "npc", "-n", str(count), "--seed", "1"]
    args += ["-f", "jsonl", "-o", os.devnull]
    if campaign is not None:
        args += ["--campaign", campaign]
    start = time.perf_counter()
    pid = subprocess.Popen(args, stderr=subprocess.DEVNULL).pid
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"{' '.join(args)} failed ({status})")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("system", nargs="?", default="karma")
    parser.add_argument("-n", "--count", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    plain, stored = [], []
    with tempfile.TemporaryDirectory() as folder:
        for round_ in range(args.rounds):
            plain.append(one(args.system, args.count, None))
            path = os.path.join(folder, f"c{round_}.db")
            stored.append(one(args.system, args.count, path))
            size = os.path.getsize(path)
        small = one(args.system, args.count // 5, os.path.join(folder, "small.db"))
    for label, runs in (("without", plain), ("campaign", stored)):
        cpu = statistics.median(r[0] for r in runs)
        wall = statistics.median(r[1] for r in runs)
        peak = max(r[2] for r in runs)
        print(f"{label:>9}: cpu {cpu:7.2f} s  wall {wall:7.2f} s  peak {peak / 1024:6.1f} MB")
    ratio_cpu = statistics.median(r[0] for r in stored) / statistics.median(r[0] for r in plain)
    ratio_wall = statistics.median(r[1] for r in stored) / statistics.median(r[1] for r in plain)
    print(f"    ratio: cpu {ratio_cpu:.2f}x  wall {ratio_wall:.2f}x  (file {size / 2**20:.0f} MB)")
    print(
        f"  memory: {args.count // 5:,} into a campaign peak {small[2] / 1024:.1f} MB, "
        f"{args.count:,} peak {max(r[2] for r in stored) / 1024:.1f} MB"
    )


if __name__ == "__main__":
    main()
