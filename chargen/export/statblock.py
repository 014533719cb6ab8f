"""`-f statblock`: savage characters as Savage Worlds stat blocks.

The layout game masters paste into forums, documents and the swade-npc-importer
Foundry module: the name line, a line of who it is, then the English labels that the
SWADE style and the importer use (Attributes:, Skills:, Pace:, Parry:, Toughness:
with armour in brackets, Hindrances: with (Major)/(Minor), Edges:, Powers:,
Power Points:, Gear: with the weapons' numbers written out, Special Abilities: as
bullets). Names stay Hungarian. A squad is one block: the template, the members'
names and the shared action card under the name line, then the stat block once.

`--latin1` writes ő ű as õ û: the importer reads the names of Edges, Hindrances and
Gear only in Latin-1 letters ("Bőrvért" would come out as "B").
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Iterator

from chargen.export import squad_runs
from chargen.export.swade import mapping, special_abilities

WIDTH = 80
ATTRIBUTE_LABELS = {
    "agility": "Agility",
    "smarts": "Smarts",
    "spirit": "Spirit",
    "strength": "Strength",
    "vigor": "Vigor",
}
LOCATION_LABELS = {"fej": "head", "torzs": "torso", "kar": "arms", "lab": "legs"}
LATIN1 = str.maketrans({"ő": "õ", "Ő": "Õ", "ű": "û", "Ű": "Û"})
_GRADE = re.compile(r"\s*\((?:súlyos|enyhe)\)$")
_PARENS = re.compile(r"\s*\(([^()]*)\)")


def _name(table, key: str) -> str:
    return table.get(key)["name"] if key in table else key


def _wrap(width: int, text: str) -> str:
    """A line wrapped at spaces only (the importer joins a section's lines again)."""
    return "\n".join(
        textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False) or [""]
    )


def gear_name(name: str) -> str:
    """A name the importer's gear pattern keeps whole: "Kötél (10 m)" -> "Kötél 10 m"."""
    return _PARENS.sub(lambda m: f" {m[1]}", name).replace(",", "").strip()


def weapon_text(item: dict) -> str:
    """A weapon with its numbers: (Str+d6) or (Range 24/48/96, Damage 2d8, RoF 3, AP 2)."""
    dmg = item.get("sebzes", "").replace("Erő", "Str").replace(" ", "")
    parts = []
    if "lotav" in item:
        parts.append(f"Range {item['lotav']}")
        if dmg:
            parts.append(f"Damage {dmg}")
        parts.append(f"RoF {item.get('tgy', 1)}")
    elif dmg:
        parts.append(dmg if dmg.startswith("Str") else f"Damage {dmg}")
    if item.get("pancel_tores"):
        parts.append(f"AP {item['pancel_tores']}")
    if item.get("eleres"):
        parts.append(f"Reach {item['eleres']}")
    if item.get("lovesek"):
        parts.append(f"Shots {item['lovesek']}")
    return f"{gear_name(item['nev'])} ({', '.join(parts)})" if parts else gear_name(item["nev"])


def gear_text(item: dict) -> str:
    if "sebzes" in item:
        return weapon_text(item)
    if "pancel" in item:
        places = [LOCATION_LABELS.get(h, h) for h in item.get("hely", ())]
        numbers = ", ".join([f"+{item['pancel']}", *places])
        return f"{gear_name(item['nev'])} ({numbers})"
    if "haritas" in item:
        return f"{gear_name(item['nev'])} (+{item['haritas']} Parry)"
    return gear_name(item["nev"])


def _abilities(char: dict, tables) -> list[str]:
    lines = []
    if char.get("meret"):
        lines.append(f"Size {char['meret']:+d}")
    if char.get("futaskocka") and char["futaskocka"] != "d6":
        lines.append(f"Speed: futáskocka {char['futaskocka']}")
    for text in special_abilities(char):
        lines.append(text.strip().rstrip("."))
    grade = char.get("szivos")
    if grade:
        grades = tables["szivos_fokozatok"]
        entry = grades.get(grade) if grade in grades else {"name": grade}
        words = entry.get("description", "").rstrip(".")
        lines.append(f"{entry['name']}: {words}" if words else entry["name"])
    return lines


def block(
    char: dict,
    tables,
    members: list[str] | None = None,
    width: int = WIDTH,
    importer: bool = False,
) -> str:
    """One stat block (a squad's with its members' names under the name line); for the
    importer, the special abilities are lines of the description instead of bullets."""
    m = mapping()
    skills_table = tables["kepzettsegek"]
    pc = char.get("kind") == "pc"
    role = "Főszereplő" if char.get("foszereplo") else "Mellékszereplő"
    if pc:
        era = _name(tables["korszakok"], char.get("korszak", ""))
        who = [role, char.get("koncepcio", ""), era]
    else:
        sablon = char.get("sablon") or _name(tables["mellekszereplok"], char.get("template", ""))
        who = [role, sablon]
    lines: list[str] = []
    if members is not None:
        sablon = char.get("sablon") or char.get("template", "")
        lines.append(f"{sablon} (osztag, {len(members)} fő)")
        lines.append(
            _wrap(width, f"Tagok: {'; '.join(members)}.")
        )  # a beast's name may hold a comma
        wild = char.get("csoport_vadkocka") or "d6"
        lines.append(
            _wrap(width, f"Közös Akciókártya: {char.get('akciokartya')}; {char.get('squad')}.")
        )
        lines.append(
            _wrap(
                width, f"Csoportdobás: Jellemzőkocka és a közös {wild} Vadkocka, a jobbik számít."
            )
        )
    else:
        lines.append(char["name"])
    who_text = ", ".join(w for w in who if w)
    lines.append(
        _wrap(
            width,
            f"{who_text}. Sorspont {char.get('sorspont', 0)}, Sebek {char.get('elviselt_sebek', 0)}.",
        )
    )
    abilities = _abilities(char, tables)
    if importer:  # its default bullet setting would split the bullets into letters
        lines += [_wrap(width, f"{a}.") for a in abilities]
        abilities = []
    attrs = char["alaptulajdonsagok"]
    traits = ", ".join(f"{ATTRIBUTE_LABELS[en]} {attrs[hu]}" for hu, en in m["attributes"].items())
    lines.append(_wrap(width, f"Attributes: {traits}"))
    skills = ", ".join(f"{_name(skills_table, k)} {v}" for k, v in char["kepzettsegek"].items())
    lines.append(_wrap(width, f"Skills: {skills}"))
    armour = char.get("pancel", 0)
    tough = f"{char['szivossag']} ({armour})" if armour else str(char["szivossag"])
    lines.append(f"Pace: {char['mozgas']}; Parry: {char['haritas']}; Toughness: {tough}")
    if char.get("hatranyok"):
        flaws = ", ".join(
            f"{_GRADE.sub('', h['nev'])} ({'Major' if h['sulyossag'] == 'sulyos' else 'Minor'})"
            for h in char["hatranyok"]
        )
        lines.append(_wrap(width, f"Hindrances: {flaws}"))
    if char.get("elonyok"):
        lines.append(_wrap(width, f"Edges: {', '.join(e['nev'] for e in char['elonyok'])}"))
    background = char.get("arkan_hatter") or {}
    powers = background.get("hatalmak") or ()
    if powers:
        lines.append(_wrap(width, f"Powers: {', '.join(p['nev'] for p in powers)}"))
        lines.append(f"Power Points: {background.get('hatalompont', 0)}")
    gear = [gear_text(i) for i in char.get("felszereles", ())]
    if gear:
        lines.append(_wrap(width, f"Gear: {', '.join(gear)}"))
    if abilities:
        lines.append("Special Abilities:")
        lines += [_wrap(width, f"• {a}") for a in abilities]
    return "\n".join(lines) + "\n"


def blocks(
    items: Iterable[dict], tables, width: int = WIDTH, importer: bool = False
) -> Iterator[str]:
    """A block per character; the members of one squad share one block."""
    for run in squad_runs(items):
        members = [c["name"] for c in run] if run[0].get("squad") else None
        yield block(run[0], tables, members, width, importer)


def render(system, tables, items: Iterable[dict], count: int, values: dict) -> Iterator[str]:
    """The blocks, a blank line between two, lines wrapped at spaces to --width (80 by
    default); with --latin1 ő ű as õ û; with --importer the form swade-npc-importer
    reads with its default settings (Latin-1 letters, special abilities in the
    description)."""
    importer = bool(values.get("importer"))
    latin1 = importer or bool(values.get("latin1"))
    width = values.get("width") or WIDTH
    for n, text in enumerate(blocks(items, tables, width, importer)):
        text = text.translate(LATIN1) if latin1 else text
        yield ("\n" if n else "") + text
