"""The program: `chargen` on the command line, and `python -m chargen`.

It runs the CLI (chargen.cli.main) with the cyclic garbage collector told what a
short run needs. Start-up makes tens of thousands of objects that live as long as
the process (click, chargen's modules, the tables, the name lists): the collector
is paused while click and the root group are imported, and what they made is
frozen, so no later collection walks it; on the way out everything is frozen
again, so the interpreter's last collection at exit does not walk the tables and
name lists a sheet loaded to free what the ending process gives back anyway.
Together that is about a tenth of what `chargen matinee pc` costs; a batch runs
with the collector as usual. Scripts and tests call chargen.cli.main, which leaves
the collector alone.
"""

from __future__ import annotations

import gc


def main() -> None:
    """Run chargen as the program (the console script's entry point)."""
    gc.disable()
    try:
        from chargen.cli import main as run
    finally:
        gc.freeze()
        gc.enable()
    try:
        run()
    finally:
        gc.freeze()
