"""The BRP target of `-f foundry`: spelsystemet characters as Actors of Foundry's Basic
Roleplaying system (cragstone/brp), a system of the family spelsystemet belongs to.

The grundegenskaper become BRP's characteristics, LP its hit points; each kroppsdel is a
`hit-location` Item with its KP and the armour worn on it (an `armour` Item per piece and
part, its SP against Hugg, Kross and Stick in the description); each färdighet a `skill`
in its category (a `skillcat` Item per färdighetsgrupp) with its value as a percentage;
each weapon a `weapon` with its damage, type, range and skill. The numbers BRP reads are
mapped in chargen/export/brp.toml. Names stay Swedish.
"""

from __future__ import annotations

from typing import Any

from chargen.export.foundry import Items, html, load_mapping

ICONS = {
    "skill": "icons/svg/book.svg",
    "skillcat": "icons/svg/book.svg",
    "hit-location": "icons/svg/target.svg",
    "weapon": "icons/svg/sword.svg",
    "armour": "icons/svg/shield.svg",
}


def mapping() -> dict[str, Any]:
    return load_mapping("brp")


def unmapped(system) -> str:
    """Why the game cannot go into BRP ("" when it can): this target reads spelsystemet's fields."""
    if system.id == "spelsystemet":
        return ""
    return f"the BRP target (brp) maps the fields of spelsystemet only, not those of '{system.id}'"


def versions() -> dict[str, str]:
    """The Foundry core and BRP versions the export targets (pinned in brp.toml)."""
    return dict(mapping()["versions"])


def brpid(kind: str, key: str) -> dict:
    """flags.brp: the BRP id by which the system finds an Item (i.skill.<key>)."""
    return {
        "brp": {
            "brpidFlag": {
                "id": f"i.{kind}.{key.replace('_', '-')}",
                "lang": mapping()["brpid"]["lang"],
                "priority": 0,
            }
        }
    }


def dice(text: str) -> str:
    """A Swedish dice code as BRP's roller writes it: 1T6+2 -> 1D6+2."""
    return str(text).replace("T", "D")


def _add(
    items: Items, kind: str, name: str, key: str, system: dict, flags: dict | None = None
) -> dict:
    item = items.add(kind, name, key, system, ICONS[kind])
    if flags:
        item["flags"] = flags
    return item


def _skills(items: Items, char: dict, labels, tables) -> None:
    m = mapping()
    factor = m["skills"]["percent_per_point"]
    group_of = {s: g for g, members in char.get("fardighetsgrupper", {}).items() for s in members}
    for group, spec in m["categories"].items():
        if group in char.get("fardighetsgrupper", {}):
            _add(
                items,
                "skillcat",
                labels.key(spec["label"], tables),
                group,
                {"description": "", "stat": "none", "mod": 0},
                brpid("skillcat", group),
            )
    names = char.get("fardighetsnamn", {})
    for key, value in char.get("fardigheter", {}).items():
        group = group_of.get(key, "vanliga")
        _add(
            items,
            "skill",
            names.get(key) or labels.key(key, tables),
            key,
            {
                "description": "",
                "base": value * factor,
                "category": f"i.skillcat.{group}",
                "combat": bool(m["categories"].get(group, {}).get("combat")),
            },
            brpid("skill", key),
        )


def _hit_locations(items: Items, char: dict, labels, tables) -> dict[str, str]:
    """A hit-location Item per kroppsdel; returns the Item id of each part."""
    ids = {}
    lp = char.get("lp", 0)
    for part, kp in char.get("kp", {}).items():
        spec = mapping()["hit_locations"][part]
        name = labels.key(part, tables)
        fraction = spec["fractionHP"]
        item = _add(
            items,
            "hit-location",
            name,
            part,
            {
                "displayName": name,
                "lowRoll": spec["lowRoll"],
                "highRoll": spec["highRoll"],
                "fractionHP": fraction,
                "locType": spec["locType"],
                "currHP": kp,
                "adj": kp - -(-lp // fraction),
                "hide": False,
            },
        )
        ids[part] = item["_id"]
    return ids


def _armour(items: Items, char: dict, locations: dict[str, str], labels, tables) -> None:
    """An armour Item per piece and part it covers; av1 is its smallest SP (what it
    stops whatever the damage type), the three SP are in its description."""
    for piece in char.get("rustning", ()):
        sp = piece.get("sp", {})
        text = f"SP Hugg {sp.get('h', 0)}, Kross {sp.get('k', 0)}, Stick {sp.get('s', 0)}."
        for part in piece.get("kroppsdelar", ()):
            _add(
                items,
                "armour",
                f"{piece.get('benamning', piece['namn'])} ({labels.key(part, tables)})",
                f"{piece.get('id', piece['namn'])}:{part}",
                {
                    "description": html(text),
                    "av1": min(sp.values(), default=0),
                    "hitlocID": locations.get(part, ""),
                    "equipStatus": "worn",
                    "quantity": 1,
                },
            )


def _weapons(items: Items, char: dict) -> None:
    m = mapping()
    for weapon in char.get("vapen", ()):
        ranged = "skottvidd" in weapon
        skill = weapon.get("fardighet", "")
        kind = m["weapon_types"].get(skill, "missile") if ranged else "melee"
        notes = [
            f"Skada {weapon.get('skada', '')}, {weapon.get('typ', '')}.",
            weapon.get("anmarkning", ""),
        ]
        system: dict[str, Any] = {
            "description": html(*notes),
            "weaponType": kind,
            "skill1": f"i.skill.{skill.replace('_', '-')}" if skill else "none",
            "special": m["damage_types"].get(weapon.get("typ", ""), "none"),
            "db": "none",  # faktisk_skada already holds the Grundskada
            "hands": m["hands"].get(weapon.get("grepp", ""), "none"),
            "equipStatus": "carried",
            "quantity": 1,
            "npcVal": weapon.get("varde", 0) * m["skills"]["percent_per_point"],
        }
        # one damage a range band where the table gives several (4T6/2T6/1T6)
        for n, roll in enumerate(dice(weapon.get("faktisk_skada", "0")).split("/")[:3], 1):
            system[f"dmg{n}"] = roll
        if ranged:
            system["range1"] = str(weapon.get("skottvidd_meter", weapon["skottvidd"]))
            system["rof"] = str(weapon.get("eldhastighet", "1"))
        name = weapon.get("benamning", weapon["namn"])
        _add(items, "weapon", name, weapon.get("id", weapon["namn"]), system)


def actor(char: dict, tables, items: Items) -> dict:
    """One spelsystemet character's side of a BRP Actor: characteristics, hit points,
    move, hit locations, skills, weapons and armour."""
    labels = tables.labels
    stats = {key: {"base": 0} for key in ("str", "con", "int", "siz", "pow", "dex", "cha", "edu")}
    for own, theirs in mapping()["stats"].items():
        stats[theirs]["base"] = char["grundegenskaper"][own]
    lp = char.get("lp", 0)
    pc = char.get("kind") == "pc"
    about = [
        f"{labels.key(k.removesuffix('_namn'), tables)}: {char[k]}"
        for k in ("genre_namn", "art_namn", "yrke_namn", "mall_namn", "rustningspaket")
        if char.get(k)
    ]
    about.append(f"{labels.key('grundskada', tables)}: {char.get('grundskada', '')}")
    system: dict[str, Any] = {
        "stats": stats,
        "health": {"value": lp, "max": lp},
        "move": char.get("snabbhet", 0),
    }
    if pc:
        title = mapping()["texts"]["story_title"]
        system["stories"] = [{"title": title, "value": html(*about)}]
        system["professionName"] = char.get("yrke_namn", "")
        system["gender"] = labels.value("kon", char.get("kon", ""), tables)
    else:
        system["extDesc"] = html(*about)
    _skills(items, char, labels, tables)
    locations = _hit_locations(items, char, labels, tables)
    _armour(items, char, locations, labels, tables)
    _weapons(items, char)
    return {"type": "character" if pc else "npc", "system": system, "linked": pc}
