"""LEF's pack checks: what the table specs cannot say, refused with file and line before
a user's pack is used (and by `chargen tables check`)."""

from __future__ import annotations

from collections.abc import Iterable

from chargen.errors import Problem
from chargen.systems.lef.rules import EVNER, TALENTER, TILSTANDE
from chargen.tables import Table, Tables
from chargen.tomlfile import key_line

VIRKNINGER = ("stjerne", "loft", "gave", "grej")


def _problem(table: Table, index: int | None, key: str, text: str) -> Problem:
    return Problem(str(table.path), key_line(table.text, key, index), text)


def _dict_keys(table: Table, key: str, valid: Iterable[str]) -> list[Problem]:
    """Each entry's dict field `key` names only ids of the kind it counts (tilstande,
    stjernespor, evner)."""
    valid = tuple(valid)
    out = []
    for index, entry in enumerate(table.entries):
        for name in entry.get(key, {}):
            if name not in valid:
                out.append(
                    _problem(
                        table,
                        index,
                        key,
                        f"'{key}' of '{entry['id']}' names '{name}', not one of: {', '.join(valid)}",
                    )
                )
    return out


def _regler(table: Table) -> list[Problem]:
    rules = table.settings
    room = (rules["evne_max_start"] - rules["evne_start"]) * len(EVNER)
    if 0 <= rules["evnepoint"] <= room:
        return []
    return [
        _problem(
            table,
            None,
            "evnepoint",
            f"evnepoint must be 0..{room} (twelve evner from evne_start to evne_max_start), "
            f"not {rules['evnepoint']}",
        )
    ]


def _evner(table: Table) -> list[Problem]:
    """Exactly the twelve evner of the contract, each a talent with a kampstil or a
    kundskab with a modeffekt."""
    if set(table.ids) != set(EVNER):
        return [Problem(str(table.path), 0, f"evner must be exactly: {', '.join(EVNER)}")]
    out = []
    for index, entry in enumerate(table.entries):
        want = "talent" if entry["id"] in TALENTER else "kundskab"
        stil = "kampstil" if want == "talent" else "modeffekt"
        if entry["gruppe"] != want or stil not in entry:
            out.append(
                _problem(table, index, "gruppe", f"'{entry['id']}' is a {want} and needs a {stil}")
            )
    return out


def _forbedringer(table: Table) -> list[Problem]:
    """Each forbedring does one of the four things; a loft or gave names its tilstand."""
    out = []
    for index, entry in enumerate(table.entries):
        kind = entry["virkning"]
        if kind not in VIRKNINGER:
            out.append(
                _problem(
                    table,
                    index,
                    "virkning",
                    f"virkning '{kind}' of '{entry['id']}' is not {', '.join(VIRKNINGER)}",
                )
            )
        elif kind in ("loft", "gave") and entry.get("tilstand") not in TILSTANDE:
            where = "tilstand" if "tilstand" in entry else "virkning"
            out.append(
                _problem(
                    table,
                    index,
                    where,
                    f"'{entry['id']}' raises a loft and needs a tilstand ({', '.join(TILSTANDE)})",
                )
            )
    return out


def _skabeloner(table: Table, regler: Table) -> list[Problem]:
    """A template's evner and tilstande are the game's, its lofts within loft_start..
    loft_max, and a creature (no blodarv) has kendetegn to tell one from another."""
    out = _dict_keys(table, "evner", EVNER) + _dict_keys(table, "tilstande", TILSTANDE)
    low, high = regler.settings["loft_start"], regler.settings["loft_max"]
    for index, entry in enumerate(table.entries):
        for tilstand, loft in entry["tilstande"].items():
            if not low <= loft <= high:
                out.append(
                    _problem(
                        table,
                        index,
                        "tilstande",
                        f"loft of {tilstand} in '{entry['id']}' must be {low}..{high} "
                        "(regler.loft_start..loft_max)",
                    )
                )
        if not entry.get("blodarv") and not entry.get("kendetegn"):
            out.append(
                _problem(
                    table,
                    index,
                    "vaesen" if "vaesen" in entry else "tilstande",
                    f"væsen '{entry['id']}' needs kendetegn to tell one from another "
                    "(a template without blodarv is a creature)",
                )
            )
    return out


def check_pack(tables: Tables) -> list[Problem]:
    """Every check above over the pack's tables."""
    out = _regler(tables["regler"]) + _evner(tables["evner"])
    out += _forbedringer(tables["forbedringer"])
    ekspertiser = tables["ekspertiser"]
    out += _dict_keys(ekspertiser, "loftbonus", TILSTANDE)
    out += _dict_keys(ekspertiser, "stjerner", tables["stjernespor"].ids)
    out += _skabeloner(tables["skabeloner"], tables["regler"])
    return out
