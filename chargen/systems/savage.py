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

import random
import re
from typing import Any

from chargen.errors import ChargenError, ChoiceError, Problem, TableError
from chargen.labels import builtin_labels
from chargen.procedure import Context, Option, Section, Step, System
from chargen.tables import Spec, Table, Tables, key_line

ATTRS = ("ugyesseg", "esz", "lelek", "ero", "allokepesseg")
EFFECTS = ("mozgas", "futaskocka", "haritas", "szivossag", "meret", "sorspont", "penz_szazalek")
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
            "hatrany_max_sulyos": "int[..20]!",
            "hatrany_max_enyhe": "int[..20]!",
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
            "sorspont_jatekos": "int[..100]!",
            "sorspont_vad_npc": "int[..100]!",
            "sebek_foszereplo": "int[..100]!",
            "sebek_mellekszereplo": "int[..100]!",
            "sebbuntetes_max": "int[..100]!",
            "kezdo_penz": "int[..1000000000]!",
            "penz_pontonkent": "int[..1000000000]!",
            "penznem": "str!",
            "bevasarlas": "list[str]+!",
            "mellekszereplo_szoras": "int[..100]!",
            "mellekszereplo_valtozas_esely": "int[..1000]!",
            "mellekszereplo_valtozatok": "int[..10000]!",
            "egyedi_nevek_max": "int[..1000000]!",
            "kartya_ertekek": "list[str]+!",
            "kartya_szinek": "list[str]+!",
            "jokerek": "int[..100]!",
        },
    ),
    "alaptulajdonsagok": Spec("definitions"),
    "kepzettsegek": Spec(
        "definitions", fields={"tulajdonsag": "id:alaptulajdonsagok!", "alap": "bool"}
    ),
    "hatranyok": Spec("definitions", fields={"sulyossag": "str!", "csoport": "str"}),
    "elonyok": Spec(
        "definitions",
        fields={
            "rang": "str!",
            "kell_tulajdonsag": "dict[str]",
            "kell_kepzettseg": "dict[str]",
            "kell_elony": "list[id:elonyok]",
            "kizart_hatranyok": "list[id:hatranyok]",
        },
    ),
    "koncepciok": Spec(
        "definitions",
        fields={
            "korszak": "list[id:korszakok]!",
            "tulajdonsag_sulyok": "dict[int]!",
            "kepzettseg_sulyok": "dict[int]!",
            "kedvelt_elonyok": "list[id:elonyok]",
        },
    ),
    "korszakok": Spec("definitions"),
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
    "szivos_fokozatok": Spec("definitions", fields={"sebek_max": "int!"}),
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
    ranks = {e["rang"] for e in edges.entries}
    for rank in s["kezdo_rangok"]:
        if rank not in ranks:
            text = f"kezdo_rangok: no Előny has rang '{rank}' (ranks: {', '.join(sorted(ranks))})"
            fault(rules_table, text, "kezdo_rangok")
    flaws = tables["hatranyok"]
    for i, entry in enumerate(flaws.entries):
        if entry["sulyossag"] not in GRADES:
            text = f"sulyossag {entry['sulyossag']!r} must be one of {', '.join(GRADES)}"
            fault(flaws, text, "sulyossag", i)
    items = tables["felszereles"]
    dice(items, "min_ero")
    kinds = {e["tipus"] for e in items.entries}
    for kind in s["bevasarlas"]:
        if kind not in kinds:
            text = f"bevasarlas: no item has tipus '{kind}' (tipus: {', '.join(sorted(kinds))})"
            fault(rules_table, text, "bevasarlas")
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
    return {
        points
        for major in range(s["hatrany_max_sulyos"] + 1)
        for minor in range(s["hatrany_max_enyhe"] + 1)
        if (points := major * s["hatrany_pont_sulyos"] + minor * s["hatrany_pont_enyhe"])
        <= s["hatrany_max_pont"]
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
    entry = ctx.choose("template", "koncepciok")
    char["template"] = entry["id"]
    char["koncepcio"] = entry["name"]
    char["foszereplo"] = True


def _concept(char: dict, ctx: Context) -> dict:
    return ctx.table("koncepciok").get(char["template"])


def _compositions(points: int, r: _Rules) -> list[tuple[int, int]]:
    s = r.s
    out = []
    for major in range(s["hatrany_max_sulyos"] + 1):
        rest = points - major * s["hatrany_pont_sulyos"]
        if rest < 0 or rest % s["hatrany_pont_enyhe"]:
            continue
        minor = rest // s["hatrany_pont_enyhe"]
        if minor <= s["hatrany_max_enyhe"]:
            out.append((major, minor))
    return out


def _hatrany_points(entries: list[dict], r: _Rules) -> int:
    s = r.s
    return sum(
        s["hatrany_pont_sulyos"] if e["sulyossag"] == "sulyos" else s["hatrany_pont_enyhe"]
        for e in entries
    )


def _check_hatranyok(chosen: list[dict], r: _Rules) -> None:
    s = r.s
    majors = [e["id"] for e in chosen if e["sulyossag"] == "sulyos"]
    minors = [e["id"] for e in chosen if e["sulyossag"] != "sulyos"]
    groups: dict[str, str] = {}
    for e in chosen:
        group = e.get("csoport")
        if group and group in groups:
            raise ChargenError(
                f"--hatrany {groups[group]} and {e['id']} are two grades of one Hátrány: take one"
            )
        if group:
            groups[group] = e["id"]
    if len(majors) > s["hatrany_max_sulyos"] or len(minors) > s["hatrany_max_enyhe"]:
        raise ChargenError(
            f"too many Hátrányok: at most {s['hatrany_max_sulyos']} súlyos and "
            f"{s['hatrany_max_enyhe']} enyhe (given súlyos: {', '.join(majors) or '-'}; "
            f"enyhe: {', '.join(minors) or '-'})"
        )
    if _hatrany_points(chosen, r) > s["hatrany_max_pont"]:
        raise ChargenError(f"Hátrányok give at most {s['hatrany_max_pont']} points")


def hatranyok(char: dict, ctx: Context) -> None:
    """One súlyos and two enyhe Hátrányok at most (4 points), and what the points buy."""
    r = rules(ctx)
    s = r.s
    table = ctx.table("hatranyok")
    wanted_edges = len(ctx.option("elony") or ())
    extra_edges = max(0, wanted_edges - s["ingyen_elony"])
    reserved = extra_edges * s["ar_elony"]
    if reserved > s["hatrany_max_pont"]:
        raise ChargenError(
            f"--elony given {wanted_edges} times: {s['ingyen_elony']} is free and Hátrány points "
            f"buy at most {s['hatrany_max_pont'] // s['ar_elony']} more"
        )
    given = ctx.option("hatrany") or ()
    if given:
        chosen = [table.get(g, "hatrany") for g in given]
        if len({e["id"] for e in chosen}) != len(chosen):
            raise ChargenError(f"--hatrany names the same Hátrány twice: {', '.join(given)}")
        _check_hatranyok(chosen, r)
        for e in chosen:
            ctx.log(choice="hatrany", id=e["id"], name=e["name"], by="option")
    else:
        weights = list(s["hatrany_pont_sulyok"])
        options = [p for p in range(len(weights)) if p >= reserved and _compositions(p, r)]
        options = [p for p in options if p <= s["hatrany_max_pont"]]
        if not options:
            raise ChargenError("no number of Hátrány points fits beallitasok.hatrany_pont_sulyok")
        points = _weighted(ctx.rng, options, [weights[p] for p in options])
        comps = _compositions(points, r)
        major, minor = comps[int(ctx.rng.random() * len(comps))]
        majors = [e for e in table.entries if e["sulyossag"] == "sulyos"]
        chosen = ctx.choose_many("sulyos_hatrany", "hatranyok", major, allowed=majors)
        taken = {e.get("csoport") for e in chosen} - {None}
        minors = [
            e for e in table.entries if e["sulyossag"] != "sulyos" and e.get("csoport") not in taken
        ]
        chosen = chosen + ctx.choose_many("enyhe_hatrany", "hatranyok", minor, allowed=minors)
        _check_hatranyok(chosen, r)
    points = _hatrany_points(chosen, r)
    if points < reserved:
        raise ChargenError(
            f"--elony given {wanted_edges} times needs {reserved} Hátrány points, "
            f"the chosen Hátrányok give {points}"
        )
    char["hatranyok"] = [
        {"id": e["id"], "nev": e["name"], "sulyossag": e["sulyossag"]} for e in chosen
    ]
    # Spend the points: the Előnyök asked for first, then by the weights of the table.
    bought = {"tulajdonsag": 0, "elony": extra_edges, "kepzettseg": 0, "penz": 0}
    left = points - reserved
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
    char["hatrany_pontok"] = {"osszes": points, **bought}
    ctx.log(hatrany_pontok=points, vasarlas=bought)


def alaptulajdonsagok(char: dict, ctx: Context) -> None:
    """Every attribute starts at d4; five steps (and the bought ones) land by the concept."""
    r = rules(ctx)
    weights_of = _concept(char, ctx)["tulajdonsag_sulyok"]
    values = dict.fromkeys(ATTRS, r.attr_start)
    steps = r.s["tulajdonsag_lepesek"] + char.get("hatrany_pontok", {}).get("tulajdonsag", 0)
    placed = []
    for _ in range(steps):
        open_ = [a for a in ATTRS if values[a] < r.attr_cap]
        if not open_:
            raise ChargenError("every alaptulajdonság is at its cap: too many steps to spend")
        chosen = _weighted(ctx.rng, open_, [max(weights_of.get(a, 1), 0) + 0.01 for a in open_])
        values[chosen] += 1
        placed.append(chosen)
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
    level = {k: -1 for k in r.skills}
    for k in r.core:
        level[k] = r.skill_start
    budget = s["kepzettseg_pontok"] + char.get("hatrany_pontok", {}).get("kepzettseg", 0)
    left = budget
    bought = []
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
    char["kepzettsegek"] = {k: r.ladder[lv] for k, lv in level.items() if lv >= 0}
    ctx.log(kepzettseg_pontok=budget, vasarlas=bought)


def _edge_problem(entry: dict, char: dict, taken: set[str], r: _Rules) -> str:
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
    hindrances = {h["id"] for h in char.get("hatranyok", ())}
    for other in entry.get("kizart_hatranyok") or ():
        if other in hindrances:
            return f"not with the Hátrány {other}"
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
    for wanted in ctx.option("elony") or ():
        entry = table.get(wanted, "elony")
        why = _edge_problem(entry, char, ids, r)
        if why:
            valid = [e["id"] for e in table.entries if not _edge_problem(e, char, ids, r)]
            raise ChoiceError("elony", wanted, valid, why)
        taken.append(entry)
        ids.add(entry["id"])
        ctx.log(choice="elony", id=entry["id"], name=entry["name"], by="option")
    while len(taken) < count:
        pool = [e for e in table.entries if not _edge_problem(e, char, ids, r)]
        if not pool:
            raise ChargenError("elonyok: no Előny left whose requirements this character meets")
        entry = ctx.prompter.choose("elony", table, pool, ctx.rng) if ctx.prompter else None
        if entry is not None:
            how = "prompt"
        else:
            weights = [e.get("weight", 1) * (mult if e["id"] in favour else 1) for e in pool]
            entry = _weighted(ctx.rng, pool, weights)
            how = "random"
        taken.append(entry)
        ids.add(entry["id"])
        ctx.log(choice="elony", id=entry["id"], name=entry["name"], by=how)
    char["elonyok"] = [{"id": e["id"], "nev": e["name"]} for e in taken]


def _item(entry: dict) -> dict:
    """An item as it stands on the sheet: its name, kind, price and numbers."""
    out = {"id": entry["id"], "nev": entry["name"], "tipus": entry["tipus"], "ar": entry["ar"]}
    for key in ("sebzes", "pancel_tores", "lotav", "tgy", "pancel", "hely", "haritas"):
        if key in entry:
            out[key] = entry[key]
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
    return max(0, s["kezdo_penz"] * percent // 100) + bought * s["penz_pontonkent"]


def felszereles(char: dict, ctx: Context) -> None:
    """An era, then shopping with the starting money: weapons, armour, shield, gear."""
    r = rules(ctx)
    concept = _concept(char, ctx)
    eras = ctx.table("korszakok")
    era = ctx.choose("korszak", "korszakok", allowed=[eras.get(k) for k in concept["korszak"]])
    char["korszak"] = era["id"]
    money = starting_money(char, ctx)
    char["kezdo_penz"] = money
    ero = r.index[char["alaptulajdonsagok"]["ero"]]
    skills = char["kepzettsegek"]
    stock = [
        e
        for e in ctx.table("felszereles").entries
        if era["id"] in e["korszak"] and r.index.get(e.get("min_ero", r.ladder[0]), 99) <= ero
    ]
    bought: list[dict] = []
    for kind in r.s["bevasarlas"]:
        have = {e["id"] for e in bought}
        two_handed = any(e.get("ketkezes") and e["tipus"] == "kozelharci" for e in bought)
        torso = any("torzs" in e.get("hely", ()) for e in bought if e["tipus"] == "pancel")
        pool = []
        for e in stock:
            if e["tipus"] != kind or e["id"] in have or e["ar"] > money:
                continue
            if "kepzettseg" in e and e["kepzettseg"] not in skills:
                continue
            if kind == "pajzs" and (two_handed or FIGHTING not in skills):
                continue
            if kind == "pancel" and torso and "torzs" in e.get("hely", ()):
                continue
            pool.append(e)
        if not pool:
            continue
        weights = [
            e.get("weight", 1) * (1 + r.index[skills[e["kepzettseg"]]]) ** 2
            if "kepzettseg" in e
            else e.get("weight", 1)
            for e in pool
        ]
        entry = _weighted(ctx.rng, pool, weights)
        bought.append(entry)
        money -= entry["ar"]
        ctx.log(vasarlas=entry["id"], ar=entry["ar"], maradt=money)
    items = _items(ctx)
    char["felszereles"] = [items[e["id"]] for e in bought]
    char["penz"] = money


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
    """A Hungarian name, family name first, distinct within the batch."""
    char["name"], gender = unique_name(ctx)
    char["nem"] = GENDER[gender]


def unique_name(ctx: Context) -> tuple[str, str]:
    """A person's name not used before in this batch; a repeat gets a second given name."""
    locale = ctx.locale or ctx.system.locale
    family_first = locale.startswith("hu")
    seen = ctx.shared.get("nevek")
    if seen is None:
        seen = ctx.shared["nevek"] = set()
        ctx.shared["nevek_max"] = rules(ctx).s["egyedi_nevek_max"]
    name, gender = ctx.person_name(family_first=family_first)
    tries = 0
    while name in seen:
        tries += 1
        extra = ctx.person_name(gender=gender, family_first=True)[0].rsplit(" ", 1)[-1]
        base = name if tries < 4 else ctx.person_name(gender=gender, family_first=family_first)[0]
        if extra not in base.split():
            name = f"{base} {extra}"
        if tries > 50:
            break
    if len(seen) >= ctx.shared["nevek_max"]:
        seen.clear()
    seen.add(name)
    return name, gender


PC_STEPS = [
    Step(
        "koncepcio",
        koncepcio,
        fields=("koncepcio", "foszereplo"),
        lists=("koncepciok",),
        label="Koncepció",
        help="The character concept (--template): it weights the random choices.",
    ),
    Step(
        "hatranyok",
        hatranyok,
        fields=("hatranyok", "hatrany_pontok"),
        lists=("hatranyok",),
        label="Hátrányok",
        help="One súlyos and two enyhe Hátrányok at most (--hatrany), and what the points buy.",
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
        "felszereles",
        felszereles,
        fields=("korszak", "kezdo_penz", "felszereles", "penz"),
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
        self.edges = [{"id": e["id"], "nev": e["name"]} for e in edges]
        self.flaws = [{"id": e["id"], "nev": e["name"], "sulyossag": e["sulyossag"]} for e in flaws]
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
                rungs[i] = min(max(new, 0), plan.tops[i])
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


def npc(char: dict, ctx: Context) -> None:
    """A Mellékszereplő (or with --wild-card a Főszereplő NPC) from a template.

    A template's members are precomputed once per batch (see `_variants`); a member
    costs one template pick, one variant pick and its name.
    """
    wild, squad, tough = _batch(ctx)
    if squad:
        shared = ctx.shared.get("squad")
        if shared is None:  # the first member draws the group's card; the rest copy it
            template = ctx.choose("template", "mellekszereplok")
            plan = _plan(ctx, template)
            ctx.options["template"] = template["id"]
            member = _member(plan, _variants(plan, ctx, rules(ctx))[0], ctx, wild, tough)
            member["squad"] = f"{template['id']}-{ctx.batch_seed}"
            member["akciokartya"] = _card(ctx.rng, rules(ctx))
            shared = ctx.shared["squad"] = (plan, member)
        plan, member = shared
    else:
        if ctx.prompter is None and ctx.options.get("template") is None:
            template = ctx.table("mellekszereplok").pick(ctx.rng)
        else:
            template = ctx.choose("template", "mellekszereplok")
        key = ("_members", template["id"])
        found = ctx.cache.get(key)
        if found is None:
            plan = _plan(ctx, template)
            found = ctx.cache[key] = (plan, _variants(plan, ctx, rules(ctx)), {})
        plan, variants, members = found
        pick = int(ctx.rng.random() * len(variants))
        member = members.get(pick)
        if member is None:
            member = members[pick] = _member(plan, variants[pick], ctx, wild, tough)
    char["template"] = plan.id
    char.update(member)
    if plan.person:
        char["name"], gender = unique_name(ctx)
        char["nem"] = GENDER[gender]
    else:
        char["name"] = beast_name(plan, ctx)


def beast_name(plan: _Plan, ctx: Context) -> str:
    """An epithet and the template's name ("Sebhelyes farkas"); a repeat gets a number."""
    base = f"{ctx.table('jelzok').pick(ctx.rng)['name']} {plan.name.lower()}"
    counts = ctx.shared.setdefault("jelzok", {})
    seen = counts.get(base, 0)
    counts[base] = seen + 1
    return f"{base} {seen + 1}" if seen else base


# -- sheets -------------------------------------------------------------------------


def _gear_rows(char: dict) -> list[list]:
    ero = char["alaptulajdonsagok"]["ero"]
    rows = []
    for item in char.get("felszereles", ()):
        numbers = []
        if "sebzes" in item:
            dmg = item["sebzes"]
            if dmg.startswith("Erő"):
                dmg = f"{dmg} ({ero}{dmg[3:]})"
            numbers.append(f"Sebzés {dmg}")
        if "pancel_tores" in item:
            numbers.append(f"PT {item['pancel_tores']}")
        if "lotav" in item:
            numbers.append(f"Lőtáv {item['lotav']}")
        if "tgy" in item:
            numbers.append(f"TGY {item['tgy']}")
        if "pancel" in item:
            numbers.append(f"Páncél +{item['pancel']} ({', '.join(item.get('hely', ()))})")
        if "haritas" in item:
            numbers.append(f"Hárítás +{item['haritas']}")
        if "min_ero" in item:
            numbers.append(f"min. Erő {item['min_ero']}")
        rows.append([item["nev"], "; ".join(numbers), item["ar"]])
    return rows


def _trait_rows(char: dict) -> list[list]:
    return [[LABELS[a], char["alaptulajdonsagok"][a]] for a in ATTRS]


def _skill_text(char: dict, tables: Tables) -> str:
    skills = tables["kepzettsegek"]
    return ", ".join(f"{_name_of(skills, k)} {v}" for k, v in char["kepzettsegek"].items())


def _name_of(table: Table, key: str) -> str:
    """The display name of an id in the pack's table (the id itself when unknown)."""
    return table.get(key)["name"] if key in table else key


def _derived_rows(char: dict, tables: Tables) -> list[list]:
    rows = [
        ["Mozgás", char["mozgas"]],
        ["Futáskocka", char["futaskocka"]],
        ["Hárítás", char["haritas"]],
        ["Szívósság", f"{char['szivossag']} ({char['pancel']})"],
        ["Vadkocka", char["vadkocka"] or "nincs"],
        ["Sorspont", char["sorspont"]],
        ["Sebek", _wounds(char, tables)],
    ]
    if char.get("meret"):
        rows.insert(4, ["Méret", f"{char['meret']:+d}"])
    return rows


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
    who = "Főszereplő" if char["foszereplo"] else "Mellékszereplő"
    head = [["Név", char["name"]], ["Szerep", who]]
    if pc:
        era = _name_of(tables["korszakok"], char.get("korszak", ""))
        head += [["Koncepció", char.get("koncepcio", "")], ["Korszak", era]]
    else:
        head.append(["Sablon", _name_of(tables["mellekszereplok"], char["template"])])
    sections = [
        Section(who, rows=head),
        Section("Alaptulajdonságok", rows=_trait_rows(char)),
        Section("Képzettségek", text=_skill_text(char, tables)),
        Section("Származtatott értékek", rows=_derived_rows(char, tables)),
    ]
    if char.get("hatranyok"):
        text = ", ".join(_flaw_label(h) for h in char["hatranyok"])
        sections.append(Section("Hátrányok", text=text))
    if char.get("elonyok"):
        sections.append(Section("Előnyök", text=", ".join(e["nev"] for e in char["elonyok"])))
    if char.get("kulonleges"):
        sections.append(Section("Különleges képességek", text="\n".join(char["kulonleges"])))
    rows = _gear_rows(char)
    if rows or pc:
        sections.append(Section("Felszerelés", rows=rows, headers=["Tárgy", "Értékek", "Ár"]))
    if pc:
        unit = tables["beallitasok"].settings["penznem"]
        money = f"{char['penz']} {unit} (kezdőpénz {char['kezdo_penz']} {unit})"
        sections.append(Section("Pénz", text=money))
    return sections


GROUP_RULE = (
    "Csoportdobás: a csoport egy Jellemzőkockát és egy közös d6 Vadkockát dob, a jobbat "
    "használja; kritikus balsiker csak mindkettő természetes 1-én. Ettől nem lesznek "
    "Főszereplők. Közös Akciókártyán cselekszenek."
)


def batch_sheet(chars: list[dict], tables: Tables) -> list[Section] | None:
    """A squad: the stat block once, the names under it, the group roll rule beside it."""
    if not chars or chars[0].get("squad") is None:
        return None
    if any(c.get("squad") != chars[0]["squad"] for c in chars):
        return None
    first = chars[0]
    head = [
        ["Osztag", first["squad"]],
        ["Sablon", _name_of(tables["mellekszereplok"], first["template"])],
        ["Létszám", len(chars)],
        ["Akciókártya", first["akciokartya"]],
    ]
    sections = [Section("Mellékszereplők csoportja", rows=head)]
    sections += [s for s in sheet(first, tables)[1:]]
    sections.append(Section("Csoportdobás", text=GROUP_RULE))
    sections.append(Section("Tagok", rows=[[i, c["name"]] for i, c in enumerate(chars, 1)]))
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
    labels=LABELS,
    pc=PC_STEPS,
    npc=npc,
    pc_options=[
        Option("template", table="koncepciok", help="The character concept (koncepciok.toml)."),
        Option("hatrany", table="hatranyok", multiple=True, help="A Hátrány (repeatable)."),
        Option("elony", table="elonyok", multiple=True, help="An Előny (repeatable)."),
        Option("korszak", table="korszakok", help="The era the character shops in."),
    ],
    npc_options=[
        Option("template", table="mellekszereplok", help="The template (mellekszereplok.toml)."),
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
    labels_table="cimkek",
    batch_sheet=batch_sheet,
    check=check_pack,
    roster=[
        ("Név", "name"),
        ("Sablon", lambda c: c.get("sablon") or c.get("koncepcio") or c["template"]),
        *[(LABELS[a][:3], (lambda c, a=a: c["alaptulajdonsagok"][a])) for a in ATTRS],
        ("Közelharc", _skill(FIGHTING)),
        ("Lövészet", _skill("loveszet")),
        ("Hár", "haritas"),
        ("Szív", "szivossag"),
        ("Moz", "mozgas"),
        ("Sebek", _wounds_short),
    ],
)
