"""Throughput and start-up of chargen, as ratios measured in one run.

    .venv/bin/python benchmarks/bench.py            # the standard set (a few minutes)
    .venv/bin/python benchmarks/bench.py --million  # also: savage npc -n 1,000,000, peak memory
    .venv/bin/python benchmarks/bench.py --startup  # only the start-up figures (a few seconds)

It needs chargen installed in the Python that runs it (`python3 -m venv .venv &&
.venv/bin/pip install .`); `-n 10000` makes a quick run of well under a minute.

Each figure is the median of several runs of the installed `chargen` (the
console script next to this Python), so import and start-up costs count, as
they do for a user. The reference generator is ../shared/bench/reference_gen.py
when it is there (set CHARGEN_REFERENCE to point elsewhere).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REFERENCE = Path(
    os.environ.get(
        "CHARGEN_REFERENCE", HERE.parent.parent / "shared" / "bench" / "reference_gen.py"
    )
)


def chargen() -> list[str]:
    script = Path(sys.executable).with_name("chargen")
    if script.exists():
        return [str(script)]
    found = shutil.which("chargen")
    return [found] if found else [sys.executable, "-m", "chargen"]


# An installed chargen runs from bytecode (pip compiles it); a PYTHONDONTWRITEBYTECODE
# in the environment would make every run compile its modules again, which no user pays.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(cmd: list[str], repeat: int) -> float:
    """Median wall time of `cmd` with stdout discarded (a failing command ends the run
    with its message, not a traceback)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=ENV
        )
        if done.returncode != 0:
            sys.exit(f"bench.py: {' '.join(cmd)} failed: {_last_line(done.stderr)}")
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _last_line(text: str) -> str:
    lines = [line for line in (text or "").strip().splitlines() if line.strip()]
    return lines[-1][-300:] if lines else "nothing"


def systems() -> set[str]:
    out = subprocess.run(
        [*chargen(), "systems", "-f", "jsonl"], capture_output=True, text=True, check=True
    )
    import json

    return {json.loads(line)["id"] for line in out.stdout.splitlines()}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--million", action="store_true", help="also a million savage NPCs, with peak memory"
    )
    parser.add_argument("--startup", action="store_true", help="only the start-up figures")
    parser.add_argument("-n", type=int, default=100_000, help="batch size (default 100,000)")
    parser.add_argument(
        "--only", action="append", metavar="SYSTEM", help="measure only these systems' batches"
    )
    args = parser.parse_args()
    cg = chargen()
    ready = subprocess.run([*cg, "--version"], capture_output=True, text=True)
    if ready.returncode != 0:
        sys.exit(
            "bench.py needs chargen installed in this Python: python3 -m venv .venv && "
            ".venv/bin/pip install . && .venv/bin/python benchmarks/bench.py\n"
            f"({' '.join(cg)} --version said: {_last_line(ready.stderr or ready.stdout)})"
        )
    batches = 5 * 3 * args.n / 40_000  # five systems, three runs, roughly 40,000 NPCs a second
    took = (
        "a few seconds"
        if args.startup
        else f"about {max(1, round((30 + batches) / 60))} minute(s) (-n {args.n:,}"
        + (", and --million a minute more)" if args.million else ")")
    )
    print(f"bench.py: {ready.stdout.strip()}; this takes {took} on an idle machine", flush=True)
    have = systems()
    if args.only:
        have &= set(args.only)
    # Warm the name cache and the bytecode once so runs compare like with like.
    for sid in have:
        subprocess.run(
            [*cg, sid, "npc", "--seed", "1", "-f", "json"],
            stdout=subprocess.DEVNULL,
            check=True,
            env=ENV,
        )

    baseline = timed([sys.executable, "-c", "pass"], 15)
    print(f"python -c pass                         {baseline * 1000:7.1f} ms")
    startup = [("chargen --help", [], "goal <= 5x", None)]
    startup += [
        (
            "chargen matinee pc --seed 1 (sheet)",
            ["matinee", "pc", "--seed", "1"],
            "goal <= 6x",
            "matinee",
        ),
        (
            "chargen matinee pc --seed 1 -f json",
            ["matinee", "pc", "--seed", "1", "-f", "json"],
            "goal <= 8x",
            "matinee",
        ),
        ("chargen karma pc --seed 1 (sheet)", ["karma", "pc", "--seed", "1"], "", "karma"),
    ]
    for label, words, goal, system in startup:
        if system is not None and system not in have:
            continue
        took = timed([*cg, *(words or ["--help"])], 15)
        note = f"  ({goal})" if goal else ""
        print(f"{label:<38} {took * 1000:7.1f} ms  ratio {took / baseline:4.1f}x{note}")
    if args.startup:
        return
    printable(cg)

    n = args.n
    ref = None
    if REFERENCE.exists():
        ref = timed(
            [sys.executable, str(REFERENCE), str(n), "faker-bisect", "json", "hu_HU", "per-char"], 3
        )
        print(
            f"reference_gen.py {n:,} faker-bisect hu_HU per-char {ref:6.2f} s   {n / ref:9,.0f} chars/s"
        )
    for sid in ("karma", "savage", "matinee", "spelsystemet", "lef"):
        if sid in have:
            t = timed([*cg, sid, "npc", "-n", str(n), "-f", "jsonl", "--seed", "1"], 3)
            ratio = f"  {t / ref:4.2f}x the reference's time" if ref else ""
            goal = {
                "karma": "  (goal >= 40,000/s)",
                "savage": "  (goal <= 1.4x the reference)",
            }.get(sid, "")
            print(
                f"{sid} npc -n {n:,} -f jsonl{'':<{12 - len(sid)}}{t:7.2f} s   {n / t:9,.0f} NPCs/s{ratio}{goal}"
            )

    if args.million and "savage" in have:
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        t = timed([*cg, "savage", "npc", "-n", "1000000", "-f", "jsonl", "--seed", "1"], 1)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print(
            f"savage npc -n 1,000,000 -f jsonl        {t:7.2f} s   peak RSS {max(peak, before) / 1024:.0f} MiB"
        )


def printable(cg: list[str]) -> None:
    """Printable output: a PC sheet and 100 NPC cards as PDF (needs chargen[pdf])."""
    import importlib.util
    import tempfile

    if importlib.util.find_spec("typst") is None:
        print("pdf: skipped (pip install 'chargen[pdf]')")
        return
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "out.pdf")
        pc = timed([*cg, "matinee", "pc", "--seed", "1", "-f", "pdf", "-o", out], 5)
        print(f"chargen matinee pc -f pdf               {pc * 1000:7.1f} ms")
        cards = timed(
            [*cg, "matinee", "npc", "-n", "100", "--seed", "1", "-f", "pdf", "-o", out], 3
        )
        print(f"chargen matinee npc -n 100 -f pdf       {cards:7.2f} s   (goal: a few seconds)")


if __name__ == "__main__":
    main()
