"""A big printed batch: `chargen SYSTEM npc -n N -f pdf` in time and memory (issue 24).

    python benchmarks/print_batch.py                 # lef, 10,000 cards
    python benchmarks/print_batch.py savage 2000

Goals: under 300 MB peak and at least 150 cards a second. Prints the wall time,
the CPU time of chargen and its typst workers (user + system, what an idle machine's
wall time would be on one core), the cards a second of both, and the peak resident
size of chargen and of its largest worker (they run side by side, so their sum
bounds the peak of the whole). On a busy machine only the CPU figures mean much.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time


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
        done = subprocess.run(
            [sys.executable, "-c", script, *args], capture_output=True, text=True, check=True
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        main_kb, worker_kb = map(int, done.stderr.split()[-2:])
        size = os.path.getsize(out)
    print(f"{system} npc -n {count} -f pdf: {size / 1e6:.1f} MB of PDF")
    print(f"  wall {wall:.1f} s ({count / wall:.0f} cards/s)")
    print(f"  cpu  {cpu:.1f} s ({count / cpu:.0f} cards/s on one core)")
    print(f"  peak chargen {main_kb / 1024:.0f} MB, largest worker {worker_kb / 1024:.0f} MB")


if __name__ == "__main__":
    main()
