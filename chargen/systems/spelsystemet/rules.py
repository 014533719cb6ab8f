"""Spelsystemet's terms, formulas and rules, shared by its steps, NPCs, sheet and checks.

Every number comes from the tables (regler.toml, kroppsdelar.toml, ...): what is here
is how the document computes with them. A function either reads the tables it is
given or works on plain values, and none of them draws a random number but through
the `rand` it is handed (the step's stream).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from chargen.dice import parse
from chargen.errors import ChargenError
from chargen.tables import Tables

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

# "Grund", "Grund+1", "Grund-3*", "G-2*", "G": the character's Grundskada moved N steps.
GRUND_CODE = re.compile(r"^(?:Grund|G)\s*(?:([+-])\s*(\d+))?(\*{0,2})$")
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


# -- Egenskaper ------------------------------------------------------------------------


def artmaximum(dice: str) -> int:
    """Highest plus lowest possible roll of the species' dice (3T6: 18 + 3 = 21)."""
    parsed = parse(dice)
    return parsed.maximum + parsed.minimum


def lp(g: dict, rules: dict) -> int:
    """(HÄL + STO) / 2 = LP, rounded up."""
    return round_up(g["hal"] + g["sto"], rules["lp_delare"])


def snabbhet(g: dict, rules: dict) -> int:
    """(SKI + STY) / 4 = Snabbhet, rounded up (two-footed beings)."""
    return round_up(g["ski"] + g["sty"], rules["snabbhet_delare"])


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


def kp(lp: int, part: dict) -> int:
    """A body part's KP: its fraction of LP, rounded up."""
    return round_up(lp * part["taljare"], part["namnare"])


# -- dice --------------------------------------------------------------------------------


def roller(expression: str) -> Callable[[Callable[[], float]], int]:
    """A function of a stream's `random` giving the total `parse(expression).roll(rng)`
    gives from the same numbers (an NPC keeps no historik, so it needs only the total).

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
    return lambda rand: dice.roll(_Rand(rand)).total


class _Rand:
    """A stream's `random` as the rng Dice.roll takes."""

    __slots__ = ("random",)

    def __init__(self, rand: Callable[[], float]) -> None:
        self.random = rand


# -- färdigheter ------------------------------------------------------------------------


def skill_label(skill: dict, genre_id: str, spec: str | None) -> str:
    """A skill's name in a genre, specified ("Språk Alviska", "Spela luta") or not."""
    base = skill.get("namn_per_genre", {}).get(genre_id)
    if spec is None:
        return base or skill["name"]
    prefix = base or skill.get("prefix", "")
    if prefix and skill.get("gemen"):  # a common noun after a verb: "Spela luta", "Rida häst"
        spec = spec[:1].lower() + spec[1:]
    return f"{prefix} {spec}".strip()


class Skill:
    """A skill as one genre has it: its key, label, group, bas and cap, and for a
    <klass> skill each specification the genre's list offers, as (key, label, bas,
    cap, grupp); worked out once per batch (see steps.genre_skills)."""

    __slots__ = (
        "entry",
        "genre",
        "id",
        "grupp",
        "bas",
        "open",
        "klass",
        "cap",
        "narkamp",
        "whole",
        "options",
    )

    def __init__(self, skill: dict, genre: dict, tak: dict) -> None:
        self.entry, self.genre = skill, genre
        self.id, self.grupp, self.bas = skill["id"], skill["grupp"], skill["bas"]
        self.open = "genrer" not in skill or genre["id"] in skill["genrer"]
        self.klass = skill.get("klass") or None
        self.cap = tak.get(skill["grupp"])  # None: a table fault, raised when the cap is needed
        # "kan aldrig överstiga personens värde i, Närkamp"
        self.narkamp = skill["id"] == "stridskonst" or skill.get("klass") == "stridskonster"
        self.whole = (
            self.id,
            skill_label(skill, genre["id"], None),
            self.bas,
            self.cap,
            self.grupp,
        )
        # None: the genre has no list for the klass (a fault when a specification is drawn)
        self.options: tuple[tuple, ...] | None = ()
        if self.klass is not None:
            specs = genre.get(self.klass)
            self.options = None if specs is None else tuple(self.specified(s) for s in specs)

    def specified(self, spec: str) -> tuple:
        """(key, label, bas, cap, grupp) of the skill specified as `spec`."""
        label = skill_label(self.entry, self.genre["id"], spec)
        return (f"{self.id}_{slug(spec)}", label, self.bas, self.cap, self.grupp)

    def cap_for(self, values: dict[str, int]) -> int:
        cap = self.cap
        if cap is None:
            raise ChargenError(f"regler.toml: tak has no cap for the skill group '{self.grupp}'")
        if self.narkamp:
            return min(cap, values.get("narkamp", 0))
        return cap

    def choose(self, values: dict[str, int], rand: Callable[[], float]) -> tuple:
        """What is raised without a specification given: the skill itself, or for a
        <klass> skill one from the genre's list not already held (any, once all are)."""
        if self.klass is None:
            return self.whole
        options = self.options
        if options is None:
            raise ChargenError(
                f"genrer.toml: '{self.genre['id']}' has no list '{self.klass}' "
                f"for the skill '{self.id}'"
            )
        free = [o for o in options if o[0] not in values] or options
        return free[int(rand() * len(free))]


def raise_skill(
    values: dict,
    labels: dict,
    groups: dict,
    skill: Skill,
    amount: int,
    rand: Callable[[], float],
    chosen: tuple | None = None,
    log: Callable[..., None] | None = None,
    why: str = "",
) -> str:
    """Raise a skill by `amount` from its bas (or its current value), within its cap:
    min(start + amount, cap), never below min(start, cap). `chosen` is the specification
    to raise ((key, label, bas, cap, grupp), see Skill); without it a <klass> skill takes
    one of the genre's. `log` (a player character's historik) hears the raise, `why` its
    reason. Returns the key raised."""
    if not skill.open:
        raise ChargenError(
            f"the skill '{skill.id}' does not exist in the genre '{skill.genre['id']}' "
            f"(it exists in {', '.join(skill.entry['genrer'])})"
        )
    if chosen is None:
        chosen = skill.whole if skill.klass is None else skill.choose(values, rand)
    key, label, bas, cap, grupp = chosen
    if cap is None or skill.narkamp:
        cap = skill.cap_for(values)  # a missing cap is a fault; Stridskonst's is Närkamp
    start = values.get(key, bas)
    value = start + amount
    if value > cap:
        value = cap
    floor = start if start < cap else cap  # never below where it was (within the cap)
    if value < floor:
        value = floor
    values[key] = value
    if key not in labels:
        labels[key] = label
        if grupp in groups:
            groups[grupp].append(key)
        else:  # a group of a user's pack that is not in GRUPPER
            groups[grupp] = [key]
    if log is not None:
        log(fardighet=key, fran=start, till=value, **{"for": why})
    return key


def set_skill(
    values: dict, labels: dict, groups: dict, key: str, label: str, group: str, value: int
) -> None:
    """A skill set outright (a weapon's skill not yet held, a wrong-hand skill)."""
    values[key] = value
    labels[key] = label
    if key not in groups.setdefault(group, []):
        groups[group].append(key)


def implied_specs(job: dict, tables: Tables, genre_id: str) -> dict[str, tuple[str, ...]]:
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


def genre_name(entry: dict, genre_id: str) -> str:
    """A yrke's or template's name in a genre (`namn_per_genre`), else its name."""
    return entry.get("namn_per_genre", {}).get(genre_id) or entry["name"]


# -- vapen -------------------------------------------------------------------------------


def actual_damage(code: str, grund: str, rules: dict) -> str:
    """A weapon's damage for a character with Grundskada `grund`.

    "Grund+N" / "G-N" move N steps on the damage ladder; nothing goes below its
    lowest step (1T2, the "Minimum" row); a code marked "*" does at least
    `stjarna_minst`, one marked "**" at most `dubbelstjarna_hogst`. Other codes
    are the damage they are ("1T8"; "4/2/1T6" is 4T6, 2T6 and 1T6 by range).
    """
    match = GRUND_CODE.match(code.strip())
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


def off_hand(weapon: dict) -> bool:
    """ "Att använda ett (enhands-)vapen i 'fel' hand är alltid en separat färdighet, med
    ett utgångsvärde på 1" (not Närkamp, not the shield, not a weapon marked
    `fel_hand = false` such as the couched Lans)."""
    return (
        weapon.get("grepp") == "Enhands"
        and weapon["fardighet"] not in ("narkamp", "skold")
        and weapon.get("fel_hand", True)
    )


def range_attribute(table: str, weapon: dict) -> str | None:
    """The grundegenskap whose value is a ranged weapon's Sv in metres (Sv "STY")."""
    if table != "narstridsvapen" and weapon["skottvidd"].lower() in GRUNDEGENSKAPER:
        return weapon["skottvidd"].lower()
    return None


def weapon_row(tables: Tables, rules: dict, table: str, weapon: dict, grund: str) -> dict:
    """A weapon as a sheet row for Grundskada `grund`, with `varde` (and Sv "STY" in
    metres) still to fill in for a character."""
    basis = weapon
    if "som" in weapon:  # the Lans: "räknas som ett långspjut ... i normal närstrid"
        basis = tables[table].get(weapon["som"])
    row = {
        "id": weapon["id"],
        "namn": weapon.get("tabellnamn") or weapon["name"],  # as the document's table prints it
        "benamning": weapon["name"],  # as a reader says it (the sheet's)
        "skada": weapon["skada"],
        "typ": weapon["typ"],
        "faktisk_skada": actual_damage(basis["skada"], grund, rules),
    }
    if table == "narstridsvapen":
        row["langd"] = weapon["langd"]
        if "grepp" in weapon:
            row["grepp"] = weapon["grepp"]
    else:
        row["eldhastighet"] = weapon["eldhastighet"]
        row["skottvidd"] = weapon["skottvidd"]
        row["skottvidd_meter"] = 0 if range_attribute(table, weapon) else int(weapon["skottvidd"])
    row["fardighet"] = weapon["fardighet"]
    row["varde"] = 0
    if "anmarkning" in weapon:
        row["anmarkning"] = weapon["anmarkning"]
    return row


def martial_art(row: dict, values: dict, labels: dict, rules: dict, grund: str) -> None:
    """<Stridskonst>: "ett steg bättre skada i obeväpnad strid (Grund-2)"; the skill is
    used "i stället för" Närkamp (and never exceeds it). The best Stridskonst held takes
    the unarmed row: its damage is the document's code `stridskonst_skada` from the
    Grundskada, with Obeväpnad's own "*" minimum (a martial artist hits no weaker than
    anyone); where that minimum leaves it as it was, `stridskonst_oforandrad` says so."""
    held = [k for k in values if k[:12] == "stridskonst_" and values[k] > 0]  # (12: its length)
    if not held:
        return
    key = max(held, key=lambda k: (values[k], k))
    ladder = rules["skadestege"]
    if row["faktisk_skada"] not in ladder:  # a pack's Obeväpnad off the ladder: no change
        return
    code = rules["stridskonst_skada"]
    stars = re.search(r"\*{0,2}$", row["skada"].strip()).group(0)
    better = actual_damage(code + stars, grund, rules)
    unchanged = better not in ladder or ladder.index(better) <= ladder.index(row["faktisk_skada"])
    if not unchanged:
        row["faktisk_skada"] = better
    row["stridskonst"] = labels[key]
    row["stridskonst_skada"] = code
    row["stridskonst_oforandrad"] = unchanged
    row["fardighet"] = key
    row["varde"] = values[key]


def why_not(weapon: dict, g: dict) -> str:
    """What a weapon demands that the character lacks ("STO 9 och STY 9")."""
    needs = []
    if g["sto"] < weapon.get("min_sto", 0):
        needs.append(f"STO {weapon['min_sto']}")
    if g["sty"] < weapon.get("min_sty", 0):
        needs.append(f"STY {weapon['min_sty']}")
    return " och ".join(needs)


# -- rustning ----------------------------------------------------------------------------


def outfit(kit: dict, tables: Tables, rules: dict) -> tuple[list, dict, dict]:
    """A kit's armour rows, SP per body part (layers summed) and fatigue rolls: "+1 för
    bärande av tungt pansar (4+ i HSP på mer än 2 kroppsdelar, huvudet ej inräknat),
    +1 för bärande av hjälm (3+ HSP på huvudet)"."""
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
        elif part["id"] in kit["delar"]:
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
    for (table, piece_id, is_under), parts in worn.items():
        piece = entries[(table, piece_id, is_under)]
        sp = {k: piece["sp"][k] for k in ("h", "k", "s")}
        row = {
            "id": piece["id"],
            "namn": piece.get("tabellnamn") or piece["name"],  # as the document prints it
            "benamning": piece["name"],  # as a reader says it (the sheet's)
            "sp": sp,
            "kroppsdelar": parts,
        }
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
