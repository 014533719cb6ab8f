"""Savage's sheet, its parts (a step alone shows its own), a squad's stat block and
the roster.

Every word comes from the labels file, tables/savage/cimkek.toml; the rules texts of
Előnyök, Hátrányok, items and grades from their own tables.
"""

from __future__ import annotations

from chargen.render import whole
from chargen.sheet import Column, Part, Section
from chargen.systems.savage.rules import ATTRS, FIGHTING, STRENGTH, ladder
from chargen.tables import Table, Tables


def _name_of(table: Table, key: str) -> str:
    """The display name of an id in the pack's table (the id itself when unknown)."""
    return table.get(key)["name"] if key in table else key


def _currency(tables: Tables, era: str | None) -> str:
    """The money an era counts in (`penznem` of korszakok.toml, else beallitasok)."""
    eras = tables["korszakok"]
    found = eras.get(era).get("penznem") if era and era in eras else None
    return found or tables["beallitasok"].settings["penznem"]


# -- items --------------------------------------------------------------------------


def item_rules(item: dict, char: dict, tables: Tables) -> str:
    """An item's numbers and rules in one line, in the sheet's words."""
    L = tables.labels
    ero = char.get("alaptulajdonsagok", {}).get("ero")  # a step alone has no dice
    out = []
    if "sebzes" in item:
        dmg = item["sebzes"]
        if dmg.startswith(STRENGTH) and ero:
            dmg = f"{dmg} ({ero}{dmg[len(STRENGTH) :]})"
        out.append(f"{L('sebzes')} {dmg}")
    for key in ("pancel_tores", "eleres", "lotav", "tgy", "lovesek"):  # "PT 2", "TGY 3"
        if key in item:
            thrown = f", {L('targy_dobhato')}" if key == "lotav" and item.get("dobhato") else ""
            out.append(f"{L.forms(key)[-1]} {item[key]}{thrown}")
    if "talalat" in item:
        out.append(L.fill("targy_talalat", n=item["talalat"]))
    if "ujratoltes" in item:
        out.append(L.fill("targy_ujratoltes", n=item["ujratoltes"]))
    if "pancel" in item:
        places = ", ".join(L(h) for h in item.get("hely", ()))
        out.append(L.fill("targy_pancel", n=item["pancel"], hely=places))
    if "lovedek_ellen" in item:
        out.append(L.fill("targy_lovedek_ellen", n=item["lovedek_ellen"]))
    if "haritas" in item:
        out.append(L.fill("targy_haritas", n=item["haritas"]))
    if item.get("ketkezes"):
        out.append(L("targy_ketkezes"))
    if "min_ero" in item:
        out.append(L.fill("targy_min_ero", die=item["min_ero"]))
        short = _short_steps(item, char, tables) if ero else 0
        if short:
            what = L("ero_alatt_pancel") if item["tipus"] == "pancel" else L("ero_alatt_fegyver")
            out.append(L.fill("targy_ero_alatt", n=short, mire=what))
    if item.get("megjegyzes"):
        out.append(item["megjegyzes"].rstrip("."))
    return "; ".join(out)


def _short_steps(item: dict, char: dict, tables: Tables) -> int:
    """Die steps the bearer's Erő falls short of the item's min. Erő (for armour with
    the `pancel_ero` effects of its Hátrányok and Előnyök: Kövér one step lower)."""
    rungs = {die: i for i, die in enumerate(ladder(tables["beallitasok"]))}
    have = rungs.get(char["alaptulajdonsagok"]["ero"], 0)
    if item["tipus"] == "pancel":
        for key, table in (("hatranyok", "hatranyok"), ("elonyok", "elonyok")):
            for own in char.get(key, ()):
                if own["id"] in tables[table]:
                    have += (tables[table].get(own["id"]).get("effects") or {}).get("pancel_ero", 0)
    return max(0, rungs.get(item["min_ero"], 0) - have)


# -- the rows of a sheet --------------------------------------------------------------


def _skill_text(char: dict, tables: Tables) -> str:
    skills = tables["kepzettsegek"]
    return ", ".join(whole(f"{_name_of(skills, k)} {v}") for k, v in char["kepzettsegek"].items())


def _derived_rows(char: dict, tables: Tables) -> list[list]:
    L = tables.labels
    rows = [
        [L("mozgas"), char["mozgas"]],
        [L("futaskocka"), char["futaskocka"]],
        [L("haritas"), char["haritas"]],
        [L("szivossag"), _toughness(char, tables)],
        [L("vadkocka"), _wild_die(char, tables)],
        [L("sorspont"), char["sorspont"]],
        [L("sebek"), _wounds(char, tables)],
    ]
    if char["elviselt_sebek"]:  # one who bears a Seb fights on with its penalty
        cap = tables["beallitasok"].settings["sebbuntetes_max"]
        rows.append([L("sebbuntetes"), L.fill("sebbuntetes_szabaly", max=cap)])
    if char.get("meret"):
        rows.insert(4, [L("meret"), f"{char['meret']:+d}"])
    return rows


def _toughness(char: dict, tables: Tables) -> str:
    """Szívósság, with the armour in it ("7 (ebből páncél 2)")."""
    if char.get("pancel"):
        return tables.labels.fill(
            "szivossag_pancellal", szivossag=char["szivossag"], pancel=char["pancel"]
        )
    return str(char["szivossag"])


def _wild_die(char: dict, tables: Tables) -> str:
    """A Főszereplő's own Vadkocka, a squad's shared one (document, "Csoportdobás")."""
    if char.get("vadkocka"):
        return char["vadkocka"]
    if char.get("csoport_vadkocka"):
        return tables.labels.fill("kozos_vadkocka", die=char["csoport_vadkocka"])
    return tables.labels.word("none")


def _wounds(char: dict, tables: Tables) -> str:
    """The Sebek row: the Sebek borne and what the next one does (a grade's own words)."""
    grade = char.get("szivos")
    grades = tables["szivos_fokozatok"]
    if grade and grade in grades:
        entry = grades.get(grade)
        words = entry.get("description", "").rstrip(".")
        return f"{entry['name']}: {words[:1].lower()}{words[1:]}" if words else entry["name"]
    if char["elviselt_sebek"]:
        return tables.labels.fill("sebek_viselt", n=char["elviselt_sebek"])
    return tables.labels("sebek_elso")


def _flaw_label(flaw: dict, tables: Tables) -> str:
    if "(" in flaw["nev"]:
        return flaw["nev"]
    return f"{flaw['nev']} ({tables.labels(flaw['sulyossag'])})"


# -- the sheet and its parts ----------------------------------------------------------


def sheet(char: dict, tables: Tables) -> list[Section]:
    pc = char["kind"] == "pc"
    L = tables.labels
    who = L("foszereplo") if char["foszereplo"] else L("mellekszereplo")
    head = [[L("name"), char["name"]], [L("szerep"), who]]
    era = _name_of(tables["korszakok"], char.get("korszak", ""))
    if pc:
        head += [
            [L("rang"), L(char["rang"])],
            [L("koncepcio"), char.get("koncepcio", "")],
            [L("korszak"), era],
        ]
    else:
        head.append([L("sablon"), _name_of(tables["mellekszereplok"], char["template"])])
        if char.get("korszak"):
            head.append([L("korszak"), era])
    sections = [Section(who, rows=head)]
    sections += _traits_part(char, tables) + _skills_part(char, tables)
    sections.append(Section(L("szarmaztatott"), rows=_derived_rows(char, tables)))
    sections += _flaws_part(char, tables) + _edges_part(char, tables)
    sections += _arcane_part(char, tables)
    if char.get("kulonleges"):
        sections.append(Section(L("kulonleges"), text="\n".join(char["kulonleges"])))
    if char.get("felszereles") or pc:
        sections += _gear_part(char, tables)
    if pc:
        sections += _money_part(char, tables)
    return sections


def _concept_part(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    rows = [[L("koncepcio"), char["koncepcio"]], [L("rang"), L(char["rang"])]]
    return [Section(L("koncepcio"), rows=rows)]


def _era_part(char: dict, tables: Tables) -> list[Section]:
    era = _name_of(tables["korszakok"], char["korszak"])
    return [Section(tables.labels("korszak"), rows=[[tables.labels("korszak"), era]])]


def _traits_part(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    rows = [[L(a), char["alaptulajdonsagok"][a]] for a in ATTRS]
    return [Section(L("alaptulajdonsagok"), rows=rows)]


def _skills_part(char: dict, tables: Tables) -> list[Section]:
    return [Section(tables.labels("kepzettsegek"), text=_skill_text(char, tables))]


def _flaws_part(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    out = []
    if char.get("hatranyok"):
        rows = [[_flaw_label(h, tables), h.get("hatas", "")] for h in char["hatranyok"]]
        out.append(Section(L("hatranyok"), rows=rows))
    points = char.get("hatrany_pontok")
    if points and points.get("osszes"):
        unit = _currency(tables, char.get("korszak"))
        s = tables["beallitasok"].settings
        more = points.get("penz", 0) * s["penz_pont_szorzo"] * s["kezdo_penz"]
        spent = [
            f"{points[k]} {L(f'hatrany_pont_{k}')}"
            for k in ("tulajdonsag", "elony", "kepzettseg")
            if points.get(k)
        ]
        if more:  # a point buys twice the starting funds more (SWADE)
            spent.append(f"+{more} {unit}")
        text = L.fill("hatrany_pontok_osszes", pont=points["osszes"], mire=", ".join(spent))
        out.append(Section(L("hatrany_pontok"), text=text))
    return out


def _edges_part(char: dict, tables: Tables) -> list[Section]:
    if not char.get("elonyok"):
        return []
    rows = [[e["nev"], e.get("hatas", "")] for e in char["elonyok"]]
    return [Section(tables.labels("elonyok"), rows=rows)]


def _arcane_part(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    arcane = char.get("arkan_hatter")
    if not arcane:
        if char.get("step") == "hatalmak":  # the step alone says why it is empty
            return [Section(L("arkan_hatter"), text=L("nincs_arkan"))]
        return []
    die = char.get("kepzettsegek", {}).get(arcane["kepzettseg"], "")
    rows = [
        [L("hatter"), arcane["nev"]],
        [L("arkan_kepzettseg"), f"{arcane['kepzettseg_nev']} {die}".strip()],
        [L("hatalompont"), arcane["hatalompont"]],
    ]
    powers = [
        [
            p["nev"],
            f"{p['ar']} {L('hatalompont')}; {L('hatotav')} {p['hatotav']}; {p['idotartam']}. "
            f"{p['hatas']}",
        ]
        for p in arcane["hatalmak"]
    ]
    return [Section(L("arkan_hatter"), rows=rows), Section(L("hatalmak"), rows=powers)]


def _gear_part(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    rows = [
        [item["nev"], item_rules(item, char, tables), item["ar"]]
        for item in char.get("felszereles", ())
    ]
    return [Section(L("felszereles"), rows=rows, headers=[L("targy"), L("ertekek"), L("ar")])]


def _money_part(char: dict, tables: Tables) -> list[Section]:
    unit = _currency(tables, char.get("korszak"))
    text = tables.labels.fill(
        "penz_kezdo", penz=char["penz"], kezdo=char["kezdo_penz"], penznem=unit
    )
    return [Section(tables.labels("penz"), text=text)]


PARTS = [
    Part(("koncepcio", "rang"), _concept_part),
    Part(("korszak",), _era_part),
    Part(("hatranyok", "hatrany_pontok"), _flaws_part),
    Part(("alaptulajdonsagok",), _traits_part),
    Part(("kepzettsegek",), _skills_part),
    Part(("elonyok",), _edges_part),
    Part(("arkan_hatter",), _arcane_part),
    Part(("felszereles",), _gear_part),
    Part(("kezdo_penz", "penz"), _money_part),
]


def batch_sheet(chars: list[dict], tables: Tables) -> list[Section] | None:
    """A squad: the stat block once, the names under it, the group roll rule beside it."""
    if not chars or chars[0].get("squad") is None:
        return None
    if any(c.get("squad") != chars[0]["squad"] for c in chars):
        return None
    first, L = chars[0], tables.labels
    head = [
        [L.word("seed"), first["squad"].rsplit("-", 1)[-1]],
        [L("sablon"), _name_of(tables["mellekszereplok"], first["template"])],
        [L("letszam"), len(chars)],
        [L("akciokartya"), first["akciokartya"]],
    ]
    sections = [Section(L("csoport"), rows=head)]
    sections += sheet(first, tables)[1:]
    rule = L.fill("csoportdobas_szabaly", die=first["csoport_vadkocka"])
    sections.append(Section(L("csoportdobas"), text=rule))
    sections.append(Section(L("tagok"), rows=[[i, c["name"]] for i, c in enumerate(chars, 1)]))
    return sections


# -- the roster -----------------------------------------------------------------------


def _skill(key: str):
    return lambda c: c["kepzettsegek"].get(key, "")


def _attr(key: str):
    return lambda c: c["alaptulajdonsagok"][key]


def _wounds_short(char: dict, tables: Tables) -> str:
    """The roster's Sebek: the number, and the role or grade that changes what it means."""
    labels = tables.labels
    grade = char.get("szivos")
    if char["foszereplo"]:
        return f"{char['elviselt_sebek']} ({labels('foszereplo')})"
    if grade:
        return f"{char['elviselt_sebek']} ({labels(grade)})"
    return str(char["elviselt_sebek"])


# What a game master runs a fight with goes last when the roster must shrink: Hárítás
# and Szívósság, then the attributes and Közelharc, then Sebek; a long name wraps rather
# than push them out.
# What a GM running a fight reads first keeps its column longest: the attacks
# (Közelharc, Lövészet), what they are rolled against (Hárítás, Szívósság) and Erő
# (melee damage); then Ügyesség, Lélek (shaking off Megzavart), Állóképesség, Ész;
# Mozgás and Sebek (0 for every Mellékszereplő) go first.
_ATTR_PRIORITY = {"ero": 6, "ugyesseg": 5, "lelek": 4, "allokepesseg": 4, "esz": 3}
ROSTER = [
    Column("name", priority=9, wrap=True),
    Column("sablon", lambda c: c.get("sablon") or c.get("koncepcio") or c["template"], 8),
    *[Column(a, _attr(a), _ATTR_PRIORITY[a]) for a in ATTRS],
    Column(FIGHTING, _skill(FIGHTING), 7),
    Column("loveszet", _skill("loveszet"), 7),
    Column("haritas", priority=7),
    Column("szivossag", priority=7),
    Column("mozgas", priority=2),
    Column("sebek", _wounds_short, 2, tables=True),
]
