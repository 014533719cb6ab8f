"""Karmasystemet's sheet, its parts (a step alone shows its own) and its roster.

Every word comes from the labels file, tables/karma/etiketter.toml.
"""

from __future__ import annotations

from chargen.sheet import Column, Part, Section
from chargen.systems.karma.rules import EGENSKAPER
from chargen.tables import Tables


def _karma_line(char: dict, tables: Tables) -> str | None:
    """How a character's karma reads on the sheet; None for one without karma."""
    L = tables.labels
    if char.get("band"):
        return f"{L.count(char['bandkarma'], 'karmatarning')}, {L('karma_for_bandet')}"
    kind = char.get("karma_typ")
    if kind == "ingen" or (kind is None and char["kind"] == "npc"):
        return None
    text = L.count(char["karma"], "karmatarning")
    if kind in ("egen", "grupp") and char["kind"] == "npc":
        text += f" ({L(kind)})"
    return text


def sheet(char: dict, tables: Tables) -> list[Section]:
    """The whole sheet: who, Egenskaper, Bakgrunder, Särdrag, the sentence, the rules."""
    L = tables.labels
    head = [[L("name"), char["name"]]]
    if char.get("template"):
        head.append([L("mall"), char.get("mall_namn") or char["template"]])
    line = _karma_line(char, tables)
    if line is not None:
        head.append([L("karma"), line])
    title = L("rollperson") if char["kind"] == "pc" else L("spelledarperson")
    sections = [Section(title, rows=head)]
    sections += egenskaper(char, tables) + bakgrunder(char, tables)
    sections += sardrag(char, tables) + mening(char, tables)
    rules = L("regel_slag") if line is None else L("regel_slag") + "\n" + L("regel_karma")
    sections.append(Section(L("slag"), text=rules))
    return sections


def egenskaper(char: dict, tables: Tables) -> list[Section]:
    L, eg = tables.labels, char["egenskaper"]
    return [Section(L("egenskaper"), rows=[[L(e), L.dice(eg[e], 6)] for e in EGENSKAPER])]


def bakgrunder(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    rows = [[b["namn"], L.dice(b["tarningar"], 6)] for b in char["bakgrunder"]]
    return [Section(L("bakgrunder"), rows=rows)]


def sardrag(char: dict, tables: Tables) -> list[Section]:
    """Each Särdrag with its typ and what it does in play (sardrag.toml `rules`)."""
    L, table = tables.labels, tables["sardrag"]
    items = []
    for s in char["sardrag"]:
        entry = table.get(s["id"]) if s["id"] in table else {}
        items.append((f"{s['namn']} ({L(s['typ'])})", entry.get("rules", "")))
    if not items:
        return [Section(L("sardrag"), text=L.word("none").capitalize())]
    return [Section(L("sardrag"), items=items)]


def mening(char: dict, tables: Tables) -> list[Section]:
    return [Section(tables.labels("mening"), text=char["mening"] + ".")]


def karma(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    return [Section(L("karma"), rows=[[L("karma"), L.count(char["karma"], "karmatarning")]])]


# a step alone (`chargen karma sardrag`) shows its piece of the sheet
PARTS = [
    Part(("bakgrunder",), bakgrunder),
    Part(("egenskaper",), egenskaper),
    Part(("sardrag",), sardrag),
    Part(("karma",), karma),
    Part(("last", "dygd", "last_id", "dygd_id", "mening"), mening),
]


def _short(L, key: str) -> str:
    return (L.short(key) or [L(key)])[-1]


def batch_sheet(chars: list[dict], tables: Tables) -> list[Section] | None:
    """A band: its shared karma once, then one row per member."""
    if not chars or not chars[0].get("band"):
        return None
    if any(c.get("band") != chars[0]["band"] for c in chars):
        return None
    L = tables.labels
    leader = chars[0]
    head = [
        [L("ledare"), f"{leader['name']}, {leader['mall_namn']}"],
        [L("medlemmar"), len(chars)],
        [L("gemensam_karma"), L.count(leader["bandkarma"], "karmatarning")],
    ]
    rows = [
        [
            c["name"],
            c["mall_namn"],
            *(c["egenskaper"][e] for e in EGENSKAPER),
            ", ".join(f"{b['namn']} {b['tarningar']}" for b in c["bakgrunder"]),
        ]
        for c in chars
    ]
    headers = [L("name"), L("mall"), *(_short(L, e) for e in EGENSKAPER), L("bakgrunder")]
    legend = ", ".join(f"{_short(L, e)} = {L(e)}" for e in EGENSKAPER)
    return [
        Section(L("band"), rows=head),
        Section(L("medlemmar"), headers=headers, rows=rows),
        Section(L("mening"), text="\n".join(c["mening"] for c in chars)),
        Section(L("bandkarma"), text=L("regel_band") + "\n" + L.fill_word("legend", items=legend)),
    ]


def _egenskap(key: str):
    return lambda c: c["egenskaper"][key]


def _roster_karma(char: dict):
    kind = char.get("karma_typ")
    if kind == "ingen" or (kind is None and char["kind"] == "npc"):
        return ""
    return char.get("bandkarma", char["karma"])


# a batch of the sentence alone (`chargen karma mening -n 5`): its words, not its row ids
MENING_ROSTER = (
    Column("name", priority=9),
    Column("last", wrap=True),
    Column("dygd", wrap=True),
    Column("mening", wrap=True),
)

ROSTER = [
    Column("name", priority=9, wrap=True),  # a long name wraps, the Egenskaper stay
    Column("mall_namn", priority=8),
    *[Column(e, _egenskap(e), priority=6) for e in EGENSKAPER],
    Column("karma", _roster_karma, priority=7),
    Column(
        "bakgrunder",
        lambda c: ", ".join(f"{b['namn']} {b['tarningar']}" for b in c["bakgrunder"]),
        priority=4,
        wrap=True,
    ),
    # the sentence the players agree on: shown when there is room, else named as left out
    Column("mening", priority=3, wrap=True),
]
