"""The SWADE target of `-f foundry`: savage characters as Actors of Foundry's SWADE system.

chargen.export.foundry frames the document (ids, `_key`, `_stats`, flags, folders);
this module fills the SWADE side: the Actor's type (`character` for a PC, `npc` for
an NPC, with `wildcard`), its attributes, pace, stats and details, and the embedded
Items (skills, edges with their requirements, hindrances, powers, weapons, armour,
shields, gear, special abilities). Names and labels stay Hungarian; swids, ids and
the numbers are what the SWADE system reads (chargen/export/swade.toml). A squad's
folder adds `osztag.md`: the leader, the shared action card and the steps to run the
group in the combat tracker.
"""

from __future__ import annotations

import re
from typing import Any

from chargen.export.foundry import Items, ascii_fold, html, load_mapping

SWID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
RESERVED_SWIDS = {"none", "any"}  # the SWADE system's reserved words
ICON = "systems/swade/assets/icons/{}.svg"
# system.*.equipStatus (SWADE constants.EQUIP_STATE)
CARRIED, EQUIPPED, MAIN_HAND, TWO_HANDS = 1, 3, 4, 5
_DIE = re.compile(r"^d(\d+)(?:\+(\d+))?$")
_SPREAD = re.compile(r"\d+-(\d+d\d+)")


def mapping() -> dict[str, Any]:
    """chargen/export/swade.toml: versions, attribute keys, swids, item types."""
    return load_mapping("swade")


def unmapped(system) -> str:
    """Why the game cannot go into SWADE ("" when it can): this target reads savage's fields."""
    if system.id == "savage":
        return ""
    return f"the SWADE target (swade) maps the fields of savage only, not those of '{system.id}'"


def versions() -> dict[str, str]:
    """The Foundry core and SWADE system versions the export targets (pinned in swade.toml)."""
    return dict(mapping()["versions"])


# -- small pieces ---------------------------------------------------------------------


def swid(text: str) -> str:
    """A SWADE id from a slug or a name: lower-case ASCII words joined by hyphens."""
    words = re.findall(r"[a-z0-9]+", ascii_fold(text).lower())
    found = "-".join(words) or "item"
    return f"{found}-item" if found in RESERVED_SWIDS else found


def die(text: str) -> dict[str, int]:
    """A trait die as the SWADE data model holds it: d8 -> sides 8; d12+1 -> sides 12, modifier 1."""
    match = _DIE.match(text)
    if match is None:
        raise ValueError(f"not a trait die: {text!r}")
    return {"sides": int(match[1]), "modifier": int(match[2] or 0)}


def damage(text: str) -> str:
    """A savage damage code as the SWADE system writes it: Erő+d6 -> @str+d6; 1-3d6 -> 3d6."""
    text = text.replace(" ", "")
    if text.startswith("Erő"):
        return "@str" + text[len("Erő") :]
    spread = _SPREAD.fullmatch(text)  # the shotgun's 1-3d6 by range: its largest roll
    return spread[1] if spread else text


def _name(table, key: str) -> str:
    return table.get(key)["name"] if key in table else key


def _entry(table, key: str) -> dict:
    return table.get(key) if key in table else {}


# -- items ----------------------------------------------------------------------------


def _add(items: Items, kind: str, name: str, item_swid: str, system: dict) -> dict:
    """An Item of the SWADE system: its swid first, its type's icon."""
    return items.add(kind, name, item_swid, {"swid": item_swid, **system}, ICON.format(kind))


def _skills(items: Items, char: dict, tables) -> None:
    m = mapping()
    table = tables["kepzettsegek"]
    for key, value in char.get("kepzettsegek", {}).items():
        entry = _entry(table, key)
        attribute = m["attributes"].get(entry.get("tulajdonsag", ""), "")
        _add(
            items,
            "skill",
            entry.get("name", key),
            m["skills"].get(key) or swid(key),
            {
                "description": html(entry.get("description", "")),
                "attribute": attribute,
                "isCoreSkill": bool(entry.get("alap")),
                "die": die(value),
                "wild-die": {"sides": 6},
            },
        )


def requirements(entry: dict, tables) -> list[dict]:
    """An Edge's requirements from its savage entry, as the SWADE data model lists them:
    its rank, then minimum attribute and skill dice and the Edges it needs first."""
    m = mapping()
    skills, edges = tables["kepzettsegek"], tables["elonyok"]
    found = [
        {
            "type": "rank",
            "selector": "",
            "value": m["rank_numbers"][entry.get("rang", "ujonc")],
            "combinator": "and",
        }
    ]
    for key, need in entry.get("kell_tulajdonsag", {}).items():
        found.append(
            {
                "type": "attribute",
                "selector": m["attributes"][key],
                "value": die(need)["sides"],
                "combinator": "and",
            }
        )
    for key, need in entry.get("kell_kepzettseg", {}).items():
        found.append(
            {
                "type": "skill",
                "selector": m["skills"].get(key) or swid(key),
                "value": die(need)["sides"],
                "label": _name(skills, key),
                "combinator": "and",
            }
        )
    for key in entry.get("kell_elony", ()):
        found.append(
            {
                "type": "edge",
                "selector": edge_swid(key),
                "value": "",
                "label": _name(edges, key),
                "combinator": "and",
            }
        )
    return found


def edge_swid(key: str) -> str:
    """An Előny's swid: the SWADE core Edge's English one, else a slug of its id."""
    return mapping()["edges"].get(key) or swid(key)


def hindrance_swid(entry: dict, key: str) -> str:
    """A Hátrány's swid: the SWADE core Hindrance's English one (both grades of one
    Hindrance share it: its csoport or tag names it), else a slug of its group or id."""
    english = mapping()["hindrances"]
    for name in (entry.get("csoport"), *entry.get("tags", ()), key):
        if name in english:
            return english[name]
    return swid(entry.get("csoport") or key)


def _edges(items: Items, char: dict, tables) -> None:
    table = tables["elonyok"]
    background = (char.get("arkan_hatter") or {}).get("id")
    for edge in char.get("elonyok", ()):
        entry = _entry(table, edge["id"])
        _add(
            items,
            "edge",
            edge.get("nev") or entry.get("name", edge["id"]),
            edge_swid(edge["id"]),
            {
                "description": html(edge.get("hatas") or entry.get("description", "")),
                "isArcaneBackground": edge["id"] == background,
                "requirements": requirements(entry, tables),
            },
        )


def _hindrances(items: Items, char: dict, tables) -> None:
    table = tables["hatranyok"]
    for flaw in char.get("hatranyok", ()):
        entry = _entry(table, flaw["id"])
        major = flaw.get("sulyossag") == "sulyos"
        _add(
            items,
            "hindrance",
            flaw.get("nev") or entry.get("name", flaw["id"]),
            hindrance_swid(entry, flaw["id"]),
            {
                "description": html(flaw.get("hatas") or entry.get("description", "")),
                "severity": "major" if major else "minor",
                "major": major,
            },
        )


def _gear(items: Items, char: dict, tables) -> None:
    """Weapons, armour, shields and gear with their numbers; the first weapon in hand."""
    m = mapping()
    table = tables["felszereles"]
    skills = tables["kepzettsegek"]
    in_hand = False
    for thing in char.get("felszereles", ()):
        entry = _entry(table, thing.get("id", ""))
        tipus = thing.get("tipus") or entry.get("tipus", "egyeb")
        kind = m["item_types"].get(tipus, "gear")
        min_str = thing.get("min_ero") or entry.get("min_ero", "")
        system: dict[str, Any] = {
            "description": html(entry.get("description", "")),
            "quantity": 1,
            "price": thing.get("ar", entry.get("ar", 0)),
        }
        if kind == "weapon":
            raw = thing.get("sebzes", entry.get("sebzes", ""))
            ranged = "lotav" in thing
            range_type = m["range_types"].get(tipus, 1 if ranged else 0)
            if range_type == 0 and ranged:
                range_type = 2
            two_handed = bool(thing.get("ketkezes") or entry.get("ketkezes"))
            status = CARRIED
            if not in_hand:
                status, in_hand = (TWO_HANDS if two_handed else MAIN_HAND), True
            skill = thing.get("kepzettseg") or entry.get("kepzettseg", "")
            notes = [f"Sebzés: {raw}" if _SPREAD.fullmatch(raw.replace(" ", "")) else ""]
            notes.append(f"Elérés {thing['eleres']}" if thing.get("eleres") else "")
            notes.append(
                f"Újratöltés: {thing['ujratoltes']} akció" if thing.get("ujratoltes") else ""
            )
            notes.append(thing.get("megjegyzes", ""))
            system |= {
                "damage": damage(raw),
                "range": thing.get("lotav", ""),
                "rangeType": range_type,
                "rof": thing.get("tgy", 1),
                "ap": thing.get("pancel_tores", 0),
                "minStr": min_str,
                "equipStatus": status,
                "shots": thing.get("lovesek", 0),
                "currentShots": thing.get("lovesek", 0),  # loaded
                "notes": "; ".join(n for n in notes if n),
                "actions": {
                    "trait": _name(skills, skill) if skill else "",
                    "traitMod": f"{thing['talalat']:+d}" if thing.get("talalat") else "",
                    "dmgMod": "",
                },
            }
        elif kind == "armor":
            covered = {m["locations"].get(h, h) for h in thing.get("hely", ())}
            bullets = thing.get("lovedek_ellen")
            system |= {
                "notes": "; ".join(
                    n
                    for n in (
                        f"+{bullets} lövedékek ellen" if bullets else "",
                        thing.get("megjegyzes", ""),
                    )
                    if n
                ),
                "armor": thing.get("pancel", 0),
                "minStr": min_str,
                "equipStatus": EQUIPPED,
                "locations": {loc: loc in covered for loc in ("head", "torso", "arms", "legs")},
            }
        elif kind == "shield":
            system |= {
                "parry": thing.get("haritas", 0),
                "cover": m["shield_cover"].get(thing.get("id", ""), 0),
                "minStr": min_str,
                "equipStatus": EQUIPPED,
            }
        else:
            system["equipStatus"] = CARRIED
            system["notes"] = thing.get("megjegyzes", "")
        item_swid = m["gear"].get(thing.get("id", "")) or swid(thing.get("id", ""))
        _add(items, kind, thing.get("nev") or entry.get("name", "?"), item_swid, system)


def without_size(line: str) -> str:
    """A special ability without the Méret it states (the size field holds that):
    "Méret +2." -> "", "Méret +1, kitinpáncél +1." -> "Kitinpáncél +1."."""
    word = re.escape(mapping()["size_ability"]["word"])
    rest = re.sub(rf"^\s*{word}\s*[-+−]?\s*\d+\s*[,.;]?\s*", "", line)
    if rest == line:
        return line
    rest = rest.strip()
    return rest[:1].upper() + rest[1:] if rest.rstrip(".") else ""


def special_abilities(char: dict) -> list[str]:
    """A template's `kulonleges`, without the statements of its size."""
    return [text for text in map(without_size, char.get("kulonleges", ())) if text]


def _abilities(items: Items, char: dict, tables) -> None:
    """Special abilities (a template's `kulonleges`) and a Szívós grade's rule."""
    for line in special_abilities(char):
        head, sep, rest = line.partition(":")
        name = head.strip().rstrip(".") if sep else line.strip().rstrip(".")
        _add(
            items,
            "ability",
            name,
            swid(name),
            {"description": html(rest.strip() if sep else line.strip()), "subtype": "special"},
        )
    grade = char.get("szivos")
    if grade:
        entry = _entry(tables["szivos_fokozatok"], grade)
        _add(
            items,
            "ability",
            entry.get("name", grade),
            swid(grade),
            {"description": html(entry.get("description", "")), "subtype": "special"},
        )


def _powers(items: Items, char: dict, tables) -> None:
    """The powers of a Mágikus háttér (Arcane Background), on the general Power Points
    (`arcane` empty), rolled with its arcane skill (`actions.trait`), with their damage."""
    m = mapping()
    background = char.get("arkan_hatter") or {}
    skill = background.get("kepzettseg_nev") or _name(
        tables["kepzettsegek"], background.get("kepzettseg", "")
    )
    for power in background.get("hatalmak", ()):
        key = power.get("id", "")
        system = {
            "description": html(power.get("hatas", "")),
            "pp": power.get("ar", 0),
            "range": str(power.get("hatotav", "")),
            "duration": str(power.get("idotartam", "")),
            "rank": m["ranks"].get(power.get("rang", ""), power.get("rang", "")),
            "arcane": "",
            "damage": m["power_damage"].get(key, ""),
            "actions": {"trait": skill, "traitMod": "", "dmgMod": ""},
        }
        _add(
            items, "power", power.get("nev", key), mapping()["powers"].get(key) or swid(key), system
        )


# -- the actor ------------------------------------------------------------------------


def actor(char: dict, tables, items: Items) -> dict:
    """One savage character's side of a SWADE Actor: type, system data, Items."""
    m = mapping()
    pc = char.get("kind") == "pc"
    wild = bool(char.get("foszereplo"))
    attrs = char["alaptulajdonsagok"]
    wild_die = die(char["vadkocka"])["sides"] if char.get("vadkocka") else 6
    attributes = {}
    for key, english in m["attributes"].items():
        attributes[english] = {"die": die(attrs[key]), "wild-die": {"sides": wild_die}}
    run = die(char["futaskocka"])
    if pc:
        archetype = char.get("koncepcio", "")
    else:
        archetype = char.get("sablon") or _name(tables["mellekszereplok"], char.get("template", ""))
    about = []
    if char.get("nem"):
        about.append(f"Nem: {char['nem']}.")
    if char.get("korszak"):
        about.append(f"Korszak: {_name(tables['korszakok'], char['korszak'])}.")
    if char.get("squad"):
        about.append(f"Osztag: {char['squad']} (közös Akciókártya: {char.get('akciokartya')}).")
    details: dict[str, Any] = {
        "autoCalcToughness": False,
        "autoCalcParry": False,
        "archetype": archetype,
        "biography": {"value": html(" ".join(about))},
    }
    if pc:
        details["currency"] = char.get("penz", 0)
    sebek = char.get("elviselt_sebek", 3 if wild else 0)  # a Nagyon szívós one bears one
    system: dict[str, Any] = {
        "attributes": attributes,
        "pace": {
            "base": "ground",
            "ground": char["mozgas"],
            "running": {"die": run["sides"], "mod": run["modifier"]},
        },
        "stats": {
            "toughness": {"value": char["szivossag"], "armor": char.get("pancel", 0)},
            "parry": {"value": char["haritas"], "shield": _shield(char)},
            "size": char.get("meret", 0),
        },
        "details": details,
        "wounds": {"value": 0, "max": sebek, "ignored": 0},
        "bennies": {"value": char.get("sorspont", 0), "max": char.get("sorspont", 0)},
    }
    if not pc:
        system["wildcard"] = wild
    background = char.get("arkan_hatter")
    if background:
        points = background.get("hatalompont", 0)
        system["powerPoints"] = {"general": {"value": points, "max": points}}
    _skills(items, char, tables)
    _hindrances(items, char, tables)
    _edges(items, char, tables)
    _powers(items, char, tables)
    _gear(items, char, tables)
    _abilities(items, char, tables)
    return {"type": "character" if pc else "npc", "system": system, "linked": pc or wild}


def group_flags(char: dict) -> dict[str, Any]:
    """A squad member's shared action card."""
    return {"card": char.get("akciokartya")}


def _shield(char: dict) -> int:
    return max(
        (i.get("haritas", 0) for i in char.get("felszereles", ()) if i.get("tipus") == "pajzs"),
        default=0,
    )


def group_notes(rows: list[tuple[dict, str]]) -> tuple[str, str]:
    """`osztag.md`: what a game master needs to run the squad in Foundry's combat
    tracker (Hungarian)."""
    first = rows[0][0]["flags"]["chargen"]
    leader = next(name for doc, name in rows if doc["flags"]["chargen"]["leader"])
    lines = [
        f"# Osztag: {rows[0][0]['system']['details']['archetype']} ({len(rows)} fő)",
        "",
        f"- Osztag: {first['squad']}",
        f"- Vezető: {first['leaderName']} ({leader})",
        f"- Közös Akciókártya: {first['card']}",
        "- Csoportdobás: egy Jellemzőkocka és egy közös d6 Vadkocka, a jobbik számít.",
        "",
        "## Tagok",
        "",
    ]
    for doc, name in rows:
        mark = " (vezető)" if doc["flags"]["chargen"]["leader"] else ""
        lines.append(f"{doc['flags']['chargen']['member']}. {doc['name']}{mark}: {name}")
    lines += [
        "",
        "## Foundry VTT (SWADE) lépések",
        "",
        "1. A tagok a világba kerülnek: egyenként (új NPC szereplő, jobb klikk a szereplőre, "
        "Import Data, a tag fájlja), vagy egyszerre kompendiumként: "
        "`fvtt package pack KOMPENDIUM --in MAPPA --out VILÁG/packs` (MAPPA ez a mappa), majd a "
        "kompendiumból a Szereplők közé húzva.",
        "2. A tagok tokenjeit a jelenetre húzod, kijelölöd, és felveszed őket a "
        "harckövetőbe (Combat Tracker).",
        "3. A harckövetőben a tagokat a vezető csoportjába rendezed; a csoport egy "
        "Akciókártyát kap, az osztag közös kártyáját.",
        "4. A Foundry csoportja (Group szereplő) csak a világban már meglévő szereplőket "
        "tarthat: ezért nincs a fájlok között, a fenti lépések után hozható létre.",
        "",
    ]
    return "osztag.md", "\n".join(lines)
