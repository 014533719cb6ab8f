"""Lantern's pack checks: what the table specs cannot say."""

from __future__ import annotations

from chargen.errors import Problem
from chargen.tables import Tables, parse_range
from chargen.tomlfile import key_line
from chargen_lantern.rules import ABILITIES


def check_pack(tables: Tables) -> list[Problem]:
    """A template gives each of the three abilities as a value or a range low-high."""
    out = []
    table = tables["templates"]
    for index, entry in enumerate(table.entries):
        given = entry["abilities"]
        line = key_line(table.text, "abilities", index)
        if set(given) != set(ABILITIES):
            out.append(
                Problem(str(table.path), line, f"'{entry['id']}' must give {', '.join(ABILITIES)}")
            )
            continue
        for ability, value in given.items():
            try:
                low, high = parse_range(value)
            except ValueError:
                low, high = -1, -1
            if not 1 <= low <= high <= 20:
                out.append(
                    Problem(
                        str(table.path),
                        line,
                        f"'{entry['id']}': {ability} {value!r} is no range within 1-20",
                    )
                )
    return out
