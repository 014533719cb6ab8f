"""LEF's sheet, its parts (a step alone shows its own), the roster and each step's roster.

Every word comes from the labels file, tables/lef/etiketter.toml; each Part is one
piece of the sheet, and a step alone shows the pieces its fields fill.
"""

from __future__ import annotations

from chargen.render import whole
from chargen.sheet import Column, Part, Section
from chargen.systems.lef.rules import EVNER
from chargen.tables import Tables


def _head(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    rows = [[L("navn"), char["name"]]]
    if char.get("template"):
        rows.append([L("skabelon"), char.get("skabelon_navn", char["template"])])
    if char.get("kendetegn"):
        rows.append([L("kendetegn"), char["kendetegn"]])
    if char.get("kon"):
        rows.append([L("kon"), char["kon"]])
    if char.get("hjemstat"):
        rows.append([L("hjemstat"), char.get("hjemstat_navn", char["hjemstat"])])
    if char.get("blodarv"):
        rows.append([L("blodarv"), char.get("blodarv_navn", char["blodarv"])])
    if char.get("personlighed"):
        rows.append([L("personlighed"), char.get("personlighed_navn", char["personlighed"])])
    kind = "karakter" if char["kind"] == "pc" else "vaesen" if "kendetegn" in char else "bifigur"
    return [Section(L(kind), rows=rows)]


def _blodarv(char: dict, tables: Tables) -> list[Section]:
    if not char.get("blodarv"):
        return []
    L = tables.labels
    text = f"{char['blodarv_navn']}: {char['blodarv_lore']}"
    return [Section(L("blodarv"), text=text, fields=("blodarv_navn", "blodarv_lore"))]


def _personlighed(char: dict, tables: Tables) -> list[Section]:
    table = tables["personligheder"]
    entry = table.get(char["personlighed"]) if char["personlighed"] in table else {}
    text = char["personlighed_navn"]
    if entry.get("description"):
        text += f": {entry['description']}"
    return [Section(tables.labels("personlighed"), text=text, fields=("personlighed",))]


def _evner(group: str, styles: str):
    def build(char: dict, tables: Tables) -> list[Section]:
        L = tables.labels
        one = "talent" if group == "talenter" else "kundskab"
        rows = [[L(e), v, char[styles].get(e, "")] for e, v in char[group].items()]
        headers = [L(one), L("vaerdi"), L("kampstil" if one == "talent" else "modeffekt")]
        return [Section(L(group), headers=headers, rows=rows, fields=(group, styles))]

    return build


def _tilstand_cell(row: dict, L) -> str:
    text = f"{row['vaerdi']}/{row['loft']}"
    if row.get("bonus"):
        text += f" ({L('bonus').lower()} +{row['bonus']})"
    return text


def _tilstande(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    mark = f"+{char['fokus_bonus']}"
    table = tables["tilstande"]
    rows = [
        [
            L(t),
            _tilstand_cell(row, L),
            mark if t in char["fokus"] else "",
            table.get(t).get("description", "") if t in table else "",
        ]
        for t, row in char["tilstande"].items()
    ]
    headers = [L("tilstand"), L("vaerdi_loft"), L("fokus"), L("beskrivelse")]
    text = L.fill("fokus_regel", bonus=char["fokus_bonus"])
    return [
        Section(
            L("tilstande"),
            headers=headers,
            rows=rows,
            text=text,
            fields=("tilstande", "fokus", "fokus_bonus"),
        )
    ]


def _stjerner(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    rows = [[L(k), "★" * n if n else "-"] for k, n in char["stjerner"].items()]
    return [Section(L("stjerner"), rows=rows, fields=("stjerner",))]


def _ekspertiser(char: dict, tables: Tables) -> list[Section]:
    """Each ekspertise with where it comes from, its header line and its full text."""
    if not char["ekspertiser"]:
        return []
    L = tables.labels
    table = tables["ekspertiser"]
    items = []
    for held in char["ekspertiser"]:
        entry = table.get(held["id"]) if held["id"] in table else {}
        text = f"{held['virkning']}. {entry.get('description', '')}".strip()
        items.append((f"{held['navn']} ({L(held['kilde'])})", text))
    return [Section(L("ekspertiser"), items=items, fields=("ekspertiser",))]


def _forbedring_text(gained: dict, L) -> str:
    """What a forbedring gave, in the labels file's words ("Stjerne i prygl",
    "+1 helbredsloft", "grej: Kikkert")."""
    if "spor" in gained:
        return L.fill("stjerne_i", spor=L(gained["spor"]).lower())
    if "tilstand" in gained:
        return f"+1 {L('loft_' + gained['tilstand'])}"
    if "grej" in gained:
        return f"{L('grej').lower()}: {gained.get('navn', gained['grej'])}"
    return L(gained["forbedring"])


def _forbedringer(char: dict, tables: Tables) -> list[Section]:
    if not char["forbedringer"]:
        return []
    L = tables.labels
    rows = [[L(f["evne"]), f["ved"], _forbedring_text(f, L)] for f in char["forbedringer"]]
    headers = [L("evne"), L("ved"), L("forbedring")]
    return [Section(L("forbedringer"), headers=headers, rows=rows, fields=("forbedringer",))]


def _grej(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    if not char["grej"]:
        if "kendetegn" in char:  # a væsen carries nothing
            return []
        return [Section(L("grej"), text=L.word("none").capitalize(), fields=("grej",))]
    table = tables["grej"]
    # the Holdbar column only where some grej cannot break (most grej can: "nej" in every
    # row would tell the player nothing); the slid rule says what it means
    holdbar = any(item.get("holdbar") for item in char["grej"])
    rows = []
    for item in char["grej"]:
        entry = table.get(item["id"]) if item["id"] in table else {}
        row = [item["navn"], item["udgift"], entry.get("description", "")]
        if holdbar:
            row.insert(2, L.word("yes") if item.get("holdbar") else "")
        rows.append(row)
    headers = [L("grej"), L("udgift"), L("beskrivelse")]
    if holdbar:
        headers.insert(2, L("holdbar"))
    text = L("slid_regel") + (" " + L("holdbar_regel") if holdbar else "")
    return [Section(L("grej"), headers=headers, rows=rows, text=text, fields=("grej",))]


def _penge(char: dict, tables: Tables) -> list[Section]:
    if "kendetegn" in char and not char["penge"]:  # a væsen has no purse
        return []
    L = tables.labels
    text = f"{char['penge']} {L('penge').lower()}"
    if char.get("startudstyr"):
        kit = tables["startudstyr"]
        name = kit.get(char["startudstyr"]).get("name") if char["startudstyr"] in kit else ""
        text += f"\n{L('startudstyr')}: {name}" if name else ""
    return [Section(L("penge"), text=text, fields=("penge",))]


def _part(fields: tuple[str, ...], build) -> Part:
    """A Part that the sheet leaves out where the character lacks its fields (an NPC has
    no personlighed, a væsen no blodarv)."""

    def guarded(char: dict, tables: Tables) -> list[Section]:
        return build(char, tables) if all(f in char for f in fields) else []

    return Part(fields, guarded)


PARTS = [
    _part(("name",), _head),
    _part(("blodarv", "blodarv_navn", "blodarv_lore"), _blodarv),
    _part(("personlighed", "personlighed_navn"), _personlighed),
    _part(("talenter", "kampstile"), _evner("talenter", "kampstile")),
    _part(("kundskaber", "modeffekter"), _evner("kundskaber", "modeffekter")),
    _part(("tilstande", "fokus", "fokus_bonus"), _tilstande),
    _part(("stjerner",), _stjerner),
    _part(("ekspertiser",), _ekspertiser),
    _part(("forbedringer",), _forbedringer),
    _part(("grej",), _grej),
    _part(("penge",), _penge),
]


# -- rosters: cells in the labels file's words (a Column with tables=True is given the pack) --


def _evner_short(char: dict, tables: Tables) -> str:
    """The three strongest evner in their short forms ("Sin 10, Okk 9, Kul 4"): what a
    game master rolls with most; the sheet and the JSON have every value."""
    L = tables.labels
    values = {**char["talenter"], **char["kundskaber"]}
    ranked = sorted((e for e in EVNER if values[e]), key=lambda e: -values[e])[:3]
    return ", ".join(f"{(L.short(e) or [L(e)])[-1]} {values[e]}" for e in ranked)


def _ekspertiser_short(char: dict) -> str:
    return ", ".join(e["navn"] for e in char["ekspertiser"])


def _tilstande_short(char: dict, tables: Tables) -> str:
    """ "Helbred 2/2, Kraft 4/4, ..." """
    L = tables.labels
    return ", ".join(
        whole(f"{L(t)} {row['vaerdi']}/{row['loft']}") for t, row in char["tilstande"].items()
    )


def _stjerner_short(char: dict, tables: Tables) -> str:
    L = tables.labels
    return ", ".join(whole(f"{L(k)} {n}") for k, n in char["stjerner"].items() if n)


def _grej_short(char: dict) -> str:
    return ", ".join(i["navn"] for i in char["grej"])


def _fokus_short(char: dict, tables: Tables) -> str:
    L = tables.labels
    return ", ".join(L(t) for t in char["fokus"])


_NAVN = Column("navn", "name", priority=9, wrap=True)
# a step of a batch (`chargen lef tilstande -n 5`): the columns of that part of the sheet
STEP_ROSTERS: dict[str, tuple[Column, ...]] = {
    "blodarv": (
        _NAVN,
        Column("blodarv", "blodarv_navn", priority=8),
        Column("fokus", _fokus_short, priority=7, tables=True),
        Column("ekspertiser", _ekspertiser_short, priority=6, wrap=True),
    ),
    "personlighed": (
        _NAVN,
        Column("personlighed", "personlighed_navn", priority=8),
        Column("ekspertiser", _ekspertiser_short, priority=7, wrap=True),
    ),
    "evner": (
        _NAVN,
        Column("staerkeste_evner", _evner_short, priority=8, legend=EVNER, tables=True),
        Column("ekspertiser", _ekspertiser_short, priority=7, wrap=True),
    ),
    "tilstande": (
        _NAVN,
        Column("tilstande", _tilstande_short, priority=8, wrap=True, tables=True),
        Column("fokus", _fokus_short, priority=7, tables=True),
        Column("stjerner", _stjerner_short, priority=6, wrap=True, tables=True),
    ),
    "grej": (
        _NAVN,
        Column("startudstyr", priority=7),
        Column("grej", _grej_short, priority=8, wrap=True),
        Column("penge", priority=8),
    ),
}

ROSTER = [
    Column("navn", "name", priority=9, wrap=True),
    Column("skabelon", "skabelon_navn", priority=8),
    Column("blodarv", "blodarv_navn", priority=7),
    Column("personlighed", "personlighed_navn", priority=6),
    Column("staerkeste_evner", _evner_short, priority=5, legend=EVNER, tables=True),
    Column("fokus", _fokus_short, priority=4, wrap=True, tables=True),
]
