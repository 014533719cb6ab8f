"""Matinee Chronicles' pack checks: what the table specs cannot say."""

from __future__ import annotations

from fnmatch import fnmatch

from chargen.errors import Problem
from chargen.systems.matinee.rules import (
    KUNSKAP_TABLES,
    WEAPON_SKILLS,
    corp_allows,
    is_weapon,
    konsten_faults,
)
from chargen.tables import Tables
from chargen.tomlfile import key_line


def check_pack(tables: Tables) -> list[Problem]:
    """An arketyp's konsten is "en" or "psyke"; every beskrivningsord category has its
    word table; every `kunskap` names inriktningar of kunskap.toml with points other
    than 0; an arketyp's own `vapen` are weapon items; every megakorporation has a
    weapon ("alla rollpersoner har ett vapen")."""
    kategorier = tables["beskrivningsord_kategorier"]
    problems = konsten_faults(tables["arketyper"]) + [
        Problem(
            str(kategorier.path),
            key_line(kategorier.text, "id", index),
            f"kategori '{entry['id']}' has no word table beskrivningsord_{entry['id']}.toml",
        )
        for index, entry in enumerate(kategorier.entries)
        if f"beskrivningsord_{entry['id']}" not in tables
    ]
    inriktningar = tables["kunskap"]
    for name in sorted(tables.files):
        if not any(fnmatch(name, pattern) for pattern in KUNSKAP_TABLES):
            continue
        table = tables[name]
        for index, entry in enumerate(table.entries):
            for key, points in (entry.get("kunskap") or {}).items():
                if key not in inriktningar:
                    why = f"unknown Kunskap inriktning '{key}' (kunskap.toml has {', '.join(inriktningar.ids)})"
                elif points == 0:
                    why = f"kunskap {key} = 0: give points or leave the inriktning out"
                else:
                    continue
                problems.append(
                    Problem(str(table.path), key_line(table.text, "kunskap", index), why)
                )
    weapons = [
        e
        for skill in WEAPON_SKILLS
        if f"utrustning_{skill}" in tables.files
        for e in tables[f"utrustning_{skill}"].entries
        if is_weapon(e)
    ]
    arketyper = tables["arketyper"]
    ids = {e["id"] for e in weapons}
    for index, entry in enumerate(arketyper.entries):
        for item_id in entry.get("vapen") or ():
            if item_id not in ids:
                problems.append(
                    Problem(
                        str(arketyper.path),
                        key_line(arketyper.text, "vapen", index),
                        f"vapen '{item_id}' of arketyp '{entry['id']}' is no utrustning item "
                        "tagged vapen",
                    )
                )
    corps = tables["megakorporationer"]
    for index, corp in enumerate(corps.entries):
        if not any(corp_allows(e, corp["id"]) for e in weapons):
            problems.append(
                Problem(
                    str(corps.path),
                    corps.entry_line(index),
                    f"no weapon (an utrustning item tagged vapen) is open to {corp['id']}: "
                    "every character carries one",
                )
            )
    return problems
