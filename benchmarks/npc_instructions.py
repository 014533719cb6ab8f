"""Instructions an NPC costs, counted by valgrind's callgrind: the same on a busy machine.

    .venv/bin/python benchmarks/npc_instructions.py                  # every system
    .venv/bin/python benchmarks/npc_instructions.py karma --encode   # and its JSON line
    /tmp/bench/bin/python benchmarks/npc_instructions.py --encode --reference --startup

Each figure is (instructions for 600 NPCs - for 100 NPCs) / 500, so start-up and the
tables' loading fall out; timings swing with whatever else the machine does, these
counts do not. On the development machine about 100,000 instructions take 10 µs.
`--reference` counts a character of the reference generator (../shared/bench/) the
same way, so each system's figure is also given as a ratio to it; `--startup` counts
whole runs of `chargen --help` and `chargen matinee pc` against a minimal two-command
click app's `--help` (run it from a non-editable install: an editable one adds its
import hook to every start). It needs valgrind (Debian's package of that name).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REFERENCE = Path(
    os.environ.get(
        "CHARGEN_REFERENCE", HERE.parent.parent / "shared" / "bench" / "reference_gen.py"
    )
)

RUN = """
import sys
from chargen.encode import Lines
from chargen.procedure import generate
from chargen.systems import load
system_id, count, encode = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
system = load(system_id)
tables = system.tables()
line = Lines().line if encode else None
for char in generate(system, tables, "npc", {}, count, 7):
    if line is not None:
        line(char)
"""


# chargen's caches (tables, names) in a folder of this run's own: a cache that another
# chargen on the machine rewrites between two counts would count its rebuilding
CACHE = tempfile.mkdtemp(prefix="chargen-instructions-")
ENV = {**os.environ, "XDG_CACHE_HOME": CACHE}


def counted(cmd: list[str]) -> int:
    """The instructions one run of `cmd` executes (stdout discarded), its caches warm."""
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or not found:
        sys.exit(f"npc_instructions.py: {' '.join(cmd)}: {done.stderr.strip()[-400:]}")
    return int(found.group(1))


def instructions(system_id: str, count: int, encode: bool) -> int:
    return counted([sys.executable, "-c", RUN, system_id, str(count), "1" if encode else "0"])


def reference(count: int) -> int:
    return counted(
        [sys.executable, str(REFERENCE), str(count), "faker-bisect", "json", "hu_HU", "per-char"]
    )


CLICK_APP = """
import click


@click.group()
def cli():
    \"\"\"A minimal click tool.\"\"\"


@cli.command()
def one():
    \"\"\"The first command.\"\"\"


@cli.command()
def two():
    \"\"\"The second command.\"\"\"


cli()
"""


def startup() -> None:
    script = Path(sys.executable).with_name("chargen")
    with tempfile.TemporaryDirectory() as tmp:
        app = Path(tmp) / "minimal_click_app.py"
        app.write_text(CLICK_APP, encoding="utf-8")
        floor = counted([sys.executable, str(app), "--help"])
        print(f"{'minimal click app --help':<30} {floor:13,} instructions")
        for label, words, goal in (
            ("chargen --help", ["--help"], 1.1),
            ("chargen matinee pc", ["matinee", "pc", "--seed", "1"], 1.5),
        ):
            count = counted([str(script), *words])
            verdict = "met" if count / floor <= goal else "NOT met"
            print(
                f"{label:<30} {count:13,} instructions  {count / floor:4.2f}x the click app"
                f"  (goal <= {goal}x: {verdict})"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("systems", nargs="*", help="systems to count (default: all)")
    parser.add_argument("--encode", action="store_true", help="count the JSON Lines too")
    parser.add_argument("--reference", action="store_true", help="and the reference generator")
    parser.add_argument("--startup", action="store_true", help="count start-up runs only")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("npc_instructions.py needs valgrind (apt-get install valgrind)")
    if args.startup:
        startup()
        if not args.reference and not args.systems:
            return
    from chargen.systems import available

    ref = None
    if args.reference:
        ref = (reference(600) - reference(100)) / 500
        print(f"{'reference':<14} {ref:9,.0f} instructions a character")
    for sid in args.systems or available():
        per = (instructions(sid, 600, args.encode) - instructions(sid, 100, args.encode)) / 500
        what = "generated and encoded" if args.encode else "generated"
        ratio = f"  {per / ref:4.2f}x the reference" if ref else ""
        print(f"{sid:<14} {per:9,.0f} instructions an NPC {what}{ratio}")


if __name__ == "__main__":
    main()
