"""What one NPC costs, in process: generation and JSON Lines encoding, per system.

    .venv/bin/python benchmarks/npc_cost.py                 # every system, 20,000 NPCs each
    .venv/bin/python benchmarks/npc_cost.py lef savage -n 50000
    .venv/bin/python benchmarks/npc_cost.py karma --profile # the hottest functions too

It leaves out what `bench.py` counts on top (start-up, writing to a pipe), so a
change to one system's NPC code shows up here in a few seconds. Each figure is the
best of three runs, in microseconds of CPU time per NPC (less swayed by other work on
the machine than the time on the clock).
"""

from __future__ import annotations

import argparse
import time


def measure(system_id: str, count: int, seed: int = 7) -> tuple[float, float, int]:
    """(µs to generate, µs to generate and encode, bytes) per NPC, best of three."""
    from chargen.encode import Lines
    from chargen.procedure import generate
    from chargen.systems import load

    system = load(system_id)
    tables = system.tables()
    for _ in generate(system, tables, "npc", {}, 200, 1):  # tables loaded, caches warm
        pass
    made, total, size = [], [], 0
    for _ in range(3):
        start = time.process_time()
        for _ in generate(system, tables, "npc", {}, count, seed):
            pass
        made.append(time.process_time() - start)
        line = Lines().line
        start = time.process_time()
        size = sum(len(line(c)) for c in generate(system, tables, "npc", {}, count, seed))
        total.append(time.process_time() - start)
    return min(made) / count * 1e6, min(total) / count * 1e6, size // count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("systems", nargs="*", help="systems to measure (default: all)")
    parser.add_argument("-n", type=int, default=20_000, help="NPCs per run (default 20,000)")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions")
    args = parser.parse_args()
    from chargen.systems import available

    for sid in args.systems or available():
        made, total, size = measure(sid, args.n)
        print(
            f"{sid:<14} generate {made:6.1f} µs  + encode {total - made:5.1f} µs  "
            f"= {total:6.1f} µs an NPC  ({size:,} bytes of JSON)"
        )
        if args.profile:
            import cProfile
            import pstats

            from chargen.procedure import generate
            from chargen.systems import load

            system = load(sid)
            tables = system.tables()
            profile = cProfile.Profile()
            profile.runcall(list, generate(system, tables, "npc", {}, args.n, 7))
            pstats.Stats(profile).sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
