"""Lantern's sheet: parts a step alone shows too, and the roster of a batch.

Every word comes from the labels file, tables/labels.toml.
"""

from __future__ import annotations

from chargen.sheet import Column, Part, Section
from chargen.tables import Tables
from chargen_lantern.rules import ABILITIES, bonus


def who(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    rows = [[L("name"), char["name"]]]
    if char.get("template"):
        rows.append([L("template"), char["template_name"]])
    if char.get("gender"):
        rows.append([L("gender"), L(char["gender"])])
    if "guard" in char:
        rows.append([L("guard"), char["guard"]])
    title = L("delver") if char["kind"] == "pc" else L("denizen")
    return [Section(title, rows=rows)]


def abilities(char: dict, tables: Tables) -> list[Section]:
    L, rules = tables.labels, tables["rules"].settings
    rows = []
    for a in ABILITIES:
        value = char["abilities"][a]
        rows.append([L(a), f"{value} ({L('bonus')} {bonus(value, rules):+d})"])
    return [Section(L("abilities"), rows=rows, text=L("abilities_rule"))]


def background(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    rows = [[L("background"), char["background_name"]], [L("skill"), char["skill"]]]
    return [Section(L("background"), rows=rows)]


def gear(char: dict, tables: Tables) -> list[Section]:
    """Each item with its damage or Guard and its rules text (gear.toml `rules`)."""
    L, table = tables.labels, tables["gear"]
    items = []
    for i in char["gear"]:
        numbers = [
            L.dice(i["damage"]) if "damage" in i else "",
            f"+{i['guard']}" if "guard" in i else "",
        ]
        shown = ", ".join(n for n in numbers if n)
        rules = table.get(i["id"]).get("rules", "") if i["id"] in table else ""
        items.append((f"{i['name']} ({L(i['kind'])}{', ' + shown if shown else ''})", rules))
    if not items:
        return [Section(L("gear"), text=L.word("none").capitalize())]
    return [Section(L("gear"), items=items)]


def guard(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    return [Section(L("guard"), rows=[[L("guard"), char["guard"]]])]


def sheet(char: dict, tables: Tables) -> list[Section]:
    sections = who(char, tables) + abilities(char, tables)
    if char.get("background"):
        sections += background(char, tables)
    return sections + gear(char, tables)


# a step alone (`chargen lantern gear`) shows its own piece of the sheet
PARTS = [
    Part(("abilities",), abilities),
    Part(("background", "background_name", "skill"), background),
    Part(("gear",), gear),
    Part(("guard",), guard),
]

ROSTER = [
    Column("name", priority=9, wrap=True),
    Column("template_name", priority=8),
    *[Column(a, (lambda c, a=a: c["abilities"][a]), priority=6) for a in ABILITIES],
    Column("guard", priority=7),
    Column("gear", lambda c: ", ".join(i["name"] for i in c["gear"]), priority=4, wrap=True),
]
