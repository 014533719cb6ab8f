"""Savage (document 004): Hungarian Savage Worlds-style Főszereplők and Mellékszereplők.

The document fixes the play rules: a Főszereplő rolls a Vadkocka, bears three
Sebek and has Sorspontok; a Mellékszereplő has no Vadkocka and one Seb takes it
out, unless it is Szívós (the first Seb only makes it Megzavart) or Nagyon szívós
(it bears one Seb); identical Mellékszereplők act as a group on one shared card
and roll one trait die plus a shared d6 wild die; the running die is d6. The
creation budget (five attribute steps, twelve skill points, Hátrányok and what
their points buy, the free Előny of humans) is the Savage Worlds one named in
the design notes, kept with every other number in tables/savage/beallitasok.toml.
"""

from __future__ import annotations

import bisect
import json
import random
import re
from collections.abc import Callable
from itertools import accumulate
from json.encoder import encode_basestring
from operator import is_
from typing import Any

from chargen.conditions import entry_names
from chargen.errors import ChargenError, ChoiceError, Problem, TableError
from chargen.labels import builtin_labels
from chargen.procedure import Column, Context, Option, Part, Section, Step, System
from chargen.render import NBSP
from chargen.tables import Spec, Table, Tables, key_line

ATTRS = ("ugyesseg", "esz", "lelek", "ero", "allokepesseg")
EFFECTS = (
    "mozgas",
    "futaskocka",
    "haritas",
    "szivossag",
    "meret",
    "sorspont",
    "penz_szazalek",
    "pancel_ero",  # die steps added to Erő when an armour's min. Erő is checked (Kövér -1)
)
GENDER = {"male": "férfi", "female": "nő"}
GRADES = {"sulyos": "súlyos", "enyhe": "enyhe"}  # the two grades of a Hátrány
TOP = 14  # rungs of the die ladder in code: d4..d12, then d12+1 .. d12+10 for monsters

SPECS = {
    "beallitasok": Spec(
        "settings",
        fields={
            "kocka_letra": "list[str]+!",
            "tulajdonsag_kezdo": "str!",
            "tulajdonsag_lepesek": "int[..100]!",
            "tulajdonsag_max": "str!",
            "kepzettseg_pontok": "int[..200]!",
            "alap_kepzettseg_kezdo": "str!",
            "kepzettseg_max": "str!",
            "lepes_ar_alatt": "int[..100]!",
            "lepes_ar_felett": "int[..100]!",
            "kedvelt_kepzettseg_szorzo": "int[..1000]!",
            "hatrany_max_pont": "int[..50]!",
            "hatrany_pont_sulyos": "int[..50]!",
            "hatrany_pont_enyhe": "int[..50]!",
            "ar_tulajdonsag": "int[..50]!",
            "ar_elony": "int[..50]!",
            "ar_kepzettseg": "int[..50]!",
            "ar_penz": "int[..50]!",
            "hatrany_pont_sulyok": "list[int[..1000]]!",
            "hatrany_koltes_sulyok": "dict[int[..1000]]!",
            "ingyen_elony": "int[..20]!",
            "kezdo_rangok": "list[str]+!",
            "kedvelt_elony_szorzo": "int[..1000]!",
            "mozgas": "int[..100]!",
            "futaskocka": "str!",
            "futaskocka_min": "str!",
            "haritas_alap": "int[..100]!",
            "szivossag_alap": "int[..100]!",
            "vadkocka": "str!",
            "csoport_vadkocka": "str!",
            "sorspont_jatekos": "int[..100]!",
            "sorspont_vad_npc": "int[..100]!",
            "sebek_foszereplo": "int[..100]!",
            "sebek_mellekszereplo": "int[..100]!",
            "sebbuntetes_max": "int[..100]!",
            "kezdo_penz": "int[..1000000000]!",
            "penz_pont_szorzo": "int[..1000]!",
            "penznem": "str!",
            "bevasarlas": "list[str]+!",
            "mellekszereplo_szoras": "int[..100]!",
            "mellekszereplo_valtozas_esely": "int[..1000]!",
            "mellekszereplo_valtozatok": "int[..10000]!",
            "egyedi_nevek_max": "int[..1000000]!",
            "jelzo_ket_esely": "int[..100]!",
            "masodik_utonev_esely": "int[..100]!",
            "kartya_ertekek": "list[str]+!",
            "kartya_szinek": "list[str]+!",
            "jokerek": "int[..100]!",
        },
    ),
    "alaptulajdonsagok": Spec("definitions"),
    "kepzettsegek": Spec(
        "definitions", fields={"tulajdonsag": "id:alaptulajdonsagok!", "alap": "bool"}
    ),
    "hatranyok": Spec("definitions", fields={"sulyossag": "str!"}),
    "elonyok": Spec(
        "definitions",
        fields={
            "rang": "str!",
            "kell_tulajdonsag": "dict[str]",
            "kell_kepzettseg": "dict[str]",
            "kell_elony": "list[id:elonyok]",
            "arkan_kepzettseg": "id:kepzettsegek",
            "hatalompont": "int[0..1000]",
            "kezdo_hatalmak": "int[0..50]",
        },
    ),
    "hatalmak": Spec(
        "definitions",
        fields={
            "rang": "str!",
            "ar": "int[1..100]!",
            "hatotav": "str!",
            "idotartam": "str!",
            "hatas": "str!",
        },
    ),
    "koncepciok": Spec(
        "definitions",
        fields={
            "korszak": "list[id:korszakok]!",
            "tulajdonsag_sulyok": "dict[int]!",
            "kepzettseg_sulyok": "dict[int]!",
            "kedvelt_elonyok": "list[id:elonyok]",
            "arkan_hatter": "id:elonyok",
            "kedvelt_hatalmak": "list[id:hatalmak]",
        },
    ),
    "korszakok": Spec("definitions", fields={"penznem": "str"}),
    "felszereles": Spec(
        "definitions",
        fields={
            "tipus": "str!",
            "ar": "int[0..1000000]!",
            "sebzes": "str",
            "pancel_tores": "int[0..100]",
            "lotav": "str",
            "tgy": "int[0..100]",
            "pancel": "int[0..100]",
            "hely": "list[str]",
            "haritas": "int[0..100]",
            "min_ero": "str",
            "kepzettseg": "id:kepzettsegek",
            "ketkezes": "bool",
            "eleres": "int[1..20]",
            "dobhato": "bool",
            "lovedek_ellen": "int[1..20]",
            "talalat": "int[1..10]",
            "ujratoltes": "int[1..20]",
            "lovesek": "int[1..1000]",
            "korszak": "list[str]!",
        },
    ),
    "mellekszereplok": Spec(
        "definitions",
        fields={
            "alaptulajdonsagok": "dict[str]!",
            "kepzettsegek": "dict[str]!",
            "felszereles": "list[id:felszereles]",
            "elonyok": "list[id:elonyok]",
            "hatranyok": "list[id:hatranyok]",
            "meret": "int",
            "pancel": "int",
            "mozgas": "int",
            "futaskocka": "str",
            "szoras": "int",
            "szivos": "id:szivos_fokozatok",
            "szemelynev": "bool",
            "kulonleges": "list[str]",
        },
    ),
    "szivos_fokozatok": Spec("definitions", fields={"sebek_max": "int[0..10]!"}),
    "jelzok": Spec("definitions"),
}

# Display words live in tables/savage/cimkek.toml (chargen.labels).
LABELS = builtin_labels("savage", "cimkek")


# -- the die ladder -----------------------------------------------------------


def ladder(table: Table) -> tuple[str, ...]:
    """The die ladder of the pack: its rungs, then d12+1, d12+2 ... for monsters."""
    base = tuple(table.setting("kocka_letra"))
    return base + tuple(f"{base[-1]}+{n}" for n in range(1, TOP - len(base) + 2))


def half_die(die: str) -> int:
    """Half a trait die for Hárítás and Szívósság: d8 -> 4, d12+1 -> 6, d12+2 -> 7."""
    sides, _, plus = die[1:].partition("+")
    return int(sides) // 2 + (int(plus) // 2 if plus else 0)


class _Rules:
    """The pack's numbers and lookups, precomputed once per batch.

    The pack was checked before (`check_pack`, run by `chargen tables check` and
    before a user's pack is used), so this only reads it.
    """

    def __init__(self, ctx: Context) -> None:
        rules = ctx.table("beallitasok")
        self.table = rules
        s = rules.settings
        self.s = s
        self.ladder = ladder(rules)
        self.index = {die: i for i, die in enumerate(self.ladder)}
        self.attr_start = self.die_index(rules, "tulajdonsag_kezdo")
        self.attr_cap = self.die_index(rules, "tulajdonsag_max")
        self.skill_start = self.die_index(rules, "alap_kepzettseg_kezdo")
        self.skill_cap = self.die_index(rules, "kepzettseg_max")
        self.run_die = self.die_index(rules, "futaskocka")
        self.run_min = self.die_index(rules, "futaskocka_min")
        skills = ctx.table("kepzettsegek")
        self.skills = {e["id"]: e for e in skills.entries}
        self.core = tuple(e["id"] for e in skills.entries if e.get("alap"))

    def die_index(self, table: Table, key: str, value: Any = None, entry: int | None = None) -> int:
        """The rung of a die the pack gives; a die off the ladder names file and line."""
        text = table.settings.get(key) if value is None else value
        if text not in self.index:
            where = key_line(table.text, key, entry)
            raise TableError([Problem(str(table.path), where, _off_ladder(key, text, self.ladder))])
        return self.index[text]

    def step_cost(self, skill: str, new_index: int, attrs: dict[str, str]) -> int:
        """The price of raising `skill` to rung `new_index` (a new skill's d4 is rung 0)."""
        linked = self.index[attrs[self.skills[skill]["tulajdonsag"]]]
        return self.s["lepes_ar_alatt"] if new_index <= linked else self.s["lepes_ar_felett"]


def rules(ctx: Context) -> _Rules:
    found = ctx.cache.get("_rules")
    if found is None:
        found = ctx.cache["_rules"] = _Rules(ctx)
    return found


# -- the pack's own checks ------------------------------------------------------------

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
PURCHASES = ("tulajdonsag", "elony", "kepzettseg", "penz")  # what Hátrány points buy
FIGHTING = "kozelharc"  # the skill Hárítás is half of
_RUNG = re.compile(r"d[1-9][0-9]*")


def _off_ladder(key: str, value: Any, rungs: tuple[str, ...]) -> str:
    shown = ", ".join(r for r in rungs if "+" not in r)
    beyond = [r for r in rungs if "+" in r]
    if beyond:
        shown += f", then {beyond[0]} to {beyond[-1]}"
    return f"'{key}': {value!r} is not a die of the ladder ({shown})"


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
                    fault(table, _off_ladder(key, die, rungs), key, i)

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
    concepts = tables["koncepciok"]
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


def _check_settings(table: Table, rungs: tuple[str, ...], index: dict[str, int], fault) -> None:
    """beallitasok: dice on the ladder, numbers in range, Hátrány points always spendable."""
    s = table.settings
    dice_ok = numbers_ok = True
    for key in SETTING_DICE:
        if s[key] not in index:
            fault(table, _off_ladder(key, s[key], rungs), key)
            dice_ok = False
    for low, high in (
        ("tulajdonsag_kezdo", "tulajdonsag_max"),
        ("alap_kepzettseg_kezdo", "kepzettseg_max"),
    ):
        if index.get(s[low], -1) > index.get(s[high], len(rungs)):
            fault(table, f"{low} {s[low]} is above {high} {s[high]}", low)
            dice_ok = False
    for key, kind in SPECS["beallitasok"].fields.items():
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
    totals = _hatrany_totals(s)
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


def _hatrany_totals(s: dict) -> set[int]:
    """The numbers of Hátrány points a Főszereplő may have (within the caps)."""
    cap = s["hatrany_max_pont"]
    return {
        points
        for major in range(cap // s["hatrany_pont_sulyos"] + 1)
        for minor in range(cap // s["hatrany_pont_enyhe"] + 1)
        if (points := major * s["hatrany_pont_sulyos"] + minor * s["hatrany_pont_enyhe"]) <= cap
    }


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


def _weighted(rng: random.Random, items: list, weights: list[float]):
    point = rng.random() * sum(weights)
    for item, weight in zip(items, weights, strict=True):
        point -= weight
        if point < 0:
            return item
    return items[-1]


def _sum_effects(entries) -> dict[str, int]:
    total = dict.fromkeys(EFFECTS, 0)
    for entry in entries:
        for key, value in (entry.get("effects") or {}).items():
            total[key] += value
    return total


# -- Főszereplő: the creation procedure -----------------------------------------


def koncepcio(char: dict, ctx: Context) -> None:
    """The concept (--template): it only weights the random choices that follow."""
    ctx.rng.seed(_body_seed(char["seed"]))  # the body's stream (see `_named`)
    option = "template" if ctx.prompter is None or ctx.option("template") else "koncepcio"
    entry = ctx.choose(
        option, "koncepciok", allowed=_open_concepts(ctx), why=_concept_why(ctx), fact="koncepcio"
    )
    ctx.cache["_concept_entry"] = entry
    ctx.cache.pop("_wanted", None)
    char["template"] = entry["id"]
    char["koncepcio"] = entry["name"]
    char["foszereplo"] = True
    char["rang"] = rules(ctx).s["kezdo_rangok"][0]


def korszak(char: dict, ctx: Context) -> None:
    """The era (--korszak), among the concept's: chosen before anything it shapes
    (the képzettségek, Előnyök and gear that exist in it)."""
    concept = _concept(char, ctx)
    eras = ctx.table("korszakok")
    why = f"{concept['name']} lives in {', '.join(eras.get(k)['name'] for k in concept['korszak'])}"
    era = ctx.choose(
        "korszak", "korszakok", allowed=[eras.get(k) for k in concept["korszak"]], why=why
    )
    char["korszak"] = era["id"]


def _concept_fits(concept: dict, ctx: Context) -> str:
    """Why a concept cannot be this character's under the options ('' when it can):
    its era against --korszak, its Mágikus háttér against the Előnyök asked for and
    the Hátrány points that must pay for them."""
    s = rules(ctx).s
    era = ctx.option("korszak")
    if era and era not in concept["korszak"]:
        return f"{concept['name']} does not live in the era {era}"
    if not ctx.open_values("korszak", concept["korszak"]):
        return f"{concept['name']} lives in no era the options leave open"
    arcane = concept.get("arkan_hatter")
    if not arcane:
        return ""
    asked = _asked_edges(ctx)
    other = [e["id"] for e in asked if e.get("arkan_kepzettseg") and e["id"] != arcane]
    if other:
        return f"{concept['name']} takes {arcane}, not {other[0]}"
    count = len({e["id"] for e in asked} | {arcane})
    flaws = ctx.table("hatranyok")
    given = ctx.option("hatrany")
    points = (
        sum(
            s["hatrany_pont_sulyos"]
            if flaws.get(h, "hatrany")["sulyossag"] == "sulyos"
            else s["hatrany_pont_enyhe"]
            for h in given
        )
        if given
        else s["hatrany_max_pont"]
    )
    if (count - s["ingyen_elony"]) * s["ar_elony"] > points:
        return f"{concept['name']} takes {arcane} besides the Előnyök asked for: too many to pay"
    return ""


def _asked_edges(ctx: Context) -> list[dict]:
    """The Előnyök --elony asks for, with the Előnyök they require (`kell_elony`)."""
    edges = ctx.table("elonyok")
    out: list[dict] = []
    todo = list(ctx.option("elony") or ())
    while todo:
        edge = edges.get(todo.pop(0), "elony")
        if edge not in out:
            out.append(edge)
            todo.extend(edge.get("kell_elony") or ())
    return out


def _open_concepts(ctx: Context) -> list[dict]:
    return [c for c in ctx.table("koncepciok").entries if not _concept_fits(c, ctx)]


def _concept_why(ctx: Context):
    return lambda concept: _concept_fits(concept, ctx)


def _concept(char: dict, ctx: Context) -> dict:
    return ctx.table("koncepciok").get(char["template"])


def _compositions(points: int, r: _Rules) -> list[tuple[int, int]]:
    """Every (súlyos, enyhe) count worth exactly `points` (SWADE: any mix up to the cap)."""
    s = r.s
    out = []
    for major in range(points // s["hatrany_pont_sulyos"] + 1):
        rest = points - major * s["hatrany_pont_sulyos"]
        if rest >= 0 and rest % s["hatrany_pont_enyhe"] == 0:
            out.append((major, rest // s["hatrany_pont_enyhe"]))
    return out


def _hatrany_points(entries: list[dict], r: _Rules) -> int:
    s = r.s
    return sum(
        s["hatrany_pont_sulyos"] if e["sulyossag"] == "sulyos" else s["hatrany_pont_enyhe"]
        for e in entries
    )


def _clash(entry: dict, chosen: list[dict]) -> dict | None:
    """The entry already chosen that `entry` cannot stand beside: either's `excludes`
    names the other's id or a tag (two grades of one Hátrány share a tag both exclude)."""
    names = entry_names(entry)
    banned = set(entry.get("excludes") or ())
    for other in chosen:
        if other is entry:
            continue
        if banned & entry_names(other) or set(other.get("excludes") or ()) & names:
            return other
    return None


def _check_hatranyok(chosen: list[dict], r: _Rules) -> None:
    s = r.s
    for n, entry in enumerate(chosen):
        other = _clash(entry, chosen[:n])
        if other is not None:
            shared = set(entry.get("tags") or ()) & set(other.get("tags") or ())
            what = "are two grades of one Hátrány" if shared else "cannot stand together"
            raise ChargenError(f"--hatrany {other['id']} and {entry['id']} {what}: take one")
    points = _hatrany_points(chosen, r)
    if points > s["hatrany_max_pont"]:
        listed = ", ".join(e["id"] for e in chosen)
        raise ChargenError(
            f"Hátrányok give at most {s['hatrany_max_pont']} points in any mix (súlyos "
            f"{s['hatrany_pont_sulyos']}, enyhe {s['hatrany_pont_enyhe']}); {listed} "
            f"give {points}"
        )


def _wanted_edges(ctx: Context) -> list[dict]:
    """The Előnyök the character must take: the concept's Mágikus háttér and the ones
    the options ask for, each after the Előnyök it requires. Known before the steps
    that must make room for them: the Hátrányok they exclude, the dice they require,
    the Hátrány points they cost."""
    found = ctx.cache.get("_wanted")
    if found is not None and found[0] == (ctx.seed, ctx.index):
        return found[1]
    table = ctx.table("elonyok")
    out: list[dict] = []

    starting = rules(ctx).s["kezdo_rangok"]

    def add(edge_id: str, path: tuple[str, ...]) -> None:
        edge = table.get(edge_id, "elony")
        if edge in out or edge_id in path:
            return
        if edge["rang"] not in starting:  # refused before anything is drawn
            ranks = " or ".join(LABELS.get(k, k) for k in starting)
            raise ChoiceError(
                "elony",
                path[0] if path else edge_id,
                [e["id"] for e in table.entries if e["rang"] in starting],
                f"{edge['name']} is an Előny of rank {LABELS.get(edge['rang'], edge['rang'])};"
                f" a new Főszereplő takes only Előnyök of rank {ranks} (beallitasok.toml"
                " kezdo_rangok)",
            )
        for before in edge.get("kell_elony") or ():
            add(before, (*path, edge_id))
        out.append(edge)

    concept = ctx.cache.get("_concept_entry")
    if concept is not None and concept.get("arkan_hatter"):
        add(concept["arkan_hatter"], ())
    for wanted in ctx.option("elony") or ():
        add(wanted, ())
    arcane = [e["id"] for e in out if e.get("arkan_kepzettseg")]
    if len(arcane) > 1:
        raise ChargenError(
            f"{' and '.join(arcane)} are two Mágikus hátterek: a character has one "
            + (
                f"(the concept {concept['id']} takes {concept['arkan_hatter']})"
                if concept and concept.get("arkan_hatter")
                else ""
            )
        )
    ctx.cache["_wanted"] = ((ctx.seed, ctx.index), out)
    return out


def _draw_hatranyok(ctx: Context, major: int, minor: int) -> list[dict]:
    """`major` súlyos and `minor` enyhe Hátrányok, one at a time, each fitting the
    character so far (its concept and era, the Előnyök it must take, the Hátrányok
    drawn before it: the tables' `when`, `unless` and `excludes`)."""
    table = ctx.table("hatranyok")
    chosen: list[dict] = []
    for grade, count in (("sulyos", major), ("enyhe", minor)):
        among = [e for e in table.entries if e["sulyossag"] == grade]
        for _ in range(count):
            pool = [e for e in among if e not in chosen]
            if not ctx.pool(table, pool):
                raise ChargenError(f"hatranyok: no {GRADES[grade]} Hátrány left to draw")
            entry = ctx.pick("hatranyok", pool)
            chosen.append(entry)
            ctx.log(choice="hatrany", id=entry["id"], name=entry["name"], by="random")
    return chosen


def hatranyok(char: dict, ctx: Context) -> None:
    """Hátrányok worth at most four points in any mix (súlyos 2, enyhe 1), and what
    the points buy."""
    r = rules(ctx)
    s = r.s
    table = ctx.table("hatranyok")
    wanted = _wanted_edges(ctx)
    extra_edges = max(0, len(wanted) - s["ingyen_elony"])
    reserved = extra_edges * s["ar_elony"]
    if reserved > s["hatrany_max_pont"]:
        raise ChargenError(
            f"--elony given {len(wanted)} times: {s['ingyen_elony']} is free and Hátrány points "
            f"buy at most {s['hatrany_max_pont'] // s['ar_elony']} more"
        )
    edges = ctx.table("elonyok")
    for edge in wanted:  # taken for certain: what they exclude is not drawn beside them
        ctx.note(edge, edges)
    given = ctx.option("hatrany") or ()
    if given:
        chosen = [table.get(g, "hatrany") for g in given]
        if len({e["id"] for e in chosen}) != len(chosen):
            raise ChargenError(f"--hatrany names the same Hátrány twice: {', '.join(given)}")
        _check_hatranyok(chosen, r)
        for e in chosen:
            edge = _clash(e, wanted)
            if edge is not None:
                raise ChargenError(
                    f"--hatrany {e['id']} and the Előny {edge['id']} cannot stand together: "
                    f"{edge['name']} is not open to a character with {e['name']}"
                )
            ctx.note(e, table)
            ctx.log(choice="hatrany", id=e["id"], name=e["name"], by="option")
    else:
        weights = list(s["hatrany_pont_sulyok"])
        options = [p for p in range(len(weights)) if reserved <= p <= s["hatrany_max_pont"]]
        options = [p for p in options if _compositions(p, r)]
        if not options:
            raise ChargenError("no number of Hátrány points fits beallitasok.hatrany_pont_sulyok")
        points = _weighted(ctx.rng, options, [weights[p] for p in options])
        comps = _compositions(points, r)
        major, minor = comps[int(ctx.rng.random() * len(comps))]
        if ctx.prompter is not None:
            chosen = _ask_hatranyok(ctx, r, major, minor)
        else:
            chosen = _draw_hatranyok(ctx, major, minor)
    points = _hatrany_points(chosen, r)
    if points < reserved:
        raise ChargenError(
            f"--elony given {len(wanted)} times needs {reserved} Hátrány points, "
            f"the chosen Hátrányok give {points}"
        )
    char["hatranyok"] = [_flaw(e) for e in chosen]
    bought = _spend(ctx, r, points - reserved, extra_edges)
    if ctx.prompter is not None and points > reserved:
        bought = _ask_spending(ctx, r, points - reserved, extra_edges, bought)
    char["hatrany_pontok"] = {"osszes": points, **bought}
    ctx.log(hatrany_pontok=points, vasarlas=char["hatrany_pontok"])


def _ask_hatranyok(ctx: Context, r: _Rules, major: int, minor: int) -> list[dict]:
    """--interactive: the súlyos Hátrányok (how many and which), then the enyhe ones in
    what the four points leave; an empty answer takes the drawn number of random ones."""
    s = r.s
    table = ctx.table("hatranyok")
    cap = s["hatrany_max_pont"]
    majors = [e for e in table.entries if e["sulyossag"] == "sulyos"]
    top = cap // s["hatrany_pont_sulyos"]
    chosen = ctx.choose_many(
        "sulyos_hatrany", "hatranyok", major, allowed=ctx._fitting(table, majors), span=(0, top)
    )
    room = (cap - len(chosen) * s["hatrany_pont_sulyos"]) // s["hatrany_pont_enyhe"]
    minors = [e for e in table.entries if e["sulyossag"] == "enyhe"]
    fitting = ctx._fitting(table, minors)
    count = min(minor, room, len(fitting))
    chosen += ctx.choose_many(
        "enyhe_hatrany", "hatranyok", count, allowed=fitting, span=(0, min(room, len(fitting)))
    )
    _check_hatranyok(chosen, r)
    return chosen


def _ask_spending(
    ctx: Context, r: _Rules, left: int, edges: int, drawn: dict[str, int]
) -> dict[str, int]:
    """--interactive: how the Hátrány points are spent (attribute steps, Előnyök, skill
    points); what is left buys money. An empty answer keeps the drawn spending."""
    s = r.s
    bought = {"tulajdonsag": 0, "elony": edges, "kepzettseg": 0, "penz": 0}
    for kind in ("tulajdonsag", "elony", "kepzettseg"):
        price = s[f"ar_{kind}"]
        most = left // price
        default = min(drawn[kind] - (edges if kind == "elony" else 0), most)
        count = ctx.ask_number(f"pont_{kind}", 0, most, default)
        bought[kind] += count
        left -= count * price
    bought["penz"] = left // s["ar_penz"]
    return bought


def _spend(ctx: Context, r: _Rules, left: int, edges: int) -> dict[str, int]:
    """Spend the Hátrány points left: by the weights of the table, or as the player says."""
    s = r.s
    bought = {"tulajdonsag": 0, "elony": edges, "kepzettseg": 0, "penz": 0}
    kinds = list(bought)
    weights = [s["hatrany_koltes_sulyok"].get(k, 0) for k in kinds]
    prices = [s[f"ar_{k}"] for k in kinds]
    while left > 0:
        open_ = [(k, w) for k, w, p in zip(kinds, weights, prices, strict=True) if 0 < p <= left]
        open_ = [(k, w) for k, w in open_ if w > 0]
        if not open_:
            raise ChargenError("beallitasok: no purchase fits the Hátrány points left")
        kind = _weighted(ctx.rng, [k for k, _ in open_], [w for _, w in open_])
        bought[kind] += 1
        left -= s[f"ar_{kind}"]
    return bought


def _needs(ctx: Context, key: str) -> dict[str, int]:
    """The least rung of each trait the wanted Előnyök require (`kell_tulajdonsag` or
    `kell_kepzettseg`): the steps spend there first, so the Előnyök can be taken."""
    r = rules(ctx)
    out: dict[str, int] = {}
    for edge in _wanted_edges(ctx):
        for trait, die in (edge.get(key) or {}).items():
            out[trait] = max(out.get(trait, -1), r.index[die])
    return out


def _ask_steps(ctx: Context, r: _Rules, forced: list[str], drawn: list[str], steps: int):
    """--interactive: the steps of each alaptulajdonság in turn (beyond the ones a wanted
    Előny needs); the last takes what is left. An empty answer keeps the drawn steps."""
    placed = list(forced)
    room = {a: r.attr_cap - r.attr_start - forced.count(a) for a in ATTRS}
    for n, attr in enumerate(ATTRS):
        left = steps - len(placed)
        later = sum(room[a] for a in ATTRS[n + 1 :])
        low, high = max(0, left - later), min(left, room[attr])
        if n == len(ATTRS) - 1:
            count = left
        else:
            default = min(max(drawn.count(attr) - forced.count(attr), low), high)
            count = ctx.ask_number(f"lepes_{attr}", low, high, default)
        placed += [attr] * count
    return placed


def alaptulajdonsagok(char: dict, ctx: Context) -> None:
    """Every attribute starts at d4; five steps (and the bought ones) land by the concept,
    first where a wanted Előny needs them."""
    r = rules(ctx)
    weights_of = _concept(char, ctx)["tulajdonsag_sulyok"]
    values = dict.fromkeys(ATTRS, r.attr_start)
    steps = r.s["tulajdonsag_lepesek"] + char.get("hatrany_pontok", {}).get("tulajdonsag", 0)
    placed = []
    for attr, rung in _needs(ctx, "kell_tulajdonsag").items():
        while values[attr] < rung and len(placed) < steps:
            values[attr] += 1
            placed.append(attr)
        if values[attr] < rung:
            wanted = ", ".join(e["id"] for e in _wanted_edges(ctx))
            raise ChargenError(
                f"--elony {wanted}: the {steps} attribute steps cannot reach every die "
                f"they require ({LABELS[attr]} {r.ladder[rung]})"
            )
    forced = list(placed)
    while len(placed) < steps:
        open_ = [a for a in ATTRS if values[a] < r.attr_cap]
        if not open_:
            raise ChargenError("every alaptulajdonság is at its cap: too many steps to spend")
        chosen = _weighted(ctx.rng, open_, [max(weights_of.get(a, 1), 0) + 0.01 for a in open_])
        values[chosen] += 1
        placed.append(chosen)
    if ctx.prompter is not None:
        placed = _ask_steps(ctx, r, forced, placed, steps)
        values = dict.fromkeys(ATTRS, r.attr_start)
        for attr in placed:
            values[attr] += 1
    char["alaptulajdonsagok"] = {a: r.ladder[values[a]] for a in ATTRS}
    ctx.log(lepesek=placed)


def skill_cost(r: _Rules, skill: str, die: str, attrs: dict[str, str]) -> int:
    """What a skill at `die` cost from nothing (core skills start at their free die)."""
    start = r.skill_start + 1 if skill in r.core else 0
    return sum(r.step_cost(skill, i, attrs) for i in range(start, r.index[die] + 1))


def kepzettsegek(char: dict, ctx: Context) -> None:
    """The core skills at d4; twelve points (and the bought ones) at their prices."""
    r = rules(ctx)
    s = r.s
    attrs = char["alaptulajdonsagok"]
    favour = _concept(char, ctx)["kepzettseg_sulyok"]
    mult = s["kedvelt_kepzettseg_szorzo"]
    table = ctx.table("kepzettsegek")
    level = {k: -1 for k in r.skills if ctx.fits(table.get(k))}  # the era's skills only
    for k in r.core:
        level[k] = r.skill_start
    budget = s["kepzettseg_pontok"] + char.get("hatrany_pontok", {}).get("kepzettseg", 0)
    left = budget
    bought = []
    for skill, rung in _needs(ctx, "kell_kepzettseg").items():
        if skill not in level:
            wanted = ", ".join(e["id"] for e in _wanted_edges(ctx))
            era = ctx.table("korszakok").get(char["korszak"])["name"]
            raise ChargenError(
                f"--elony {wanted} needs {r.skills[skill]['name']}, a skill not known in {era}"
            )
        while level[skill] < rung:
            price = r.step_cost(skill, level[skill] + 1, attrs)
            if price > left:
                wanted = ", ".join(e["id"] for e in _wanted_edges(ctx))
                name = r.skills[skill]["name"]
                raise ChargenError(
                    f"--elony {wanted}: the {budget} skill points cannot reach every die "
                    f"they require ({name} {r.ladder[rung]})"
                )
            level[skill] += 1
            left -= price
            bought.append(skill)
    forced = len(bought)
    while left > 0:
        open_, weights = [], []
        for k, lv in level.items():
            if lv >= r.skill_cap:
                continue
            if r.step_cost(k, lv + 1, attrs) <= left:
                open_.append(k)
                weights.append(favour[k] * mult if k in favour else 1)
        if not open_:
            raise ChargenError("kepzettsegek: no skill step fits the points left")
        chosen = _weighted(ctx.rng, open_, weights)
        level[chosen] += 1
        left -= r.step_cost(chosen, level[chosen], attrs)
        bought.append(chosen)
    if ctx.prompter is not None:
        drawn = ", ".join(
            f"{r.skills[k]['name']} {r.ladder[lv]}" for k, lv in level.items() if lv >= 0
        )
        from chargen.render import wrap

        width = getattr(ctx.prompter, "width", 80)
        for line in wrap(f"{ctx.labels('kepzettsegek')}: {drawn}", width, "  "):
            ctx.prompter.say(line)
        if not ctx.ask_yes_no("kepzettseg_elfogad", True):
            level, bought = _ask_skills(ctx, r, level, attrs, budget, forced=bought[:forced])
    char["kepzettsegek"] = {k: r.ladder[lv] for k, lv in level.items() if lv >= 0}
    for k in char["kepzettsegek"]:
        ctx.note(table.get(k), table)
    ctx.log(kepzettseg_pontok=budget, vasarlas=bought)


def _ask_skills(ctx: Context, r: _Rules, drawn: dict, attrs: dict, budget: int, forced: list):
    """--interactive: the steps of each skill of the era in turn, at their prices, while
    points last (the steps a wanted Előny needs are kept)."""
    level = {k: (r.skill_start if k in r.core else -1) for k in drawn}
    left = budget
    for skill in forced:
        level[skill] += 1
        left -= r.step_cost(skill, level[skill], attrs)
    bought = list(forced)
    for skill in drawn:
        if left <= 0:
            break
        most, cost = 0, 0
        while level[skill] + most < r.skill_cap:
            price = r.step_cost(skill, level[skill] + most + 1, attrs)
            if cost + price > left:
                break
            cost += price
            most += 1
        if not most:
            continue
        count = ctx.ask_number(skill, 0, most, 0)
        for _ in range(count):
            level[skill] += 1
            left -= r.step_cost(skill, level[skill], attrs)
            bought.append(skill)
    return level, bought


def _edge_problem(entry: dict, char: dict, taken: set[str], r: _Rules, ctx: Context) -> str:
    """Why a character cannot take an Előny now ('' when it can)."""
    if entry["rang"] not in r.s["kezdo_rangok"]:
        return f"rang {entry['rang']} (a new Főszereplő is {', '.join(r.s['kezdo_rangok'])})"
    if entry["id"] in taken:
        return "already taken"
    for attr, die in (entry.get("kell_tulajdonsag") or {}).items():
        have = char["alaptulajdonsagok"].get(attr)
        if have is None or r.index[have] < r.index.get(die, 99):
            return f"needs {LABELS.get(attr, attr)} {die}"
    for skill, die in (entry.get("kell_kepzettseg") or {}).items():
        have = char["kepzettsegek"].get(skill)
        if have is None or r.index[have] < r.index.get(die, 99):
            name = r.skills[skill]["name"] if skill in r.skills else skill
            return f"needs {name} {die}"
    for other in entry.get("kell_elony") or ():
        if other not in taken:
            return f"needs the Előny {other}"
    if entry["id"] not in {e["id"] for e in _wanted_edges(ctx)} and not ctx.fits(entry):
        return "it cannot stand beside what the character already is (its tables' conditions)"
    return ""


def elonyok(char: dict, ctx: Context) -> None:
    """The free Előny of humans and the bought ones, only where requirements are met."""
    r = rules(ctx)
    table = ctx.table("elonyok")
    count = r.s["ingyen_elony"] + char.get("hatrany_pontok", {}).get("elony", 0)
    favour = set(_concept(char, ctx).get("kedvelt_elonyok") or ())
    mult = r.s["kedvelt_elony_szorzo"]
    taken: list[dict] = []
    ids: set[str] = set()
    given = set(ctx.option("elony") or ())
    for entry in _wanted_edges(ctx):
        why = _edge_problem(entry, char, ids, r, ctx)
        if why:
            valid = [e["id"] for e in table.entries if not _edge_problem(e, char, ids, r, ctx)]
            raise ChoiceError("elony", entry["id"], valid, why)
        taken.append(entry)
        ids.add(entry["id"])
        how = "option" if entry["id"] in given else "requirement"
        ctx.log(choice="elony", id=entry["id"], name=entry["name"], by=how)
    while len(taken) < count:
        pool = [
            e
            for e in table.entries
            if not _edge_problem(e, char, ids, r, ctx) and not e.get("arkan_kepzettseg")
        ]
        if not pool:
            raise ChargenError("elonyok: no Előny left whose requirements this character meets")
        # the prompt's answer, else the concept-weighted draw (as without prompts)
        entry = ctx.prompter.choose("uj_elony", table, pool) if ctx.prompter else None
        how = "prompt"
        if entry is None:
            weights = [e.get("weight", 1) * (mult if e["id"] in favour else 1) for e in pool]
            entry = _weighted(ctx.rng, pool, weights)
            how = "random"
            if ctx.prompter is not None:
                ctx.prompter.drawn(entry)
        taken.append(entry)
        ids.add(entry["id"])
        ctx.note(entry, table)
        ctx.log(choice="elony", id=entry["id"], name=entry["name"], by=how)
    char["elonyok"] = [_edge(e) for e in taken]


def _edge(entry: dict) -> dict:
    """An Előny as the character carries it: id, name, rank and its effect in one line."""
    return {"id": entry["id"], "nev": entry["name"], "rang": entry["rang"], "hatas": _rules(entry)}


def _flaw(entry: dict) -> dict:
    """A Hátrány as the character carries it: id, name, grade and its effect in one line."""
    return {
        "id": entry["id"],
        "nev": entry["name"],
        "sulyossag": entry["sulyossag"],
        "hatas": _rules(entry),
    }


def _rules(entry: dict) -> str:
    """The one-line rules text of an entry (`rules`, else its `description`)."""
    return entry.get("rules") or entry.get("description") or ""


def hatalmak(char: dict, ctx: Context) -> None:
    """A Mágikus háttér's arcane skill, Hatalompontok and starting powers (null without one).

    The powers are drawn among those of a starting rank, the concept's favourites
    weighted up; `kezdo_hatalmak` of them, all different."""
    edges = ctx.table("elonyok")
    background = next(
        (edges.get(e["id"]) for e in char["elonyok"] if edges.get(e["id"]).get("arkan_kepzettseg")),
        None,
    )
    if background is None:
        char["arkan_hatter"] = None
        return
    r = rules(ctx)
    powers = ctx.table("hatalmak")
    favour = set(_concept(char, ctx).get("kedvelt_hatalmak") or ())
    ctx.set_fact("arkan_hatter", background["id"])
    pool = [p for p in powers.entries if p["rang"] in r.s["kezdo_rangok"]]
    pool = list(ctx.pool(powers, pool).entries)  # the powers of this background
    count = background.get("kezdo_hatalmak", 0)
    if len(pool) < count:
        raise ChargenError(
            f"hatalmak: {background['name']} starts with {count} powers, only {len(pool)} "
            f"are of a starting rank ({', '.join(r.s['kezdo_rangok'])})"
        )
    mult = r.s["kedvelt_elony_szorzo"]
    # the prompt's answer, else the concept-weighted draw (as without prompts)
    chosen = ctx.prompter.choose_many("hatalom", powers, pool, count) if ctx.prompter else None
    how = "prompt"
    if chosen is None:
        chosen, how = [], "random"
        for _ in range(count):
            weights = [p.get("weight", 1) * (mult if p["id"] in favour else 1) for p in pool]
            power = _weighted(ctx.rng, pool, weights)
            pool.remove(power)
            chosen.append(power)
        if ctx.prompter is not None:
            ctx.prompter.drawn(chosen)
    for power in chosen:
        ctx.note(power, powers)
        ctx.log(choice="hatalom", id=power["id"], name=power["name"], by=how)
    skill = background["arkan_kepzettseg"]
    linked = r.skills[skill]["tulajdonsag"]
    char["arkan_hatter"] = {
        "id": background["id"],
        "nev": background["name"],
        "kepzettseg": skill,
        "kepzettseg_nev": r.skills[skill]["name"],
        "tulajdonsag": linked,
        "hatalompont": background.get("hatalompont", 0),
        "hatalmak": [
            {
                "id": p["id"],
                "nev": p["name"],
                "rang": p["rang"],
                "ar": p["ar"],
                "hatotav": p["hatotav"],
                "idotartam": p["idotartam"],
                "hatas": p["hatas"],
            }
            for p in chosen
        ],
    }


ITEM_KEYS = (
    "sebzes",
    "pancel_tores",
    "lotav",
    "tgy",
    "pancel",
    "hely",
    "haritas",
    "min_ero",
    "ketkezes",
    "eleres",
    "dobhato",
    "lovedek_ellen",
    "talalat",
    "ujratoltes",
    "lovesek",
    "kepzettseg",
)


def _item(entry: dict) -> dict:
    """An item as it stands on the sheet: its name, kind, price and numbers."""
    out = {"id": entry["id"], "nev": entry["name"], "tipus": entry["tipus"], "ar": entry["ar"]}
    for key in ITEM_KEYS:
        if key in entry:
            out[key] = entry[key]
    note = _rules(entry)
    if note:
        out["megjegyzes"] = note
    return out


def _items(ctx: Context) -> dict[str, dict]:
    found = ctx.cache.get("_items")
    if found is None:
        found = ctx.cache["_items"] = {e["id"]: _item(e) for e in ctx.table("felszereles").entries}
    return found


def starting_money(char: dict, ctx: Context) -> int:
    s = rules(ctx).s
    edges = [ctx.table("elonyok").get(e["id"]) for e in char.get("elonyok", ())]
    flaws = [ctx.table("hatranyok").get(h["id"]) for h in char.get("hatranyok", ())]
    percent = 100 + _sum_effects(edges + flaws)["penz_szazalek"]
    bought = char.get("hatrany_pontok", {}).get("penz", 0)
    extra = bought * s["penz_pont_szorzo"] * s["kezdo_penz"]
    return max(0, s["kezdo_penz"] * percent // 100) + extra


def _traits(char: dict, ctx: Context) -> list[dict]:
    """The table entries of the character's Előnyök and Hátrányok."""
    edges = ctx.table("elonyok")
    flaws = ctx.table("hatranyok")
    return [edges.get(e["id"]) for e in char.get("elonyok", ())] + [
        flaws.get(h["id"]) for h in char.get("hatranyok", ())
    ]


def _ero_short(item: dict, ero: int, fx: dict[str, int], r: _Rules) -> int:
    """How many die steps Erő falls short of the item's min. Erő (0 when it is met).

    For armour Erő counts `pancel_ero` steps more (Kövér: one step lower)."""
    need = item.get("min_ero")
    if need is None:
        return 0
    have = ero + (fx.get("pancel_ero", 0) if item["tipus"] == "pancel" else 0)
    return max(0, r.index[need] - have)


def felszereles(char: dict, ctx: Context) -> None:
    """An era, then shopping with the starting money: weapons, armour, shield, gear."""
    r = rules(ctx)
    era = ctx.table("korszakok").get(char["korszak"])
    money = starting_money(char, ctx)
    char["kezdo_penz"] = money
    fx = _sum_effects(_traits(char, ctx))
    ero = r.index[char["alaptulajdonsagok"]["ero"]]
    skills = char["kepzettsegek"]
    items_table = ctx.table("felszereles")
    stock = [
        e
        for e in items_table.entries
        if era["id"] in e["korszak"] and _ero_short(e, ero, fx, r) <= 0
    ]
    bought: list[dict] = []
    for kind in r.s["bevasarlas"]:
        have = {e["id"] for e in bought}
        torso = any("torzs" in e.get("hely", ()) for e in bought if e["tipus"] == "pancel")
        pool = []
        for e in stock:
            if e["tipus"] != kind or e["id"] in have or e["ar"] > money:
                continue
            if "kepzettseg" in e and e["kepzettseg"] not in skills:
                continue
            if kind == "pajzs" and FIGHTING not in skills:
                continue
            if kind == "pancel" and torso and "torzs" in e.get("hely", ()):
                continue
            pool.append(e)
        pool = list(ctx.pool(items_table, pool).entries) if pool else pool
        if not pool:
            continue
        weights = [
            e.get("weight", 1) * (1 + r.index[skills[e["kepzettseg"]]]) ** 2
            if "kepzettseg" in e
            else e.get("weight", 1)
            for e in pool
        ]
        entry = _weighted(ctx.rng, pool, weights)
        ctx.note(entry, items_table)
        bought.append(entry)
        money -= entry["ar"]
        ctx.log(vasarlas=entry["id"], ar=entry["ar"], maradt=money)
    if ctx.prompter is not None:
        bought, money = _ask_gear(ctx, char, stock, bought)
    items = _items(ctx)
    char["felszereles"] = [items[e["id"]] for e in bought]
    char["penz"] = money


def _ask_gear(ctx: Context, char: dict, stock: list[dict], bought: list[dict]):
    """--interactive: accept the drawn purchases or keep some and add from the era's
    shop (what the character can carry and use); the money must cover it."""
    unit = _currency(ctx.tables, char.get("korszak"))
    skills = char["kepzettsegek"]
    shop = [
        e
        for e in stock
        if e not in bought and ("kepzettseg" not in e or e["kepzettseg"] in skills) and ctx.fits(e)
    ]

    def show(e: dict) -> str:
        return f"{e['name']} ({e['ar']} {unit})"

    kept = ctx.ask_list("felszereles_lista", bought, shop, show)
    for n, entry in enumerate(kept):
        other = _clash(entry, kept[:n])
        if other is not None:
            raise ChargenError(f"{entry['name']} and {other['name']} cannot be carried together")
    cost = sum(e["ar"] for e in kept)
    if cost > char["kezdo_penz"]:
        raise ChargenError(
            f"the gear chosen costs {cost} {unit}, the starting money is {char['kezdo_penz']}"
        )
    for entry in kept:
        if entry not in bought:
            ctx.note(entry, "felszereles")
    return kept, char["kezdo_penz"] - cost


def derived(char: dict, ctx: Context) -> None:
    """Mozgás, futáskocka, Hárítás, Szívósság, Vadkocka, Sorspont and Sebek of a Főszereplő."""
    r = rules(ctx)
    edges = [ctx.table("elonyok").get(e["id"]) for e in char.get("elonyok", ())]
    flaws = [ctx.table("hatranyok").get(h["id"]) for h in char.get("hatranyok", ())]
    fx = _sum_effects(edges + flaws)
    gear = char.get("felszereles", ())
    _set_derived(char, r, fx, gear, r.s["mozgas"], r.run_die, 0, 0)
    char["vadkocka"] = r.s["vadkocka"]
    char["sorspont"] = r.s["sorspont_jatekos"] + fx["sorspont"]
    char["sebek_max"] = r.s["sebek_foszereplo"]
    char["sebbuntetes_max"] = r.s["sebbuntetes_max"]
    char["szivos"] = None


def _set_derived(char, r: _Rules, fx, gear, pace: int, run: int, size: int, natural: int) -> None:
    attrs, skills = char["alaptulajdonsagok"], char["kepzettsegek"]
    armour = max((i.get("pancel", 0) for i in gear if "torzs" in i.get("hely", ())), default=0)
    shield = max((i.get("haritas", 0) for i in gear if i["tipus"] == "pajzs"), default=0)
    meret = size + fx["meret"]
    fighting = half_die(skills[FIGHTING]) if FIGHTING in skills else 0
    char["mozgas"] = pace + fx["mozgas"]
    char["futaskocka"] = r.ladder[max(r.run_min, min(run + fx["futaskocka"], r.attr_cap))]
    char["haritas"] = r.s["haritas_alap"] + fighting + shield + fx["haritas"]
    char["pancel"] = armour + natural
    char["meret"] = meret
    char["szivossag"] = (
        r.s["szivossag_alap"]
        + half_die(attrs["allokepesseg"])
        + armour
        + natural
        + meret
        + fx["szivossag"]
    )


def nev(char: dict, ctx: Context) -> None:
    """A Hungarian name, family name first, distinct within the batch (see `_named`)."""
    gender = ctx.gender()
    _named(char, ctx, _person_names(ctx)[gender])
    char["nem"] = GENDER[gender]


# A character's seed has two parts: its low BODY_BITS bits seed everything but the
# name, the whole seed seeds the name. A name already taken in the batch is drawn
# again under a new seed with the same low bits: the same character, a new name, and
# the new seed (recorded as `seed`) regenerates it alone, name included.
BODY_BITS = 44
NAME_SEEDS = 2**53 >> BODY_BITS  # seeds stay below 2**53
NAME_SALT = 0x6E65765F6E6576  # the name stream differs from the body stream of one seed


_BODY_MASK = (1 << BODY_BITS) - 1


def _body_seed(seed: int) -> int:
    return seed & _BODY_MASK


def _name_seed(seed: int, attempt: int) -> int:
    high = (seed >> BODY_BITS) + attempt
    return _body_seed(seed) + (high % NAME_SEEDS << BODY_BITS)


def _named(char: dict, ctx: Context, draw: Callable[[int], str], key: str | None = None) -> None:
    """Give the character the first name its seeds draw that is free in this batch.

    `draw(stream_seed)` is the name a name seed gives (a pure function of it). `key`
    names a small name space (a beast's epithets): once every try of a member of it
    found only taken names, the next ones take a number at once."""
    seen = ctx.shared.get("nevek")
    if seen is None:
        seen = ctx.shared["nevek"] = set()
        ctx.shared["nevek_max"] = rules(ctx).s["egyedi_nevek_max"]
        ctx.shared["nevek_kimerult"] = set()
    name = draw(char["seed"] ^ NAME_SALT)
    if name in seen:
        name = _renamed(char, ctx, draw, key, seen, name)
    _remember(ctx, name)
    char["name"] = name


def _renamed(
    char: dict, ctx: Context, draw: Callable[[int], str], key: str | None, seen: set, first: str
) -> str:
    """The name of a member whose first name is taken: the first free name of its new
    seeds (recorded as its `seed`), else the first name with a number."""
    seed = char["seed"]
    spent = ctx.shared["nevek_kimerult"]
    tries = 0 if key is not None and key in spent else RETRIES
    for attempt in range(1, tries + 1):
        candidate = _name_seed(seed, attempt)
        name = draw(candidate ^ NAME_SALT)
        if name not in seen:
            char["seed"] = candidate
            return name
    # every seed tried drew a taken name (a tiny name list, a huge batch of beasts)
    if key is not None:  # its names are spent: later ones get a number at once
        spent.add(key)
    return _numbered(ctx, first)


_MASK64 = 0xFFFFFFFFFFFFFFFF


_GOLDEN = 0x9E3779B97F4A7C15


def _finish(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


class _NameStream:
    """The name's own random stream: splitmix64 floats, cheap to seed (a name may be
    drawn under many seeds before one is free)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def random(self) -> float:
        self.state = z = (self.state + _GOLDEN) & _MASK64
        return (_finish(z) >> 11) / 9007199254740992.0


class _BodyStream(random.Random):
    """An NPC's body stream: splitmix64 from the seed's body bits (see BODY_BITS).

    Seeding is one assignment, so the engine's seeding of each member costs nothing
    (a Mersenne Twister seeding costs more than a whole member), and a member renamed
    under a new seed keeps its body. Every method of random.Random draws from it."""

    __slots__ = ("state",)

    def seed(self, a: Any = None, version: int = 2) -> None:
        if type(a) is not int:
            a = int.from_bytes(str(a).encode(), "big") if a is not None else 0
        self.state = a & _BODY_MASK

    def random(self) -> float:
        self.state = z = (self.state + _GOLDEN) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return ((z ^ (z >> 31)) >> 11) * _UNIT

    def getrandbits(self, k: int) -> int:
        bits, have = 0, 0
        while have < k:
            self.state = z = (self.state + _GOLDEN) & _MASK64
            bits = bits << 64 | _finish(z)
            have += 64
        return bits >> (have - k)

    def getstate(self) -> Any:
        return self.state

    def setstate(self, state: Any) -> None:
        self.state = state


_UNIT = 2.0**-53


RETRIES = 48  # new name seeds tried for a name that is taken (then a number is added)


_SPLIT = 2.0**-32


def _person_names(ctx: Context) -> dict[str, Callable[[int], str]]:
    """Per gender, the person name a name seed gives, built once per batch: a family
    and a given name from Faker's lists for the locale (Hungarian order for hu), and
    for some a second given name, as many Hungarians carry ("Juhász Ferenc Tamás").
    Two splitmix64 words of the seed give the four draws, so a try costs no stream."""
    locale = ctx.locale or ctx.system.locale
    key = ("_person_names", locale)
    found = ctx.cache.get(key)
    if found is not None:
        return found
    from chargen import names

    picker = names.picker(locale)
    family_first = locale.startswith("hu")
    second = rules(ctx).s["masodik_utonev_esely"] / 100.0 if family_first else 0.0

    def sums(weighted) -> tuple[tuple[str, ...], list[float], float]:
        items = weighted.names
        cumulative = weighted.cumulative or [float(n) for n in range(1, len(items) + 1)]
        return items, cumulative, cumulative[-1] * _SPLIT  # 32 random bits -> [0, total)

    def maker(gender: str) -> Callable[[int], str]:
        given, given_sums, given_scale = sums(picker.given[gender])
        family, family_sums, family_scale = sums(picker.family[gender])
        at, chance = bisect.bisect, second * 2.0**32

        def draw(seed: int) -> str:  # two splitmix64 words, inline: a try is cheap
            z = (seed + _GOLDEN) & _MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            z ^= z >> 31
            first = given[at(given_sums, (z >> 32) * given_scale)]
            last = family[at(family_sums, (z & 0xFFFFFFFF) * family_scale)]
            name = f"{last} {first}" if family_first else f"{first} {last}"
            if chance:
                z = (z + _GOLDEN) & _MASK64
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                z ^= z >> 31
                if z >> 32 < chance:
                    more = given[at(given_sums, (z & 0xFFFFFFFF) * given_scale)]
                    if more != first and more != last:
                        name = f"{name} {more}"
            return name

        return draw

    found = ctx.cache[key] = {"male": maker("male"), "female": maker("female")}
    return found


def person_name(ctx: Context) -> tuple[str, str]:
    """A person's name from the character's own seed (see `_person_names`)."""
    gender = ctx.gender()
    return _person_names(ctx)[gender](ctx.seed ^ NAME_SALT), gender


def _fresh(ctx: Context, name: str) -> bool:
    """Whether `name` is still free in this batch."""
    return name not in ctx.shared.get("nevek", ())


def _remember(ctx: Context, name: str) -> None:
    """Mark `name` as used; the memory is emptied after `egyedi_nevek_max` names, so a
    batch of a million stays in flat memory."""
    seen = ctx.shared["nevek"]
    if len(seen) >= ctx.shared["nevek_max"]:
        seen.clear()
        ctx.shared["nevek_kimerult"].clear()
        ctx.shared.get("nevek_szam", {}).clear()
    seen.add(name)


def _numbered(ctx: Context, name: str) -> str:
    """The last resort when every new seed gave a taken name (a tiny name list):
    the name with the first free number."""
    counts = ctx.shared.setdefault("nevek_szam", {})
    n = counts.get(name, 1) + 1
    while not _fresh(ctx, f"{name} {n}"):
        n += 1
    counts[name] = n
    return f"{name} {n}"


PC_STEPS = [
    Step(
        "koncepcio",
        koncepcio,
        fields=("koncepcio", "foszereplo", "rang"),
        lists=("koncepciok",),
        label="Koncepció",
        help="The character concept (--template): it weights the random choices.",
    ),
    Step(
        "korszak",
        korszak,
        fields=("korszak",),
        lists=("korszakok",),
        label="Korszak",
        help="The era (--korszak) among the concept's: it shapes skills, Előnyök and gear.",
    ),
    Step(
        "hatranyok",
        hatranyok,
        fields=("hatranyok", "hatrany_pontok"),
        lists=("hatranyok",),
        label="Hátrányok",
        help="Hátrányok worth at most 4 points in any mix (--hatrany), and what the points buy.",
    ),
    Step(
        "alaptulajdonsagok",
        alaptulajdonsagok,
        fields=("alaptulajdonsagok",),
        lists=("alaptulajdonsagok",),
        label="Alaptulajdonságok",
        help="Five attributes from d4 with five steps to spend (cap d12).",
    ),
    Step(
        "kepzettsegek",
        kepzettsegek,
        fields=("kepzettsegek",),
        lists=("kepzettsegek",),
        label="Képzettségek",
        help="Five core skills at d4 and twelve skill points priced by the linked attribute.",
    ),
    Step(
        "elonyok",
        elonyok,
        fields=("elonyok",),
        lists=("elonyok",),
        label="Előnyök",
        help="The free Előny of humans and the bought ones (--elony), requirements met.",
    ),
    Step(
        "hatalmak",
        hatalmak,
        fields=("arkan_hatter",),
        lists=("hatalmak",),
        label="Hatalmak",
        help="A Mágikus háttér's arcane skill, Power Points and starting powers.",
    ),
    Step(
        "felszereles",
        felszereles,
        fields=("kezdo_penz", "felszereles", "penz"),
        lists=("felszereles", "korszakok"),
        label="Felszerelés",
        help="Weapons, armour and gear bought with the starting money.",
    ),
    Step("szarmaztatott", derived, command=False),
    Step("nev", nev, fields=("name", "nem"), command=False),
]


# -- Mellékszereplők -------------------------------------------------------------


class _Plan:
    """One template, precomputed: base rungs, kit, lists and the derived constants."""

    __slots__ = (
        "id",
        "name",
        "keys",
        "base",
        "tops",
        "skill_keys",
        "gear",
        "edges",
        "flaws",
        "special",
        "fx",
        "pace",
        "run",
        "size",
        "natural",
        "spread",
        "tough",
        "person",
        "armour",
        "shield",
        "floors",
    )

    def __init__(self, template: dict, ctx: Context, r: _Rules) -> None:
        table = ctx.table("mellekszereplok")
        index = table.entries.index(template)
        self.id, self.name = template["id"], template["name"]
        attrs, skills = template["alaptulajdonsagok"], template["kepzettsegek"]
        self.keys = ATTRS + tuple(skills)
        self.skill_keys = tuple(skills)
        self.base = [r.die_index(table, "alaptulajdonsagok", attrs[a], index) for a in ATTRS] + [
            r.die_index(table, "kepzettsegek", skills[k], index) for k in skills
        ]
        self.tops = [max(b, r.attr_cap) for b in self.base]
        items = _items(ctx)
        self.gear = [items[i] for i in template.get("felszereles", ())]
        edges = [ctx.table("elonyok").get(i) for i in template.get("elonyok", ())]
        flaws = [ctx.table("hatranyok").get(i) for i in template.get("hatranyok", ())]
        self.floors = _floors(template, edges, flaws, ctx, r)
        self.edges = [_edge(e) for e in edges]
        self.flaws = [_flaw(e) for e in flaws]
        self.special = list(template.get("kulonleges", ()))
        self.fx = _sum_effects([*edges, *flaws, template])
        self.pace = template.get("mozgas", r.s["mozgas"])
        run = template.get("futaskocka")
        self.run = r.run_die if run is None else r.die_index(table, "futaskocka", run, index)
        self.size = template.get("meret", 0)
        self.natural = template.get("pancel", 0)
        self.spread = template.get("szoras", r.s["mellekszereplo_szoras"])
        self.tough = template.get("szivos")
        self.person = template.get("szemelynev", True)


def _floors(template: dict, edges: list[dict], flaws: list[dict], ctx: Context, r: _Rules):
    """The lowest rung each trait of a varied member may take: what the template's
    Előnyök require and, for Erő, the min. Erő of its own gear (never above its base)."""
    attrs, skills = template["alaptulajdonsagok"], template["kepzettsegek"]
    need = dict.fromkeys((*ATTRS, *skills), 0)
    for edge in edges:
        for key, die in {
            **edge.get("kell_tulajdonsag", {}),
            **edge.get("kell_kepzettseg", {}),
        }.items():
            if key in need:
                need[key] = max(need[key], r.index[die])
    fx = _sum_effects(flaws + edges)
    items = ctx.table("felszereles")
    for item_id in template.get("felszereles", ()):
        item = items.get(item_id)
        if "min_ero" in item:
            shift = fx["pancel_ero"] if item["tipus"] == "pancel" else 0
            need["ero"] = max(need["ero"], r.index[item["min_ero"]] - shift)
    base = [r.index[attrs[a]] for a in ATTRS] + [r.index[skills[k]] for k in skills]
    return [min(need[k], b) for k, b in zip((*ATTRS, *skills), base, strict=True)]


def _plan(ctx: Context, template: dict) -> _Plan:
    key = ("_plan", template["id"])
    plan = ctx.cache.get(key)
    if plan is None:
        plan = ctx.cache[key] = _Plan(template, ctx, rules(ctx))
    return plan


def _stat_block(plan: _Plan, rng: random.Random, r: _Rules, vary: bool) -> dict:
    """The template's traits (varied for a lone member) and everything derived from them."""
    rungs = plan.base
    if vary and plan.spread:
        chance = r.s["mellekszereplo_valtozas_esely"] / 100.0
        half = chance / 2.0
        rungs = list(rungs)
        for i, base in enumerate(plan.base):
            roll = rng.random()
            if roll < chance:
                step = 1 + int(rng.random() * plan.spread)
                new = base - step if roll < half else base + step
                rungs[i] = min(max(new, plan.floors[i]), plan.tops[i])
    block = {
        "alaptulajdonsagok": {a: r.ladder[rungs[i]] for i, a in enumerate(ATTRS)},
        "kepzettsegek": {k: r.ladder[rungs[i + 5]] for i, k in enumerate(plan.skill_keys)},
    }
    _set_derived(block, r, plan.fx, plan.gear, plan.pace, plan.run, plan.size, plan.natural)
    return block


def _variants(plan: _Plan, ctx: Context, r: _Rules) -> list[dict]:
    """The members a template can give, drawn once per batch from a stream of its own.

    A member of a template is one of `mellekszereplo_valtozatok` stat blocks (its
    traits within `szoras` steps of the template), picked with one draw of the
    member's own stream: a batch of a million costs one lookup per member, and a
    member's seed still regenerates it exactly.
    """
    key = ("_variants", plan.id)
    found = ctx.cache.get(key)
    if found is None:
        stream = random.Random(f"savage/{plan.id}")
        count = r.s["mellekszereplo_valtozatok"] if plan.spread else 1
        found = ctx.cache[key] = [_stat_block(plan, stream, r, vary=n > 0) for n in range(count)]
    return found


def _card(rng: random.Random, r: _Rules) -> str:
    """One card of the action deck: 13 values in 4 suits, and the Jokers."""
    values, suits, jokers = r.s["kartya_ertekek"], r.s["kartya_szinek"], r.s["jokerek"]
    pick = int(rng.random() * (len(values) * len(suits) + jokers))
    if pick >= len(values) * len(suits):
        return "Joker"
    return f"{suits[pick // len(values)]} {values[pick % len(values)]}"


def _batch(ctx: Context) -> tuple[bool, bool, str | None]:
    """The batch's --wild-card, --squad and --tough, checked once."""
    found = ctx.cache.get("_batch")
    if found is not None:
        return found
    wild = bool(ctx.option("wild_card"))
    squad = bool(ctx.option("squad"))
    tough = ctx.option("tough")
    if squad and wild:
        raise ChargenError(
            "--squad cannot go with --wild-card: a squad is a group of identical "
            "Mellékszereplők, while a Főszereplő acts on its own card with its own Vadkocka"
        )
    if squad and ctx.count < 2:
        raise ChargenError(
            "--squad needs -n 2 or more: a squad is a group of identical Mellékszereplők "
            "sharing one stat block and one action card"
        )
    if tough and wild:
        raise ChargenError(
            "--tough cannot go with --wild-card: Szívós and Nagyon szívós are grades of a "
            "Mellékszereplő; a Főszereplő bears three Sebek"
        )
    found = ctx.cache["_batch"] = (wild, squad, tough)
    return found


def _member(plan: _Plan, block: dict, ctx: Context, wild: bool, tough: str | None) -> dict:
    """Everything of a member but its name: the stat block with its role's fields."""
    r = rules(ctx)
    out = {"sablon": plan.name, "foszereplo": wild, **block}
    out["alaptulajdonsagok"] = _Traits(block["alaptulajdonsagok"])
    out["elonyok"] = plan.edges
    out["hatranyok"] = plan.flaws
    out["felszereles"] = plan.gear
    if plan.special:
        out["kulonleges"] = plan.special
    if wild:
        out["vadkocka"] = r.s["vadkocka"]
        out["sorspont"] = r.s["sorspont_vad_npc"] + plan.fx["sorspont"]
        out["sebek_max"] = r.s["sebek_foszereplo"]
        out["szivos"] = None
    else:
        grade = tough or plan.tough
        out["vadkocka"] = None
        out["sorspont"] = 0
        if grade:
            out["sebek_max"] = ctx.table("szivos_fokozatok").get(grade)["sebek_max"]
        else:
            out["sebek_max"] = r.s["sebek_mellekszereplo"]
        out["szivos"] = grade
    return out


class _Traits(dict):
    """A member's alaptulajdonságok, carrying the member they belong to (`link`: its
    keys, its values and its JSON text) so that `json_line` can splice the text."""

    __slots__ = ("link",)


def _encoded(member: dict, ctx: Context, template: str) -> dict:
    """Link a finished member to its own JSON text (see `json_line`)."""
    head = (ctx.system.id, ctx.kind, template)
    prefix = _compact(dict(zip(HEAD[:3], head, strict=True)))[:-1] + ","
    text = _compact(member)[1:-1]
    member["alaptulajdonsagok"].link = (head, prefix, list(member), list(member.values()), text)
    return member


HEAD = ["system", "kind", "template", "seed", "name"]  # what make_character starts with
# The default encoder's settings (chargen.output).
_compact = json.JSONEncoder(ensure_ascii=False, check_circular=False, separators=(",", ":")).encode
_quoted = encode_basestring


def json_line(char: dict) -> str:
    """An NPC as a JSON Lines line, the member's part spliced from its text encoded
    once per batch: the same text as the default encoder, at a fraction of its cost.
    Anything else (a PC, a member whose fields were replaced) is encoded in full."""
    link = getattr(char.get("alaptulajdonsagok"), "link", None)
    if link is not None:
        head, prefix, keys, values, text = link
        names = list(char)
        end = 5 + len(keys)
        seed, name = char["seed"], char["name"]
        if (
            names[:5] == HEAD
            and (char["system"], char["kind"], char["template"]) == head
            and type(seed) is int
            and type(name) is str
            and names[5:end] == keys
            and all(map(is_, map(char.__getitem__, keys), values))
        ):
            tail = [_scalar(k, char[k]) for k in names[end:]]
            if None not in tail:
                tail.insert(0, text)
                return f'{prefix}"seed":{seed},"name":{_quoted(name)},{",".join(tail)}}}\n'
    return _compact(char) + "\n"


def _scalar(key: str, value: Any) -> str | None:
    """`"key":value` for a string, an int or None, as the encoder writes it (None for
    anything else: the caller then encodes the whole character)."""
    kind = type(value)
    if kind is str:
        return f"{_quoted(key)}:{_quoted(value)}"
    if kind is int:
        return f"{_quoted(key)}:{value}"
    if value is None:
        return f"{_quoted(key)}:null"
    return None


def npc(char: dict, ctx: Context) -> None:
    """A Mellékszereplő (or with --wild-card a Főszereplő NPC) from a template.

    A template's members are precomputed once per batch (see `_variants`); a member
    costs one template pick, one variant pick and its name. The name comes from a
    stream of its own (see `_named`), so a name already used in the batch is drawn
    again from a new seed that the member records and that regenerates it alone.
    """
    if type(ctx.rng) is not _BodyStream:  # the batch's first member: the body stream
        ctx.rng = _BodyStream(char["seed"])
    plan = _npc_body(char, ctx)
    if plan.person:
        gender = ctx.gender()
        _named(char, ctx, _person_names(ctx)[gender])
        char["nem"] = GENDER[gender]
    else:
        _named(char, ctx, _beast_names(plan, ctx), plan.id)


def _npc_eras(ctx: Context):
    """The eras an NPC of this batch may belong to, as a pool (once per batch): the one
    --korszak names, else those under which the pinned choices (--template) can hold."""
    found = ctx.cache.get("_npc_eras")
    if found is None:
        table = ctx.table("korszakok")
        given = ctx.option("korszak")
        if given:
            allowed = [ctx._validated("korszak", table, given, list(table.entries), "")]
        else:
            open_ = set(ctx.open_values("korszak", table.ids))
            allowed = [e for e in table.entries if e["id"] in open_]
        if not allowed:
            raise ChargenError("no era (korszakok) fits the options given")
        found = ctx.cache["_npc_eras"] = ctx.pool(table, allowed)
    return found


def _npc_body(char: dict, ctx: Context) -> _Plan:
    """The member but its name: template, stat block and the fields of its role."""
    wild, squad, tough = _batch(ctx)
    joint = ctx.cache.get("_joint", False)
    if joint is False:
        joint = ctx.cache["_joint"] = None if squad else _joint_pool(ctx)
    if joint is not None:  # the batch's usual path: era, template and variant in one draw
        sums, rows, total = joint
        at = ctx.rng.random() * total
        n = bisect.bisect(sums, at)
        n = min(n, len(rows) - 1)
        era_entry, template_entry, found = rows[n]
        low = sums[n - 1] if n else 0.0
        _template, plan, variants, members = found
        pick = min(int((at - low) / (sums[n] - low) * len(variants)), len(variants) - 1)
        era = era_entry["id"]
        ctx.note(era_entry, ctx.tables["korszakok"])
        ctx.set_fact("korszak", era)
        ctx.note(template_entry, ctx.tables["mellekszereplok"])
        member = _batch_member(ctx, plan, variants, members, pick, wild, tough)
        return _settle(char, ctx, plan, member, era)
    if squad and "squad" in ctx.shared:
        era = ctx.shared["squad"][1]["korszak"]
        ctx.set_fact("korszak", era)
    elif ctx.prompter is None:
        entry = _npc_eras(ctx).pick(ctx.rng)
        ctx.note(entry, ctx.tables["korszakok"])
        era = entry["id"]
        ctx.set_fact("korszak", era)
    else:
        era = ctx.choose("korszak", "korszakok")["id"]
    if squad:
        shared = ctx.shared.get("squad")
        if shared is None:  # the first member draws the group's card; the rest copy it
            template = ctx.choose("template", "mellekszereplok")
            plan = _plan(ctx, template)
            ctx.options["template"] = template["id"]
            member = _member(plan, _variants(plan, ctx, rules(ctx))[0], ctx, wild, tough)
            member["squad"] = f"{template['id']}-{ctx.batch_seed}"
            member["csoport_vadkocka"] = rules(ctx).s["csoport_vadkocka"]
            member["korszak"] = era
            member["akciokartya"] = _card(ctx.rng, rules(ctx))
            _encoded(member, ctx, template["id"])
            shared = ctx.shared["squad"] = (plan, member)
        plan, member = shared
    else:
        if ctx.prompter is None and ctx.options.get("template") is None:
            templates = ctx.cache.get(("_templates", era))
            if templates is None:
                templates = _era_templates(ctx, era)
            found = templates[1][bisect.bisect(templates[0], ctx.rng.random() * templates[2])]
            template = found[0]
            ctx.note(template, ctx.tables["mellekszereplok"])
        else:
            template = ctx.choose("template", "mellekszereplok")
            found = _template_members(ctx, template)
        template, plan, variants, members = found
        pick = int(ctx.rng.random() * len(variants))
        member = _batch_member(ctx, plan, variants, members, pick, wild, tough)
    return _settle(char, ctx, plan, member, era)


def _batch_member(ctx: Context, plan, variants: list, members: dict, pick: int, wild, tough):
    """Stat block `pick` of a template, made and encoded the first time a batch needs it."""
    member = members.get(pick)
    if member is None:
        member = members[pick] = _encoded(
            _member(plan, variants[pick], ctx, wild, tough), ctx, plan.id
        )
    return member


def _settle(char: dict, ctx: Context, plan, member: dict, era: str):
    """The member's template, stat block and era on the character; returns the plan."""
    ctx.set_fact("sablon", plan.id)
    char["template"] = plan.id
    char.update(member)
    char["korszak"] = era
    return plan


def _joint_pool(ctx: Context) -> tuple[list[float], list[tuple], float] | None:
    """The eras and their templates as one pool of (era, template) rows, weighted by
    the era's chance times the template's chance in it, built once per batch: one
    uniform draw picks both, and where it falls inside its row picks the stat block.
    None where the batch asks (--template, --interactive) or the templates' conditions
    go past the era (a user's pack): the member then draws them one by one."""
    templates = ctx.table("mellekszereplok").compiled
    if (
        ctx.prompter is not None
        or ctx.options.get("template") is not None
        or not templates.plain
        or set(templates.facts) - {"korszak"}
    ):
        return None
    eras = _npc_eras(ctx)
    saved = ctx.facts
    rows: list[tuple] = []
    weights: list[float] = []
    try:
        for n, era in enumerate(eras.entries):
            share = (eras.sums[n] - (eras.sums[n - 1] if n else 0.0)) / eras.total
            ctx.facts = {"korszak": era["id"]}
            pool = ctx.pool("mellekszereplok")
            if not pool:
                raise ctx._none_fit(ctx.table("mellekszereplok"))
            for k, entry in enumerate(pool.entries):
                weight = pool.sums[k] - (pool.sums[k - 1] if k else 0.0)
                rows.append((era, entry, _template_members(ctx, entry)))
                weights.append(share * weight / pool.total)
    finally:
        ctx.facts = saved
    sums = list(accumulate(weights))
    return sums, rows, sums[-1]


def _template_members(ctx: Context, template: dict) -> tuple[dict, _Plan, list[dict], dict]:
    """A template's plan, its stat blocks and its members made so far, once per batch."""
    key = ("_members", template["id"])
    found = ctx.cache.get(key)
    if found is None:
        plan = _plan(ctx, template)
        found = ctx.cache[key] = (template, plan, _variants(plan, ctx, rules(ctx)), {})
    return found


def _era_templates(ctx: Context, era: str) -> tuple[list[float], list[tuple], float]:
    """The templates whose conditions fit an era (the pool the engine gives for the
    era's facts, once per batch), each with its members, as running weight sums."""
    pool = ctx.pool("mellekszereplok")
    if not pool:
        raise ctx._none_fit(ctx.table("mellekszereplok"))
    found = [_template_members(ctx, entry) for entry in pool.entries]
    found = ctx.cache[("_templates", era)] = (list(pool.sums), found, pool.total)
    return found


def _beast_names(plan: _Plan, ctx: Context) -> Callable[[int], str]:
    """The name a name seed gives a creature of this template, built once per batch:
    an epithet and the template's name ("Sebhelyes farkas"), for some two of them
    ("Öreg, sebhelyes farkas"), each among the epithets whose conditions fit it."""
    key = ("_jelzok", plan.id, ctx.facts.get("korszak"))
    found = ctx.cache.get(key)
    if found is not None:
        return found
    pool = ctx.pool("jelzok")  # the facts are this member's: era and template
    names = [e["name"] for e in pool.entries]
    lower = [n.lower() for n in names]
    sums, total, last = pool.sums, pool.total, len(names) - 1
    kind = plan.name.lower()
    two = rules(ctx).s["jelzo_ket_esely"] / 100.0 if len(names) > 1 else 0.0

    def draw(seed: int) -> str:
        stream = _NameStream(seed)
        first = min(bisect.bisect(sums, stream.random() * total), last)
        if stream.random() >= two:
            return f"{names[first]} {kind}"
        second = first
        while second == first:
            second = min(bisect.bisect(sums, stream.random() * total), last)
        return f"{names[first]}, {lower[second]} {kind}"

    found = ctx.cache[key] = draw
    return found


def beast_name(plan: _Plan, ctx: Context) -> str:
    """A creature's name from the character's own seed (see `_beast_names`)."""
    return _beast_names(plan, ctx)(ctx.seed ^ NAME_SALT)


# -- sheets -------------------------------------------------------------------------


PLACES = {"fej": "fej", "torzs": "törzs", "kar": "kar", "lab": "láb"}
RANKS = {"ujonc": "Újonc", "tapasztalt": "Tapasztalt", "veteran": "Veterán", "hos": "Hős"}


def _item_rules(item: dict, char: dict, tables: Tables) -> str:
    """An item's numbers and rules in one line, in the sheet's words."""
    ero = char.get("alaptulajdonsagok", {}).get("ero")  # a step alone has no dice
    out = []
    if "sebzes" in item:
        dmg = item["sebzes"]
        if dmg.startswith("Erő") and ero:
            dmg = f"{dmg} ({ero}{dmg[3:]})"
        out.append(f"Sebzés {dmg}")
    labels = tables.labels
    for key in ("pancel_tores", "eleres", "lotav", "tgy", "lovesek"):  # "PT 2", "TGY 3"
        if key in item:
            thrown = ", dobható (Atlétika)" if key == "lotav" and item.get("dobhato") else ""
            out.append(f"{labels.forms(key)[-1]} {item[key]}{thrown}")
    if "talalat" in item:
        out.append(f"+{item['talalat']} a támadásra")
    if "ujratoltes" in item:
        out.append(f"Újratöltés {item['ujratoltes']} cselekvés")
    if "pancel" in item:
        places = ", ".join(PLACES.get(h, h) for h in item.get("hely", ()))
        out.append(f"Páncél +{item['pancel']} ({places})")
    if "lovedek_ellen" in item:
        out.append(f"+{item['lovedek_ellen']} lövedék ellen")
    if "haritas" in item:
        out.append(f"Hárítás +{item['haritas']}")
    if item.get("ketkezes"):
        out.append("kétkezes")
    if "min_ero" in item:
        out.append(f"min. Erő {item['min_ero']}")
        short = _short_steps(item, char, tables) if ero else 0
        if short:
            what = "Ügyesség és képzettségei" if item["tipus"] == "pancel" else "támadás"
            out.append(f"Erő alatt: -{short} {what}")
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


def _gear_rows(char: dict, tables: Tables) -> list[list]:
    return [
        [item["nev"], _item_rules(item, char, tables), item["ar"]]
        for item in char.get("felszereles", ())
    ]


def _trait_rows(char: dict) -> list[list]:
    return [[LABELS[a], char["alaptulajdonsagok"][a]] for a in ATTRS]


def _skill_text(char: dict, tables: Tables) -> str:
    skills = tables["kepzettsegek"]
    return ", ".join(f"{_name_of(skills, k)}{NBSP}{v}" for k, v in char["kepzettsegek"].items())


def _name_of(table: Table, key: str) -> str:
    """The display name of an id in the pack's table (the id itself when unknown)."""
    return table.get(key)["name"] if key in table else key


def _derived_rows(char: dict, tables: Tables) -> list[list]:
    w = tables.labels
    rows = [
        [w("mozgas"), char["mozgas"]],
        [w("futaskocka"), char["futaskocka"]],
        [w("haritas"), char["haritas"]],
        [w("szivossag"), _toughness(char)],
        [w("vadkocka"), _wild_die(char)],
        [w("sorspont"), char["sorspont"]],
        [w("sebek"), _wounds(char, tables)],
    ]
    if char["sebek_max"]:  # one who bears a Seb fights on with its penalty
        rows.append([w("sebbuntetes"), _wound_penalty(tables)])
    if char.get("meret"):
        rows.insert(4, [w("meret"), f"{char['meret']:+d}"])
    return rows


def _arcane_sections(char: dict, tables: Tables) -> list[Section]:
    """The Mágikus háttér: its skill and die, the Hatalompontok, each power's rules."""
    w = tables.labels
    arcane = char["arkan_hatter"]
    die = char.get("kepzettsegek", {}).get(arcane["kepzettseg"], "")
    rows = [
        [w("hatter"), arcane["nev"]],
        [w("arkan_kepzettseg"), f"{arcane['kepzettseg_nev']} {die}".strip()],
        [w("hatalompont"), arcane["hatalompont"]],
    ]
    powers = [
        [
            p["nev"],
            f"{p['ar']} {w('hatalompont')}; {w('hatotav')} {p['hatotav']}; {p['idotartam']}. {p['hatas']}",
        ]
        for p in arcane["hatalmak"]
    ]
    return [Section(w("arkan_hatter"), rows=rows), Section(w("hatalmak"), rows=powers)]


def _toughness(char: dict) -> str:
    """Szívósság, with the armour in it ("7 (ebből páncél 2)")."""
    if char.get("pancel"):
        return f"{char['szivossag']} (ebből páncél {char['pancel']})"
    return str(char["szivossag"])


def _wound_penalty(tables: Tables) -> str:
    """The document's wound penalty ("Minden Seb -1 Mozgás és -1 minden Jellemzőpróba,
    legfeljebb -3"), with the pack's cap."""
    cap = tables["beallitasok"].settings["sebbuntetes_max"]
    return f"Sebenként -1 minden Jellemzőpróbára és a Mozgásra, legfeljebb -{cap}"


def _wild_die(char: dict) -> str:
    """A Főszereplő's own Vadkocka, a squad's shared one (document, "Csoportdobás")."""
    if char.get("vadkocka"):
        return char["vadkocka"]
    if char.get("csoport_vadkocka"):
        return f"közös {char['csoport_vadkocka']} (Csoportdobás)"
    return "nincs"


def _wounds(char: dict, tables: Tables) -> str:
    """The Sebek row: the Sebek borne and what the next one does (a grade's own words)."""
    grade = char.get("szivos")
    grades = tables["szivos_fokozatok"]
    if grade and grade in grades:
        entry = grades.get(grade)
        words = entry.get("description", "").rstrip(".")
        return f"{entry['name']}: {words[:1].lower()}{words[1:]}" if words else entry["name"]
    if char["sebek_max"]:
        return f"{char['sebek_max']} (a következő Harcképtelenné tesz)"
    return "az első Seb Harcképtelenné teszi"


def _wounds_short(char: dict) -> str:
    """The roster's Sebek: the number, and the role or grade that changes what it means."""
    grade = char.get("szivos")
    if char["foszereplo"]:
        return f"{char['sebek_max']} (Főszereplő)"
    if grade:
        return f"{char['sebek_max']} ({LABELS.get(grade, grade)})"
    return str(char["sebek_max"])


def _flaw_label(flaw: dict) -> str:
    if "(" in flaw["nev"]:
        return flaw["nev"]
    return f"{flaw['nev']} ({GRADES.get(flaw['sulyossag'], flaw['sulyossag'])})"


def sheet(char: dict, tables: Tables) -> list[Section]:
    pc = char["kind"] == "pc"
    w = tables.labels
    who = w("foszereplo") if char["foszereplo"] else w("mellekszereplo")
    head = [[w("name"), char["name"]], [w("szerep"), who]]
    era = _name_of(tables["korszakok"], char.get("korszak", ""))
    if pc:
        rank = RANKS.get(char.get("rang", ""), char.get("rang", ""))
        head += [
            [w("rang"), rank],
            [w("koncepcio"), char.get("koncepcio", "")],
            [w("korszak"), era],
        ]
    else:
        head.append([w("sablon"), _name_of(tables["mellekszereplok"], char["template"])])
        if char.get("korszak"):
            head.append([w("korszak"), era])
    sections = [Section(who, rows=head)]
    sections += _traits_part(char, tables) + _skills_part(char, tables)
    sections.append(Section(w("szarmaztatott"), rows=_derived_rows(char, tables)))
    sections += _flaws_part(char, tables) + _edges_part(char, tables)
    sections += _arcane_part(char, tables)
    if char.get("kulonleges"):
        sections.append(Section(w("kulonleges"), text="\n".join(char["kulonleges"])))
    if char.get("felszereles") or pc:
        sections += _gear_part(char, tables)
    if pc:
        sections += _money_part(char, tables)
    return sections


def _concept_part(char: dict, tables: Tables) -> list[Section]:
    rank = RANKS.get(char.get("rang", ""), char.get("rang", ""))
    w = tables.labels
    return [Section(w("koncepcio"), rows=[[w("koncepcio"), char["koncepcio"]], [w("rang"), rank]])]


def _era_part(char: dict, tables: Tables) -> list[Section]:
    era = _name_of(tables["korszakok"], char["korszak"])
    return [Section(tables.labels("korszak"), rows=[[tables.labels("korszak"), era]])]


def _traits_part(char: dict, tables: Tables) -> list[Section]:
    return [Section(tables.labels("alaptulajdonsagok"), rows=_trait_rows(char))]


def _skills_part(char: dict, tables: Tables) -> list[Section]:
    return [Section(tables.labels("kepzettsegek"), text=_skill_text(char, tables))]


def _flaws_part(char: dict, tables: Tables) -> list[Section]:
    out = []
    if char.get("hatranyok"):
        rows = [[_flaw_label(h), h.get("hatas", "")] for h in char["hatranyok"]]
        out.append(Section(tables.labels("hatranyok"), rows=rows))
    points = char.get("hatrany_pontok")
    if points and points.get("osszes"):
        unit = _currency(tables, char.get("korszak"))
        s = tables["beallitasok"].settings
        more = points.get("penz", 0) * s["penz_pont_szorzo"] * s["kezdo_penz"]
        spent = [
            f"{points[k]} {word}"
            for k, word in (
                ("tulajdonsag", "alaptulajdonság-lépés"),
                ("elony", "Előny"),
                ("kepzettseg", "képzettségpont"),
            )
            if points.get(k)
        ]
        if more:  # a point buys twice the starting funds more (SWADE)
            spent.append(f"+{more} {unit}")
        text = ", ".join(spent)
        out.append(
            Section(tables.labels("hatrany_pontok"), text=f"{points['osszes']} pont: {text}")
        )
    return out


def _edges_part(char: dict, tables: Tables) -> list[Section]:
    if not char.get("elonyok"):
        return []
    rows = [[e["nev"], e.get("hatas", "")] for e in char["elonyok"]]
    return [Section(tables.labels("elonyok"), rows=rows)]


def _arcane_part(char: dict, tables: Tables) -> list[Section]:
    if char.get("arkan_hatter"):
        return _arcane_sections(char, tables)
    if char.get("step") == "hatalmak":  # the step alone says why it is empty
        return [Section(tables.labels("arkan_hatter"), text=tables.labels("nincs_arkan"))]
    return []


def _gear_part(char: dict, tables: Tables) -> list[Section]:
    rows = _gear_rows(char, tables)
    w = tables.labels
    return [Section(w("felszereles"), rows=rows, headers=[w("targy"), w("ertekek"), w("ar")])]


def _currency(tables: Tables, era: str | None) -> str:
    """The money an era counts in (`penznem` of korszakok.toml, else beallitasok)."""
    eras = tables["korszakok"]
    found = eras.get(era).get("penznem") if era and era in eras else None
    return found or tables["beallitasok"].settings["penznem"]


def _money_part(char: dict, tables: Tables) -> list[Section]:
    unit = _currency(tables, char.get("korszak"))
    money = f"{char['penz']} {unit} (kezdőpénz {char['kezdo_penz']} {unit})"
    return [Section(tables.labels("penz"), text=money)]


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


def group_rule(die: str) -> str:
    """The document's group roll, "Csoportdobás", with the pack's shared wild die."""
    return (
        f"Csoportdobás: a csoport egy Jellemzőkockát és egy közös {die} Vadkockát dob, a "
        "jobbat használja; kritikus balsiker csak mindkettő természetes 1-én. Ettől nem "
        "lesznek Főszereplők. Közös Akciókártyán cselekszenek."
    )


def batch_sheet(chars: list[dict], tables: Tables) -> list[Section] | None:
    """A squad: the stat block once, the names under it, the group roll rule beside it."""
    if not chars or chars[0].get("squad") is None:
        return None
    if any(c.get("squad") != chars[0]["squad"] for c in chars):
        return None
    first, w = chars[0], tables.labels
    head = [
        [tables.labels.word("seed"), first["squad"].rsplit("-", 1)[-1]],
        [w("sablon"), _name_of(tables["mellekszereplok"], first["template"])],
        [w("letszam"), len(chars)],
        [w("akciokartya"), first["akciokartya"]],
    ]
    sections = [Section(w("csoport"), rows=head)]
    sections += [s for s in sheet(first, tables)[1:]]
    sections.append(Section(w("csoportdobas"), text=group_rule(first["csoport_vadkocka"])))
    sections.append(Section(w("tagok"), rows=[[i, c["name"]] for i, c in enumerate(chars, 1)]))
    return sections


def _skill(key: str):
    return lambda c: c["kepzettsegek"].get(key, "")


SYSTEM = System(
    id="savage",
    name="Savage",
    language="hu",
    locale="hu_HU",
    description="Főszereplők és Mellékszereplők: Vadkocka, Sorspont, Sebek, Szívósság, Hárítás.",
    specs=SPECS,
    effect_keys=frozenset(EFFECTS),
    facts={
        "koncepcio": "koncepciok",
        "korszak": "korszakok",
        "sablon": "mellekszereplok",
        "arkan_hatter": "elonyok",
    },
    labels=LABELS,
    pc=PC_STEPS,
    npc=npc,
    pc_options=[
        Option(
            "template",
            table="koncepciok",
            fact="koncepcio",
            help="The character concept (koncepciok.toml).",
        ),
        Option("hatrany", table="hatranyok", multiple=True, help="A Hátrány (repeatable)."),
        Option("elony", table="elonyok", multiple=True, help="An Előny (repeatable)."),
        Option("korszak", table="korszakok", help="The era the character shops in."),
    ],
    npc_options=[
        Option(
            "template",
            table="mellekszereplok",
            fact="sablon",
            help="The template (mellekszereplok.toml).",
        ),
        Option("korszak", table="korszakok", help="The era of the batch (korszakok.toml)."),
        Option(
            "tough",
            table="szivos_fokozatok",
            help="szivos (the first Seb only makes it Megzavart) or nagyon_szivos (bears one Seb).",
        ),
        Option("wild-card", flag=True, help="A Főszereplő NPC: Vadkocka, three Sebek, Sorspont."),
        Option(
            "squad",
            flag=True,
            help="The batch is one squad of identical Mellékszereplők (needs -n 2 or more).",
        ),
    ],
    sheet=sheet,
    parts=PARTS,
    labels_table="cimkek",
    batch_sheet=batch_sheet,
    check=check_pack,
    # What a game master runs a fight with goes last when the roster must shrink:
    # Hárítás and Szívósság, then the attributes and Közelharc, then Sebek; a long name
    # wraps rather than push them out.
    roster=[
        Column("name", priority=9, wrap=True),
        Column("sablon", lambda c: c.get("sablon") or c.get("koncepcio") or c["template"], 8),
        *[Column(a, (lambda c, a=a: c["alaptulajdonsagok"][a]), 6) for a in ATTRS],
        Column(FIGHTING, _skill(FIGHTING), 6),
        Column("loveszet", _skill("loveszet"), 4),
        Column("haritas", priority=7),
        Column("szivossag", priority=7),
        Column("mozgas", priority=3),
        Column("sebek", _wounds_short, 5),
    ],
)
