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

import re

from chargen.dice import parse
from chargen.errors import ChargenError
from chargen.procedure import Context, Option, Section, Step, System
from chargen.tables import Spec, Tables

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
            "skadestege": "list[dice]!",
            "grundskada_grans": "list[int]!",
            "minsta_skada": "dice!",
            "stjarna_minst": "dice!",
            "dubbelstjarna_hogst": "dice!",
            "lp_delare": "int!",
            "snabbhet_delare": "int!",
            "tak": "dict[int]!",
            "fel_hand": "int!",
            "modersmal": "dice!",
            "fritid_antal": "int!",
            "fritid_varde": "dice!",
            "trotthet_grund": "int!",
            "tungt_pansar_hsp": "int!",
            "tungt_pansar_delar": "int!",
            "hjalm_hsp": "int!",
        },
    ),
    "kroppsdelar": Spec(
        "definitions",
        fields={"taljare": "int!", "namnare": "int!", "rustning": "str!", "vital": "bool"},
    ),
    "arter": Spec(
        "definitions",
        fields={"tarningar": "dict[dice]!", "genrer": "list[id:genrer]!", "modersmal": "str"},
    ),
    "genrer": Spec(
        "definitions",
        fields={
            "modersmal": "list[str]!",
            **{k: "list[str]!" for k in KLASS_FIELDS},
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
            "bas": "int!",
            "klass": "str",
            "prefix": "str",
            "namn_per_genre": "dict[str]",
            "genrer": "list[id:genrer]",
        },
    ),
    "narstridsvapen": Spec(
        "definitions",
        fields={
            "skada": "str!",
            "typ": "str!",
            "langd": "int!",
            "grepp": "str",
            "fardighet": "id:fardigheter!",
            "som": "id:narstridsvapen",
            "min_sto": "int",
            "min_sty": "int",
            "anmarkning": "str",
        },
    ),
    "avstandsvapen": Spec(
        "definitions",
        fields={
            "skada": "str!",
            "typ": "str!",
            "eldhastighet": "str!",
            "skottvidd": "str!",
            "fardighet": "id:fardigheter!",
            "min_sto": "int",
            "min_sty": "int",
            "anmarkning": "str",
        },
    ),
    "rustningar": Spec(
        "definitions",
        fields={
            "sp": "dict[int]!",
            "sp_laser": "int",
            "under": "bool",
            "med_hjalm": "bool",
            "anmarkning": "str",
        },
    ),
    "hjalmar": Spec("definitions", fields={"sp": "dict[int]!", "anmarkning": "str"}),
    "rustningspaket": Spec(
        "definitions",
        fields={
            "genrer": "list[id:genrer]!",
            "delar": "dict[id:rustningar]!",
            "under": "dict[id:rustningar]",
            "hjalm": "id:hjalmar",
        },
    ),
    "yrken": Spec(
        "definitions",
        fields={
            "genrer": "list[id:genrer]!",
            "fardigheter": "dict[dice]!",
            "vapenfardighet": "dice!",
            "narstridsvapen": "list[id:narstridsvapen]!",
            "avstandsvapen": "list[id:avstandsvapen]!",
            "skold": "bool",
            "rustningspaket": "list[id:rustningspaket]!",
        },
    ),
    "mallar": Spec("definitions", fields={"yrken": "list[id:yrken]!"}),
}

LABELS = {
    "hal": "HÄL",
    "kra": "KRA",
    "ski": "SKI",
    "sto": "STO",
    "sty": "STY",
    "lp": "LP",
    "snabbhet": "Snabbhet",
    "grundskada": "Grundskada",
    "kp": "KP",
    "art": "Art",
    "genre": "Genre",
    "yrke": "Yrke",
    "fardigheter": "Färdigheter",
    "vapen": "Vapen",
    "rustning": "Rustning",
    "skydd": "Skydd",
    "huvud": "Huvud",
    "brostkorg": "Bröstkorg",
    "mage": "Mage",
    "vanster_arm": "Vänster arm",
    "hoger_arm": "Höger arm",
    "vanster_ben": "Vänster ben",
    "hoger_ben": "Höger ben",
    "vanliga": "Vanliga färdigheter",
    "kunskap": "Kunskapsfärdigheter",
    "strid": "Stridsfärdigheter",
    "yrke_grupp": "Yrkesfärdigheter",
    "trotthetsslag": "Trötthetsslag",
}
GROUP_TITLES = {
    "vanliga": "Vanliga färdigheter",
    "kunskap": "Kunskapsfärdigheter",
    "strid": "Stridsfärdigheter",
    "yrke": "Yrkesfärdigheter",
}

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


# -- steps -------------------------------------------------------------------------------


def _rules(ctx: Context) -> dict:
    return ctx.settings("regler")


def _namn(char: dict, ctx: Context) -> None:
    char["name"], char["kon"] = ctx.person_name()


def _template(char: dict, ctx: Context) -> None:
    template = ctx.choose("template", "mallar")
    char["template"] = template["id"]
    char["mall_namn"] = template["name"]


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


def genre(char: dict, ctx: Context) -> None:
    """The genre (--genre), among those the chosen art, yrke or template exist in."""
    pool, why = _genre_pool(ctx, char.get("template"))
    if not pool:
        raise ChargenError(f"no genre fits these choices: {why}")
    entry = ctx.choose("genre", "genrer", allowed=pool, why=why)
    char["genre"] = entry["id"]
    char["genre_namn"] = entry["name"]


def art(char: dict, ctx: Context) -> None:
    """The species (--art), among those living in the genre; människa is the default."""
    tab = ctx.table("arter")
    pool = [e for e in tab.entries if char["genre"] in e["genrer"]]
    default = tab.get("manniska") if "manniska" in tab else None
    if ctx.option("art") is None and ctx.prompter is None and ctx.kind == "pc" and default in pool:
        entry = default  # a player character is a människa unless --art says otherwise
        ctx.log(choice="art", id=entry["id"], name=entry["name"], by="default")
    else:
        entry = ctx.choose(
            "art",
            "arter",
            allowed=pool,
            why=lambda e: (
                f"the art '{e['id']}' lives in {', '.join(e['genrer'])}, "
                f"not in the genre '{char['genre']}'"
            ),
        )
    char["art"] = entry["id"]
    char["art_namn"] = entry["name"]


def grundegenskaper(char: dict, ctx: Context) -> None:
    """HÄL, KRA, SKI, STO, STY rolled on the species' dice, with each one's artmaximum."""
    dice = ctx.table("arter").get(char["art"])["tarningar"]
    missing = [g for g in GRUNDEGENSKAPER if g not in dice]
    if missing:
        raise ChargenError(f"arter.toml: '{char['art']}' has no dice for {', '.join(missing)}")
    char["grundegenskaper"] = {g: ctx.roll(dice[g], LABELS[g]).total for g in GRUNDEGENSKAPER}
    char["artmaximum"] = {g: artmaximum(dice[g]) for g in GRUNDEGENSKAPER}


def beraknade(char: dict, ctx: Context) -> None:
    """LP, Snabbhet, Grundskada and KP per body part, by the document's formulas."""
    rules = _rules(ctx)
    g = char["grundegenskaper"]
    char["lp"] = round_up(g["hal"] + g["sto"], rules["lp_delare"])
    char["snabbhet"] = round_up(g["ski"] + g["sty"], rules["snabbhet_delare"])
    char["grundskada"] = grundskada(g["sto"] + g["sty"], rules)
    char["kp"] = {p["id"]: kp(char["lp"], p) for p in ctx.table("kroppsdelar").entries}
    ctx.log(lp=char["lp"], snabbhet=char["snabbhet"], grundskada=char["grundskada"])


def _skill_label(skill: dict, genre_id: str, spec: str | None) -> str:
    base = skill.get("namn_per_genre", {}).get(genre_id)
    if spec is None:
        return base or skill["name"]
    prefix = base or skill.get("prefix", "")
    return f"{prefix} {spec}".strip()


class _Skills:
    """The character's skills as they are built: values, labels and groups, within caps."""

    def __init__(self, char: dict, ctx: Context) -> None:
        self.char, self.ctx = char, ctx
        self.table = ctx.table("fardigheter")
        self.genre = ctx.table("genrer").get(char["genre"])
        self.caps = _rules(ctx)["tak"]
        self.values: dict[str, int] = char.setdefault("fardigheter", {})
        self.labels: dict[str, str] = char.setdefault("fardighetsnamn", {})
        self.groups: dict[str, list[str]] = char.setdefault(
            "fardighetsgrupper", {g: [] for g in GRUPPER}
        )

    def open_here(self, skill: dict) -> bool:
        return "genrer" not in skill or self.genre["id"] in skill["genrer"]

    def cap(self, skill: dict) -> int:
        try:
            cap = self.caps[skill["grupp"]]
        except KeyError:
            raise ChargenError(
                f"regler.toml: tak has no cap for the skill group '{skill['grupp']}'"
            ) from None
        if skill["id"] == "stridskonst" or skill.get("klass") == "stridskonster":
            # "kan aldrig överstiga personens värde i, Närkamp"
            cap = min(cap, self.values.get("narkamp", 0))
        return cap

    def spec_for(self, skill: dict) -> str:
        """A specification from the genre's list for a <klass> skill, not one already held."""
        options = self.genre.get(skill["klass"])
        if options is None:
            raise ChargenError(
                f"genrer.toml: '{self.genre['id']}' has no list '{skill['klass']}' "
                f"for the skill '{skill['id']}'"
            )
        free = [o for o in options if self.key(skill, o) not in self.values] or list(options)
        return free[int(self.ctx.rng.random() * len(free))]

    def key(self, skill: dict, spec: str | None) -> str:
        return skill["id"] if spec is None else f"{skill['id']}_{slug(spec)}"

    def add(self, skill_id: str, amount: int, spec: str | None = None, why: str = "") -> str:
        """Raise a skill by `amount` from its bas (or its current value), within its cap."""
        skill = self.table.get(skill_id, "färdighet")
        if not self.open_here(skill):
            raise ChargenError(
                f"the skill '{skill_id}' does not exist in the genre '{self.genre['id']}' "
                f"(it exists in {', '.join(skill['genrer'])})"
            )
        if skill.get("klass") and spec is None:
            spec = self.spec_for(skill)
        key = self.key(skill, spec)
        start = self.values.get(key, skill["bas"])
        value = min(start + amount, self.cap(skill))
        value = max(value, min(start, self.cap(skill)))
        self.values[key] = value
        if key not in self.labels:
            self.labels[key] = _skill_label(skill, self.genre["id"], spec)
            self.groups.setdefault(skill["grupp"], []).append(key)
        self.ctx.log(fardighet=key, fran=start, till=value, **({"for": why} if why else {}))
        return key

    def set_value(self, key: str, label: str, group: str, value: int) -> None:
        self.values[key] = value
        self.labels[key] = label
        if key not in self.groups.setdefault(group, []):
            self.groups[group].append(key)


def _yrke_pool(ctx: Context, genre_id: str) -> list[dict]:
    return [e for e in ctx.table("yrken").entries if genre_id in e["genrer"]]


def yrke(char: dict, ctx: Context) -> None:
    """The yrke (--yrke; an NPC's comes from its template) and the skills it gives."""
    genre_id = char["genre"]
    pool = _yrke_pool(ctx, genre_id)
    if ctx.kind == "npc":
        template = ctx.table("mallar").get(char["template"])
        fits = [y for y in template["yrken"] if y in {e["id"] for e in pool}]
        if not fits:
            raise ChargenError(
                f"the template '{template['id']}' has no yrke in the genre '{genre_id}'"
            )
        entry = ctx.table("yrken").get(fits[0])
        ctx.log(choice="yrke", id=entry["id"], name=entry["name"], by="template")
    else:
        entry = ctx.choose(
            "yrke",
            "yrken",
            allowed=pool,
            why=lambda e: (
                f"the yrke '{e['id']}' cannot exist in the genre '{genre_id}' "
                f"(it exists in {', '.join(e['genrer'])})"
            ),
        )
    char["yrke"] = entry["id"]
    char["yrke_namn"] = entry["name"]
    char["fardigheter"], char["fardighetsnamn"] = {}, {}
    char["fardighetsgrupper"] = {g: [] for g in GRUPPER}
    skills = _Skills(char, ctx)
    rules = _rules(ctx)
    # Everyone has the skills with a bas above 0 that exist here.
    for skill in skills.table.entries:
        if skill["bas"] > 0 and not skill.get("klass") and skills.open_here(skill):
            skills.set_value(
                skill["id"],
                _skill_label(skill, genre_id, None),
                skill["grupp"],
                min(skill["bas"], skills.cap(skill)),
            )
    # The character's own tongue: the species' if it has one, else one of the genre's.
    species = ctx.table("arter").get(char["art"])
    genre_entry = ctx.table("genrer").get(genre_id)
    tongue = (
        species.get("modersmal")
        or genre_entry["modersmal"][int(ctx.rng.random() * len(genre_entry["modersmal"]))]
    )
    native = ctx.roll(rules["modersmal"], f"Språk {tongue}").total
    char["modersmal"] = skills.add("sprak", native, spec=tongue, why="modersmål")
    # The yrke's skills; Stridskonst last, since it is capped by Närkamp.
    given = sorted(entry["fardigheter"].items(), key=lambda kv: kv[0] == "stridskonst")
    for skill_id, dice in given:
        skills.add(skill_id, ctx.roll(dice, skill_id).total, why=entry["id"])
    # Leisure: a few vanliga or kunskap skills of the genre.
    leisure = [
        s
        for s in skills.table.entries
        if s["grupp"] in ("vanliga", "kunskap") and skills.open_here(s)
    ]
    for pick in skills.table.draw(ctx.rng, rules["fritid_antal"], among=leisure):
        skills.add(pick["id"], ctx.roll(rules["fritid_varde"], pick["id"]).total, why="fritid")


def _meets(weapon: dict, g: dict) -> bool:
    return g["sto"] >= weapon.get("min_sto", 0) and g["sty"] >= weapon.get("min_sty", 0)


def _why_not(weapon: dict, g: dict) -> str:
    needs = []
    if g["sto"] < weapon.get("min_sto", 0):
        needs.append(f"STO {weapon['min_sto']}")
    if g["sty"] < weapon.get("min_sty", 0):
        needs.append(f"STY {weapon['min_sty']}")
    return " och ".join(needs)


def _weapon_row(weapon: dict, table: str, char: dict, ctx: Context, skill_key: str) -> dict:
    rules = _rules(ctx)
    code = weapon["skada"]
    basis = weapon
    if "som" in weapon:  # the Lans: "räknas som ett långspjut ... i normal närstrid"
        basis = ctx.table(table).get(weapon["som"])
    row = {
        "id": weapon["id"],
        "namn": weapon["name"],
        "skada": code,
        "typ": weapon["typ"],
        "faktisk_skada": actual_damage(basis["skada"], char["grundskada"], rules),
    }
    if table == "narstridsvapen":
        row["langd"] = weapon["langd"]
        if "grepp" in weapon:
            row["grepp"] = weapon["grepp"]
    else:
        row["eldhastighet"] = weapon["eldhastighet"]
        row["skottvidd"] = weapon["skottvidd"]
        sv = weapon["skottvidd"]
        row["skottvidd_meter"] = (
            char["grundegenskaper"][sv.lower()] if sv.lower() in GRUNDEGENSKAPER else int(sv)
        )
    row["fardighet"] = skill_key
    row["varde"] = char["fardigheter"][skill_key]
    if "anmarkning" in weapon:
        row["anmarkning"] = weapon["anmarkning"]
    return row


def vapen(char: dict, ctx: Context) -> None:
    """Weapons from the document's tables, suited to yrke and genre, within their demands."""
    g = char["grundegenskaper"]
    job = ctx.table("yrken").get(char["yrke"])
    genre_entry = ctx.table("genrer").get(char["genre"])
    skills = _Skills(char, ctx)
    rules = _rules(ctx)
    carried: list[tuple[str, dict]] = []
    for table in ("narstridsvapen", "avstandsvapen"):
        tab = ctx.table(table)
        here = [tab.get(w) for w in job[table] if w in genre_entry[table]]
        usable = [w for w in here if _meets(w, g)]
        for w in here:
            if w not in usable:
                ctx.log(vapen=w["id"], ej_valbart=f"kräver {_why_not(w, g)}")
        if usable:
            carried.append((table, tab.pick(ctx.rng, usable)))
    melee = next((w for t, w in carried if t == "narstridsvapen"), None)
    if job.get("skold") and melee is not None and melee.get("grepp") == "Enhands":
        tab = ctx.table("narstridsvapen")
        if "skold" in tab and "skold" in genre_entry["narstridsvapen"]:
            carried.append(("narstridsvapen", tab.get("skold")))
    weapon_dice = job["vapenfardighet"]
    rolled: set[str] = set()
    for _table, weapon in carried:
        if weapon["fardighet"] not in rolled:
            rolled.add(weapon["fardighet"])
            amount = ctx.roll(weapon_dice, weapon["fardighet"]).total
            skills.add(weapon["fardighet"], amount, why=weapon["id"])
    # Everyone can fight unarmed (the table's first row, with Närkamp).
    unarmed = ctx.table("narstridsvapen")
    if "obevapnad" in unarmed and all(w["id"] != "obevapnad" for _t, w in carried):
        carried.insert(0, ("narstridsvapen", unarmed.get("obevapnad")))
    rows = []
    for table, weapon in carried:
        key = weapon["fardighet"]
        if key not in char["fardigheter"]:
            skill = skills.table.get(key)
            skills.set_value(key, skill["name"], skill["grupp"], skill["bas"])
        rows.append(_weapon_row(weapon, table, char, ctx, key))
        ctx.log(vapen=weapon["id"], skada=weapon["skada"], faktisk_skada=rows[-1]["faktisk_skada"])
        # "Att använda ett (enhands-)vapen i 'fel' hand är alltid en separat färdighet,
        # med ett utgångsvärde på 1."
        if weapon.get("grepp") == "Enhands" and key not in ("narkamp", "skold"):
            skill = skills.table.get(key)
            skills.set_value(
                f"{key}_fel_hand", f"{skill['name']} (fel hand)", "strid", rules["fel_hand"]
            )
    char["vapen"] = rows


def _sp(entry: dict) -> dict:
    return {k: entry["sp"][k] for k in ("h", "k", "s")}


def rustning(char: dict, ctx: Context) -> None:
    """Armour and helmet per body part from a kit of the yrke, SP and fatigue rolls."""
    rules = _rules(ctx)
    job = ctx.table("yrken").get(char["yrke"])
    kits = ctx.table("rustningspaket")
    pool = [kits.get(k) for k in job["rustningspaket"] if char["genre"] in kits.get(k)["genrer"]]
    if not pool:
        raise ChargenError(
            f"yrken.toml: the yrke '{job['id']}' has no rustningspaket in the genre "
            f"'{char['genre']}'"
        )
    kit = kits.pick(ctx.rng, pool)
    ctx.log(rustningspaket=kit["id"])
    char["rustningspaket"] = kit["name"]
    armour, helmets = ctx.table("rustningar"), ctx.table("hjalmar")
    whole = [armour.get(a) for a in kit["delar"].values() if armour.get(a).get("med_hjalm")]
    worn: dict[tuple[str, str, bool], list[str]] = {}
    entries: dict[tuple[str, str, bool], dict] = {}
    skydd = {}
    for part in ctx.table("kroppsdelar").entries:
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
    char["rustning"] = rows
    char["skydd"] = skydd
    heads = {p["id"] for p in ctx.table("kroppsdelar").entries if p["rustning"] == "hjalmar"}
    heavy_parts = sum(
        1 for p, sp in skydd.items() if p not in heads and sp["h"] >= rules["tungt_pansar_hsp"]
    )
    heavy = int(heavy_parts > rules["tungt_pansar_delar"])
    helmet = int(any(skydd[h]["h"] >= rules["hjalm_hsp"] for h in heads))
    char["trotthetsslag"] = {
        "grund": rules["trotthet_grund"],
        "tungt_pansar": heavy,
        "hjalm": helmet,
        "summa": rules["trotthet_grund"] + heavy + helmet,
    }
    ctx.log(trotthetsslag=char["trotthetsslag"]["summa"])


PC_STEPS = [
    Step("namn", _namn, fields=("name", "kon"), command=False),
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
        fields=("yrke", "grundskada", "vapen"),
        lists=("narstridsvapen", "avstandsvapen"),
        label="Vapen",
        help="Weapons from the document's tables with their actual damage.",
    ),
    Step(
        "rustning",
        rustning,
        fields=("yrke", "rustningspaket", "rustning", "skydd", "trotthetsslag"),
        lists=("rustningar", "hjalmar", "rustningspaket"),
        label="Rustning",
        help="Armour and helmet per body part, SP H/K/S and fatigue rolls.",
    ),
]

NPC_STEPS = [
    PC_STEPS[0],
    Step("mall", _template, fields=("template",), command=False),
    *PC_STEPS[1:],
]


# -- the sheet ---------------------------------------------------------------------------


def _part_label(part: str) -> str:
    return LABELS.get(part, part.replace("_", " ").capitalize())


def sheet(char: dict, tables: Tables) -> list[Section]:
    """The Swedish character sheet; a step alone shows only what it made."""
    head = [["Namn", char.get("name") or ""]]
    for key, label in (
        ("mall_namn", "Mall"),
        ("genre_namn", "Genre"),
        ("art_namn", "Art"),
        ("yrke_namn", "Yrke"),
    ):
        if key in char:
            head.append([label, char[key]])
    if "grundskada" in char and "lp" not in char:  # the vapen step alone
        head.append(["Grundskada", char["grundskada"]])
    sections = [Section("Rollperson" if char.get("kind") == "pc" else "Spelledarperson", rows=head)]
    if "grundegenskaper" in char:
        g, mx = char["grundegenskaper"], char.get("artmaximum", {})
        sections.append(
            Section(
                "Grundegenskaper",
                headers=["Egenskap", "Värde", "Artmaximum"],
                rows=[[LABELS[k], g[k], mx.get(k, "")] for k in GRUNDEGENSKAPER],
            )
        )
    if "lp" in char:
        sections.append(
            Section(
                "Beräknade egenskaper",
                rows=[
                    ["LP", char["lp"]],
                    ["Snabbhet", char["snabbhet"]],
                    ["Grundskada", char["grundskada"]],
                ],
            )
        )
    if "kp" in char or "skydd" in char:
        parts = list(char.get("kp") or char.get("skydd"))
        covering: dict[str, list[str]] = {p: [] for p in parts}
        for piece in char.get("rustning", ()):
            for p in piece["kroppsdelar"]:
                covering.setdefault(p, []).append(piece["namn"])
        rows = []
        for p in parts:
            sp = char.get("skydd", {}).get(p, {})
            s = sp.get("s", "")
            if "laser" in sp:
                s = f"{s}({sp['laser']})"
            rows.append(
                [
                    _part_label(p),
                    char.get("kp", {}).get(p, ""),
                    ", ".join(covering.get(p, ())) or "-",
                    sp.get("h", ""),
                    sp.get("k", ""),
                    s,
                ]
            )
        sections.append(
            Section(
                "Kroppsdelar",
                headers=["Kroppsdel", "KP", "Rustning", "SP H", "SP K", "SP S"],
                rows=rows,
            )
        )
    if "trotthetsslag" in char:
        t = char["trotthetsslag"]
        sections.append(
            Section(
                "Trötthetsslag",
                text=f"{t['summa']} HÄL-slag per uppsättning ({t['grund']} som grund"
                f", +{t['tungt_pansar']} för tungt pansar, +{t['hjalm']} för hjälm)."
                + (f" Rustning: {char['rustningspaket']}." if "rustningspaket" in char else ""),
            )
        )
    if "fardigheter" in char:
        names = char.get("fardighetsnamn", {})
        for group, keys in char.get("fardighetsgrupper", {}).items():
            rows = [[names.get(k, k), char["fardigheter"][k]] for k in keys]
            if rows:
                rows.sort(key=lambda r: r[0])
                sections.append(Section(GROUP_TITLES.get(group, group), rows=rows))
    if "vapen" in char:
        rows = []
        for w in char["vapen"]:
            reach = (
                f"L {w['langd']}"
                if "langd" in w
                else f"Eh {w['eldhastighet']}, Sv {w['skottvidd_meter']} m"
            )
            rows.append(
                [w["namn"], w["skada"], w["faktisk_skada"], w["typ"], reach, w.get("varde", "")]
            )
        sections.append(
            Section(
                "Vapen",
                headers=["Vapen", "Skada", "Faktisk skada", "Typ", "L / Eh, Sv", "Färdighet"],
                rows=rows,
            )
        )
    return sections


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
    npc=NPC_STEPS,
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
    roster=[
        ("Namn", "name"),
        ("Mall", "mall_namn"),
        ("Art", "art_namn"),
        ("Yrke", "yrke_namn"),
        *[(LABELS[g], (lambda c, g=g: c["grundegenskaper"][g])) for g in GRUNDEGENSKAPER],
        ("LP", "lp"),
        ("Sh", "snabbhet"),
        ("G", "grundskada"),
        ("Vapen", lambda c: ", ".join(f"{w['namn']} {w['faktisk_skada']}" for w in c["vapen"])),
    ],
)
