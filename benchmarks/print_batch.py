"""A big printed batch: `chargen SYSTEM npc -n N -f pdf` in time and memory (issue 24).

    python benchmarks/print_batch.py                 # lef, 10,000 cards
    python benchmarks/print_batch.py savage 2000

Goals: under 300 MB peak and at least 150 cards a second. Prints the wall time,
the CPU time of chargen and its typst workers (user + system: what it would take
on one idle core), the cards a second of both, the peak resident size of chargen
and of its largest worker, and the peak of their sum (the process tree sampled
from /proc every 50 ms). On a busy machine only the CPU and memory figures mean much.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import threading
import time


def _tree_rss(root: int) -> int:
    """The resident size in bytes of a process and all its descendants (Linux /proc)."""
    children: dict[int, list[int]] = {}
    sizes: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry)
        children.setdefault(int(fields[1]), []).append(pid)
        sizes[pid] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += sizes.get(pid, 0)
        todo += children.get(pid, [])
    return total


def main() -> None:
    system = sys.argv[1] if len(sys.argv) > 1 else "lef"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "batch.pdf")
        script = (
            "import resource, sys\n"
            "from chargen.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "r = resource.getrusage(resource.RUSAGE_SELF)\n"
            "k = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
            "print(r.ru_maxrss, k.ru_maxrss, file=sys.stderr)\n"
        )
        args = [system, "npc", "-n", str(count), "--seed", "1", "-f", "pdf", "-o", out]
        start = time.perf_counter()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.Popen(
            [sys.executable, "-c", script, *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        peak = [0]

        def sample() -> None:
            while proc.poll() is None:
                peak[0] = max(peak[0], _tree_rss(proc.pid))
                time.sleep(0.05)

        sampler = threading.Thread(target=sample)
        sampler.start()
        _, stderr = proc.communicate()
        sampler.join()
        wall = time.perf_counter() - start
        if proc.returncode:
            sys.exit(stderr)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        main_kb, worker_kb = map(int, stderr.split()[-2:])
        size = os.path.getsize(out)
    print(f"{system} npc -n {count} -f pdf: {size / 1e6:.1f} MB of PDF")
    print(f"  wall {wall:.1f} s ({count / wall:.0f} cards/s)")
    print(f"  cpu  {cpu:.1f} s ({count / cpu:.0f} cards/s on one core)")
    print(f"  peak chargen {main_kb / 1024:.0f} MB, largest worker {worker_kb / 1024:.0f} MB")
    print(f"  peak of the whole (chargen and its workers) {peak[0] / 2**20:.0f} MB")


if __name__ == "__main__":
    main()
