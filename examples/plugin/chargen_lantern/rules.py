"""Lantern's terms and the one formula its steps, NPCs and sheet share."""

from __future__ import annotations

ABILITIES = ("might", "grace", "wits")


def bonus(value: int, rules: dict) -> int:
    """+1 for an ability of `bonus_from` or more, +2 from `bonus_twice_from` (rules.toml)."""
    if value >= rules["bonus_twice_from"]:
        return 2
    return 1 if value >= rules["bonus_from"] else 0


def item(entry: dict, name: str) -> dict:
    """An item of gear.toml as a character carries it: its id, name and numbers."""
    out = {"id": entry["id"], "name": name, "kind": entry["kind"]}
    for key in ("damage", "guard"):
        if key in entry:
            out[key] = entry[key]
    return out


def armour(gear: list[dict]) -> int:
    """The Guard that a character's armour adds."""
    return sum(i.get("guard", 0) for i in gear if i["kind"] == "armour")
