"""A stat-block reader for the tests, working the way swade-npc-importer does.

Written for chargen after arnonram/swade-npc-importer v0.2.4 (scripts/parseStatBlock.js,
scripts/global.js, lang/en.json): the same English labels, the same way of cutting the
text into sections (the first occurrence of each label, case-insensitive), the same
dice pattern, and the same patterns for Edges and Hindrances (Latin-1 letters) and for
Gear (name, optional parenthesis, optional comma). It returns what the importer would
take from a block, so a test can compare it with the character's JSON.
"""

from __future__ import annotations

import re

LABELS = (
    "Attributes:",
    "Skills:",
    "Hindrances:",
    "Edges:",
    "Powers:",
    "Pace:",
    "Parry:",
    "Toughness:",
    "Power Points:",
    "Gear:",
    "Special Abilities:",
    "Super Powers:",
    "Conviction:",
)
DICE = re.compile(r"(\d+)?d(\d+)([\+\-]\d+)?", re.IGNORECASE)  # npcImporter.regex.dice
NEWLINE = re.compile(r"\r\n|\n|\r")
# global.js gearParsingRegex and parseStatBlock.js parseEdgesHindrances
GEAR = re.compile(r"(^[A-Za-zÀ-ÖØ-öø-ÿ0-9 \.\-]+)(\(([^()]+)\))?,?", re.IGNORECASE)
EDGE = re.compile(r"([A-Za-zÀ-ÖØ-öø-ÿ0-9!\-’' ]+)(\(([^\)]+)\))?", re.IGNORECASE)
ARMOR_MOD = re.compile(r"\+\d+")
PARRY = re.compile(r"([+-])\d+ Parry|Parry ([+-])\d+")
ATTRIBUTES = ("Agility", "Smarts", "Spirit", "Strength", "Vigor")


def sections(text: str) -> list[str]:
    starts = []
    for label in LABELS:
        pattern = r"(?<! )Powers:" if label == "Powers:" else re.escape(label)
        found = re.search(pattern, text, re.IGNORECASE)
        if found and found.start() > 0:
            starts.append(found.start())
    if not starts:
        raise ValueError("not a stat block: no label found")
    starts.sort()
    out = [text[: starts[0]].strip()]
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        out.append(text[start:end].strip())
    return out


def trait(text: str) -> dict:
    found = DICE.search(text)
    if found is None:
        return {"sides": 1, "modifier": 0}
    return {"sides": int(found[2]), "modifier": int(found[3] or 0)}


def _section(parts: list[str], label: str) -> str | None:
    pattern = re.compile(re.escape(label), re.IGNORECASE)
    for part in parts:
        if pattern.search(part):
            return pattern.sub("", part, count=1)
    return None


def _clean_list(body: str) -> str:
    return NEWLINE.sub(" ", body).replace(".", "", 1).strip()


def _number(parts: list[str], label: str) -> int | None:
    for part in parts:
        if part.startswith(label):
            return int(re.match(r"\s*(-?\d+)", part.split(":", 1)[1].replace(";", "")).group(1))
    return None


def read(text: str, defaults: bool = False) -> dict:
    """What the importer reads from one block. With `defaults`, as its default settings
    have it: the bullet setting "•|" is a pattern that also matches the empty string, so
    the Special Abilities split into single characters; and a shield's Parry and Cover
    are never read (its getBonus falls through to the Power Points label and puts a
    pattern's slashes into the pattern it builds), so a shield comes with none."""
    parts = sections(text)
    head = NEWLINE.split(parts[0])
    out: dict = {"name": head[0].strip(), "description": [h.strip() for h in head[1:]]}
    attrs = {}
    for piece in (_section(parts, "Attributes:") or "").split(","):
        piece = NEWLINE.sub(" ", piece).strip()
        for label in ATTRIBUTES:
            if piece.startswith(label):
                attrs[label.lower()] = trait(piece)
    out["attributes"] = attrs
    skills = {}
    for piece in (_section(parts, "Skills:") or "").split(","):
        piece = NEWLINE.sub(" ", piece).strip()
        dice = DICE.search(piece)
        name = piece.replace(dice[0], "", 1).strip().replace(" )", ")") if dice else piece
        if name and dice:
            skills[name.lower().replace(":", "").replace(".", "", 1)] = trait(dice[0])
    out["skills"] = skills
    out["pace"] = _number(parts, "Pace:")
    out["parry"] = _number(parts, "Parry:")
    out["toughness"] = _number(parts, "Toughness:")
    tough = next((p for p in parts if p.startswith("Toughness:")), "")
    armour = re.search(r"\((\d+)\)", tough)
    out["armour"] = int(armour[1]) if armour else 0
    for key, label in (("hindrances", "Hindrances:"), ("edges", "Edges:")):
        body = _section(parts, label)
        out[key] = [m[0].strip() for m in EDGE.finditer(_clean_list(body))] if body else []
        out[key] = [x for x in out[key] if x]
    body = _section(parts, "Powers:")
    out["powers"] = [p.strip() for p in _clean_list(body).split(",")] if body else []
    out["power_points"] = _number(parts, "Power Points:")
    out["gear"] = _gear(_section(parts, "Gear:"), defaults)
    out["abilities"] = _abilities(_section(parts, "Special Abilities:"), defaults)
    size = next((a for a in out["abilities"] if "size" in a.lower()), None)
    out["size"] = int(size.split(" ")[1]) if size else 0
    speed = next((v for k, v in out["abilities"].items() if "speed" in k.lower()), None)
    out["running_die"] = int(DICE.search(speed)[2]) if speed else 6
    return out


def _gear(body: str | None, defaults: bool = False) -> dict:
    if body is None:
        return {}
    line = NEWLINE.sub(" ", body).strip()
    found = []
    while len(line) > 1:
        match = GEAR.match(line)
        if match and match[0]:
            found.append(match[0].strip())
            line = line.replace(match[0], "", 1)
        else:
            found.append(line.strip())
            break
    gear: dict = {}
    for piece in found:
        name, _, rest = piece.replace(")", "", 1).partition("(")
        name = name.strip()
        if not rest:
            name = name.rstrip(",.").strip()
            if name:
                gear[name] = None
            continue
        if "Str" in rest or "damage" in rest.lower() or "range" in rest.lower():
            stats = {}
            for stat in (s.strip() for s in rest.split(",") if s.strip()):
                if re.match(r"^Str", stat, re.IGNORECASE):
                    stats["damage"] = stat
                else:
                    word = re.match(r"^[A-Za-z]+", stat)
                    if word:
                        stats[word[0].lower()] = stat[len(word[0]) :].strip()
            gear[name] = stats
        elif PARRY.search(rest):
            parry = None if defaults else int(re.search(r"([+-]\d+) Parry", rest)[1])
            gear[name] = {"parry": parry}
        elif ARMOR_MOD.search(rest) or "armor" in name.lower():
            gear[name] = {"armorBonus": int(ARMOR_MOD.search(rest)[0])}
    return gear


def _abilities(body: str | None, defaults: bool = False) -> dict:
    if body is None:
        return {}
    pieces = [NEWLINE.sub(" ", p).strip() for p in re.split("•|" if defaults else "•", body)]
    out = {}
    for piece in pieces[1:]:
        name, sep, rest = piece.partition(":")
        if name.strip():
            out[name.strip()] = rest.strip() if sep else name.strip()
    return out


def blocks(text: str) -> list[str]:
    """The blocks of a -f statblock output (a blank line between two)."""
    return [b for b in re.split(r"\n\s*\n", text) if b.strip()]
