"""Spelsystemet's sheet, its parts (a step alone shows its own) and its rosters.

Every word comes from the labels file, tables/spelsystemet/etiketter.toml
(`tables.labels`), so a pack can rename or translate it.
"""

from __future__ import annotations

from collections.abc import Callable

from chargen.render import whole
from chargen.sheet import Column, Part, Section
from chargen.systems.spelsystemet.rules import GRUND_CODE, GRUNDEGENSKAPER
from chargen.tables import Tables


def _group_title(L, group: str) -> str:
    """A skill group's heading ("Vanliga färdigheter"); the yrke group's label is
    `yrke_grupp` (`yrke` is the field)."""
    key = "yrke_grupp" if group == "yrke" else group
    return L.get(key) or L(key)


def sheet(char: dict, tables: Tables) -> list[Section]:
    """The Swedish character sheet; a step alone shows only what it made."""
    L = tables.labels
    head = [[L("name"), char["name"]]] if char.get("name") else []
    for key in ("mall_namn", "genre_namn", "art_namn", "yrke_namn"):
        if key in char:
            head.append([L(key), char[key]])
    if "modersmal" in char and "fardighetsnamn" in char:
        head.append([L("modersmal"), _tongue(char, "modersmal", tables)])
    title = L("rollperson") if char.get("kind") == "pc" else L("spelledarperson")
    sections = [Section(title, rows=head)]
    if "grundegenskaper" in char:
        g, mx = char["grundegenskaper"], char.get("artmaximum")
        headers = [L("egenskap"), L("varde")] + ([L("artmaximum")] if mx else [])
        rows = [[L(k), g[k], *([mx.get(k, "")] if mx else [])] for k in GRUNDEGENSKAPER]
        sections.append(Section(L("grundegenskaper"), headers=headers, rows=rows))
    if "lp" in char:
        rows = [[L(k), char[k]] for k in ("lp", "snabbhet", "grundskada")]
        sections.append(Section(L("beraknade"), rows=rows))
    if "kp" in char or "skydd" in char:
        sections.append(_body_parts(char, L))
    if "trotthetsslag" in char:
        t = char["trotthetsslag"]
        text = L.fill(
            "trotthetsslag_text",
            summa=t["summa"],
            grund=t["grund"],
            tungt_pansar=t["tungt_pansar"],
            hjalm=t["hjalm"],
        )
        if "rustningspaket" in char:
            text += "\n" + L.fill("rustningspaket_text", namn=char["rustningspaket"])
        sections.append(Section(L("trotthetsslag"), text=text))
    if "fardigheter" in char:
        names = char.get("fardighetsnamn", {})
        for group, keys in char.get("fardighetsgrupper", {}).items():
            rows = [[names.get(k, k), char["fardigheter"][k]] for k in keys]
            if rows:
                rows.sort(key=lambda r: r[0])
                sections.append(Section(_group_title(L, group), rows=rows))
    if "vapen" in char:
        sections += _weapon_sections(char["vapen"], tables)
    return sections


def _body_parts(char: dict, L) -> Section:
    """KP per body part (beräknade) and the armour on it (rustning): the columns of what
    the character has."""
    kp, skydd = char.get("kp"), char.get("skydd")
    parts = list(kp or skydd)
    covering: dict[str, list[str]] = {p: [] for p in parts}
    for piece in char.get("rustning", ()):
        for p in piece["kroppsdelar"]:
            covering.setdefault(p, []).append(piece["benamning"])
    headers = [L("kroppsdel")] + ([L("kp")] if kp else [])
    if skydd:
        headers += [L("rustning"), L("sp_h"), L("sp_k"), L("sp_s")]
    rows = []
    for p in parts:
        row = [L.get(p) or L(p), *([kp.get(p, "")] if kp else [])]
        if skydd:
            sp = skydd.get(p, {})
            s = sp.get("s", "")
            if "laser" in sp:
                s = f"{s}({sp['laser']})"
            row += [", ".join(covering.get(p, ())) or "-", sp.get("h", ""), sp.get("k", ""), s]
        rows.append(row)
    return Section(L("kroppsdelar"), headers=headers, rows=rows)


def _weapon_sections(weapons: list[dict], tables: Tables) -> list[Section]:
    L = tables.labels
    rows = []
    for w in weapons:
        if "langd" in w:
            reach = f"{L('langd')} {w['langd']}"
        else:
            reach = f"{L('eh')} {w['eldhastighet']}, {L('sv')} {w['skottvidd_meter']} {L('meter')}"
        name, code, damage = w["benamning"], w["skada"], w["faktisk_skada"]
        if "stridskonst" in w:  # the document's "(Grund-2)", and whether the * minimum ate it
            name = f"{name} ({w['stridskonst']})"
            code = w["stridskonst_skada"]
            if w.get("stridskonst_oforandrad"):
                minimum = tables["regler"].settings["stjarna_minst"]
                damage = f"{damage} ({L.fill('stridskonst_oforandrad', minst=minimum)})"
        rows.append([name, code, damage, w["typ"], reach, w.get("varde", "")])
    headers = [L(k) for k in ("vapen", "skada", "faktisk_skada", "typ", "rackvidd", "fardighet")]
    sections = [Section(L("vapen"), headers=headers, rows=rows)]
    notes = weapon_notes(weapons, tables) + weapon_terms(weapons, tables)
    if notes:
        sections.append(Section(L("om_vapnen"), text="\n".join(notes)))
    return sections


def weapon_terms(weapons: list[dict], tables: Tables) -> list[str]:
    """What the weapon table's codes mean, for the codes the character's weapons use:
    Grund±N, the * and ** marks, L, and Eh and Sv (the document's "Förkortningar" and the
    notes under its weapon tables), worded in etiketter.toml."""
    L, rules = tables.labels, tables["regler"].settings
    codes = [w["skada"] for w in weapons]
    out = []
    if any(GRUND_CODE.match(c.strip()) for c in codes):
        out.append(L("forklaring_grund"))
    if any(c.rstrip().endswith("*") and not c.rstrip().endswith("**") for c in codes):
        out.append(L.fill("forklaring_stjarna", minst=rules["stjarna_minst"]))
    if any(c.rstrip().endswith("**") for c in codes):
        out.append(L.fill("forklaring_dubbelstjarna", hogst=rules["dubbelstjarna_hogst"]))
    if any("langd" in w for w in weapons):
        out.append(L("forklaring_langd"))
    if any("eldhastighet" in w for w in weapons):
        out.append(L("forklaring_eh_sv"))
    if any(str(w.get("eldhastighet", "")).endswith("+") for w in weapons):
        out.append(L("forklaring_automateld"))
    if any(w.get("typ") == "Stick" for w in weapons):
        out.append(L("forklaring_spetsning"))
    return out


def weapon_notes(weapons: list[dict], tables: Tables) -> list[str]:
    """The document's notes and rules for the weapons carried, each once: "Lans: En lans
    som ...", "Svärd, Värja: Svärd ger +1/−1 ..."."""
    by_note: dict[str, list[str]] = {}
    for w in weapons:
        if "stridskonst" in w:
            text = tables["fardigheter"].get("stridskonst").get("description")
            if text:
                by_note.setdefault(text, []).append(w["stridskonst"])
        table = tables["narstridsvapen" if "langd" in w else "avstandsvapen"]
        rules = table.get(w["id"]).get("rules") if w.get("id") in table else None
        if rules:
            by_note.setdefault(rules, []).append(w["benamning"])
        if w.get("anmarkning"):
            by_note.setdefault(w["anmarkning"], []).append(w["benamning"])
    by_names: dict[str, list[str]] = {}  # one line per weapon (or weapons) with all its texts
    for text, names in by_note.items():
        by_names.setdefault(", ".join(dict.fromkeys(names)), []).append(text)
    return [f"{names}: {' '.join(texts)}" for names, texts in by_names.items()]


def _piece(*keys: str, head: bool = False) -> Part:
    """A Part of the sheet for a step alone: the sections `sheet` makes from the character
    fields `keys`; `head`: the head rows they make."""

    def build(char: dict, tables: Tables) -> list[Section]:
        part = {"kind": char.get("kind"), **{k: char[k] for k in keys if k in char}}
        sections = sheet(part, tables)
        if head:  # the head's rows but the name
            rows = [r for r in sections[0].rows if r[0] != tables.labels("name")]
            return [Section(sections[0].title, rows=rows)] if rows else []
        return sections[1:]

    return Part(keys, build)


def _tongue(char: dict, key: str, tables: Tables) -> str:
    """A language the character speaks, by its name ("Allmänspråket", not the skill's
    "Språk Allmänspråket": the prefix of fardigheter.toml's Språk)."""
    label = char["fardighetsnamn"].get(char[key], "")
    skills = tables["fardigheter"]
    prefix = skills.get("sprak").get("prefix") if "sprak" in skills else None
    return label.removeprefix(prefix + " ") if prefix else label


def _tongues(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    rows = [[L("modersmal"), _tongue(char, "modersmal", tables)]]
    if char.get("gemensamt_sprak") and char["gemensamt_sprak"] != char["modersmal"]:
        rows.append([L("gemensamt_sprak"), _tongue(char, "gemensamt_sprak", tables)])
    return [Section(L("sprak"), rows=rows)]


PARTS = [
    _piece("genre", "genre_namn", head=True),
    _piece("art", "art_namn", head=True),
    _piece("yrke", "yrke_namn", head=True),
    _piece("grundegenskaper", "artmaximum"),
    _piece("lp", "snabbhet", "grundskada", "kp"),
    Part(("modersmal", "gemensamt_sprak", "fardighetsnamn"), _tongues),
    _piece("fardigheter", "fardighetsnamn", "fardighetsgrupper"),
    _piece("vapen"),
    _piece("rustningspaket", "rustning", "skydd", "trotthetsslag"),
]


def _gear(char: dict) -> str:
    return ", ".join(whole(f"{w['benamning']} {w['faktisk_skada']}") for w in char["vapen"])


def _best_skills(char: dict, count: int = 4) -> str:
    """A step's batch: the character's best skills, highest first ("Lärare 10, ...")."""
    names, values = char["fardighetsnamn"], char["fardigheter"]
    best = sorted(values, key=lambda k: (-values[k], names.get(k, k)))[:count]
    return ", ".join(whole(f"{names.get(k, k)} {values[k]}") for k in best)


def _stat(g: str) -> Callable[[dict], int]:
    return lambda c: c["grundegenskaper"][g]


STATS = [Column(g, _stat(g), priority=6) for g in GRUNDEGENSKAPER]
# In a mixed batch Genre and Art say what a member is (an orch Riddare in fantasy, a
# human Polis in modern tid): they outlast Grundskada and Snabbhet, which a GM reads
# from the sheet when it hits.
ROSTER = [
    Column("name", priority=9, wrap=True),  # a long name wraps, the grundegenskaper stay
    Column("mall_namn", priority=5),
    Column("yrke_namn", priority=8),
    Column("genre_namn", priority=7),
    Column("art_namn", priority=7),
    *STATS,
    Column("lp", priority=7),
    Column("snabbhet", priority=4),
    Column("grundskada", priority=5),
    Column("vapen", _gear, priority=2, wrap=True),
]
# a step of a batch (`chargen spelsystemet yrke -n 5`): the columns of what that step makes
GENRE_ROSTER = (Column("name", priority=9), Column("genre_namn", priority=8))
ART_ROSTER = (Column("name", priority=9), Column("art_namn", priority=8))
GRUNDEGENSKAPER_ROSTER = (Column("name", priority=9), *STATS)
BERAKNADE_ROSTER = (
    Column("name", priority=9),
    Column("lp", priority=8),
    Column("snabbhet", priority=7),
    Column("grundskada", priority=8),
)
YRKE_ROSTER = (
    Column("name", priority=9),
    Column("yrke_namn", priority=8),
    Column("modersmal", lambda c, tables: _tongue(c, "modersmal", tables), priority=5, tables=True),
    Column("basta_fardigheter", _best_skills, priority=7, wrap=True),
)
VAPEN_ROSTER = (
    Column("name", priority=9),
    Column("vapen", _gear, priority=8, wrap=True),
)
RUSTNING_ROSTER = (
    Column("name", priority=9),
    Column("rustningspaket", priority=8, wrap=True),
    Column("trotthetsslag", lambda c: c["trotthetsslag"]["summa"], priority=6),
)
