"""Matinee Chronicles' sheet, its parts (a step alone shows its own), the NPC card,
the roster and each step's roster (`chargen matinee karriarer -n 5`).

Every word comes from the labels file, tables/matinee/etiketter.toml (tables.labels),
the rules text from regeltext.toml and the tables' descriptions.
"""

from __future__ import annotations

from collections.abc import Callable

from chargen.render import NBSP
from chargen.sheet import Column, Part, Section
from chargen.systems.matinee.rules import (
    FARDIGHETER,
    GRUNDEGENSKAPER,
    KUNSKAP,
    band_of,
    signed,
    skill_label,
    sorted_bands,
)
from chargen.tables import Tables


def _pc(build: Callable[[dict, Tables], list[Section]]):
    """A part of a player character's sheet (an NPC has its own)."""
    return lambda char, tables: [] if char["kind"] == "npc" else build(char, tables)


def _gives(effects: dict, points: dict | None, tables: Tables) -> str:
    """What an event or a karriär gave: "Lönndom +2, Kunskap (sprängämnen) +1"."""
    parts = [f"{skill_label(k, tables)} {signed(v)}" for k, v in effects.items()]
    parts += [f"{skill_label(KUNSKAP + k, tables)} {signed(v)}" for k, v in (points or {}).items()]
    return ", ".join(parts)


def _event_text(event: dict, tables: Tables) -> str:
    """An event as its text and, in brackets, what it gave ("... (Lönndom +2)")."""
    gives = _gives(event.get("effekter", {}), event.get("kunskap"), tables)
    return f"{event['handelse']} ({gives})" if gives else event["handelse"]


def _band(tables: Tables, table: str, value: int) -> dict:
    return band_of(sorted_bands(tables[table].entries), value)


def _niva(char: dict, key: str, tables: Tables) -> int:
    if "nivaer" in char:
        return char["nivaer"][key]
    return _band(tables, "nivaer", char["fardigheter"][key])["niva"]


def text_of(tables: Tables, key: str) -> str:
    return tables["regeltext"].settings[key]


def _head(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    rows = []
    if char.get("name"):
        rows.append([L("namn"), char["name"] + (f" ({char['kon']})" if char.get("kon") else "")])
    rows.append([L("megakorporation"), char["megakorporation_namn"]])
    if "arketyp_namn" in char:
        rows.append([L("arketyp"), char["arketyp_namn"]])
    if "rykte" in char:
        rows.append([L("rykte"), f"{char['rykte']}: {char['rykte_band']}"])
    if "slas_ut_pa" in char:
        base = char["slas_ut_pa"] - char["rustningsbonus"]
        armour = f"{base} + {L('rustning').lower()} {char['rustningsbonus']}"
        rows.append([L("slas_ut_pa"), f"{char['slas_ut_pa']} ({armour})"])
        rows.append([L("initiativ"), f"{char['initiativ']} ({text_of(tables, 'initiativ')})"])
    return [Section(L("rollperson"), rows=rows)]


def _arketyp(char: dict, tables: Tables) -> list[Section]:
    if "megakorporation_namn" in char:  # the head shows it
        return []
    return [
        Section(tables.labels("arketyp"), rows=[[tables.labels("arketyp"), char["arketyp_namn"]]])
    ]


def _grundegenskaper(char: dict, tables: Tables) -> list[Section]:
    L, ge = tables.labels, char["grundegenskaper"]
    keys = list(GRUNDEGENSKAPER)
    half = (len(keys) + 1) // 2
    rows = []
    for n in range(half):
        row = [L(keys[n]), ge[keys[n]]]
        if n + half < len(keys):
            row += [L(keys[n + half]), ge[keys[n + half]]]
        rows.append(row)
    return [Section(L("grundegenskaper"), rows=rows, folds=2)]


def _fardigheter(char: dict, tables: Tables) -> list[Section]:
    """The färdigheter in the document's order (each Kunskap inriktning in Kunskap's
    place), two to a row."""
    L, skills = tables.labels, char["fardigheter"]
    kunskap = sorted(k for k in skills if k.startswith(KUNSKAP))
    keys = [k for f in FARDIGHETER for k in (kunskap if f == "kunskap" else [f]) if k in skills]
    cells = [[skill_label(k, tables), skills[k], _niva(char, k, tables)] for k in keys]
    half = (len(cells) + 1) // 2
    rows = [
        cells[n] + (cells[n + half] if n + half < len(cells) else ["", "", ""]) for n in range(half)
    ]
    headers = [L("fardighet"), L("varde"), L("niva")] * 2
    return [Section(L("fardigheter"), rows=rows, headers=headers, folds=2)]


def _tillgangar(char: dict, tables: Tables) -> list[Section]:
    """The value, its Nivå, the band and what it means one owns, the utrustning budget."""
    L, value = tables.labels, char["tillgangar"]
    band = _band(tables, "tillgangar_band", value)
    niva = _band(tables, "nivaer", value)["niva"]
    budget = (value + 1) // 2
    return [
        Section(
            L("tillgangar"),
            items=[
                (
                    f"{L('tillgangar')} {value} ({L('niva')} {niva})",
                    f"{band['name']}: {band['description']} {L('bonusar').capitalize()}: {budget}.",
                )
            ],
        )
    ]


def _resurser(char: dict, tables: Tables) -> list[Section]:
    L, text = tables.labels, tables["regeltext"].settings
    items = [
        (f"{L('hjaltepoang')} {char['hjaltepoang']}", text["hjaltepoang"]),
        (f"{L('k_marker')} {char['k_marker']}", text["k_marker"]),
    ]
    if "bekanta_max" in char:
        pot = char.get("bekanta", 0)  # hjältepoäng spent on Bekanta at creation
        items.append((f"{L('bekanta')} {pot}/{char['bekanta_max']}", text["bekanta"]))
        items.append((f"{L('ode')} 0/{char['ode_max']}", text["ode"]))
    if "sinnesryckning" in char:
        band = _band(tables, "sinnesryckning", char["korruption"])
        items.append(
            (f"{L('korruption')} {char['korruption']}", f"{band['name']}: {band['description']}")
        )
    return [Section(L("resurser"), items=items)]


def _strid(char: dict, tables: Tables) -> list[Section]:
    """Slås ut på and the Skada track with its modifiers (Slås ut på and initiativ
    also stand in the head)."""
    L, text = tables.labels, tables["regeltext"].settings
    track = sorted(tables["skada"].entries, key=lambda e: e["min"])
    return [
        Section(
            L("strid"),
            headers=[L("skada")] + [e["name"] for e in track],
            rows=[[L("modifikation")] + [signed(e["modifikation"]) for e in track]],
            text=f"{L('slas_ut_pa')}: {text['slas_ut_pa']}\n{L('skada')}: {text['skada']}",
        )
    ]


def _manovrar_text(ids: list[str], tables: Tables) -> str:
    names = tables["stridsmanovrar"]
    return ", ".join(names.get(i)["name"] for i in ids if i in names)


def _utrustning(char: dict, tables: Tables) -> list[Section]:
    """The weapons with the stridsmanövrar each allows, those manövrar (Satsa first)
    in one short block; then the other items."""
    L, text = tables.labels, tables["regeltext"].settings
    gear = char["utrustning"]
    weapons = [i for i in gear if i.get("vapen")]
    sections = []
    if weapons:
        manovrar = tables["stridsmanovrar"]
        allowed = {m for w in weapons for m in w["stridsmanovrar"]}
        shown = ["satsa"] + [e["id"] for e in manovrar.entries if e["id"] in allowed - {"satsa"}]
        sections.append(
            Section(
                L("vapen"),
                headers=[L("vapen"), L("fardighet"), L("bonus"), L("stridsmanovrar")],
                rows=[
                    [
                        w["namn"],
                        skill_label(w["fardighet"], tables),
                        signed(w["bonus"]),
                        _manovrar_text(w["stridsmanovrar"], tables),
                    ]
                    for w in weapons
                ],
                text="\n".join(
                    [text["stridsmanovrar"]]
                    + [
                        f"{manovrar.get(m)['name']}: {manovrar.get(m)['description']}"
                        for m in shown
                    ]
                ),
            )
        )
    others = [i for i in gear if not i.get("vapen")]
    if others:
        sections.append(
            Section(
                L("utrustning"),
                headers=[L("foremal"), L("fardighet"), L("bonus")],
                rows=[
                    [i["namn"], skill_label(i["fardighet"], tables), signed(i["bonus"])]
                    for i in others
                ],
                text=text["utrustning"],
            )
        )
    return sections


def _uppvaxt(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    rows = [
        [e["slag"], e["handelse"], _gives(e.get("effekter", {}), e.get("kunskap"), tables)]
        for e in char["uppvaxthandelser"]
    ]
    return [
        Section(L("uppvaxthandelser"), rows=rows, headers=[L("slag"), L("handelse"), L("effekt")])
    ]


def _karriarer(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    rows = [
        [
            k["namn"],
            _gives(k["effekter"], k.get("kunskap"), tables),
            _event_text(k["handelse"], tables),
        ]
        for k in char["karriarer"]
    ]
    headers = [L("karriar"), L("ger"), L("karriarhandelse")]
    return [Section(L("karriarer"), rows=rows, headers=headers)]


def _beskrivningsord(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    return [
        Section(L("beskrivningsord"), text="\n".join(b["ord"] for b in char["beskrivningsord"]))
    ]


def _konsten(char: dict, tables: Tables) -> list[Section]:
    L, text = tables.labels, tables["regeltext"].settings
    if not char["konsten"]:
        return [Section(L("konsten"), text=text["konsten_teori"])]
    inriktningar = tables["konsten"]
    items = [
        (inriktningar.get(k)["name"], inriktningar.get(k)["description"]) for k in char["konsten"]
    ]
    columns = [
        tables[name].entries
        for name in ("konsten_grader", "konsten_varaktighet", "konsten_rackvidd")
    ]
    rows = []
    for n in range(max(len(c) for c in columns)):
        row = []
        for index, entries in enumerate(columns):
            if n < len(entries):
                skada = entries[n]["skada"]
                row.append(f"{entries[n]['name']} ({skada if index == 0 else signed(skada)})")
            else:
                row.append("")
        rows.append(row)
    return [
        Section(L("konsten"), items=items),
        Section(
            L("konsten_skada"),
            headers=[L("grad"), L("varaktighet"), L("rackvidd")],
            rows=rows,
            text=text["konsten_sidoeffekt"],
        ),
    ]


def _kontakter(char: dict, tables: Tables) -> list[Section]:
    if not char["kontakter"]:
        return []
    return [Section(tables.labels("kontakter"), text="\n".join(char["kontakter"]))]


def _anteckningar(char: dict, tables: Tables) -> list[Section]:
    L, text = tables.labels, tables["regeltext"].settings
    notes = []
    if char["bioteknik_mycket_svart"]:
        notes.append(text["bioteknik"])
    notes.append(text["etikett"])
    for raise_ in char.get("hojningar", []):
        if raise_["typ"] == "bekant":  # among the kontakter, and in Bekanta
            continue
        outcome = L("lyckades") if raise_["lyckat"] else L("misslyckades")
        target = raise_["mal"] if raise_["typ"] == "foremal" else skill_label(raise_["mal"], tables)
        notes.append(f"{L('hojning')}: {target}, {L('slag').lower()} {raise_['slag']}, {outcome}.")
    return [Section(L("anteckningar"), text="\n".join(notes))]


def npc_sheet(char: dict, tables: Tables) -> list[Section]:
    """A spelledarperson, compact enough for a card: who, Slås ut på by size, the one
    skill value, weapons with their stridsmanövrar, and a servant's korruption with
    what it means."""
    if char["kind"] != "npc":
        return []
    L, text = tables.labels, tables["regeltext"].settings
    storlek = tables["storlekar"].get(char["storlek"])
    head = [[L("namn"), char["name"] + (f" ({char['kon']})" if char.get("kon") else "")]]
    head.append([L("mall"), char["mall"]])
    if char.get("megakorporation_namn"):
        head.append([L("megakorporation"), char["megakorporation_namn"]])
    head.append([L("slas_ut_pa"), f"{char['slas_ut_pa']} ({storlek['description'].rstrip('.')})"])
    skill = next(iter(char["fardigheter"].values()))
    head.append([L("fardigheter"), f"{skill} ({L('npc_fardigheter')})"])
    head.append([L("initiativ"), char["initiativ"]])
    if char.get("vapen"):
        head.append([L("vapen"), ", ".join(char["vapen"])])
    sections = [Section(L("spelledarperson"), rows=head)]
    gear = char.get("utrustning", ())
    if gear:  # each item on one line, a weapon with its stridsmanövrar
        lines = [
            f"{i['namn']} ({skill_label(i['fardighet'], tables)} {signed(i['bonus'])})"
            + (f": {_manovrar_text(i['stridsmanovrar'], tables)}" if i.get("vapen") else "")
            for i in gear
        ]
        sections.append(Section(L("utrustning"), text="\n".join(lines)))
    if "korruption" in char:
        sections.append(
            Section(
                L("korruption"),
                rows=[
                    [L("apostel"), char["apostel"]],
                    [L("korruption"), f"{char['korruption']}: {char['sinnesryckning']}"],
                    [L("korruptionsvarde"), char["korruptionsvarde"]],
                ],
                text=text["korruption"],
            )
        )
    if char.get("beskrivning"):
        sections.append(Section(L("beskrivning"), text=char["beskrivning"]))
    return sections


# a step alone (`chargen matinee karriarer`) shows its piece of the sheet
PARTS = [
    Part(("mall",), npc_sheet),
    Part(("megakorporation", "megakorporation_namn"), _pc(_head)),
    Part(("arketyp", "arketyp_namn"), _pc(_arketyp)),
    Part(("grundegenskaper",), _pc(_grundegenskaper)),
    Part(("fardigheter",), _pc(_fardigheter)),
    Part(("tillgangar",), _pc(_tillgangar)),
    Part(("hjaltepoang", "k_marker"), _pc(_resurser)),
    Part(("slas_ut_pa", "rustningsbonus", "initiativ"), _pc(_strid)),
    Part(("utrustning",), _pc(_utrustning)),
    Part(("uppvaxthandelser",), _pc(_uppvaxt)),
    Part(("karriarer",), _pc(_karriarer)),
    Part(("beskrivningsord",), _pc(_beskrivningsord)),
    Part(("konsten",), _pc(_konsten)),
    Part(("kontakter",), _pc(_kontakter)),
    Part(("bioteknik_mycket_svart", "hojningar"), _pc(_anteckningar)),
]


# -- rosters -------------------------------------------------------------------------


def _weapon_short(c: dict) -> str:
    if c.get("vapen"):
        return ", ".join(c["vapen"])
    return ", ".join(  # the bonus stays on the line of the weapon's last word
        f"{i['namn']}{NBSP}{signed(i['bonus'])}" for i in c.get("utrustning", ()) if i.get("vapen")
    )


def _arketyp_or_mall(c: dict):
    return c.get("arketyp_namn") or c.get("mall")


def _best_skill(c: dict, tables: Tables) -> str:
    """A PC's highest färdighet by name ("Enkelskott 11"); nothing for an NPC, whose
    färdigheter are all grundegenskap + 10 (so an NPC roster leaves the column out)."""
    if c["kind"] == "npc":
        return ""
    skills = c["fardigheter"]
    best = max(skills, key=lambda k: skills[k])
    return f"{skill_label(best, tables)} {skills[best]}"


def _pc_only(key: str):
    """A PC's value; nothing for an NPC, for whom it is the template's constant (its
    initiativ is its fysikfärdighet, 10 for every NPC)."""
    return lambda c: "" if c["kind"] == "npc" else c.get(key, "")


def _with_effects(event: dict, tables: Tables) -> str:
    """An event in a step's roster: its text and, in brackets, its effects
    ("... (Lönndom +2)")."""
    effects = event.get("effekter")
    return (
        f"{event['handelse']} ({_gives(effects, None, tables)})" if effects else event["handelse"]
    )


def _gear_short(c: dict) -> str:
    return ", ".join(
        f"{i['namn']}{NBSP}{signed(i['bonus'])}" for i in c["utrustning"] if not i.get("vapen")
    )


def _joined(
    key: str, field: str, text: Callable[..., str], priority: int, sep: str = ", ", pack=False
) -> Column:
    """A wrap column of a list field's items, each as `text` writes it (`pack`: with
    the pack, `text(item, tables)`)."""
    if pack:
        return Column(
            key,
            lambda c, tables: sep.join(text(x, tables) for x in c[field]),
            priority=priority,
            wrap=True,
            tables=True,
        )
    return Column(key, lambda c: sep.join(text(x) for x in c[field]), priority=priority, wrap=True)


_NAME = Column("name", priority=9, wrap=True)
# a step of a batch (`chargen matinee karriarer -n 5`): the columns of that part of the sheet
STEP_ROSTERS: dict[str, tuple[Column, ...]] = {
    "megakorporation": (Column("name", priority=9), Column("megakorporation_namn", priority=8)),
    "hjaltepoang": (_NAME, Column("hjaltepoang", priority=8), Column("k_marker", priority=8)),
    "arketyp": (
        _NAME,
        Column("arketyp_namn", priority=8),
        *(Column(g, lambda c, g=g: c["grundegenskaper"][g], priority=7) for g in GRUNDEGENSKAPER),
        Column("tillgangar", priority=8),
    ),
    "uppvaxthandelser": (
        _NAME,
        _joined("uppvaxthandelser", "uppvaxthandelser", _with_effects, 8, "; ", pack=True),
    ),
    "karriarer": (
        _NAME,
        _joined("karriarer", "karriarer", lambda k: k["namn"], 8),
        Column("basta_fardighet", _best_skill, priority=7, tables=True),
        _joined(
            "karriarhandelser",
            "karriarer",
            lambda k, tables: _with_effects(k["handelse"], tables),
            6,
            "; ",
            pack=True,
        ),
    ),
    "beskrivningsord": (
        _NAME,
        _joined("beskrivningsord", "beskrivningsord", lambda w: w["ord"], 8),
    ),
    "utrustning": (
        _NAME,
        Column("vapen", _weapon_short, priority=8, wrap=True),
        Column("utrustning", _gear_short, priority=7, wrap=True),
    ),
}

ROSTER = [
    Column("name", priority=9, wrap=True),
    Column("megakorporation_namn", lambda c: c.get("megakorporation_namn", ""), priority=8),
    Column("arketyp_mall", _arketyp_or_mall, priority=8, wrap=True),
    Column("slas_ut_pa", priority=9),
    Column("initiativ", _pc_only("initiativ"), priority=4),
    Column("basta_fardighet", _best_skill, priority=6, tables=True),
    Column("vapen", _weapon_short, priority=7, wrap=True),
    Column("korruption", lambda c: c.get("korruption", 0), priority=5),
]
