"""Savage's terms and small rules, shared by its steps, NPCs, sheet and pack checks.

The die ladder and half a die (Hárítás, Szívósság), the pack's numbers read once per
batch (`rules`), the prices of skill steps, what a Hátrány is worth, the effects of
Előnyök and Hátrányok summed, the derived values and the rows a character carries
for its Előnyök, Hátrányok and items. Every number comes from the pack
(tables/savage/beallitasok.toml); none is a default in code.
"""

from __future__ import annotations

from typing import Any

from chargen.conditions import entry_names
from chargen.errors import Problem, TableError
from chargen.procedure import Context
from chargen.tables import Table, Tables
from chargen.tomlfile import key_line

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
GRADES = ("sulyos", "enyhe")  # the two grades of a Hátrány (their words: the labels file)
PURCHASES = ("tulajdonsag", "elony", "kepzettseg", "penz")  # what Hátrány points buy
FIGHTING = "kozelharc"  # the skill Hárítás is half of
TOP = 14  # rungs of the die ladder in code: d4..d12, then d12+1 .. d12+10 for monsters
STRENGTH = "Erő"  # a melee weapon's damage "Erő+d6" starts with the bearer's Erő
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


# -- the die ladder -----------------------------------------------------------


def ladder(table: Table) -> tuple[str, ...]:
    """The die ladder of the pack: its rungs, then d12+1, d12+2 ... for monsters."""
    base = tuple(table.setting("kocka_letra"))
    return base + tuple(f"{base[-1]}+{n}" for n in range(1, TOP - len(base) + 2))


def half_die(die: str) -> int:
    """Half a trait die for Hárítás and Szívósság: d8 -> 4, d12+1 -> 6, d12+2 -> 7."""
    sides, _, plus = die[1:].partition("+")
    return int(sides) // 2 + (int(plus) // 2 if plus else 0)


def off_ladder(key: str, value: Any, rungs: tuple[str, ...]) -> str:
    shown = ", ".join(r for r in rungs if "+" not in r)
    beyond = [r for r in rungs if "+" in r]
    if beyond:
        shown += f", then {beyond[0]} to {beyond[-1]}"
    return f"'{key}': {value!r} is not a die of the ladder ({shown})"


class Rules:
    """The pack's numbers and lookups, worked out once per batch (see `rules`).

    The pack was checked before (chargen/systems/savage/checks.py, run by `chargen
    tables check` and before a user's pack is used), so this only reads it.
    """

    def __init__(self, tables: Tables) -> None:
        table = tables["beallitasok"]
        self.table = table
        self.s = s = table.settings
        self.ladder = ladder(table)
        self.index = {die: i for i, die in enumerate(self.ladder)}
        self.attr_start = self.die_index(table, "tulajdonsag_kezdo")
        self.attr_cap = self.die_index(table, "tulajdonsag_max")
        self.skill_start = self.die_index(table, "alap_kepzettseg_kezdo")
        self.skill_cap = self.die_index(table, "kepzettseg_max")
        self.run_die = self.die_index(table, "futaskocka")
        self.run_min = self.die_index(table, "futaskocka_min")
        skills = tables["kepzettsegek"]
        self.skills = {e["id"]: e for e in skills.entries}
        self.core = tuple(e["id"] for e in skills.entries if e.get("alap"))
        self.starting = tuple(s["kezdo_rangok"])

    def die_index(self, table: Table, key: str, value: Any = None, entry: int | None = None) -> int:
        """The rung of a die the pack gives; a die off the ladder names file and line."""
        text = table.settings.get(key) if value is None else value
        if text not in self.index:
            where = key_line(table.text, key, entry)
            raise TableError([Problem(str(table.path), where, off_ladder(key, text, self.ladder))])
        return self.index[text]

    def step_cost(self, skill: str, new_index: int, attrs: dict[str, str]) -> int:
        """The price of raising `skill` to rung `new_index` (a new skill's d4 is rung 0)."""
        linked = self.index[attrs[self.skills[skill]["tulajdonsag"]]]
        return self.s["lepes_ar_alatt"] if new_index <= linked else self.s["lepes_ar_felett"]

    def skill_cost(self, skill: str, die: str, attrs: dict[str, str]) -> int:
        """What a skill at `die` cost from nothing (core skills start at their free die)."""
        start = self.skill_start + 1 if skill in self.core else 0
        return sum(self.step_cost(skill, i, attrs) for i in range(start, self.index[die] + 1))

    def flaw_points(self, entries: list[dict]) -> int:
        """What Hátrányok are worth (súlyos 2, enyhe 1 in the built-in pack)."""
        s = self.s
        return sum(
            s["hatrany_pont_sulyos"] if e["sulyossag"] == "sulyos" else s["hatrany_pont_enyhe"]
            for e in entries
        )

    def compositions(self, points: int) -> list[tuple[int, int]]:
        """Every (súlyos, enyhe) count worth exactly `points` (SWADE: any mix up to the cap)."""
        s = self.s
        out = []
        for major in range(points // s["hatrany_pont_sulyos"] + 1):
            rest = points - major * s["hatrany_pont_sulyos"]
            if rest >= 0 and rest % s["hatrany_pont_enyhe"] == 0:
                out.append((major, rest // s["hatrany_pont_enyhe"]))
        return out


def rules(ctx: Context) -> Rules:
    """The pack's numbers, once per batch."""
    return ctx.memo("rules", Rules, ctx.tables)


def hatrany_totals(s: dict) -> set[int]:
    """The numbers of Hátrány points a Főszereplő may have (within the caps)."""
    cap = s["hatrany_max_pont"]
    return {
        points
        for major in range(cap // s["hatrany_pont_sulyos"] + 1)
        for minor in range(cap // s["hatrany_pont_enyhe"] + 1)
        if (points := major * s["hatrany_pont_sulyos"] + minor * s["hatrany_pont_enyhe"]) <= cap
    }


# -- draws and sums -------------------------------------------------------------


def weighted(rng: Any, items: list, weights: list[float]) -> Any:
    """One of `items` by `weights`, from one draw of the step's stream."""
    point = rng.random() * sum(weights)
    for item, weight in zip(items, weights, strict=True):
        point -= weight
        if point < 0:
            return item
    return items[-1]


def sum_effects(entries) -> dict[str, int]:
    total = dict.fromkeys(EFFECTS, 0)
    for entry in entries:
        for key, value in (entry.get("effects") or {}).items():
            total[key] += value
    return total


def clash(entry: dict, chosen: list[dict]) -> dict | None:
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


# -- what a character carries ----------------------------------------------------


def entry_rules(entry: dict) -> str:
    """The one-line rules text of an entry (`rules`, else its `description`)."""
    return entry.get("rules") or entry.get("description") or ""


def edge_row(entry: dict) -> dict:
    """An Előny as the character carries it: id, name, rank and its effect in one line."""
    return {
        "id": entry["id"],
        "nev": entry["name"],
        "rang": entry["rang"],
        "hatas": entry_rules(entry),
    }


def flaw_row(entry: dict) -> dict:
    """A Hátrány as the character carries it: id, name, grade and its effect in one line."""
    return {
        "id": entry["id"],
        "nev": entry["name"],
        "sulyossag": entry["sulyossag"],
        "hatas": entry_rules(entry),
    }


def item_row(entry: dict) -> dict:
    """An item as it stands on the sheet: its name, kind, price and numbers."""
    out = {"id": entry["id"], "nev": entry["name"], "tipus": entry["tipus"], "ar": entry["ar"]}
    for key in ITEM_KEYS:
        if key in entry:
            out[key] = entry[key]
    note = entry_rules(entry)
    if note:
        out["megjegyzes"] = note
    return out


def items(ctx: Context) -> dict[str, dict]:
    """Every item of the pack as a character carries it, once per batch (shared rows)."""
    return ctx.memo("felszereles_sorok", _item_rows, ctx.table("felszereles"))


def _item_rows(table: Table) -> dict[str, dict]:
    return {e["id"]: item_row(e) for e in table.entries}


def derived(
    r: Rules,
    fx: dict,
    attrs: dict,
    skills: dict,
    gear,
    pace: int,
    run: int,
    size: int,
    natural: int,
) -> dict:
    """Mozgás, futáskocka, Hárítás, Páncél, Méret and Szívósság of a stat block.

    Hárítás = 2 + half the Közelharc die + shield + effects; Szívósság = 2 + half the
    Állóképesség die + torso armour + natural armour + Méret + effects."""
    armour = max((i.get("pancel", 0) for i in gear if "torzs" in i.get("hely", ())), default=0)
    shield = max((i.get("haritas", 0) for i in gear if i["tipus"] == "pajzs"), default=0)
    meret = size + fx["meret"]
    fighting = half_die(skills[FIGHTING]) if FIGHTING in skills else 0
    return {
        "mozgas": pace + fx["mozgas"],
        "futaskocka": r.ladder[max(r.run_min, min(run + fx["futaskocka"], r.attr_cap))],
        "haritas": r.s["haritas_alap"] + fighting + shield + fx["haritas"],
        "pancel": armour + natural,
        "meret": meret,
        "szivossag": r.s["szivossag_alap"]
        + half_die(attrs["allokepesseg"])
        + armour
        + natural
        + meret
        + fx["szivossag"],
    }


def card(rng: Any, s: dict) -> str:
    """One card of the action deck: 13 values in 4 suits, and the Jokers."""
    values, suits, jokers = s["kartya_ertekek"], s["kartya_szinek"], s["jokerek"]
    pick = int(rng.random() * (len(values) * len(suits) + jokers))
    if pick >= len(values) * len(suits):
        return "Joker"
    return f"{suits[pick // len(values)]} {values[pick % len(values)]}"
