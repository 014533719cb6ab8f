"""Instructions an NPC costs, counted by valgrind's callgrind: the same on a busy machine.

    .venv/bin/python benchmarks/npc_instructions.py                  # every system
    .venv/bin/python benchmarks/npc_instructions.py karma --encode   # and its JSON line

Each figure is (instructions for 600 NPCs - for 100 NPCs) / 500, so start-up and the
tables' loading fall out; timings swing with whatever else the machine does, these
counts do not. On the development machine about 100,000 instructions take 10 µs.
It needs valgrind (Debian's package of that name).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys

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


def instructions(system_id: str, count: int, encode: bool) -> int:
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-c",
            RUN,
            system_id,
            str(count),
            "1" if encode else "0",
        ],
        capture_output=True,
        text=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or not found:
        sys.exit(f"npc_instructions.py: {system_id}: {done.stderr.strip()[-400:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("systems", nargs="*", help="systems to count (default: all)")
    parser.add_argument("--encode", action="store_true", help="count the JSON Lines too")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("npc_instructions.py needs valgrind (apt-get install valgrind)")
    from chargen.systems import available

    for sid in args.systems or available():
        per = (instructions(sid, 600, args.encode) - instructions(sid, 100, args.encode)) / 500
        what = "generated and encoded" if args.encode else "generated"
        print(f"{sid:<14} {per:9,.0f} instructions an NPC {what}")


if __name__ == "__main__":
    main()
