"""Throughput and start-up of chargen, as ratios measured side by side in one run.

    python3 -m venv /tmp/bench && /tmp/bench/bin/pip install '.[fast,pdf]'
    /tmp/bench/bin/python benchmarks/bench.py             # the standard set (a few minutes)
    /tmp/bench/bin/python benchmarks/bench.py --startup   # start-up only (seconds)
    /tmp/bench/bin/python benchmarks/bench.py --million   # also 1,000,000 NPCs a system

It needs chargen installed in the Python that runs it, as a user installs it (an
editable install adds the import hook of a development checkout to every start).

* Start-up: `chargen --help` and `chargen matinee pc` (the default sheet) against the
  floor any click tool has, a minimal two-command click app's `--help`, and against a
  bare `python -c pass`, each the median of many runs. Goals: `--help` at most 1.1x
  the click app, the sheet at most 1.5x.
* Batches: `chargen SYSTEM npc -n 100000 -f jsonl` of every system against the
  reference generator in ../shared/bench/ (`reference_gen.py 100000 faker-bisect json
  hu_HU per-char`), timed in the same run, medians of three. Goal: at most 1.5x the
  reference's time. With orjson installed (chargen[fast]) the batches are also run
  with it turned off (CHARGEN_NO_ORJSON=1), so both figures are in one run.
* Memory: the peak resident size of a batch of 100,000 and (--million) 1,000,000.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REFERENCE = Path(
    os.environ.get(
        "CHARGEN_REFERENCE", HERE.parent.parent / "shared" / "bench" / "reference_gen.py"
    )
)
SYSTEMS = ("matinee", "spelsystemet", "karma", "lef", "savage")

# An installed chargen runs from bytecode (pip compiles it); a PYTHONDONTWRITEBYTECODE
# in the environment would make every run compile its modules again, which no user pays.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

CLICK_APP = '''
import click


@click.group()
def cli():
    """A minimal click tool: the floor of any click tool's start-up."""


@cli.command()
def one():
    """The first command."""


@cli.command()
def two():
    """The second command."""


cli()
'''


def chargen() -> list[str]:
    script = Path(sys.executable).with_name("chargen")
    if script.exists():
        return [str(script)]
    found = shutil.which("chargen")
    return [found] if found else [sys.executable, "-m", "chargen"]


def run(cmd: list[str], env: dict | None = None) -> tuple[float, int]:
    """(wall seconds, peak resident KiB) of one run with stdout discarded; a failing
    command ends the run with its message, not a traceback."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env or ENV
    )
    _, err = proc.communicate()
    took = time.perf_counter() - start
    if proc.returncode != 0:
        lines = [line for line in (err or "").strip().splitlines() if line.strip()]
        sys.exit(f"bench.py: {' '.join(cmd)} failed: {lines[-1][-300:] if lines else 'nothing'}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return took, peak


def median(cmd: list[str], repeat: int, env: dict | None = None) -> float:
    return statistics.median(run(cmd, env)[0] for _ in range(repeat))


def peak_of(cmd: list[str], env: dict | None = None) -> int:
    """Peak resident KiB of one run, in a child of its own (getrusage keeps the
    maximum over every child waited for, so each measure gets a fresh parent)."""
    code = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, *cmd], capture_output=True, text=True, env=env or ENV
    )
    if out.returncode != 0:
        sys.exit(f"bench.py: {' '.join(cmd)} failed: {out.stderr.strip()[-300:]}")
    return int(out.stdout.strip())


def startup(cg: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = Path(tmp) / "minimal_click_app.py"
        app.write_text(CLICK_APP, encoding="utf-8")
        runs = 21
        bare = median([sys.executable, "-c", "pass"], runs)
        floor = median([sys.executable, str(app), "--help"], runs)
        print(f"python -c pass                         {bare * 1000:7.1f} ms")
        print(
            f"minimal click app --help               {floor * 1000:7.1f} ms  "
            f"{floor / bare:4.1f}x python -c pass"
        )
        for label, words, goal in (
            ("chargen --help", ["--help"], 1.1),
            ("chargen matinee pc (the sheet)", ["matinee", "pc", "--seed", "1"], 1.5),
            ("chargen matinee pc -f json", ["matinee", "pc", "--seed", "1", "-f", "json"], None),
            ("chargen karma pc (the sheet)", ["karma", "pc", "--seed", "1"], None),
        ):
            took = median([*cg, *words], runs)
            note = (
                f"  (goal <= {goal}x: {'met' if took / floor <= goal else 'NOT met'})"
                if goal
                else ""
            )
            print(f"{label:<38} {took * 1000:7.1f} ms  {took / floor:4.2f}x the click app{note}")


def batches(cg: list[str], n: int, only: set[str], million: bool) -> None:
    ref = None
    if REFERENCE.exists():
        cmd = [sys.executable, str(REFERENCE), str(n), "faker-bisect", "json", "hu_HU", "per-char"]
        ref = median(cmd, 3)
        print(f"reference_gen.py {n:,} faker-bisect hu_HU per-char   {ref:6.2f} s")
    fast = importlib.util.find_spec("orjson") is not None
    plain = {**ENV, "CHARGEN_NO_ORJSON": "1"}
    for sid in SYSTEMS:
        if sid not in only:
            continue
        cmd = [*cg, sid, "npc", "-n", str(n), "-f", "jsonl", "--seed", "1"]
        took = median(cmd, 3)
        peak = peak_of(cmd)
        ratio = f"  {took / ref:4.2f}x the reference" if ref else ""
        goal = f" (goal <= 1.5x: {'met' if took / ref <= 1.5 else 'NOT met'})" if ref else ""
        with_orjson = " with orjson" if fast else ""
        print(
            f"{sid} npc -n {n:,} -f jsonl{with_orjson:<12} {took:6.2f} s  {n / took:8,.0f}/s"
            f"{ratio}{goal}  peak {peak / 1024:.0f} MiB"
        )
        if fast:
            took = median(cmd, 3, plain)
            ratio = f"  {took / ref:4.2f}x the reference" if ref else ""
            print(f"{sid} npc -n {n:,} -f jsonl without orjson {took:6.2f} s{ratio}")
        if million:
            cmd = [*cg, sid, "npc", "-n", "1000000", "-f", "jsonl", "--seed", "1"]
            start = time.perf_counter()
            peak = peak_of(cmd)
            took = time.perf_counter() - start
            print(
                f"{sid} npc -n 1,000,000 -f jsonl            {took:6.2f} s  peak {peak / 1024:.0f} MiB"
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--startup", action="store_true", help="only the start-up figures")
    parser.add_argument("--million", action="store_true", help="also 1,000,000 NPCs a system")
    parser.add_argument("-n", type=int, default=100_000, help="batch size (default 100,000)")
    parser.add_argument("--only", action="append", metavar="SYSTEM", help="only these batches")
    args = parser.parse_args()
    cg = chargen()
    ready = subprocess.run([*cg, "--version"], capture_output=True, text=True)
    if ready.returncode != 0:
        sys.exit(
            "bench.py needs chargen installed in this Python: python3 -m venv /tmp/bench && "
            "/tmp/bench/bin/pip install '.[fast]' && /tmp/bench/bin/python benchmarks/bench.py"
        )
    editable = any(
        p.name.startswith("__editable__") for p in Path(sys.prefix).rglob("__editable__*")
    )
    load = os.getloadavg()[0]
    print(
        f"bench.py: {ready.stdout.strip()}, Python {sys.version.split()[0]}, load average "
        f"{load:.2f}{', an EDITABLE install: start-up figures include its import hook' if editable else ''}",
        flush=True,
    )
    for sid in SYSTEMS:  # warm the caches and the bytecode once, so runs compare like with like
        subprocess.run([*cg, sid, "npc", "--seed", "1"], stdout=subprocess.DEVNULL, env=ENV)
        subprocess.run([*cg, sid, "pc", "--seed", "1"], stdout=subprocess.DEVNULL, env=ENV)
    startup(cg)
    if args.startup:
        return
    batches(cg, args.n, set(args.only or SYSTEMS), args.million)


if __name__ == "__main__":
    main()
