"""Spelsystemet (document 001): a generic T20 roll-under system for many worlds.

The document fixes the grundegenskaper HÄL, KRA, SKI, STO and STY (3T6 for
humans), artmaximum (the highest plus the lowest roll of the species' dice),
LP = (HÄL + STO) / 2 and Snabbhet = (SKI + STY) / 4, always rounded up,
Grundskada and the damage steps of weapons ("Grund+2"), the skill groups and the
weapon and armour tables with their notes. Its Grundskada and KP tables are lost
and its chapter "Rollpersonen" is empty: the readings chargen uses (SYSTEMS.md)
live in tables/spelsystemet/regler.toml and kroppsdelar.toml, and a character's
skills and kit come from an authored yrke that fits a genre.
"""

from __future__ import annotations

import dataclasses
import re
from bisect import bisect
from collections.abc import Callable

from chargen.dice import parse
from chargen.errors import ChargenError, Problem
from chargen.labels import builtin_labels
from chargen.procedure import Column, Context, Option, Part, Section, Step, System
from chargen.tables import NAME_SPEC, Pool, Spec, Tables, key_line

GRUNDEGENSKAPER = ("hal", "kra", "ski", "sto", "sty")
GRUPPER = ("vanliga", "kunskap", "strid", "yrke")
KLASS_FIELDS = (
    "tungomal",
    "gudar",
    "folk",
    "instrument",
    "djur",
    "fordon",
    "utrustning",
    "konster",
    "amnen",
    "teckensystem",
    "stridskonster",
)

SPECS = {
    "regler": Spec(
        "settings",
        fields={
            "skadestege": "list[dice]+!",
            "grundskada_grans": "list[int[0..1000]]+!",
            "minsta_skada": "dice[1..100]!",
            "stjarna_minst": "dice[1..100]!",
            "dubbelstjarna_hogst": "dice[1..100]!",
            "lp_delare": "int[1..100]!",
            "snabbhet_delare": "int[1..100]!",
            "tak": "dict[int[1..100]]{vanliga,kunskap,strid,yrke}!",
            "fel_hand": "int[0..100]!",
            "modersmal": "dice[0..100]!",
            "fritid_antal": "int[0..20]!",
            "fritid_varde": "dice[0..100]!",
            "trotthet_grund": "int[0..100]!",
            "tungt_pansar_hsp": "int[0..100]!",
            "tungt_pansar_delar": "int[0..100]!",
            "hjalm_hsp": "int[0..100]!",
            "gemensamt_sprak_varde": "dice[10..100]!",
            "stridskonst_steg": "int[0..10]!",
        },
    ),
    "kroppsdelar": Spec(
        "definitions",
        fields={
            "taljare": "int[1..100]!",
            "namnare": "int[1..100]!",
            "rustning": "str!",
            "vital": "bool",
        },
    ),
    "arter": Spec(
        "definitions",
        fields={
            "tarningar": "dict[dice]{hal,kra,ski,sto,sty}!",
            "genrer": "list[id:genrer]+!",
            "modersmal": "str",
            "namntabeller": "dict[table]",
        },
    ),
    "genrer": Spec(
        "definitions",
        fields={
            "modersmal": "list[str]+!",
            "gemensamt_sprak": "str",
            **{k: "list[str]+!" for k in KLASS_FIELDS},
            "narstridsvapen": "list[id:narstridsvapen]!",
            "avstandsvapen": "list[id:avstandsvapen]!",
            "rustningar": "list[id:rustningar]!",
            "hjalmar": "list[id:hjalmar]!",
        },
    ),
    "fardigheter": Spec(
        "definitions",
        fields={
            "grupp": "str!",
            "bas": "int[0..100]!",
            "klass": "str",
            "prefix": "str",
            "namn_per_genre": "dict[str]",
            "genrer": "list[id:genrer]",
            "gemen": "bool",
        },
    ),
    "narstridsvapen": Spec(
        "definitions",
        fields={
            "skada": "str!",
            "typ": "one:Hugg|Kross|Stick!",
            "langd": "int[0..100]!",
            "grepp": "str",
            "fardighet": "id:fardigheter!",
            "som": "id:narstridsvapen",
            "fel_hand": "bool",
            "min_sto": "int[0..100]",
            "min_sty": "int[0..100]",
            "anmarkning": "str",
        },
    ),
    "avstandsvapen": Spec(
        "definitions",
        fields={
            "skada": "str!",
            "typ": "one:Hugg|Kross|Stick!",
            "eldhastighet": "str!",
            "skottvidd": "re:^(\\d{1,5}|STY)$!",
            "fardighet": "id:fardigheter!",
            "min_sto": "int[0..100]",
            "min_sty": "int[0..100]",
            "anmarkning": "str",
        },
    ),
    "rustningar": Spec(
        "definitions",
        fields={
            "sp": "dict[int[0..100]]{h,k,s}!",
            "sp_laser": "int[0..100]",
            "under": "bool",
            "med_hjalm": "bool",
            "anmarkning": "str",
        },
    ),
    "hjalmar": Spec("definitions", fields={"sp": "dict[int[0..100]]{h,k,s}!", "anmarkning": "str"}),
    "rustningspaket": Spec(
        "definitions",
        fields={
            "genrer": "list[id:genrer]+!",
            "delar": "dict[id:rustningar]!",
            "under": "dict[id:rustningar]",
            "hjalm": "id:hjalmar",
        },
    ),
    "yrken": Spec(
        "definitions",
        fields={
            "genrer": "list[id:genrer]+!",
            "fardigheter": "dict[dice]!",
            "vapenfardighet": "dice!",
            "narstridsvapen": "list[id:narstridsvapen]!",
            "avstandsvapen": "list[id:avstandsvapen]!",
            "skold": "bool",
            "rustningspaket": "list[id:rustningspaket]+!",
            "specifikationer": "dict[list[str]]",
            "narstridsvapen_per_genre": "dict[list[id:narstridsvapen]]",
            "avstandsvapen_per_genre": "dict[list[id:avstandsvapen]]",
            "namn_per_genre": "dict[str]",
        },
    ),
    "mallar": Spec(
        "definitions", fields={"yrken": "list[id:yrken]!", "namn_per_genre": "dict[str]"}
    ),
    "namn_*": NAME_SPEC,
}

# Display words live in tables/spelsystemet/etiketter.toml (chargen.labels).
LABELS = builtin_labels("spelsystemet")

# "Grund", "Grund+1", "Grund-3*", "G-2*", "G": the character's Grundskada moved N steps.
_GRUND = re.compile(r"^(?:Grund|G)\s*(?:([+-])\s*(\d+))?(\*{0,2})$")
# "4/2/1T6": several dice counts of one die (short, normal, long range).
_MULTI = re.compile(r"^(\d+(?:/\d+)+)T(\d+)$")
_SLUG_MAP = str.maketrans(
    {"å": "a", "ä": "a", "á": "a", "ö": "o", "ø": "o", "ó": "o", "æ": "ae", "é": "e", "ü": "u"}
)


def slug(text: str) -> str:
    """The contract's ASCII slug of a Swedish word ("Språk Alviska" -> "sprak_alviska")."""
    out = re.sub(r"[^a-z0-9]+", "_", text.lower().translate(_SLUG_MAP))
    return out.strip("_")


def round_up(numerator: int, denominator: int) -> int:
    """The document's rounding: fractions always up to the nearest whole number."""
    return -(-numerator // denominator)


# -- formulas (pure functions, also used by the tests) ---------------------------------


def artmaximum(dice: str) -> int:
    """Highest plus lowest possible roll of the species' dice (3T6: 18 + 3 = 21)."""
    parsed = parse(dice)
    return parsed.maximum + parsed.minimum


def grundskada(sto_sty: int, rules: dict) -> str:
    """The Grundskada for STO + STY, by the table in regler.toml."""
    ladder = rules["skadestege"]
    for step, bound in enumerate(rules["grundskada_grans"], start=1):
        if sto_sty <= bound:
            if step >= len(ladder):
                break
            return ladder[step]
    raise ChargenError(
        f"regler.toml: STO + STY = {sto_sty} is beyond the Grundskada table "
        f"(grundskada_grans ends at {rules['grundskada_grans'][-1]}, "
        f"skadestege has {len(ladder)} steps)"
    )


def actual_damage(code: str, grund: str, rules: dict) -> str:
    """A weapon's damage for a character with Grundskada `grund`.

    "Grund+N" / "G-N" move N steps on the damage ladder; nothing goes below its
    lowest step (1T2, the "Minimum" row); a code marked "*" does at least
    `stjarna_minst`, one marked "**" at most `dubbelstjarna_hogst`. Other codes
    are the damage they are ("1T8"; "4/2/1T6" is 4T6, 2T6 and 1T6 by range).
    """
    match = _GRUND.match(code.strip())
    if match is None:
        multi = _MULTI.match(code.strip())
        if multi:
            return "/".join(f"{n}T{multi.group(2)}" for n in multi.group(1).split("/"))
        return code
    ladder = rules["skadestege"]
    sign, amount, stars = match.groups()
    step = ladder.index(grund) + (int(amount) * (-1 if sign == "-" else 1) if amount else 0)
    step = max(step, ladder.index(rules["minsta_skada"]))
    if stars == "*":
        step = max(step, ladder.index(rules["stjarna_minst"]))
    elif stars == "**":
        step = min(step, ladder.index(rules["dubbelstjarna_hogst"]))
    if step >= len(ladder):
        raise ChargenError(
            f"regler.toml: '{code}' from Grundskada {grund} goes beyond the damage ladder "
            f"(skadestege ends at {ladder[-1]})"
        )
    return ladder[step]


def kp(lp: int, part: dict) -> int:
    """A body part's KP: its fraction of LP, rounded up."""
    return round_up(lp * part["taljare"], part["namnare"])


# -- per-batch plans ---------------------------------------------------------------------
#
# A batch of 100,000 NPCs reads the same tables 100,000 times. `_Plans` (one per batch, in
# ctx.cache) works each fact out of the tables once, the first time a character needs it:
# pools with their running weight sums (tables.Pool), parsed dice, skill keys, labels and caps per genre,
# the weapons of a yrke in a genre, a weapon's row per Grundskada, the armour of a kit.
# Every number still comes from the tables, a table fault is still raised when a character
# first meets it, and every draw takes ctx.rng's numbers in the order `Table.pick`,
# `Table.draw` and `Dice.roll` take them, so a seed gives the same character as before.
# Player characters roll through ctx.roll and log every choice, so their historik is
# complete; NPCs keep no historik and draw with ctx.rng.random directly.


class _Stream:
    """rng.random wrapped as the `rng` that Dice.roll and Table.draw take."""

    __slots__ = ("random",)

    def __init__(self, rand: Callable[[], float]) -> None:
        self.random = rand


def _roller(expression: str) -> Callable[[Callable[[], float]], int]:
    """A function of rng.random giving the total `parse(expression).roll(rng)` gives.

    Plain dice ("3T6", "1T6+2") draw one number per die, in order, as Dice.roll does;
    anything else (several terms, aces, keep) goes through Dice.roll itself.
    """
    dice = parse(expression)
    if len(dice.terms) == 1:
        term = dice.terms[0]
        if term.sign == 1 and not (term.aces or term.keep or term.d66):
            count, sides, base = term.count, term.sides, dice.modifier + term.count
            if count == 1:
                return lambda rand: base + int(rand() * sides)
            if count == 2:
                return lambda rand: base + int(rand() * sides) + int(rand() * sides)
            if count == 3:
                return lambda rand: (
                    base + int(rand() * sides) + int(rand() * sides) + int(rand() * sides)
                )
            return lambda rand: base + sum([int(rand() * sides) for _ in range(count)])
    return lambda rand: dice.roll(_Stream(rand)).total


def _dice(expression: str) -> tuple[str, int, int, Callable]:
    """(expression, sides, base, roller): one plain die ("1T6+8") is also rolled inline as
    base + int(rand() * sides); `sides` is 0 for anything else."""
    dice = parse(expression)
    term = dice.terms[0] if len(dice.terms) == 1 else None
    if term and term.count == 1 and term.sign == 1 and not (term.aces or term.keep or term.d66):
        return expression, term.sides, dice.modifier + 1, _roller(expression)
    return expression, 0, 0, _roller(expression)


def _skill_label(skill: dict, genre_id: str, spec: str | None) -> str:
    base = skill.get("namn_per_genre", {}).get(genre_id)
    if spec is None:
        return base or skill["name"]
    prefix = base or skill.get("prefix", "")
    if prefix and skill.get("gemen"):  # a common noun after a verb: "Spela luta", "Rida häst"
        spec = spec[:1].lower() + spec[1:]
    return f"{prefix} {spec}".strip()


class _Skill:
    """A skill as one genre has it: its key, label, group, bas and cap, worked out once."""

    __slots__ = (
        "skill",
        "genre",
        "id",
        "grupp",
        "bas",
        "open",
        "klass",
        "cap",
        "narkamp",
        "label",
        "simple",
        "whole",
        "plain",
        "_options",
        "_specified",
    )

    def __init__(self, skill: dict, genre: dict, tak: dict) -> None:
        self.skill, self.genre = skill, genre
        self.id, self.grupp, self.bas = skill["id"], skill["grupp"], skill["bas"]
        self.open = "genrer" not in skill or genre["id"] in skill["genrer"]
        self.klass = skill.get("klass") or None
        self.cap = tak.get(skill["grupp"])  # None: a table fault, raised when the cap is needed
        # "kan aldrig överstiga personens värde i, Närkamp"
        self.narkamp = skill["id"] == "stridskonst" or skill.get("klass") == "stridskonster"
        self.label = _skill_label(skill, genre["id"], None)
        # simple: a skill that exists here with a cap of its own, raised by _Sheet.add's
        # short path; plain: its (key, label, bas, cap, grupp) when it needs no specification
        self.simple = self.open and self.cap is not None and not self.narkamp
        self.whole = (self.id, self.label, self.bas, self.cap, self.grupp)
        self.plain = self.whole if self.simple and self.klass is None else None
        self._options: tuple[list[tuple], tuple[str, ...]] | None = None
        self._specified: dict[str, tuple] = {}

    def cap_for(self, values: dict[str, int]) -> int:
        cap = self.cap
        if cap is None:
            raise ChargenError(f"regler.toml: tak has no cap for the skill group '{self.grupp}'")
        if self.narkamp:
            return min(cap, values.get("narkamp", 0))
        return cap

    def specified(self, spec: str) -> tuple:
        """(key, label, bas, cap, grupp) of the skill specified as `spec`
        ("sprak_alviska", "Språk Alviska", ...)."""
        found = self._specified.get(spec)
        if found is None:
            found = self._specified[spec] = (
                f"{self.id}_{slug(spec)}",
                _skill_label(self.skill, self.genre["id"], spec),
                self.bas,
                self.cap,
                self.grupp,
            )
        return found

    def pick(self, values: dict[str, int], rand, spec: str | None = None) -> tuple:
        """(key, label, bas, cap, grupp) of what is raised: the specification given, the
        skill itself, or for a <klass> skill one from the genre's list not already held."""
        if spec is not None:
            return self.specified(spec)
        if self.klass is None:
            return self.whole
        options, keys = self.options()
        free = options
        if any(map(values.__contains__, keys)):
            free = [o for o in options if o[0] not in values] or options
        return free[int(rand() * len(free))]

    def options(self) -> tuple[list[tuple], tuple[str, ...]]:
        """Each specification the genre's <klass> list offers (as `specified` gives it),
        and their keys."""
        if self._options is None:
            specs = self.genre.get(self.klass)
            if specs is None:
                raise ChargenError(
                    f"genrer.toml: '{self.genre['id']}' has no list '{self.klass}' "
                    f"for the skill '{self.id}'"
                )
            options = [self.specified(s) for s in specs]
            self._options = (options, tuple(o[0] for o in options))
        return self._options


class _GenreSkills(dict):
    """Skill id -> _Skill in one genre (made when first asked for), what everyone has
    there, and the leisure skills to draw from."""

    def __init__(self, tables: Tables, genre: dict, tak: dict) -> None:
        super().__init__()
        self.table, self.genre, self.tak = tables["fardigheter"], genre, tak
        self._base: tuple[dict, dict, tuple, tuple] | None = None
        self._leisure: tuple[list[dict], list[_Skill], bool] | None = None

    def __missing__(self, skill_id: str) -> _Skill:
        info = self[skill_id] = _Skill(self.table.get(skill_id, "färdighet"), self.genre, self.tak)
        return info

    def base(self) -> tuple[dict, dict, tuple, tuple]:
        """Values, labels, group names and group lists of the skills everyone has here:
        those with a bas above 0."""
        if self._base is None:
            values: dict[str, int] = {}
            labels: dict[str, str] = {}
            groups: dict[str, list[str]] = {g: [] for g in GRUPPER}
            for skill in self.table.entries:
                if skill["bas"] > 0 and not skill.get("klass"):
                    info = self[skill["id"]]
                    if info.open:
                        value = min(info.bas, info.cap_for(values))
                        _set_value(values, labels, groups, info.id, info.label, info.grupp, value)
            self._base = (values, labels, tuple(groups), tuple(groups.values()))
        return self._base

    def draw_leisure(self, rand: Callable[[], float], count: int) -> list[_Skill]:
        """`count` different vanliga or kunskap skills of the genre, as Table.draw draws them."""
        if self._leisure is None:
            entries = [
                s
                for s in self.table.entries
                if s["grupp"] in ("vanliga", "kunskap") and self[s["id"]].open
            ]
            uniform = all(float(s.get("weight", 1)) == 1.0 for s in entries)
            self._leisure = (entries, [self[s["id"]] for s in entries], uniform)
        entries, infos, uniform = self._leisure
        if uniform and count <= len(infos):
            # weights of 1: bisecting [1, 2, ..., n] at random() * n is int(random() * n)
            pool = infos.copy()
            return [pool.pop(int(rand() * len(pool))) for _ in range(count)]
        return [self[s["id"]] for s in self.table.draw(_Stream(rand), count, among=entries)]


class _Sheet:
    """A character's skills as they are built (values, labels, groups), within caps."""

    __slots__ = ("values", "labels", "groups", "rand", "log")

    def __init__(self, values: dict, labels: dict, groups: dict, rand, log) -> None:
        self.values, self.labels, self.groups = values, labels, groups
        self.rand, self.log = rand, log  # log: ctx.log for a player character, else None

    def add(self, skill: _Skill, amount: int, spec: str | None = None, why: str = "") -> str:
        """Raise a skill by `amount` from its bas (or its current value), within its cap.

        A <klass> skill without `spec` takes one from the genre's list, not one already held.
        """
        values = self.values
        if not skill.open:
            raise ChargenError(
                f"the skill '{skill.id}' does not exist in the genre '{skill.genre['id']}' "
                f"(it exists in {', '.join(skill.skill['genrer'])})"
            )
        plain = skill.plain if spec is None else None
        key, label, bas, cap, grupp = plain or skill.pick(values, self.rand, spec)
        start = values.get(key, bas)
        if not skill.simple:
            cap = skill.cap_for(values)  # a missing cap is a fault; Stridskonst's is Närkamp
        value = start + amount  # min(start + amount, cap), never below min(start, cap)
        if value > cap:
            value = cap
        floor = start if start < cap else cap
        if value < floor:
            value = floor
        values[key] = value
        if key not in self.labels:
            self.labels[key] = label
            self.groups.setdefault(grupp, []).append(key)
        if self.log is not None:
            if why:
                self.log(fardighet=key, fran=start, till=value, **{"for": why})
            else:
                self.log(fardighet=key, fran=start, till=value)
        return key


def _set_value(
    values: dict, labels: dict, groups: dict, key: str, label: str, group: str, value: int
) -> None:
    """A skill set outright (a weapon's skill not yet held, a wrong-hand skill)."""
    values[key] = value
    labels[key] = label
    if key not in groups.setdefault(group, []):
        groups[group].append(key)


def _raise(
    values: dict, labels: dict, groups: dict, skill: _Skill, amount: int, rand, spec=None
) -> str:
    """_Sheet.add for an NPC, which keeps no historik: its common case written out."""
    plain = skill.plain if spec is None else None
    if plain is None:
        if not skill.simple:
            return _Sheet(values, labels, groups, rand, None).add(skill, amount, spec)
        plain = skill.pick(values, rand, spec)
    key, label, bas, cap, grupp = plain
    start = values.get(key, bas)
    value = start + amount  # min(start + amount, cap), never below min(start, cap)
    if value > cap:
        value = cap
    floor = start if start < cap else cap
    values[key] = value if value > floor else floor
    if key not in labels:
        labels[key] = label
        try:
            groups[grupp].append(key)
        except KeyError:  # a group of a user's pack that is not in GRUPPER
            groups[grupp] = [key]
    return key


class _Weapon:
    """A weapon as a sheet row: everything but the character's own numbers, per Grundskada."""

    __slots__ = (
        "tables",
        "rules",
        "table",
        "weapon",
        "id",
        "key",
        "melee_one_hand",
        "attr",
        "off_hand",
        "off_key",
        "off_label",
        "rows",
    )

    def __init__(self, tables: Tables, rules: dict, table: str, weapon: dict) -> None:
        self.tables, self.rules, self.table, self.weapon = tables, rules, table, weapon
        self.id, self.key = weapon["id"], weapon["fardighet"]
        self.melee_one_hand = table == "narstridsvapen" and weapon.get("grepp") == "Enhands"
        self.attr: str | None = None  # Sv "STY": the range in metres is the character's STY
        if table != "narstridsvapen" and weapon["skottvidd"].lower() in GRUNDEGENSKAPER:
            self.attr = weapon["skottvidd"].lower()
        # "Att använda ett (enhands-)vapen i 'fel' hand är alltid en separat färdighet,
        # med ett utgångsvärde på 1."
        self.off_hand = (
            weapon.get("grepp") == "Enhands"
            and self.key not in ("narkamp", "skold")
            and weapon.get("fel_hand", True)
        )
        self.off_key = f"{self.key}_fel_hand"
        self.off_label: str | None = None  # read from fardigheter.toml when first needed
        self.rows: dict[str, dict] = {}

    def off_hand_label(self) -> str:
        if self.off_label is None:
            name = self.tables["fardigheter"].get(self.key)["name"]
            self.off_label = f"{name} (fel hand)"
        return self.off_label

    def row(self, grund: str) -> dict:
        """The row for Grundskada `grund`, with `varde` (and Sv "STY" in metres) to fill in."""
        row = self.rows.get(grund)
        if row is None:
            weapon = self.weapon
            basis = weapon
            if "som" in weapon:  # the Lans: "räknas som ett långspjut ... i normal närstrid"
                basis = self.tables[self.table].get(weapon["som"])
            row = {
                "id": weapon["id"],
                "namn": weapon["name"],
                "skada": weapon["skada"],
                "typ": weapon["typ"],
                "faktisk_skada": actual_damage(basis["skada"], grund, self.rules),
            }
            if self.table == "narstridsvapen":
                row["langd"] = weapon["langd"]
                if "grepp" in weapon:
                    row["grepp"] = weapon["grepp"]
            else:
                row["eldhastighet"] = weapon["eldhastighet"]
                row["skottvidd"] = weapon["skottvidd"]
                row["skottvidd_meter"] = 0 if self.attr else int(weapon["skottvidd"])
            row["fardighet"] = self.key
            row["varde"] = 0
            if "anmarkning" in weapon:
                row["anmarkning"] = weapon["anmarkning"]
            self.rows[grund] = row
        return row


class _Arms:
    """The weapons a yrke may carry in a genre, its shield, Obeväpnad and weapon skill dice."""

    def __init__(self, plans: _Plans, job: dict, genre: dict) -> None:
        self.lists = []
        for table in ("narstridsvapen", "avstandsvapen"):
            tab = plans.tables[table]
            listed = job.get(f"{table}_per_genre", {}).get(genre["id"], job[table])
            here = [tab.get(w) for w in listed if w in genre[table]]
            self.lists.append(
                [(plans.weapon(table, w), w.get("min_sto", 0), w.get("min_sty", 0)) for w in here]
            )
        melee = plans.tables["narstridsvapen"]
        self.shield = None
        if job.get("skold") and "skold" in melee and "skold" in genre["narstridsvapen"]:
            self.shield = plans.weapon("narstridsvapen", melee.get("skold"))
        self.unarmed = None
        if "obevapnad" in melee:
            self.unarmed = plans.weapon("narstridsvapen", melee.get("obevapnad"))
        # Obeväpnad joins every character, unless it is one of the weapons drawn
        drawable = {w.id for needs in self.lists for w, _s, _t in needs}
        self.check_unarmed = "obevapnad" in drawable or (
            self.shield is not None and self.shield.id == "obevapnad"
        )
        self.dice = _dice(job["vapenfardighet"])
        # what a character may use depends only on how many of the STO and STY demands it meets
        self.sto_levels = sorted({s for needs in self.lists for _w, s, _t in needs})
        self.sty_levels = sorted({t for needs in self.lists for _w, _s, t in needs})
        self.by_level: dict[tuple[int, int], list] = {}

    def usable(self, sto: int, sty: int) -> list[tuple[Pool, dict, list]]:
        """Per weapon table: (a Pool of the weapons usable with STO and STY, their
        _Weapon by id, the weapons refused)."""
        level = (bisect(self.sto_levels, sto), bisect(self.sty_levels, sty))
        found = self.by_level.get(level)
        if found is None:
            found = self.by_level[level] = []
            for needs in self.lists:
                usable = [w for w, s, t in needs if sto >= s and sty >= t]
                refused = [w.weapon for w, s, t in needs if not (sto >= s and sty >= t)]
                by_id = {w.id: w for w in usable}
                found.append((Pool(w.weapon for w in usable), by_id, refused))
        return found


class _Job:
    """A yrke in a genre: its skills' dice, the genre's skills, its weapons and kits.

    The weapons and kits are worked out when first needed (`chargen spelsystemet yrke`
    reads no weapon table).
    """

    def __init__(self, plans: _Plans, job: dict, genre_id: str) -> None:
        self.plans, self.entry, self.id, self.genre_id = plans, job, job["id"], genre_id
        self.skills = plans.skills(genre_id)
        # Stridskonst last, since it is capped by Närkamp.
        ordered = sorted(job["fardigheter"].items(), key=lambda kv: kv[0] == "stridskonst")
        self.given = [(s, *_dice(d)) for s, d in ordered]
        self.specs = _implied_specs(job, plans.tables, genre_id)
        self._arms: _Arms | None = None
        self._kits: Pool | None = None

    def arms(self) -> _Arms:
        if self._arms is None:
            genre = self.plans.tables["genrer"].get(self.genre_id)
            self._arms = _Arms(self.plans, self.entry, genre)
        return self._arms

    def kits(self) -> Pool:
        """The yrke's rustningspaket that exist in the genre."""
        if self._kits is None:
            kits = self.plans.tables["rustningspaket"]
            pool = [
                kits.get(k)
                for k in self.entry["rustningspaket"]
                if self.genre_id in kits.get(k)["genrer"]
            ]
            self._kits = Pool(pool)
        return self._kits


def _implied_specs(job: dict, tables: Tables, genre_id: str) -> dict[str, tuple[str, ...]]:
    """Skill id -> the specifications a yrke implies for its <klass> skills in a genre:
    those of its `specifikationer` the genre lists (all of them if the genre lists none;
    none if the genre's list has none of them, so one of the genre's own is drawn)."""
    genre = tables["genrer"].get(genre_id)
    skills = tables["fardigheter"]
    out = {}
    for skill_id, wanted in job.get("specifikationer", {}).items():
        klass = skills.get(skill_id, "färdighet").get("klass")
        offered = genre.get(klass, ()) if klass else ()
        here = tuple(w for w in wanted if w in offered)
        # none of them here (a fantasy prisjägare's Svävare): one of the genre's own instead
        if wanted and (here or not offered):
            out[skill_id] = here or tuple(wanted)
    return out


def _one_of(options: tuple[str, ...] | None, rand) -> str | None:
    if not options:
        return None
    return options[0] if len(options) == 1 else options[int(rand() * len(options))]


def genre_name(entry: dict, genre_id: str) -> str:
    """A yrke's or template's name in a genre (`namn_per_genre`), else its name."""
    return entry.get("namn_per_genre", {}).get(genre_id) or entry["name"]


class _Plans:
    """What the tables say, worked out once per batch (see above)."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self._rules: dict | None = None
        self._templates: Pool | None = None
        self.genre_pools: dict[tuple, tuple[Pool, str]] = {}
        self.species_pools: dict[str, tuple[Pool, dict | None]] = {}
        self.species_dice: dict[str, tuple[list, dict, str | None, tuple]] = {}
        self.npc_drawn: bool | None = None  # no option or prompt picks an NPC's template
        self.grundskador: dict[int, str] = {}
        self.kps: dict[int, dict[str, int]] = {}
        self.dice: dict[str, tuple[str, int, int, Callable]] = {}
        self.job_pools: dict[str, Pool] = {}
        self.template_jobs: dict[tuple[str, str], dict] = {}
        self.genre_templates: dict[str, Pool] = {}
        self.genre_skills: dict[str, _GenreSkills] = {}
        self.jobs: dict[tuple[str, str], _Job] = {}
        self.weapons: dict[tuple[str, str], _Weapon] = {}
        self.outfits: dict[str, tuple[list, tuple, tuple, dict]] = {}

    @property
    def rules(self) -> dict:
        if self._rules is None:
            self._rules = self.tables["regler"].settings
        return self._rules

    def templates(self) -> Pool:
        if self._templates is None:
            self._templates = Pool(self.tables["mallar"].entries)
        return self._templates

    def genres(self, ctx: Context, template_id: str | None) -> tuple[Pool, str]:
        """The genres open to the choices made, and why others are not."""
        # options change within a batch only when the prompt answers for the batch
        key: tuple = (template_id,)
        if ctx.prompter is not None:
            key = (template_id, ctx.option("art"), ctx.option("yrke"))
        found = self.genre_pools.get(key)
        if found is None:
            pool, why = _genre_pool(ctx, template_id)
            found = self.genre_pools[key] = (Pool(pool), why)
        return found

    def species_pool(self, genre_id: str) -> tuple[Pool, dict | None]:
        """The species of a genre, and människa if it lives there."""
        found = self.species_pools.get(genre_id)
        if found is None:
            tab = self.tables["arter"]
            pool = [e for e in tab.entries if genre_id in e["genrer"]]
            default = tab.get("manniska") if "manniska" in tab else None
            found = (Pool(pool), default if default in pool else None)
            self.species_pools[genre_id] = found
        return found

    def species(self, art_id: str) -> tuple[list, dict, str | None, tuple]:
        """[(grundegenskap, dice, roller)], the artmaximum, the mother tongue and the
        rollers alone (in GRUNDEGENSKAPER's order) of a species."""
        found = self.species_dice.get(art_id)
        if found is None:
            species = self.tables["arter"].get(art_id)
            dice = species["tarningar"]
            missing = [g for g in GRUNDEGENSKAPER if g not in dice]
            if missing:
                raise ChargenError(f"arter.toml: '{art_id}' has no dice for {', '.join(missing)}")
            rollers = [(g, dice[g], _roller(dice[g])) for g in GRUNDEGENSKAPER]
            maximum = {g: artmaximum(dice[g]) for g in GRUNDEGENSKAPER}
            fast = tuple(roll for _g, _d, roll in rollers)
            found = (rollers, maximum, species.get("modersmal"), fast)
            self.species_dice[art_id] = found
        return found

    def grundskada(self, sto_sty: int) -> str:
        found = self.grundskador.get(sto_sty)
        if found is None:
            found = self.grundskador[sto_sty] = grundskada(sto_sty, self.rules)
        return found

    def kp(self, lp: int) -> dict[str, int]:
        found = self.kps.get(lp)
        if found is None:
            parts = self.tables["kroppsdelar"].entries
            found = self.kps[lp] = {p["id"]: kp(lp, p) for p in parts}
        return found

    def rolls(self, rule: str) -> tuple[str, int, int, Callable]:
        """The dice of a rule in regler.toml (modersmal, fritid_varde), parsed once."""
        found = self.dice.get(rule)
        if found is None:
            found = self.dice[rule] = _dice(self.rules[rule])
        return found

    def job_pool(self, genre_id: str) -> Pool:
        """The yrken of a genre."""
        found = self.job_pools.get(genre_id)
        if found is None:
            yrken = self.tables["yrken"].entries
            found = self.job_pools[genre_id] = Pool(e for e in yrken if genre_id in e["genrer"])
        return found

    def templates_in(self, genre_id: str) -> Pool:
        """The templates that have a yrke in the genre."""
        found = self.genre_templates.get(genre_id)
        if found is None:
            here = {e["id"] for e in self.job_pool(genre_id).entries}
            found = self.genre_templates[genre_id] = Pool(
                t for t in self.tables["mallar"].entries if any(y in here for y in t["yrken"])
            )
        return found

    def template_job(self, template_id: str, genre_id: str) -> dict:
        """An NPC's yrke: the first of its template's yrken that exists in the genre."""
        found = self.template_jobs.get((template_id, genre_id))
        if found is None:
            template = self.tables["mallar"].get(template_id)
            here = {e["id"] for e in self.job_pool(genre_id).entries}
            fits = [y for y in template["yrken"] if y in here]
            if not fits:
                raise ChargenError(
                    f"the template '{template['id']}' has no yrke in the genre '{genre_id}'"
                )
            found = self.template_jobs[(template_id, genre_id)] = self.tables["yrken"].get(fits[0])
        return found

    def skills(self, genre_id: str) -> _GenreSkills:
        found = self.genre_skills.get(genre_id)
        if found is None:
            genre = self.tables["genrer"].get(genre_id)
            found = self.genre_skills[genre_id] = _GenreSkills(
                self.tables, genre, self.rules["tak"]
            )
        return found

    def job(self, job_id: str, genre_id: str) -> _Job:
        found = self.jobs.get((job_id, genre_id))
        if found is None:
            job = self.tables["yrken"].get(job_id)
            found = self.jobs[(job_id, genre_id)] = _Job(self, job, genre_id)
        return found

    def weapon(self, table: str, weapon: dict) -> _Weapon:
        found = self.weapons.get((table, weapon["id"]))
        if found is None:
            found = _Weapon(self.tables, self.rules, table, weapon)
            self.weapons[(table, weapon["id"])] = found
        return found

    def outfit(self, kit: dict) -> tuple[list, tuple, tuple, dict]:
        """A kit's armour rows, body parts, SP per part and fatigue rolls."""
        found = self.outfits.get(kit["id"])
        if found is None:
            rows, skydd, trotthet = _outfit(kit, self.tables, self.rules)
            found = (rows, tuple(skydd), tuple(skydd.values()), trotthet)
            self.outfits[kit["id"]] = found
        return found


def _plans(ctx: Context) -> _Plans:
    plans = ctx.cache.get(_Plans)
    if plans is None:
        plans = ctx.cache[_Plans] = _Plans(ctx.tables)
    return plans


def _draw(rng, pool: Pool, option: str, table: str) -> dict:
    """A weighted pick, as ctx.choose draws one when no option or prompt decides it."""
    if not pool:
        raise ChargenError(f"no {option} is open here ({table} has none that fit)")
    return pool.pick(rng)


def _choose(
    ctx: Context,
    option: str,
    table: str,
    pool: Pool,
    why: str | Callable[[dict], str] = "",
    whole: bool = False,
) -> dict:
    """ctx.choose among `pool`; the common case (no option given, no prompt) is drawn here
    from the pool's precomputed weights, as Table.pick would draw it."""
    if ctx.prompter is not None or ctx.options.get(option) not in (None, ()):
        return ctx.choose(option, table, allowed=None if whole else list(pool.entries), why=why)
    entry = _draw(ctx.rng, pool, option, table)
    if ctx.kind == "pc":
        ctx.log(choice=option, id=entry["id"], name=entry.get("name", entry["id"]), by="random")
    return entry


# -- steps -------------------------------------------------------------------------------
#
# Each step is a thin function over the work below, which the NPC generator (`npc`) calls
# in the same order with what it already holds.


def _namn(char: dict, ctx: Context) -> None:
    """A name of the character's world: from the species' authored name table for the
    genre (fantasy), else from Faker's locale (modern tid, framtid, or any --locale)."""
    species = ctx.table("arter").get(char["art"])
    table = species.get("namntabeller", {}).get(char["genre"])
    if table is not None and not ctx.locale:
        char["name"], char["kon"] = ctx.authored_name(table)
    else:
        char["name"], char["kon"] = ctx.person_name()


def _genre_pool(ctx: Context, template_id: str | None) -> tuple[list[dict], str]:
    """The genres open to the choices already made, and why others are not."""
    genres = list(ctx.table("genrer").entries)
    reasons = []
    art = ctx.option("art")
    if art and art in ctx.table("arter"):
        open_ = ctx.table("arter").get(art)["genrer"]
        genres = [g for g in genres if g["id"] in open_]
        reasons.append(f"the art '{art}' lives in {', '.join(open_)}")
    yrke = ctx.option("yrke")
    if ctx.kind == "pc" and yrke and yrke in ctx.table("yrken"):
        open_ = ctx.table("yrken").get(yrke)["genrer"]
        genres = [g for g in genres if g["id"] in open_]
        reasons.append(f"the yrke '{yrke}' exists in {', '.join(open_)}")
    if template_id is not None:
        template = ctx.table("mallar").get(template_id)
        open_ = sorted({g for y in template["yrken"] for g in ctx.table("yrken").get(y)["genrer"]})
        genres = [g for g in genres if g["id"] in open_]
        reasons.append(f"the template '{template['id']}' exists in {', '.join(open_)}")
    return genres, "; ".join(reasons)


def _choose_genre(char: dict, ctx: Context, plans: _Plans) -> None:
    pool, why = plans.genres(ctx, char["template"])
    if not pool:
        raise ChargenError(f"no genre fits these choices: {why}")
    entry = _choose(ctx, "genre", "genrer", pool, why=why)
    char["genre"] = entry["id"]
    char["genre_namn"] = entry["name"]


def genre(char: dict, ctx: Context) -> None:
    """The genre (--genre), among those the chosen art, yrke or template exist in."""
    _choose_genre(char, ctx, _plans(ctx))


def _choose_art(char: dict, ctx: Context, plans: _Plans) -> None:
    pool, default = plans.species_pool(char["genre"])
    if ctx.option("art") is None and ctx.kind == "pc" and default is not None:
        # a player character is a människa unless --art or the prompt says otherwise
        # (an empty answer is that default, as without prompts)
        entry, how = default, "default"
        if ctx.prompter is not None and len(pool) > 1:
            asked = ctx.prompter.choose("art", ctx.table("arter"), list(pool.entries), ctx.rng)
            if asked is None:
                ctx.prompter.say("  " + ctx.labels.prompt("default", value=entry["name"]))
            else:
                entry, how = asked, "prompt"
                ctx.options["art"] = entry["id"]  # the batch takes the answer
        ctx.note(entry, "arter")
        ctx.log(choice="art", id=entry["id"], name=entry["name"], by=how)
    else:
        entry = _choose(
            ctx,
            "art",
            "arter",
            pool,
            why=lambda e: (
                f"the art '{e['id']}' lives in {', '.join(e['genrer'])}, "
                f"not in the genre '{char['genre']}'"
            ),
        )
    char["art"] = entry["id"]
    char["art_namn"] = entry["name"]


def art(char: dict, ctx: Context) -> None:
    """The species (--art), among those living in the genre; människa is the default."""
    _choose_art(char, ctx, _plans(ctx))


def _roll_grundegenskaper(char: dict, ctx: Context, plans: _Plans) -> None:
    rollers, maximum, _tongue, _fast = plans.species(char["art"])
    if ctx.kind == "pc":
        char["grundegenskaper"] = {g: ctx.roll(d, LABELS[g]).total for g, d, _r in rollers}
    else:
        rand = ctx.rng.random
        char["grundegenskaper"] = {g: roll(rand) for g, _d, roll in rollers}
    char["artmaximum"] = maximum.copy()


def grundegenskaper(char: dict, ctx: Context) -> None:
    """HÄL, KRA, SKI, STO, STY rolled on the species' dice, with each one's artmaximum."""
    _roll_grundegenskaper(char, ctx, _plans(ctx))


def _beraknade(char: dict, ctx: Context, plans: _Plans) -> None:
    rules = plans.rules
    g = char["grundegenskaper"]
    lp = char["lp"] = round_up(g["hal"] + g["sto"], rules["lp_delare"])
    char["snabbhet"] = round_up(g["ski"] + g["sty"], rules["snabbhet_delare"])
    char["grundskada"] = plans.grundskada(g["sto"] + g["sty"])
    char["kp"] = plans.kp(lp).copy()
    if ctx.kind == "pc":
        ctx.log(lp=lp, snabbhet=char["snabbhet"], grundskada=char["grundskada"])


def beraknade(char: dict, ctx: Context) -> None:
    """LP, Snabbhet, Grundskada and KP per body part, by the document's formulas."""
    _beraknade(char, ctx, _plans(ctx))


def _skills(char: dict, ctx: Context, plans: _Plans, job: _Job) -> None:
    """The skills of a yrke: what everyone has, the mother tongue, the yrke's, leisure."""
    skills = job.skills
    # Everyone has the skills with a bas above 0 that exist here.
    values, labels, group_names, group_lists = skills.base()
    values = char["fardigheter"] = values.copy()
    labels = char["fardighetsnamn"] = labels.copy()
    groups = char["fardighetsgrupper"] = dict(
        zip(group_names, map(list.copy, group_lists), strict=True)
    )
    rand = ctx.rng.random
    # The character's own tongue: the species' if it has one, else one of the genre's.
    tongue = plans.species(char["art"])[2]
    if not tongue:
        tongues = skills.genre["modersmal"]
        tongue = tongues[int(rand() * len(tongues))]
    native_text, sides, base, fast = plans.rolls("modersmal")
    count = plans.rules["fritid_antal"]
    # "alla har minst 10 i det språk som används": the genre's common tongue beside one's own
    common = skills.genre.get("gemensamt_sprak")
    if common == tongue:
        common = None
    specs = job.specs
    if ctx.kind == "pc":  # every roll and raise in the historik
        sheet = _Sheet(values, labels, groups, rand, ctx.log)
        native = ctx.roll(native_text, f"Språk {tongue}").total
        char["modersmal"] = sheet.add(skills["sprak"], native, spec=tongue, why="modersmål")
        if common is not None:
            amount = ctx.roll(plans.rules["gemensamt_sprak_varde"], f"Språk {common}").total
            char["gemensamt_sprak"] = sheet.add(
                skills["sprak"], amount, spec=common, why="gemensamt språk"
            )
        else:
            char["gemensamt_sprak"] = char["modersmal"]
        for skill_id, text, _sides, _base, _fast in job.given:  # Stridskonst last
            amount = ctx.roll(text, skill_id).total
            spec = _one_of(specs.get(skill_id), rand)
            sheet.add(skills[skill_id], amount, spec=spec, why=job.id)
        leisure_text = plans.rolls("fritid_varde")[0]
        for skill in skills.draw_leisure(rand, count):  # a yrke's specialisation stays its own
            spec = _one_of(specs.get(skill.id), rand)
            sheet.add(skill, ctx.roll(leisure_text, skill.id).total, spec=spec, why="fritid")
        return
    native = base + int(rand() * sides) if sides else fast(rand)
    char["modersmal"] = _raise(values, labels, groups, skills["sprak"], native, rand, tongue)
    if common is not None:
        amount = plans.rolls("gemensamt_sprak_varde")[3](rand)
        char["gemensamt_sprak"] = _raise(
            values, labels, groups, skills["sprak"], amount, rand, common
        )
    else:
        char["gemensamt_sprak"] = char["modersmal"]
    for skill_id, _text, sides, base, fast in job.given:  # Stridskonst last
        amount = base + int(rand() * sides) if sides else fast(rand)
        spec = _one_of(specs.get(skill_id), rand)
        _raise(values, labels, groups, skills[skill_id], amount, rand, spec)
    # Leisure: a few vanliga or kunskap skills of the genre.
    _text, sides, base, fast = plans.rolls("fritid_varde")
    for skill in skills.draw_leisure(rand, count):
        amount = base + int(rand() * sides) if sides else fast(rand)
        _raise(values, labels, groups, skill, amount, rand, _one_of(specs.get(skill.id), rand))


def yrke(char: dict, ctx: Context) -> None:
    """The yrke (--yrke; an NPC's comes from its template) and the skills it gives."""
    plans = _plans(ctx)
    genre_id = char["genre"]
    if ctx.kind == "pc":
        entry = _choose(
            ctx,
            "yrke",
            "yrken",
            plans.job_pool(genre_id),
            why=lambda e: (
                f"the yrke '{e['id']}' cannot exist in the genre '{genre_id}' "
                f"(it exists in {', '.join(e['genrer'])})"
            ),
        )
    else:
        entry = plans.template_job(char["template"], genre_id)
        template = ctx.table("mallar").get(char["template"])
        char["mall_namn"] = ctx.text(genre_name(template, genre_id))
    char["yrke"] = entry["id"]
    char["yrke_namn"] = ctx.text(genre_name(entry, genre_id))
    _skills(char, ctx, plans, plans.job(entry["id"], genre_id))


def _why_not(weapon: dict, g: dict) -> str:
    needs = []
    if g["sto"] < weapon.get("min_sto", 0):
        needs.append(f"STO {weapon['min_sto']}")
    if g["sty"] < weapon.get("min_sty", 0):
        needs.append(f"STY {weapon['min_sty']}")
    return " och ".join(needs)


def _weapons(char: dict, ctx: Context, plans: _Plans, job: _Job) -> None:
    g = char["grundegenskaper"]
    arms = job.arms()
    log = ctx.log if ctx.kind == "pc" else None
    rand = ctx.rng.random
    # One of each kind the yrke carries here, among those the character meets the needs of.
    carried: list[_Weapon] = []
    for usable, weapons, refused in arms.usable(g["sto"], g["sty"]):
        if log is not None:
            for w in refused:
                log(vapen=w["id"], ej_valbart=f"kräver {_why_not(w, g)}")
        if usable:
            carried.append(weapons[usable.pick(ctx.rng)["id"]])
    # A shield with a one-handed melee weapon (the melee weapon, if any, is drawn first).
    if arms.shield is not None and carried and carried[0].melee_one_hand:
        carried.append(arms.shield)
    skills = job.skills
    values, labels = char["fardigheter"], char["fardighetsnamn"]
    groups = char["fardighetsgrupper"]
    text, sides, base, fast = arms.dice
    rolled: list[str] = []
    for weapon in carried:
        key = weapon.key
        if key not in rolled:
            rolled.append(key)
            if log is not None:
                amount = ctx.roll(text, key).total
                _Sheet(values, labels, groups, rand, log).add(skills[key], amount, why=weapon.id)
            else:
                amount = base + int(rand() * sides) if sides else fast(rand)
                _raise(values, labels, groups, skills[key], amount, rand)
    # Everyone can fight unarmed (the table's first row, with Närkamp).
    if arms.unarmed is not None and (
        not arms.check_unarmed or all(w.id != "obevapnad" for w in carried)
    ):
        carried.insert(0, arms.unarmed)
    grund = char["grundskada"]
    rows = []
    for weapon in carried:
        key = weapon.key
        if key not in values:
            skill = skills.table.get(key)
            _set_value(values, labels, groups, key, skill["name"], skill["grupp"], skill["bas"])
        row = (weapon.rows.get(grund) or weapon.row(grund)).copy()
        row["varde"] = values[key]
        if weapon.id == "obevapnad":
            _martial_art(row, values, labels, plans.rules)
        if weapon.attr is not None:
            row["skottvidd_meter"] = g[weapon.attr]
        rows.append(row)
        if log is not None:
            log(vapen=weapon.id, skada=row["skada"], faktisk_skada=row["faktisk_skada"])
        if weapon.off_hand:
            label = weapon.off_label or weapon.off_hand_label()
            _set_value(
                values, labels, groups, weapon.off_key, label, "strid", plans.rules["fel_hand"]
            )
    char["vapen"] = rows


def _martial_art(row: dict, values: dict, labels: dict, rules: dict) -> None:
    """<Stridskonst>: "ett steg bättre skada i obeväpnad strid"; the skill is used "i stället
    för" Närkamp (and never exceeds it). The best Stridskonst held takes the unarmed row."""
    held = [k for k in values if k.startswith("stridskonst_") and values[k] > 0]
    if not held:
        return
    key = max(held, key=lambda k: (values[k], k))
    ladder = rules["skadestege"]
    if row["faktisk_skada"] not in ladder:  # a pack's Obeväpnad off the ladder: no step
        return
    steps = rules["stridskonst_steg"]
    step = min(ladder.index(row["faktisk_skada"]) + steps, len(ladder) - 1)
    row["faktisk_skada"] = ladder[step]
    row["stridskonst"] = labels[key]
    row["stridskonst_steg"] = steps
    row["fardighet"] = key
    row["varde"] = values[key]


def vapen(char: dict, ctx: Context) -> None:
    """Weapons from the document's tables, suited to yrke and genre, within their demands."""
    plans = _plans(ctx)
    _weapons(char, ctx, plans, plans.job(char["yrke"], char["genre"]))


def _sp(entry: dict) -> dict:
    return {k: entry["sp"][k] for k in ("h", "k", "s")}


def _outfit(kit: dict, tables: Tables, rules: dict) -> tuple[list, dict, dict]:
    """A kit's armour rows, SP per body part and fatigue rolls (the same for everyone)."""
    armour, helmets = tables["rustningar"], tables["hjalmar"]
    whole = [armour.get(a) for a in kit["delar"].values() if armour.get(a).get("med_hjalm")]
    worn: dict[tuple[str, str, bool], list[str]] = {}
    entries: dict[tuple[str, str, bool], dict] = {}
    skydd = {}
    for part in tables["kroppsdelar"].entries:
        pieces: list[tuple[str, dict, bool]] = []
        if part["rustning"] == "hjalmar":
            if "hjalm" in kit:
                pieces.append(("hjalmar", helmets.get(kit["hjalm"]), False))
            elif whole:
                pieces.append(("rustningar", whole[0], False))
        else:
            if part["id"] in kit["delar"]:
                pieces.append(("rustningar", armour.get(kit["delar"][part["id"]]), False))
        under_id = kit.get("under", {}).get(part["id"])
        if under_id is not None:
            under = armour.get(under_id)
            if not under.get("under"):
                raise ChargenError(
                    f"rustningspaket.toml: '{kit['id']}' puts '{under_id}' under other armour; "
                    "only types up to mjukt läder may be worn under"
                )
            pieces.append(("rustningar", under, True))
        total = {"h": 0, "k": 0, "s": 0}
        for table, piece, is_under in pieces:
            for k in total:
                total[k] += piece["sp"][k]
            key = (table, piece["id"], is_under)
            worn.setdefault(key, []).append(part["id"])
            entries[key] = piece
        if any("sp_laser" in p for _t, p, _u in pieces):
            total["laser"] = sum(p.get("sp_laser", p["sp"]["s"]) for _t, p, _u in pieces)
        skydd[part["id"]] = total
    rows = []
    for (table, _pid, is_under), parts in worn.items():
        piece = entries[(table, _pid, is_under)]
        row = {"id": piece["id"], "namn": piece["name"], "sp": _sp(piece), "kroppsdelar": parts}
        if "sp_laser" in piece:
            row["sp_laser"] = piece["sp_laser"]
        row["tabell"] = table
        if is_under:
            row["under"] = True
        rows.append(row)
    heads = {p["id"] for p in tables["kroppsdelar"].entries if p["rustning"] == "hjalmar"}
    heavy_parts = sum(
        1 for p, sp in skydd.items() if p not in heads and sp["h"] >= rules["tungt_pansar_hsp"]
    )
    heavy = int(heavy_parts > rules["tungt_pansar_delar"])
    helmet = int(any(skydd[h]["h"] >= rules["hjalm_hsp"] for h in heads))
    trotthet = {
        "grund": rules["trotthet_grund"],
        "tungt_pansar": heavy,
        "hjalm": helmet,
        "summa": rules["trotthet_grund"] + heavy + helmet,
    }
    return rows, skydd, trotthet


def _armour(char: dict, ctx: Context, plans: _Plans, job: _Job) -> None:
    pool = job.kits()
    if not pool:
        raise ChargenError(
            f"yrken.toml: the yrke '{job.id}' has no rustningspaket in the genre '{job.genre_id}'"
        )
    kit = pool.pick(ctx.rng)
    pc = ctx.kind == "pc"
    if pc:
        ctx.log(rustningspaket=kit["id"])
    char["rustningspaket"] = kit["name"]
    rows, parts, protection, trotthet = plans.outfit(kit)
    # every character gets its own copies of the kit's rows
    char["rustning"] = [
        {**row, "sp": row["sp"].copy(), "kroppsdelar": row["kroppsdelar"].copy()} for row in rows
    ]
    char["skydd"] = dict(zip(parts, map(dict.copy, protection), strict=True))
    char["trotthetsslag"] = trotthet.copy()
    if pc:
        ctx.log(trotthetsslag=trotthet["summa"])


def rustning(char: dict, ctx: Context) -> None:
    """Armour and helmet per body part from a kit of the yrke, SP and fatigue rolls."""
    plans = _plans(ctx)
    _armour(char, ctx, plans, plans.job(char["yrke"], char["genre"]))


def npc(char: dict, ctx: Context) -> None:
    """An NPC (--template, --genre): the procedure's steps in order, without historik;
    the template picks the first of its yrken that exists in the genre."""
    plans = _plans(ctx)
    rand = ctx.rng.random
    if plans.npc_drawn is None:  # options stay as they are for a batch without prompts
        plans.npc_drawn = ctx.prompter is None and all(
            ctx.options.get(o) in (None, ()) for o in ("template", "genre", "art")
        )
    if plans.npc_drawn:  # template, genre and art drawn by weight, as ctx.choose would
        template = _draw(ctx.rng, plans.templates(), "template", "mallar")
        char["template"] = template["id"]
        char["mall_namn"] = template["name"]
        pool, why = plans.genres(ctx, template["id"])
        if not pool:
            raise ChargenError(f"no genre fits these choices: {why}")
        entry = _draw(ctx.rng, pool, "genre", "genrer")
        char["genre"] = entry["id"]
        char["genre_namn"] = entry["name"]
        entry = _draw(ctx.rng, plans.species_pool(entry["id"])[0], "art", "arter")
        char["art"] = entry["id"]
        char["art_namn"] = entry["name"]
    else:
        pool, whole = plans.templates(), True
        if ctx.option("genre") is not None and ctx.option("template") is None:
            pool, whole = plans.templates_in(ctx.option("genre")), False  # those living there
        template = _choose(ctx, "template", "mallar", pool, whole=whole)
        char["template"] = template["id"]
        char["mall_namn"] = template["name"]
        _choose_genre(char, ctx, plans)
        # `npc` has no --art: its species is drawn, never asked
        entry = _draw(ctx.rng, plans.species_pool(char["genre"])[0], "art", "arter")
        char["art"] = entry["id"]
        char["art_namn"] = entry["name"]
    _namn(char, ctx)
    _rollers, maximum, _tongue, (hal, kra, ski, sto, sty) = plans.species(char["art"])
    g = char["grundegenskaper"] = {
        "hal": hal(rand),
        "kra": kra(rand),
        "ski": ski(rand),
        "sto": sto(rand),
        "sty": sty(rand),
    }
    char["artmaximum"] = maximum.copy()
    rules = plans.rules
    lp = char["lp"] = round_up(g["hal"] + g["sto"], rules["lp_delare"])
    char["snabbhet"] = round_up(g["ski"] + g["sty"], rules["snabbhet_delare"])
    char["grundskada"] = plans.grundskada(g["sto"] + g["sty"])
    char["kp"] = plans.kp(lp).copy()
    entry = plans.template_job(template["id"], char["genre"])
    char["yrke"] = entry["id"]
    char["yrke_namn"] = ctx.text(genre_name(entry, char["genre"]))
    char["mall_namn"] = ctx.text(genre_name(template, char["genre"]))
    job = plans.job(entry["id"], char["genre"])
    _skills(char, ctx, plans, job)
    _weapons(char, ctx, plans, job)
    _armour(char, ctx, plans, job)


PC_STEPS = [
    Step(
        "genre",
        genre,
        fields=("genre", "genre_namn"),
        lists=("genrer",),
        label="Genre",
        help="The genre (--genre): fantasy, modern tid or framtid.",
    ),
    Step(
        "art",
        art,
        fields=("genre", "art", "art_namn"),
        lists=("arter",),
        label="Art",
        help="The species (--art; människa by default) and its dice.",
    ),
    Step("namn", _namn, fields=("name", "kon"), command=False),
    Step(
        "grundegenskaper",
        grundegenskaper,
        fields=("art", "grundegenskaper", "artmaximum"),
        lists=("arter",),
        label="Grundegenskaper",
        help="HÄL, KRA, SKI, STO and STY on the species' dice, with artmaximum.",
    ),
    Step(
        "beraknade",
        beraknade,
        fields=("grundegenskaper", "lp", "snabbhet", "grundskada", "kp"),
        lists=("regler", "kroppsdelar"),
        label="Beräknade egenskaper",
        help="LP, Snabbhet, Grundskada and KP per body part.",
    ),
    Step(
        "yrke",
        yrke,
        fields=(
            "genre",
            "yrke",
            "yrke_namn",
            "modersmal",
            "gemensamt_sprak",
            "fardigheter",
            "fardighetsnamn",
            "fardighetsgrupper",
        ),
        lists=("yrken",),
        label="Yrke",
        help="The yrke (--yrke) and the skills it gives, by group, within the caps.",
    ),
    Step(
        "vapen",
        vapen,
        fields=("yrke", "yrke_namn", "grundskada", "vapen"),
        lists=("narstridsvapen", "avstandsvapen"),
        label="Vapen",
        help="Weapons from the document's tables with their actual damage.",
    ),
    Step(
        "rustning",
        rustning,
        fields=("yrke", "yrke_namn", "rustningspaket", "rustning", "skydd", "trotthetsslag"),
        lists=("rustningar", "hjalmar", "rustningspaket"),
        label="Rustning",
        help="Armour and helmet per body part, SP H/K/S and fatigue rolls.",
    ),
]

# -- the sheet ---------------------------------------------------------------------------
#
# Every word comes from tables/spelsystemet/etiketter.toml (`tables.labels`), so a pack can
# rename or translate it; the sheet is also cut into Parts, so a step alone shows its piece.


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
    if "grundskada" in char and "lp" not in char:  # the vapen step alone
        head.append([L("grundskada"), char["grundskada"]])
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
        text = L("trotthetsslag_text").format(
            summa=t["summa"], grund=t["grund"], tungt_pansar=t["tungt_pansar"], hjalm=t["hjalm"]
        )
        if "rustningspaket" in char:
            text += "\n" + L("rustningspaket_text").format(namn=char["rustningspaket"])
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
            covering.setdefault(p, []).append(piece["namn"])
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
        name, code = w["namn"], w["skada"]
        if "stridskonst" in w:
            name = f"{name} ({w['stridskonst']})"
            code = f"{code} +{w['stridskonst_steg']} {L('steg')}"
        rows.append([name, code, w["faktisk_skada"], w["typ"], reach, w.get("varde", "")])
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
    if any(_GRUND.match(c.strip()) for c in codes):
        out.append(L("forklaring_grund"))
    if any(c.rstrip().endswith("*") and not c.rstrip().endswith("**") for c in codes):
        out.append(L("forklaring_stjarna").format(minst=rules["stjarna_minst"]))
    if any(c.rstrip().endswith("**") for c in codes):
        out.append(L("forklaring_dubbelstjarna").format(hogst=rules["dubbelstjarna_hogst"]))
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
            by_note.setdefault(rules, []).append(w["namn"])
        if w.get("anmarkning"):
            by_note.setdefault(w["anmarkning"], []).append(w["namn"])
    by_names: dict[str, list[str]] = {}  # one line per weapon (or weapons) with all its texts
    for text, names in by_note.items():
        by_names.setdefault(", ".join(dict.fromkeys(names)), []).append(text)
    return [f"{names}: {' '.join(texts)}" for names, texts in by_names.items()]


def _piece(*keys: str, extra: tuple[str, ...] = (), head: bool = False, unless: str = "") -> Part:
    """A Part of the sheet for a step alone: the sections `sheet` makes from the character
    fields `keys` (and `extra` when present); `head`: the head rows they make; `unless`:
    nothing when the character has that field (another Part shows it)."""

    def build(char: dict, tables: Tables) -> list[Section]:
        if unless and unless in char:
            return []
        part = {"kind": char.get("kind"), **{k: char[k] for k in keys + extra if k in char}}
        sections = sheet(part, tables)
        if head:  # the head's rows but the name
            rows = [r for r in sections[0].rows if r[0] != tables.labels("name")]
            return [Section(sections[0].title, rows=rows)] if rows else []
        return sections[1:]

    return Part(keys, build)


def _tongue(char: dict, key: str, tables: Tables | None = None) -> str:
    """A language the character speaks, by its name ("Allmänspråket", not the skill's
    "Språk Allmänspråket")."""
    label = char["fardighetsnamn"].get(char[key], "")
    prefix = "Språk"
    if tables is not None and "sprak" in tables["fardigheter"]:
        prefix = tables["fardigheter"].get("sprak").get("prefix", prefix)
    return label.removeprefix(prefix + " ")


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
    # with the artmaximum (the grundegenskaper step), else without (beräknade shows them)
    _piece("grundegenskaper", "artmaximum"),
    _piece("grundegenskaper", unless="artmaximum"),
    _piece("lp", "snabbhet", "grundskada", "kp"),
    Part(("modersmal", "gemensamt_sprak", "fardighetsnamn"), _tongues),
    _piece("fardigheter", "fardighetsnamn", "fardighetsgrupper"),
    _piece("vapen", "grundskada"),
    _piece("rustningspaket", "rustning", "skydd", "trotthetsslag"),
]


def check_pack(tables: Tables) -> list[Problem]:
    """What the specs cannot say: a yrke's `specifikationer` name <klass> skills it gives,
    each specification one that a genre of the yrke lists for that skill's klass."""
    yrken, skills, genres = tables["yrken"], tables["fardigheter"], tables["genrer"]
    out = []
    caps = tables["regler"].settings.get("tak", {})
    for index, skill in enumerate(skills.entries):
        if skill["grupp"] not in caps:
            out.append(
                Problem(
                    str(skills.path),
                    key_line(skills.text, "grupp", index),
                    f"'{skill['id']}': grupp '{skill['grupp']}' has no cap in regler.toml's tak "
                    f"({', '.join(caps)})",
                )
            )
    for job in yrken.entries:
        for skill_id in job["fardigheter"]:
            if skill_id not in skills:
                continue
            skill = skills.get(skill_id)
            missing = [g for g in job["genrer"] if "genrer" in skill and g not in skill["genrer"]]
            if missing:
                at = skills.entries.index(skill)
                out.append(
                    Problem(
                        str(skills.path),
                        key_line(skills.text, "genrer", at),
                        f"'{skill_id}' does not exist in {', '.join(missing)}, where the yrke "
                        f"'{job['id']}' gives it",
                    )
                )
    for index, job in enumerate(yrken.entries):
        line = key_line(yrken.text, "specifikationer", index)
        for skill_id, wanted in job.get("specifikationer", {}).items():
            where = f"yrken.toml '{job['id']}': specifikationer.{skill_id}"
            if skill_id not in job["fardigheter"]:
                out.append(Problem(str(yrken.path), line, f"{where}: not a skill the yrke gives"))
                continue
            klass = skills.get(skill_id).get("klass") if skill_id in skills else None
            if not klass:
                out.append(Problem(str(yrken.path), line, f"{where}: not a <klass> skill"))
                continue
            offered = {
                s for g in job["genrer"] if g in genres for s in genres.get(g).get(klass, ())
            }
            for spec in wanted:
                if spec not in offered:
                    out.append(
                        Problem(
                            str(yrken.path),
                            line,
                            f"{where}: '{spec}' is in no {klass} list of the yrke's genres",
                        )
                    )
    return out


def _gear(char: dict) -> str:
    return ", ".join(f"{w['namn']} {w['faktisk_skada']}" for w in char["vapen"])


def _best_skills(char: dict, count: int = 4) -> str:
    """A step's batch: the character's best skills, highest first ("Lärare 10, ...")."""
    names, values = char["fardighetsnamn"], char["fardigheter"]
    best = sorted(values, key=lambda k: (-values[k], names.get(k, k)))[:count]
    return ", ".join(f"{names.get(k, k)} {values[k]}" for k in best)


def _stat(g: str) -> Callable[[dict], int]:
    return lambda c: c["grundegenskaper"][g]


STATS = [Column(g, _stat(g), priority=6) for g in GRUNDEGENSKAPER]
ROSTER = [
    Column("name", priority=9, wrap=True),  # a long name wraps, the grundegenskaper stay
    Column("mall_namn", priority=5),
    Column("yrke_namn", priority=8),
    Column("genre_namn", priority=4),
    Column("art_namn", priority=3),
    *STATS,
    Column("lp", priority=7),
    Column("snabbhet", priority=5),
    Column("grundskada", priority=7),
    Column("vapen", _gear, priority=2, wrap=True),
]
# a step of a batch (`chargen spelsystemet yrke -n 5`): the columns of that part of the sheet
STEP_ROSTERS: dict[str, tuple[Column, ...]] = {
    "genre": (Column("genre_namn", priority=9),),
    "art": (Column("genre_namn", priority=8), Column("art_namn", priority=9)),
    "grundegenskaper": (Column("name", priority=9), Column("art_namn", priority=8), *STATS),
    "beraknade": (
        Column("name", priority=9),
        *STATS,
        Column("lp", priority=8),
        Column("snabbhet", priority=7),
        Column("grundskada", priority=8),
    ),
    "yrke": (
        Column("name", priority=9),
        Column("yrke_namn", priority=8),
        Column("modersmal", lambda c: _tongue(c, "modersmal"), priority=5),
        Column("basta_fardigheter", _best_skills, priority=7, wrap=True),
    ),
    "vapen": (
        Column("name", priority=9),
        Column("yrke_namn", priority=7),
        Column("grundskada", priority=8),
        Column("vapen", _gear, priority=8, wrap=True),
    ),
    "rustning": (
        Column("name", priority=9),
        Column("yrke_namn", priority=7),
        Column("rustningspaket", priority=8, wrap=True),
        Column("trotthetsslag", lambda c: c["trotthetsslag"]["summa"], priority=6),
    ),
}
PC_STEPS = [
    dataclasses.replace(s, roster=STEP_ROSTERS[s.id]) if s.id in STEP_ROSTERS else s
    for s in PC_STEPS
]


SYSTEM = System(
    id="spelsystemet",
    name="Spelsystemet",
    language="sv",
    locale="sv_SE",
    description="T20 slag under: HÄL KRA SKI STO STY, LP, KP, Grundskada, vapen och rustning.",
    specs=SPECS,
    effect_keys=frozenset(),
    labels=LABELS,
    pc=PC_STEPS,
    npc=npc,
    pc_options=[
        Option("genre", table="genrer", help="The genre (genrer.toml)."),
        Option("art", table="arter", help="The species (arter.toml); människa by default."),
        Option("yrke", table="yrken", help="The yrke (yrken.toml); it must exist in the genre."),
    ],
    npc_options=[
        Option("template", table="mallar", help="The NPC template (mallar.toml)."),
        Option("genre", table="genrer", help="The genre (genrer.toml)."),
    ],
    sheet=sheet,
    parts=PARTS,
    check=check_pack,
    roster=ROSTER,
)
