"""Savage's pack checks: what the table specs cannot say.

Run by `chargen tables check` and before a user's pack is used; each problem names
its file and line.
"""

from __future__ import annotations

import re
from typing import Any

from chargen.errors import Problem
from chargen.systems.savage.rules import (
    ATTRS,
    FIGHTING,
    GRADES,
    PURCHASES,
    hatrany_totals,
    ladder,
    off_ladder,
)
from chargen.tables import Table, Tables
from chargen.tomlfile import key_line

SETTING_DICE = (
    "tulajdonsag_kezdo",
    "tulajdonsag_max",
    "alap_kepzettseg_kezdo",
    "kepzettseg_max",
    "futaskocka",
    "futaskocka_min",
    "vadkocka",
    "csoport_vadkocka",
)
# Settings that are prices or divisors: 0 would buy for free or divide by zero.
POSITIVE = (
    "hatrany_pont_sulyos",
    "hatrany_pont_enyhe",
    "ar_tulajdonsag",
    "ar_elony",
    "ar_kepzettseg",
    "ar_penz",
    "lepes_ar_alatt",
    "lepes_ar_felett",
    "mellekszereplo_valtozatok",
)
_RUNG = re.compile(r"d[1-9][0-9]*")


def check_pack(tables: Tables) -> list[Problem]:
    """What the table specs cannot say, for `chargen tables check` and a user's pack.

    Dice on the pack's die ladder; keys that are the five alaptulajdonságok or the
    pack's képzettségek; Hátrány grades, purchases and shop kinds the procedure
    knows; and settings whose numbers the procedure can always spend. Each problem
    names its file and line.
    """
    out: list[Problem] = []

    def fault(table: Table, text: str, key: str | None = None, index: int | None = None) -> None:
        line = key_line(table.text, key, index) if key else 0
        out.append(Problem(str(table.path), line, text))

    rules_table = tables["beallitasok"]
    s = rules_table.settings
    base = s["kocka_letra"]
    sides = [int(d[1:]) if _RUNG.fullmatch(d) else 0 for d in base]
    if not base or 0 in sides or sides != sorted(set(sides)):
        fault(
            rules_table,
            f'kocka_letra must list dice such as "d4", lowest first, each once (not {base!r})',
            "kocka_letra",
        )
        return out  # no die can be read without the ladder
    rungs = ladder(rules_table)
    index = {die: i for i, die in enumerate(rungs)}
    _check_settings(rules_table, rungs, index, fault)

    def dice(table: Table, key: str, keys: Any = None, what: str = "") -> None:
        """`key` of each entry: a die, or a {trait = die} table whose keys are in `keys`."""
        for i, entry in enumerate(table.entries):
            value = entry.get(key)
            if value is None:
                continue
            items = value.items() if isinstance(value, dict) else [(None, value)]
            for name, die in items:
                if name is not None and name not in keys:
                    fault(
                        table,
                        f"'{key}': unknown {what} '{name}' (valid: {', '.join(keys)})",
                        key,
                        i,
                    )
                elif die not in index:
                    fault(table, off_ladder(key, die, rungs), key, i)

    attrs = tables["alaptulajdonsagok"]
    for a in ATTRS:
        if a not in attrs:
            fault(attrs, f"missing alaptulajdonság '{a}' (savage has {', '.join(ATTRS)})")
    for i, entry in enumerate(attrs.entries):
        if entry["id"] not in ATTRS:
            text = f"unknown alaptulajdonság '{entry['id']}': savage has {', '.join(ATTRS)}"
            fault(attrs, text, "id", i)
    skills = tables["kepzettsegek"]
    if FIGHTING not in skills:
        fault(skills, f"missing képzettség '{FIGHTING}' (Hárítás is 2 + half of it)")
    edges = tables["elonyok"]
    dice(edges, "kell_tulajdonsag", ATTRS, "alaptulajdonság")
    dice(edges, "kell_kepzettseg", skills.ids, "képzettség")

    def named(key: str, what: str, field: str, have: set[str]) -> None:
        """Each value of setting `key` must be the `field` of some entry (`what`)."""
        for value in s[key]:
            if value not in have:
                text = (
                    f"{key}: no {what} has {field} '{value}' ({field}: {', '.join(sorted(have))})"
                )
                fault(rules_table, text, key)

    named("kezdo_rangok", "Előny", "rang", {e["rang"] for e in edges.entries})
    flaws = tables["hatranyok"]
    for i, entry in enumerate(flaws.entries):
        if entry["sulyossag"] not in GRADES:
            text = f"sulyossag {entry['sulyossag']!r} must be one of {', '.join(GRADES)}"
            fault(flaws, text, "sulyossag", i)
    items = tables["felszereles"]
    dice(items, "min_ero")
    named("bevasarlas", "item", "tipus", {e["tipus"] for e in items.entries})
    for skill, die in s["fegyvert_vesz"].items():  # a trained shooter's weapon
        if skill not in skills:
            fault(rules_table, f"fegyvert_vesz: unknown képzettség '{skill}'", "fegyvert_vesz")
        elif die not in index:
            fault(rules_table, off_ladder("fegyvert_vesz", die, rungs), "fegyvert_vesz")
    concepts = tables["koncepciok"]
    dice(concepts, "kell_tulajdonsag", ATTRS, "alaptulajdonság")
    dice(concepts, "kell_kepzettseg", skills.ids, "képzettség")
    _check_era_names(tables["korszakok"], fault)
    for key, keys, what in (
        ("tulajdonsag_sulyok", ATTRS, "alaptulajdonság"),
        ("kepzettseg_sulyok", skills.ids, "képzettség"),
    ):
        for i, entry in enumerate(concepts.entries):
            for name, weight in entry[key].items():
                if name not in keys:
                    fault(concepts, f"'{key}': unknown {what} '{name}'", key, i)
                elif weight < 0:
                    fault(concepts, f"'{key}': weight of '{name}' below 0 ({weight})", key, i)
    templates = tables["mellekszereplok"]
    for i, entry in enumerate(templates.entries):
        missing = [a for a in ATTRS if a not in entry["alaptulajdonsagok"]]
        if missing:
            text = f"'alaptulajdonsagok' lacks {', '.join(missing)} (a template gives all five)"
            fault(templates, text, "alaptulajdonsagok", i)
        if entry.get("szoras", 0) < 0:
            fault(templates, f"'szoras' must be 0 or more, not {entry['szoras']}", "szoras", i)
    dice(templates, "alaptulajdonsagok", ATTRS, "alaptulajdonság")
    dice(templates, "kepzettsegek", skills.ids, "képzettség")
    dice(templates, "futaskocka")
    return out


def _check_era_names(eras: Table, fault) -> None:
    """An era's given names are Faker's hu_HU ones (the names are drawn among those)."""
    from chargen import names

    given = names.picker("hu_HU").given
    for i, entry in enumerate(eras.entries):
        for key, gender in (("utonevek_ferfi", "male"), ("utonevek_noi", "female")):
            unknown = [n for n in entry.get(key) or () if n not in given[gender].names]
            if unknown:
                text = f"'{key}': not a {gender} given name of Faker's hu_HU: {', '.join(unknown)}"
                fault(eras, text, key, i)


def _check_settings(table: Table, rungs: tuple[str, ...], index: dict[str, int], fault) -> None:
    """beallitasok: dice on the ladder, numbers in range, Hátrány points always spendable."""
    s = table.settings
    dice_ok = numbers_ok = True
    for key in SETTING_DICE:
        if s[key] not in index:
            fault(table, off_ladder(key, s[key], rungs), key)
            dice_ok = False
    for low, high in (
        ("tulajdonsag_kezdo", "tulajdonsag_max"),
        ("alap_kepzettseg_kezdo", "kepzettseg_max"),
    ):
        if index.get(s[low], -1) > index.get(s[high], len(rungs)):
            fault(table, f"{low} {s[low]} is above {high} {s[high]}", low)
            dice_ok = False
    for key, kind in table.spec.fields.items():
        value = s[key]
        if kind.startswith("int"):
            numbers = [value]
        elif kind.startswith("list[int"):
            numbers = value
        elif kind.startswith("dict[int"):
            numbers = list(value.values())
        else:
            continue
        least = 1 if key in POSITIVE else 0
        if any(n < least for n in numbers):
            fault(table, f"{key} must be {least} or more, not {value!r}", key)
            numbers_ok = False
    if s["mellekszereplo_valtozas_esely"] > 100:
        key = "mellekszereplo_valtozas_esely"
        fault(table, f"{key} is a percentage: 0 to 100, not {s[key]}", key)
    for key in s["hatrany_koltes_sulyok"]:
        if key not in PURCHASES:
            valid = ", ".join(PURCHASES)
            text = f"hatrany_koltes_sulyok: unknown purchase '{key}' (valid: {valid})"
            fault(table, text, "hatrany_koltes_sulyok")
            numbers_ok = False
    if not numbers_ok:
        return  # the prices below would divide by zero or buy for free
    steps = s["tulajdonsag_lepesek"] + s["hatrany_max_pont"] // s["ar_tulajdonsag"]
    if dice_ok:
        room = len(ATTRS) * (index[s["tulajdonsag_max"]] - index[s["tulajdonsag_kezdo"]])
        if steps > room:
            text = (
                f"tulajdonsag_lepesek: {steps} steps (with the ones Hátrány points buy) do not "
                f"fit in {room} (five alaptulajdonságok from {s['tulajdonsag_kezdo']} "
                f"to {s['tulajdonsag_max']})"
            )
            fault(table, text, "tulajdonsag_lepesek")
    weights = s["hatrany_pont_sulyok"]
    totals = hatrany_totals(s)
    if not any(weights[p] > 0 for p in totals if p < len(weights)):
        text = (
            f"hatrany_pont_sulyok: no weight above 0 for a number of points the Hátrányok "
            f"can give ({', '.join(map(str, sorted(totals)))})"
        )
        fault(table, text, "hatrany_pont_sulyok")
    stuck = _unspendable(s, totals)
    if stuck:
        text = (
            f"hatrany_koltes_sulyok: {stuck} Hátrány point(s) left can buy nothing "
            f"(no purchase with a weight above 0 costs {stuck} or less)"
        )
        fault(table, text, "hatrany_koltes_sulyok")


def _unspendable(s: dict, totals: set[int]) -> int:
    """Hátrány points a Főszereplő may be left with that no purchase fits (0 when none)."""
    prices = [s[f"ar_{kind}"] for kind in PURCHASES if s["hatrany_koltes_sulyok"].get(kind, 0) > 0]
    pending = {
        points - edges * s["ar_elony"]
        for points in totals
        for edges in range(points // s["ar_elony"] + 1)
    }
    seen: set[int] = set()
    while pending:
        left = pending.pop()
        if left <= 0 or left in seen:
            continue
        seen.add(left)
        fits = [price for price in prices if price <= left]
        if not fits:
            return left
        pending.update(left - price for price in fits)
    return 0
