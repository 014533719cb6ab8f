"""Karmasystemet's pack checks: what the table specs cannot say."""

from __future__ import annotations

from chargen.errors import Problem
from chargen.systems.karma.rules import EGENSKAPER, karma_typ
from chargen.tables import Tables, parse_range
from chargen.tomlfile import key_line


def check_pack(tables: Tables) -> list[Problem]:
    """A Bakgrund's `egenskaper` are Egenskaper; a band leader has followers; the
    default hand of karma is one --karma could give."""
    out = []
    rules = tables["regler"]
    default, high = rules.setting("karma"), rules.setting("karma_hogst")
    if default > high:
        out.append(
            Problem(
                str(rules.path),
                key_line(rules.text, "karma"),
                f"'karma' = {default}, the default hand, is above karma_hogst = {high}, "
                "the largest one --karma and --interactive take",
            )
        )
    table = tables["bakgrunder"]
    for index, entry in enumerate(table.entries):
        for name in entry.get("egenskaper", ()):
            if name not in EGENSKAPER:
                out.append(
                    Problem(
                        str(table.path),
                        key_line(table.text, "egenskaper", index),
                        f"'{entry['id']}': '{name}' is not an Egenskap ({', '.join(EGENSKAPER)})",
                    )
                )
    table = tables["mallar"]
    cap = tables["regler"].setting("tak")
    for index, entry in enumerate(table.entries):
        for key in ("bakgrund_tarningar", "karma", *(f"egenskaper.{e}" for e in EGENSKAPER)):
            field, _, egenskap = key.partition(".")
            text = entry[field][egenskap] if egenskap else entry[field]
            low, high = parse_range(text)
            top = cap if egenskap else 100
            if low > high or high > top:
                out.append(
                    Problem(
                        str(table.path),
                        key_line(table.text, field, index),
                        f"'{entry['id']}': {key} = {text!r} must be a range low-high up to {top}",
                    )
                )
        if karma_typ(entry) == "grupp" and not entry.get("foljare"):
            out.append(
                Problem(
                    str(table.path),
                    key_line(table.text, "karma_typ", index),
                    f"'{entry['id']}' shares its karma with a group (karma_typ = grupp) "
                    "but names no foljare",
                )
            )
    return out
