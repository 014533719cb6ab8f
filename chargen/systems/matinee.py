"""Matinee Chronicles (document 000): Mutant Chronicles in Luna City, 2T10 roll-under.

The document fixes the seven creation steps ("hur en rollperson blir skapad"),
the grundegenskaper and the 22 färdigheter, the value range 0-18 with its
Nivåer, Tillgångar and its bands, hjältepoäng and their raise rules, k-marker,
Rykte, Bekanta, Öde, Slås ut på, Konsten and the NPC tiers. Its booklet with
the tables is lost: every table under tables/matinee/ says whether it is
quoted or authored, and every number the code uses comes from regler.toml.
"""

from __future__ import annotations

import dataclasses
from bisect import bisect
from collections.abc import Callable

from chargen.errors import ChargenError, Problem, TableError
from chargen.labels import builtin_labels
from chargen.procedure import Column, Context, Option, Part, Section, Step, System
from chargen.render import NBSP
from chargen.tables import NAME_SPEC, Spec, Tables, key_line

GRUNDEGENSKAPER = ("fysik", "smidighet", "intelligens", "psyke", "personlighet", "vaksamhet")
# The document's färdigheter under their grundegenskap ("spelarresurser: färdigheter").
GRUPPER = {
    "fysik": ("kasta", "narstrid", "enkelskott", "automateld"),
    "smidighet": ("akrobatik", "fingerfardighet", "lonndom", "sakerhetssystem"),
    "intelligens": ("bioteknik", "codex_cardinalus", "konsten", "kunskap", "medicin", "mekanik"),
    "personlighet": ("etikett", "fixare", "media", "valtalighet"),
    "vaksamhet": ("djurvana", "flygfarkoster", "markfordon", "overlevnad"),
}
FARDIGHETER = tuple(f for group in GRUPPER.values() for f in group)
GRUND_FOR = {f: g for g, group in GRUPPER.items() for f in group}
# Kunskap is "Egenpåhittade färdigheter": one färdighet per inriktning, kept in
# `fardigheter` as KUNSKAP + the inriktning's id (kunskap_sprangamnen), never bare.
KUNSKAP = "kunskap_"
FASTA = tuple(f for f in FARDIGHETER if f != "kunskap")  # every färdighet but Kunskap
WEAPON_SKILLS = GRUPPER["fysik"]
RESURSER = ("tillgangar", "k_marker", "korruption")
EFFECT_KEYS = frozenset(GRUNDEGENSKAPER + FASTA + RESURSER)
KON = {"male": "man", "female": "kvinna"}

SPECS = {
    "regler": Spec(
        "settings",
        fields={
            "hjaltepoang": "int[0..100]!",
            "k_marker": "int[0..100]!",
            "slas_ut_pa_bas": "int[0..100]!",
            "varde_min": "int[0..100]!",
            "varde_max": "int[1..100]!",
            "grundegenskap_tarning": "dice[1..100]!",
            "grundegenskap_traff": "int[1..100]!",
            "uppvaxthandelser_antal": "int[0..20]!",
            "uppvaxt_allman": "table:roll!",
            "karriarer_min": "int[1..20]!",
            "karriarer_max": "int[1..20]!",
            "beskrivningsord_antal": "int[0..20]!",
            "utrustning_max_per_fardighet": "int[0..100]!",
            "utrustning_max_per_foremal": "int[0..100]!",
            "rustning_fardighet": "str!",
            "rustning_vikt": "int[0..1000]!",
            "konsten_max": "int[0..20]!",
            "npc_grundegenskap": "int[0..100]!",
            "npc_fardighet_bas": "int[0..100]!",
            "hojning_kostnad": "int[1..100]!",
            "hojning_grundegenskap_bas": "int[0..100]!",
            "hojning_tarning": "dice[1..1000]!",
            "bioteknik_korporation": "id:megakorporationer!",
        },
        order=(("varde_min", "varde_max"), ("karriarer_min", "karriarer_max")),
    ),
    "regeltext": Spec(
        "settings",
        fields={
            k: "str!"
            for k in (
                "satsa",
                "k_marker",
                "hjaltepoang",
                "bekanta",
                "ode",
                "skada",
                "slas_ut_pa",
                "initiativ",
                "namnlos",
                "namngiven",
                "stridsmanovrar",
                "konsten_sidoeffekt",
                "konsten_teori",
                "korruption",
                "bioteknik",
                "etikett",
                "utrustning",
            )
        },
    ),
    "grundegenskaper": Spec("definitions"),
    "fardigheter": Spec("definitions", fields={"grundegenskap": "id:grundegenskaper!"}),
    "kunskap": Spec("definitions"),
    "stridsmanovrar": Spec("definitions", fields={"fardigheter": "list[id:fardigheter]+!"}),
    "skada": Spec(
        "definitions", fields={"min": "int[0..1000]!", "modifikation": "int[-100..100]!"}
    ),
    "konsten_grader": Spec("definitions", fields={"skada": "int[0..100]!"}),
    "konsten_varaktighet": Spec("definitions", fields={"skada": "int[0..100]!"}),
    "konsten_rackvidd": Spec("definitions", fields={"skada": "int[0..100]!"}),
    "storlekar": Spec("definitions", fields={"slas_ut_pa": "int[0..100]!"}),
    "epitet": Spec("definitions"),
    "nivaer": Spec("definitions", fields={"niva": "int[0..100]!", "min": "int[0..1000]!"}),
    "tillgangar_band": Spec("definitions", fields={"min": "int[0..1000]!"}),
    "rykte_band": Spec("definitions", fields={"min": "int[0..1000]!"}),
    "sinnesryckning": Spec("definitions", fields={"min": "int[0..1000]!"}),
    "konsten": Spec("definitions"),
    "megakorporationer": Spec(
        "definitions",
        fields={
            "locales": "list[locale]+!",
            "namntabell": "table:settings",
            "titel": "text",
            "uppvaxt": "table:roll",
        },
    ),
    "namn_*": NAME_SPEC,
    "arketyper": Spec(
        "definitions",
        fields={
            **{g: "int[0..20]!" for g in GRUNDEGENSKAPER},
            "tillgangar": "dice!",
            "konsten": "str",
            "kunskap": "dict[int]",
            "vapen": "list[str]",
        },
    ),
    "karriarer": Spec(
        "definitions",
        fields={
            "handelser": "table:roll!",
            "kunskap": "dict[int]",
        },
    ),
    "karriarhandelser_*": Spec("roll", fields={"kontakt": "str", "kunskap": "dict[int]"}),
    "uppvaxthandelser": Spec("roll", fields={"kontakt": "str", "kunskap": "dict[int]"}),
    "uppvaxthandelser_*": Spec("roll", fields={"kontakt": "str", "kunskap": "dict[int]"}),
    "beskrivningsord_kategorier": Spec("definitions"),
    "beskrivningsord_*": Spec("definitions"),
    "utrustning_*": Spec(
        "definitions",
        fields={
            "stridsmanovrar": "list[id:stridsmanovrar]",
        },
    ),
    "hojningar": Spec("definitions"),
    "mallar": Spec(
        "definitions",
        fields={
            "storlek": "id:storlekar!",
            "slas_ut_pa": "int[0..100]",
            "manniska": "bool",
            "utrustning": "int[0..20]",
            "apostel": "str",
            "korruption": "int[0..100]",
            "korruptionsvarde": "int[0..100]",
            "vapen": "list[str]",
        },
    ),
}

# Display words live in tables/matinee/etiketter.toml (chargen.labels).
LABELS = builtin_labels("matinee")


# -- helpers -------------------------------------------------------------------


def _rules(ctx: Context) -> dict:
    return ctx.settings("regler")


def _clamp(value: int, low: int, high: int | None = None) -> int:
    value = max(low, value)
    return value if high is None else min(high, value)


def apply_effects(char: dict, effects: dict, ctx: Context) -> None:
    """Add a table row's effects: grundegenskaper (never below 0), färdigheter and
    Tillgångar (kept within 0-18), k-marker and korruption (never below 0)."""
    if not effects:
        return
    rules = _rules(ctx)
    low, high = rules["varde_min"], rules["varde_max"]
    for key, amount in effects.items():
        if key in GRUNDEGENSKAPER:
            char["grundegenskaper"][key] = _clamp(char["grundegenskaper"][key] + amount, 0)
        elif key in GRUND_FOR:
            char["fardigheter"][key] = _clamp(char["fardigheter"][key] + amount, low, high)
        elif key == "tillgangar":
            char["tillgangar"] = _clamp(char["tillgangar"] + amount, low, high)
        else:  # k_marker, korruption
            char[key] = _clamp(char.get(key, 0) + amount, 0)


def grund_for(skill: str) -> str:
    """The grundegenskap a färdighet belongs to (every Kunskap inriktning: Intelligens)."""
    return GRUND_FOR.get(skill) or GRUND_FOR["kunskap"]


def add_kunskap(char: dict, points: dict, ctx: Context) -> None:
    """Kunskap points per inriktning ({sprangamnen: 2}): each inriktning is its own
    färdighet, `kunskap_<id>`, kept within 0-18; one that falls to 0 is dropped."""
    if not points:
        return
    rules = _rules(ctx)
    skills = char["fardigheter"]
    for inriktning, amount in points.items():
        key = KUNSKAP + inriktning
        value = _clamp(skills.get(key, 0) + amount, rules["varde_min"], rules["varde_max"])
        if value > 0:
            skills[key] = value
        else:
            skills.pop(key, None)


def _event(ctx: Context, table: str, why: str, char: dict) -> dict:
    """Roll one event on `table`, apply its effects, note its contact."""
    rows = ctx.roll_table(table, why)
    row = rows[0]
    rolled = next((e.get("roll") for e in reversed(ctx.historik) if e.get("table") == table), None)
    effects: dict[str, int] = {}
    kunskap: dict[str, int] = {}
    for reached in rows:  # the row rolled and every row its `ref`s reached
        apply_effects(char, reached.get("effects", {}), ctx)
        for key, amount in reached.get("effects", {}).items():
            effects[key] = effects.get(key, 0) + amount
        if reached.get("kunskap"):
            add_kunskap(char, reached["kunskap"], ctx)
            ctx.log(kunskap=dict(reached["kunskap"]))
            for key, amount in reached["kunskap"].items():
                kunskap[key] = kunskap.get(key, 0) + amount
        if reached.get("kontakt"):
            char.setdefault("kontakter", []).append(reached["kontakt"])
    text = " ".join(ctx.text(r["result"]) for r in rows if r.get("result"))
    event = {"tabell": table, "slag": rolled, "handelse": text}
    if effects:
        event["effekter"] = effects
    if kunskap:
        event["kunskap"] = kunskap
    if row.get("kontakt"):
        event["kontakt"] = row["kontakt"]
    return event


def _band(ctx: Context, table: str, value: int) -> dict:
    """The entry of a band table (`min` per entry) that `value` falls in: the last by `min`
    that `value` reaches, the lowest when it reaches none."""
    mins, entries = _bands(ctx, table)
    return entries[max(bisect(mins, value) - 1, 0)]


def _bands(ctx: Context, table: str) -> tuple[list[int], list[dict]]:
    """A band table's entries sorted by `min`, and their mins, once per batch."""
    found = ctx.cache.get(("band", table))
    if found is None:
        entries = sorted(ctx.table(table).entries, key=lambda e: e["min"])
        found = ctx.cache[("band", table)] = ([e["min"] for e in entries], entries)
    return found


def _corp_allows(entry: dict, corporation: str) -> bool:
    """Whether an entry's own megakorporation condition lets `corporation` have it
    (for the linter, which has no character: other facts are not looked at)."""
    when = (entry.get("when") or {}).get("megakorporation")
    unless = (entry.get("unless") or {}).get("megakorporation")
    if isinstance(when, str):
        when = [when]
    if isinstance(unless, str):
        unless = [unless]
    return (when is None or corporation in when) and corporation not in (unless or ())


def t10_reading(dice) -> list[int]:
    """The document's T10: "Noll på tärningen är alltid noll", the ten reads 0."""
    return [0 if d == 10 else d for d in dice]


# -- the steps ---------------------------------------------------------------------


def megakorporation(char: dict, ctx: Context) -> None:
    """Step 1: välj en megakorporation (steered by --arketyp and --karriar)."""
    entry = ctx.choose("megakorporation", "megakorporationer")
    char["megakorporation"] = entry["id"]
    char["megakorporation_namn"] = ctx.text(entry["name"])


def person_name(ctx: Context, corporation: dict) -> tuple[str, str]:
    """A name in the corporation's style and the character's gender: its authored
    table, else one of its Faker locales (`--locale` overrides both), with the
    corporation's title for that gender. Returns (name, "man" | "kvinna")."""
    table = corporation.get("namntabell")
    if ctx.locale is None and table:
        name, gender = ctx.authored_name(table)
    else:
        locales = corporation["locales"]
        locale = locales[int(ctx.rng.random() * len(locales))]
        name, gender = ctx.person_name(locale, latin=True)
    title = ctx.text(corporation["titel"]) if corporation.get("titel") else ""
    return (f"{title} {name}" if title else name), KON[gender]


def namn(char: dict, ctx: Context) -> None:
    corporation = ctx.table("megakorporationer").get(char["megakorporation"])
    char["name"], char["kon"] = person_name(ctx, corporation)


def hjaltepoang(char: dict, ctx: Context) -> None:
    """Step 2: två hjältepoäng (and the five k-marker every player starts with)."""
    rules = _rules(ctx)
    char["hjaltepoang"] = rules["hjaltepoang"]
    char["k_marker"] = rules["k_marker"]
    ctx.log(hjaltepoang=char["hjaltepoang"], k_marker=char["k_marker"])


def arketyp(char: dict, ctx: Context) -> None:
    """Step 3: the arketyp's dice per grundegenskap and its Tillgångar die; only an
    arketyp whose conditions fit the corporation (steered by --karriar)."""
    entry = ctx.choose("arketyp", "arketyper")
    rules = _rules(ctx)
    die, hit = rules["grundegenskap_tarning"], rules["grundegenskap_traff"]
    values = {}
    for key in GRUNDEGENSKAPER:
        count = entry[key]
        if count <= 0:
            values[key] = 0
            ctx.log(grundegenskap=key, tarningar=0, varde=0)
            continue
        roll = ctx.roll(f"{count}{die}", key)
        values[key] = sum(1 for d in roll.dice if d >= hit)
        ctx.log(grundegenskap=key, tarningar=count, varde=values[key])
    low, high = rules["varde_min"], rules["varde_max"]
    rolled = ctx.roll(entry["tillgangar"], "tillgangar").total
    char["arketyp"] = entry["id"]
    char["arketyp_namn"] = ctx.text(entry["name"])
    char["grundegenskaper"] = values
    char["tillgangar"] = _clamp(rolled, low, high)
    char["fardigheter"] = dict.fromkeys(FASTA, 0)
    char["korruption"] = 0
    char["kontakter"] = []
    ctx.log(tillgangar=char["tillgangar"])
    if entry.get("effects"):
        apply_effects(char, entry["effects"], ctx)
        ctx.log(arketyp=entry["id"], effects=dict(entry["effects"]))
    if entry.get("kunskap"):
        add_kunskap(char, entry["kunskap"], ctx)
        ctx.log(arketyp=entry["id"], kunskap=dict(entry["kunskap"]))


def uppvaxthandelser(char: dict, ctx: Context) -> None:
    """Step 4: two uppväxthändelser, the first on the corporation's own table."""
    rules = _rules(ctx)
    corporation = ctx.table("megakorporationer").get(char["megakorporation"])
    tables = [rules["uppvaxt_allman"]] * rules["uppvaxthandelser_antal"]
    if corporation.get("uppvaxt") and tables:
        tables[0] = corporation["uppvaxt"]
    char["uppvaxthandelser"] = [_event(ctx, t, "uppvaxthandelse", char) for t in tables]


def karriarer(char: dict, ctx: Context) -> None:
    """Step 5: two or three karriärer whose conditions fit the arketyp and the
    corporation; the player says how many and which (--karriar, or the prompt)."""
    rules = _rules(ctx)
    low, high = rules["karriarer_min"], rules["karriarer_max"]
    careers = ctx.table("karriarer")
    allowed = [e for e in careers.entries if ctx.fits(e)]
    given = ctx.option("karriar") or []
    if len(given) > high:
        raise ChargenError(f"--karriar given {len(given)} times: a character takes {low} to {high}")
    if given:
        chosen = ctx.choose_many("karriar", "karriarer", len(given), allowed)
        if len(chosen) < low:
            taken = tuple(e["id"] for e in chosen)
            extra = ctx.draw("karriarer", low - len(chosen), among=allowed, exclude=taken)
            for entry in extra:
                ctx.log(choice="karriar", id=entry["id"], name=ctx.text(entry["name"]), by="random")
            chosen += extra
    else:
        most = min(high, len(allowed))
        if most < low:
            raise ChargenError(
                f"only {len(allowed)} karriärer are open to {char['arketyp_namn']} at "
                f"{char['megakorporation_namn']}; a character needs {low}"
            )
        count = ctx.ask_number(
            "antal_karriarer",
            low,
            most,
            lambda: low + int(ctx.rng.random() * (most - low + 1)),
        )
        ctx.log(antal_karriarer=count)
        chosen = ctx.choose_many("karriar", "karriarer", count, allowed)
    char["karriarer"] = []
    for entry in chosen:
        if entry.get("effects"):
            apply_effects(char, entry["effects"], ctx)
            ctx.log(karriar=entry["id"], effects=dict(entry["effects"]))
        if entry.get("kunskap"):
            add_kunskap(char, entry["kunskap"], ctx)
            ctx.log(karriar=entry["id"], kunskap=dict(entry["kunskap"]))
        event = _event(ctx, entry["handelser"], entry["id"], char)
        career = {"id": entry["id"], "namn": ctx.text(entry["name"])}
        career["effekter"] = dict(entry.get("effects", {}))
        if entry.get("kunskap"):
            career["kunskap"] = dict(entry["kunskap"])
        career["handelse"] = event
        char["karriarer"].append(career)


def beskrivningsord(char: dict, ctx: Context) -> None:
    """Step 6: "Hitta på två beskrivningsord": two words from two different
    categories (one file each); at the prompt the player picks the categories and
    the words, and may then keep each word or write one of their own."""
    count = _rules(ctx)["beskrivningsord_antal"]
    categories = ctx.choose_many("kategori", "beskrivningsord_kategorier", count)
    words = []
    for category in categories:
        table = f"beskrivningsord_{category['id']}"
        word = ctx.choose(table, table)  # one option per category: a prompt's answer holds
        words.append({"id": word["id"], "ord": ctx.text(word["name"]), "kategori": category["id"]})
    if ctx.prompter is not None:
        for n, word in enumerate(words):
            own = ctx.ask_text(f"eget_beskrivningsord_{n + 1}", word["ord"]).strip()
            if own and own != word["ord"]:
                words[n] = {"id": None, "ord": own, "kategori": "eget"}
    char["beskrivningsord"] = words


def _items(ctx: Context, skill: str) -> list[dict]:
    """The items of utrustning_<skill>.toml that fit this character (its corporation,
    arketyp, what it already has); only the files a character needs are read."""
    name = item_file(skill)
    if name not in ctx.tables:
        return []
    return list(ctx.pool(name).entries)  # memoised per batch by what decides it


def item_file(skill: str) -> str:
    """The utrustning file of a färdighet; every Kunskap inriktning shares utrustning_kunskap."""
    return "utrustning_kunskap" if skill.startswith(KUNSKAP) else f"utrustning_{skill}"


def _has_items(ctx: Context, skill: str) -> bool:
    found = ctx.cache.get("item_skills")
    if found is None:  # the färdigheter (and armour) that have an utrustning file
        skills = (*FARDIGHETER, _rules(ctx)["rustning_fardighet"])
        found = ctx.cache["item_skills"] = {f for f in skills if f"utrustning_{f}" in ctx.tables}
    return ("kunskap" if skill.startswith(KUNSKAP) else skill) in found


def _weighted(rng, weights: dict[str, int]) -> str:
    pool = list(weights.items())
    point = rng.random() * sum(w for _, w in pool)
    for key, weight in pool:
        point -= weight
        if point < 0:
            return key
    return pool[-1][0]


def _is_weapon(item: dict) -> bool:
    return "vapen" in item.get("tags", ())


def _manovrar(ctx: Context, skill: str, item: dict) -> list[str]:
    """The stridsmanövrar a weapon allows: its own list, else its färdighet's."""
    if item.get("stridsmanovrar"):
        return list(item["stridsmanovrar"])
    key = ("manovrar", skill)
    found = ctx.cache.get(key)
    if found is None:
        found = ctx.cache[key] = [
            e["id"] for e in ctx.table("stridsmanovrar").entries if skill in e["fardigheter"]
        ]
    return list(found)


def _gear_item(ctx: Context, item: dict, skill: str, bonus: int) -> dict:
    """An item as the character carries it (noted, so its exclusions hold)."""
    ctx.note(item, item_file(skill))
    out = {"namn": ctx.text(item["name"]), "fardighet": skill, "bonus": bonus}
    if _is_weapon(item):
        out["vapen"] = True
        out["stridsmanovrar"] = _manovrar(ctx, skill, item)
    return out


def _weapon(ctx: Context, char: dict, taken: set[str]) -> tuple[str, dict] | None:
    """A weapon for the character: of its best vapenfärdighet (one drawn evenly among
    equals), so a prickskytt with Enkelskott 18 carries a gun, not a knife; an item
    tagged `vapen` of that färdighet that fits the character. None only in a pack with
    no weapon at all for it."""
    options = {}
    for skill in WEAPON_SKILLS:
        items = [e for e in _items(ctx, skill) if _is_weapon(e) and e["id"] not in taken]
        if items:
            options[skill] = items
    if not options:
        return None
    best = max(char["fardigheter"].get(s, 0) for s in options)
    skill = _weighted(ctx.rng, {s: 1 for s in options if char["fardigheter"].get(s, 0) == best})
    items = options[skill]
    return skill, items[int(ctx.rng.random() * len(items))]


def _own_weapon(ctx: Context, char: dict) -> tuple[str, dict] | None:
    """The weapon the arketyp always carries (its `vapen`: a samuraj's katana), the
    first of them that fits the character; None when it names none."""
    wanted = ctx.table("arketyper").get(char["arketyp"]).get("vapen") or ()
    for item_id in wanted:
        for skill in WEAPON_SKILLS:
            for item in _items(ctx, skill):
                if item["id"] == item_id and _is_weapon(item):
                    return skill, item
    return None


def utrustning(char: dict, ctx: Context) -> None:
    """Step 7: half of Tillgångar rounded up in bonuses, at most +5 to one färdighet.

    First a weapon ("alla rollpersoner har ett vapen"), its bonus counted in the
    budget (+0 when the budget is 0); then items for färdigheter drawn weighted by
    the character's value in them, armour (`rustning`) with its own weight. Each
    item gets +1 up to `utrustning_max_per_foremal`; no item is taken twice.
    Armour raises Slås ut på."""
    rules = _rules(ctx)
    budget = (char["tillgangar"] + 1) // 2
    cap, per_item = rules["utrustning_max_per_fardighet"], rules["utrustning_max_per_foremal"]
    armour = rules["rustning_fardighet"]
    used: dict[str, int] = {}
    taken: set[str] = set()
    gear: list[dict] = []
    left = budget
    rand = ctx.rng.random

    def take(item: dict, target: str) -> None:
        nonlocal left
        most = min(per_item, left, cap - used.get(target, 0))
        bonus = 1 + int(rand() * most) if most > 0 else 0
        taken.add(item["id"])
        used[target] = used.get(target, 0) + bonus
        left -= bonus
        gear.append(_gear_item(ctx, item, target, bonus))
        ctx.log(utrustning=item["id"], fardighet=target, bonus=bonus)

    weapon = _own_weapon(ctx, char) or _weapon(ctx, char, taken)
    if weapon is not None:
        take(weapon[1], weapon[0])
    weights = {f: v for f, v in char["fardigheter"].items() if v > 0 and _has_items(ctx, f)}
    if not weights:
        weights = {f: 1 for f in FASTA if _has_items(ctx, f)}
    if _has_items(ctx, armour):
        weights[armour] = rules["rustning_vikt"]
    while left > 0:
        open_ = {f: w for f, w in weights.items() if used.get(f, 0) < cap}
        if not open_:
            break
        target = _weighted(ctx.rng, open_)
        items = [e for e in _items(ctx, target) if e["id"] not in taken]
        if not items:  # nothing (left) for this corporation here
            del weights[target]
            continue
        take(items[int(rand() * len(items))], target)
    if ctx.prompter is not None:
        gear, left = _edit_gear(ctx, char, gear, budget, taken)
    char["utrustning"] = gear
    ctx.log(bonusar=budget, fordelade=budget - left)


def _edit_gear(
    ctx: Context, char: dict, gear: list[dict], budget: int, taken: set[str]
) -> tuple[list[dict], int]:
    """ "Hitta på utrustning" at the prompt: keep some of the drawn items, add others
    that fit (+1 each), then name items of one's own; the budget and the +5 per
    färdighet hold, and a weapon stays (the drawn one comes back if none is kept)."""
    rules = _rules(ctx)
    cap, per_item = rules["utrustning_max_per_fardighet"], rules["utrustning_max_per_foremal"]
    skills = [f for f, v in char["fardigheter"].items() if v > 0 and _has_items(ctx, f)]
    pool = []  # what may be added: a few items for each of the character's best färdigheter
    ranked = sorted(skills, key=lambda f: -char["fardigheter"][f])[:6]
    for skill in ranked or [f for f in WEAPON_SKILLS if _has_items(ctx, f)]:
        fresh = [i for i in _items(ctx, skill) if i["id"] not in taken]
        pool += [(item, skill) for item in fresh[:3] if all(item is not p[0] for p in pool)]
    offered = [{"namn": ctx.text(i["name"]), "fardighet": s, "bonus": 1} for i, s in pool]
    kept = ctx.ask_list("utrustning", gear, offered, show=_item_text(ctx.tables))
    if not any(i.get("vapen") for i in kept) and any(i.get("vapen") for i in gear):
        kept.insert(0, next(i for i in gear if i.get("vapen")))
    out: list[dict] = []
    used: dict[str, int] = {}
    left = budget
    for item in kept:
        if item in offered:  # an added item: noted like a drawn one, at +1
            source, skill = pool[offered.index(item)]
            item = _gear_item(ctx, source, skill, 1)
        bonus = min(item["bonus"], left, cap - used.get(item["fardighet"], 0))
        if bonus <= 0 and not (item.get("vapen") and not out):
            continue  # no budget left for it (a lone weapon may stay at +0)
        item = dict(item, bonus=max(bonus, 0))
        used[item["fardighet"]] = used.get(item["fardighet"], 0) + item["bonus"]
        left -= item["bonus"]
        out.append(item)
    nothing = ctx.labels("inget_foremal")
    name = ctx.ask_text("eget_foremal", nothing).strip() if left > 0 else ""
    if name and name != nothing:  # one item of the player's own, at +1
        open_ = [e for e in ctx.table("fardigheter").entries if used.get(e["id"], 0) < cap]
        skill = ctx.choose("foremal_fardighet", "fardigheter", open_)["id"]
        if skill == "kunskap":
            owned = [k for k in char["fardigheter"] if k.startswith(KUNSKAP)]
            if len(owned) == 1:
                skill = owned[0]
            elif owned:
                skill = _ask_skill(ctx, owned)
            else:
                skill = KUNSKAP + ctx.choose("foremal_kunskap", "kunskap")["id"]
        out.append({"namn": name, "fardighet": skill, "bonus": 1})
        used[skill] = used.get(skill, 0) + 1
        left -= 1
    for item in out:  # what is left of the budget goes on the items kept, within the caps
        while left > 0 and item["bonus"] < per_item and used.get(item["fardighet"], 0) < cap:
            item["bonus"] += 1
            used[item["fardighet"]] = used.get(item["fardighet"], 0) + 1
            left -= 1
    return out, left


def _roll_2t10(ctx: Context, why: str) -> int:
    roll = ctx.roll(_rules(ctx)["hojning_tarning"], why)
    return sum(t10_reading(roll.dice)) + (roll.total - sum(roll.dice))


PENDING_FOREMAL = "_foremal"  # föremål raises paid for before utrustning, rolled after it


def spendera_hjaltepoang(char: dict, ctx: Context) -> None:
    """With --spend-hjaltepoang: raises at 2 hjältepoäng each, by the document's rules.

    They are bought before utrustning (creation order: a raised Tillgångar gives
    the larger budget); a raise of a föremål is paid here and rolled once the
    utrustning exists (step `foremal`)."""
    char["hojningar"] = []
    if not ctx.option("spend_hjaltepoang"):
        return
    cost = _rules(ctx)["hojning_kostnad"]
    kinds = ctx.table("hojningar")
    while char["hjaltepoang"] >= cost:
        if ctx.prompter is None:
            kind = kinds.pick(ctx.rng)["id"]
        else:  # the player says what the raise goes to
            kind = ctx.choose("hojning", "hojningar")["id"]
        char["hjaltepoang"] -= cost
        if kind == "foremal":
            char[PENDING_FOREMAL] = char.get(PENDING_FOREMAL, 0) + 1
            ctx.log(hojning=kind, hjaltepoang=cost, efter="utrustning")
            continue
        _record(char, ctx, _raise(char, ctx, kind), cost)


def _ask_skill(ctx: Context, keys: list[str]) -> str:
    """The färdighet a raise goes to, asked: first the färdighet, then for Kunskap
    which inriktning."""
    plain = {k if not k.startswith(KUNSKAP) else "kunskap" for k in keys}
    pool = [e for e in ctx.table("fardigheter").entries if e["id"] in plain]
    skill = ctx.choose("hojning_fardighet", "fardigheter", pool)["id"]
    if skill != "kunskap":
        return skill
    inriktningar = {k[len(KUNSKAP) :] for k in keys if k.startswith(KUNSKAP)}
    pool = [e for e in ctx.table("kunskap").entries if e["id"] in inriktningar]
    return KUNSKAP + ctx.choose("hojning_kunskap", "kunskap", pool)["id"]


def _item_text(tables: Tables):
    """How an item reads at the prompt: "Machete (Närstrid +2)"."""

    def show(item: dict) -> str:
        return f"{item['namn']} ({skill_label(item['fardighet'], tables)} {_signed(item['bonus'])})"

    return show


def foremal(char: dict, ctx: Context) -> None:
    """The föremål raises paid for before utrustning, rolled now that it exists."""
    cost = _rules(ctx)["hojning_kostnad"]
    for _ in range(char.pop(PENDING_FOREMAL, 0)):
        if char["utrustning"]:
            _record(char, ctx, _raise(char, ctx, "foremal"), cost)


def _record(char: dict, ctx: Context, record: dict, cost: int) -> None:
    record["hjaltepoang"] = cost
    char["hojningar"].append(record)
    ctx.log(hojning=record["typ"], **{k: v for k, v in record.items() if k != "hjaltepoang"})


def _raise(char: dict, ctx: Context, kind: str) -> dict:
    rules = _rules(ctx)
    rand = ctx.rng.random
    high = rules["varde_max"]
    if kind == "grundegenskap":
        if ctx.prompter is None:
            key = GRUNDEGENSKAPER[int(rand() * len(GRUNDEGENSKAPER))]
        else:
            key = ctx.choose("hojning_grundegenskap", "grundegenskaper")["id"]
        value = char["grundegenskaper"][key]
        need = rules["hojning_grundegenskap_bas"] + value
        rolled = _roll_2t10(ctx, f"höja {key}")
        ok = rolled > need
        if ok:
            char["grundegenskaper"][key] = value + 1
        return {"typ": kind, "mal": key, "slag": rolled, "over": need, "lyckat": ok}
    if kind == "fardighet":
        skills = char["fardigheter"]
        learned = [f for f in skills if skills[f] > 0] or list(FASTA)
        if ctx.prompter is None:
            key = learned[int(rand() * len(learned))]
        else:
            key = _ask_skill(ctx, learned)
        value = skills[key]
        bonus = char["grundegenskaper"][grund_for(key)]
        rolled = _roll_2t10(ctx, f"höja {key}")
        ok = rolled + bonus > value and value < high
        if ok:
            skills[key] = value + 1
        return {"typ": kind, "mal": key, "slag": rolled, "plus": bonus, "over": value, "lyckat": ok}
    if kind == "tillgangar":
        value = char["tillgangar"]
        rolled = _roll_2t10(ctx, "höja tillgangar")
        ok = rolled > value and value < high
        if ok:
            char["tillgangar"] = value + 1
        return {"typ": kind, "mal": "tillgangar", "slag": rolled, "over": value, "lyckat": ok}
    # föremål: roll under Tillgångar less the item's bonus; 0 (00) always fails
    gear = char["utrustning"]
    if ctx.prompter is None:
        item = gear[int(rand() * len(gear))]
    else:
        kept = ctx.ask_list("hojning_foremal", gear, show=_item_text(ctx.tables))
        # one number picks that item; an empty answer (the whole list) leaves it to chance
        item = kept[0] if len(kept) == 1 else gear[int(rand() * len(gear))]
    against = char["tillgangar"] - item["bonus"]
    rolled = _roll_2t10(ctx, f"höja {item['namn']}")
    total_for = sum(i["bonus"] for i in char["utrustning"] if i["fardighet"] == item["fardighet"])
    ok = 0 < rolled <= against and total_for < rules["utrustning_max_per_fardighet"]
    if ok:
        item["bonus"] += 1
    return {"typ": kind, "mal": item["namn"], "slag": rolled, "mot": against, "lyckat": ok}


def harledda(char: dict, ctx: Context) -> None:
    """The derived values: Rykte, Bekanta, Öde, Slås ut på, Nivåer, band, Konsten, initiativ."""
    rules = _rules(ctx)
    ge = char["grundegenskaper"]
    char["rykte"] = ge["personlighet"] + ge["psyke"]
    char["rykte_band"] = _band(ctx, "rykte_band", char["rykte"])["name"]
    char["bekanta_max"] = ge["personlighet"]
    char["ode_max"] = ge["psyke"]
    armour = sum(
        i["bonus"] for i in char["utrustning"] if i["fardighet"] == rules["rustning_fardighet"]
    )
    char["rustningsbonus"] = armour
    char["slas_ut_pa"] = rules["slas_ut_pa_bas"] + armour
    mins, levels = _bands(ctx, "nivaer")
    char["nivaer"] = {
        f: levels[max(bisect(mins, v) - 1, 0)]["niva"] for f, v in char["fardigheter"].items()
    }
    char["tillgangar_niva"] = _band(ctx, "nivaer", char["tillgangar"])["niva"]
    char["tillgangar_band"] = _band(ctx, "tillgangar_band", char["tillgangar"])["name"]
    char["initiativ"] = max(char["fardigheter"][f] for f in GRUPPER["fysik"])
    char["sinnesryckning"] = _band(ctx, "sinnesryckning", char["korruption"])["name"]
    char["bioteknik_mycket_svart"] = char["megakorporation"] != rules["bioteknik_korporation"]
    arch = ctx.table("arketyper").get(char["arketyp"])
    mode = arch.get("konsten")
    if mode == "en":
        count = 1
    elif mode == "psyke":  # as many as Psyke; a mystiker knows at least one
        count = max(1, min(ge["psyke"], rules["konsten_max"]))
    elif mode is None:
        count = 0
    else:  # a pack used without `tables check`: the same fault check_pack reports
        raise TableError(check_pack(ctx.tables))
    chosen = []
    if count > 0:  # konsten.toml is read only for those who use the Art
        count = min(count, len(ctx.table("konsten").entries))
        chosen = ctx.choose_many("inriktning", "konsten", count)
    char["konsten"] = [e["id"] for e in chosen]
    ctx.log(rykte=char["rykte"], slas_ut_pa=char["slas_ut_pa"], initiativ=char["initiativ"])


KONSTEN_MODES = ("en", "psyke")  # an inkvisitor's one inriktning, a mystiker's as many as Psyke


KUNSKAP_TABLES = ("arketyper", "karriarer", "karriarhandelser_*", "uppvaxthandelser*")


def check_pack(tables: Tables) -> list[Problem]:
    """What the specs cannot say: an arketyp's konsten is "en" or "psyke"; every
    `kunskap` names inriktningar of kunskap.toml with points other than 0; every
    megakorporation has a weapon ("alla rollpersoner har ett vapen")."""
    from fnmatch import fnmatch

    table = tables["arketyper"]
    kategorier = tables["beskrivningsord_kategorier"]
    problems = [
        Problem(
            str(table.path),
            key_line(table.text, "konsten", index),
            f"konsten = {entry['konsten']!r}: it must be one of {', '.join(KONSTEN_MODES)}",
        )
        for index, entry in enumerate(table.entries)
        if entry.get("konsten", KONSTEN_MODES[0]) not in KONSTEN_MODES
    ] + [
        Problem(
            str(kategorier.path),
            key_line(kategorier.text, "id", index),
            f"kategori '{entry['id']}' has no word table beskrivningsord_{entry['id']}.toml",
        )
        for index, entry in enumerate(kategorier.entries)
        if f"beskrivningsord_{entry['id']}" not in tables
    ]
    inriktningar = tables["kunskap"]
    for name in sorted(tables.files):
        if not any(fnmatch(name, pattern) for pattern in KUNSKAP_TABLES):
            continue
        table = tables[name]
        for index, entry in enumerate(table.entries):
            for key, points in (entry.get("kunskap") or {}).items():
                if key not in inriktningar:
                    why = f"unknown Kunskap inriktning '{key}' (kunskap.toml has {', '.join(inriktningar.ids)})"
                elif points == 0:
                    why = f"kunskap {key} = 0: give points or leave the inriktning out"
                else:
                    continue
                problems.append(
                    Problem(str(table.path), key_line(table.text, "kunskap", index), why)
                )
    weapons = [
        e
        for skill in WEAPON_SKILLS
        if f"utrustning_{skill}" in tables.files
        for e in tables[f"utrustning_{skill}"].entries
        if _is_weapon(e)
    ]
    arketyper = tables["arketyper"]
    ids = {e["id"] for e in weapons}
    for index, entry in enumerate(arketyper.entries):
        for item_id in entry.get("vapen") or ():
            if item_id not in ids:
                problems.append(
                    Problem(
                        str(arketyper.path),
                        key_line(arketyper.text, "vapen", index),
                        f"vapen '{item_id}' of arketyp '{entry['id']}' is no utrustning item "
                        "tagged vapen",
                    )
                )
    corps = tables["megakorporationer"]
    for index, corp in enumerate(corps.entries):
        if not any(_corp_allows(e, corp["id"]) for e in weapons):
            problems.append(
                Problem(
                    str(corps.path),
                    corps.entry_line(index),
                    f"no weapon (an utrustning item tagged vapen) is open to {corp['id']}: "
                    "every character carries one",
                )
            )
    return problems


PC_STEPS = [
    Step(
        "megakorporation",
        megakorporation,
        fields=("megakorporation", "megakorporation_namn"),
        lists=("megakorporationer",),
        label="Megakorporation",
        help="Step 1: the megakorporation (--megakorporation).",
    ),
    Step("namn", namn, fields=("name", "kon"), command=False),
    Step(
        "hjaltepoang",
        hjaltepoang,
        fields=("hjaltepoang", "k_marker"),
        lists=("regler",),
        label="Hjältepoäng",
        help="Step 2: two hjältepoäng (and five k-marker).",
    ),
    Step(
        "arketyp",
        arketyp,
        fields=("arketyp", "arketyp_namn", "grundegenskaper", "tillgangar", "fardigheter"),
        lists=("arketyper",),
        label="Arketyp",
        help="Step 3: the arketyp (--arketyp): T10 per grundegenskap, Tillgångar.",
    ),
    Step(
        "uppvaxthandelser",
        uppvaxthandelser,
        fields=("uppvaxthandelser", "grundegenskaper", "fardigheter", "tillgangar", "kontakter"),
        lists=("uppvaxthandelser*",),
        label="Uppväxthändelser",
        help="Step 4: two uppväxthändelser, effects applied.",
    ),
    Step(
        "karriarer",
        karriarer,
        fields=("karriarer", "fardigheter", "kontakter"),
        lists=("karriarer", "karriarhandelser_*"),
        label="Karriärer",
        help="Step 5: two or three karriärer (--karriar), each with a karriärhändelse.",
    ),
    Step(
        "beskrivningsord",
        beskrivningsord,
        fields=("beskrivningsord",),
        lists=("beskrivningsord_*",),
        label="Beskrivningsord",
        help="Step 6: two different beskrivningsord.",
    ),
    Step(
        "spendera",
        spendera_hjaltepoang,
        fields=("hjaltepoang", "hojningar", "grundegenskaper", "fardigheter", "tillgangar"),
        command=False,
    ),
    Step(
        "utrustning",
        utrustning,
        fields=("utrustning", "tillgangar"),
        lists=("utrustning_*",),
        label="Utrustning",
        help="Step 7: half of Tillgångar (rounded up) in item bonuses.",
    ),
    Step("foremal", foremal, fields=("utrustning", "hojningar"), command=False),
    Step("harledda", harledda, fields=("rykte", "slas_ut_pa", "konsten"), command=False),
]


# -- NPCs ----------------------------------------------------------------------


class _NpcBatch:
    """What every NPC of a batch shares, read from the tables once (ctx.cache["npc"])."""

    __slots__ = (
        "mallar",
        "korporationer",
        "plans",
        "grundegenskaper",
        "fardigheter",
        "initiativ",
        "skills",
        "epitet",
    )

    def __init__(self, ctx: Context) -> None:
        rules = _rules(ctx)
        base, plus = rules["npc_grundegenskap"], rules["npc_fardighet_bas"]
        self.mallar = ctx.table("mallar")
        self.korporationer = ctx.table("megakorporationer")
        self.plans: dict[str, tuple] = {}  # by template id
        self.grundegenskaper = dict.fromkeys(GRUNDEGENSKAPER, base)
        self.fardigheter = {f: base + plus for f in FASTA}
        self.initiativ = max(self.fardigheter[f] for f in WEAPON_SKILLS)
        armour = rules["rustning_fardighet"]
        # Items are read per corporation and färdighet as they are drawn (_items).
        self.skills = [f for f in FASTA if f != armour and _has_items(ctx, f)]
        self.epitet = ctx.table("epitet") if "epitet" in ctx.tables else None


def _creature_has_no_corporation(template: dict) -> str:
    return f"{template['name']} is a creature, not a human: it has no megakorporation"


def _npc_plan(ctx: Context, template: dict) -> tuple:
    """A template's fixed fields: (id, name, slås ut på, human?, how many items, the
    fields it adds as they are). Slås ut på is the template's own, else its storlek's."""
    storlek = ctx.table("storlekar").get(template["storlek"])
    extra = {"storlek": storlek["id"]}
    for key in ("apostel", "korruption", "korruptionsvarde", "vapen"):
        if key in template:
            extra[key] = template[key]
    if "korruption" in template:
        extra["sinnesryckning"] = _band(ctx, "sinnesryckning", template["korruption"])["name"]
    if template.get("description"):
        extra["beskrivning"] = template["description"]
    return (
        template["id"],
        template["name"],
        template.get("slas_ut_pa", storlek["slas_ut_pa"]),
        bool(template.get("manniska")),
        template.get("utrustning", 0),
        extra,
    )


def generate_npc(char: dict, ctx: Context) -> None:
    """A spelledarperson: grundegenskaper 0, every färdighet grundegenskap + 10.

    The tables are read once per batch (`_NpcBatch`); each NPC draws its template, a
    human's megakorporation, name and gear (a weapon first), in that order, as
    `ctx.choose` and `person_name` would; a creature gets an epithet so that two of
    a kind in one roster can be told apart."""
    batch = ctx.cache.get("npc")
    if batch is None:
        batch = ctx.cache["npc"] = _NpcBatch(ctx)
    free = ctx.option("template") is None and ctx.option("megakorporation") is None
    if ctx.prompter is None and free:  # the fast path: nothing to steer
        template = batch.mallar.pick(ctx.rng)
        ctx.set_fact("template", template["id"])
        ctx.note(template, batch.mallar)
    elif ctx.option("megakorporation") is not None:  # only humans have a corporation
        humans = [e for e in batch.mallar.entries if e.get("manniska")]
        template = ctx.choose("template", "mallar", humans, _creature_has_no_corporation)
    else:
        template = ctx.choose("template", "mallar")
    plan = batch.plans.get(template["id"])
    if plan is None:
        plan = batch.plans[template["id"]] = _npc_plan(ctx, template)
    template_id, name, slas_ut_pa, human, items, extra = plan
    char["template"] = template_id
    char["mall"] = name
    if human:
        if ctx.prompter is None and ctx.option("megakorporation") is None:
            corp = batch.korporationer.pick(ctx.rng)
            ctx.set_fact("megakorporation", corp["id"])
            ctx.note(corp, batch.korporationer)
        else:
            corp = ctx.choose("megakorporation", "megakorporationer")
        char["megakorporation"] = corp["id"]
        char["megakorporation_namn"] = ctx.text(corp["name"])
        char["name"], char["kon"] = person_name(ctx, corp)
    else:
        if batch.epitet is not None and batch.epitet.entries:
            epitet = ctx.text(ctx.pick("epitet")["name"])
            char["epitet"] = epitet
            char["name"] = f"{name} {epitet}"
        else:
            char["name"] = name
    char["grundegenskaper"] = batch.grundegenskaper.copy()
    char["fardigheter"] = batch.fardigheter.copy()
    char["slas_ut_pa"] = slas_ut_pa
    char["initiativ"] = batch.initiativ
    if human:
        char["utrustning"] = _npc_gear(ctx, batch, items)
    for key, value in extra.items():
        char[key] = value.copy() if isinstance(value, list) else value


def _npc_gear(ctx: Context, batch: _NpcBatch, count: int) -> list[dict]:
    """`count` different items (+1 each) for a human NPC: a weapon first (an item
    tagged `vapen`), then items for färdigheter drawn at random. Armour is left
    out, since an NPC's Slås ut på is its tier."""
    skills = batch.skills
    gear: list[dict] = []
    taken: set[str] = set()
    rand = ctx.rng.random
    if count > 0:
        # the weapons that fit, once per batch for each set of fitting pools (memoised)
        pools = tuple(
            (s, ctx.pool(item_file(s))) for s in WEAPON_SKILLS if item_file(s) in ctx.tables
        )
        key = ("npc_weapons", *(id(pool) for _, pool in pools))
        weapons = ctx.cache.get(key)
        if weapons is None:
            weapons = ctx.cache[key] = [
                (s, e) for s, pool in pools for e in pool.entries if _is_weapon(e)
            ]
        if weapons:
            skill, item = weapons[int(rand() * len(weapons))]
            taken.add(item["id"])
            gear.append(_gear_item(ctx, item, skill, 1))
    for _ in range(count * 4):  # a few tries past files with nothing for this corporation
        if len(gear) >= count or not skills:
            break
        skill = skills[int(rand() * len(skills))]
        items = [e for e in _items(ctx, skill) if e["id"] not in taken]
        if not items:
            continue
        item = items[int(rand() * len(items))]
        taken.add(item["id"])
        gear.append(_gear_item(ctx, item, skill, 1))
    return gear


# -- the sheet -------------------------------------------------------------------
# The sheet is made of Parts, one per piece a step writes, so a step alone prints
# like that piece of the sheet. Every word comes from etiketter.toml (tables.labels)
# and the rules text from regeltext.toml and the tables' descriptions.


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "±0"


def _pc(build: Callable[[dict, Tables], list[Section]]):
    """A part of a player character's sheet (an NPC has its own)."""
    return lambda char, tables: [] if char["kind"] == "npc" else build(char, tables)


def _effects_text(effects: dict, tables: Tables) -> str:
    L = tables.labels
    return ", ".join(f"{L(k)} {_signed(v)}" for k, v in effects.items())


def _gives(effects: dict, points: dict | None, tables: Tables) -> str:
    parts = [_effects_text(effects, tables)]
    parts += [f"{skill_label(KUNSKAP + k, tables)} {_signed(v)}" for k, v in (points or {}).items()]
    return ", ".join(p for p in parts if p)


def _event_text(event: dict, tables: Tables) -> str:
    gives = _gives(event.get("effekter", {}), event.get("kunskap"), tables)
    return f"{event['handelse']} ({gives})" if gives else event["handelse"]


def skill_label(key: str, tables: Tables) -> str:
    """A färdighet's display name; a Kunskap inriktning as "Kunskap (sprängämnen)"."""
    L = tables.labels
    if key.startswith(KUNSKAP):
        inriktning = key[len(KUNSKAP) :]
        names = tables["kunskap"]
        shown = names.get(inriktning)["name"] if inriktning in names else inriktning
        return f"{L('kunskap')} ({shown})"
    return L(key)


def _band_entry(tables: Tables, table: str, value: int) -> dict:
    entries = sorted(tables[table].entries, key=lambda e: e["min"])
    return ([e for e in entries if value >= e["min"]] or entries)[-1]


def _niva(char: dict, key: str, tables: Tables) -> int:
    if "nivaer" in char:
        return char["nivaer"][key]
    return _band_entry(tables, "nivaer", char["fardigheter"][key])["niva"]


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
        armour = f"10 + {L('rustning').lower()} {char['rustningsbonus']}"
        rows.append([L("slas_ut_pa"), f"{char['slas_ut_pa']} ({armour})"])
        rows.append([L("initiativ"), f"{char['initiativ']} ({text_of(tables, 'initiativ')})"])
    return [Section(L("rollperson"), rows=rows)]


def text_of(tables: Tables, key: str) -> str:
    return tables["regeltext"].settings[key]


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
    return [Section(L("grundegenskaper"), rows=rows)]


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
    return [Section(L("fardigheter"), rows=rows, headers=headers)]


def _tillgangar(char: dict, tables: Tables) -> list[Section]:
    """The value, its Nivå, the band and what it means one owns, the utrustning budget."""
    L, value = tables.labels, char["tillgangar"]
    band = _band_entry(tables, "tillgangar_band", value)
    niva = _band_entry(tables, "nivaer", value)["niva"]
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
        items.append((f"{L('bekanta')} 0/{char['bekanta_max']}", text["bekanta"]))
        items.append((f"{L('ode')} 0/{char['ode_max']}", text["ode"]))
    if "sinnesryckning" in char:
        band = _band_entry(tables, "sinnesryckning", char["korruption"])
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
            rows=[[L("modifikation")] + [_signed(e["modifikation"]) for e in track]],
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
                        _signed(w["bonus"]),
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
                    [i["namn"], skill_label(i["fardighet"], tables), _signed(i["bonus"])]
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
                row.append(f"{entries[n]['name']} ({skada if index == 0 else _signed(skada)})")
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
            f"{i['namn']} ({skill_label(i['fardighet'], tables)} {_signed(i['bonus'])})"
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


def _weapon_short(c: dict) -> str:
    if c.get("vapen"):
        return ", ".join(c["vapen"])
    return ", ".join(  # the bonus stays on the line of the weapon's last word
        f"{i['namn']}{NBSP}{_signed(i['bonus'])}" for i in c.get("utrustning", ()) if i.get("vapen")
    )


def _arketyp_or_mall(c: dict):
    return c.get("arketyp_namn") or c.get("mall")


def _best_skill(c: dict) -> str:
    """A PC's highest färdighet by name ("Enkelskott 11"); nothing for an NPC, whose
    färdigheter are all grundegenskap + 10 (so an NPC roster leaves the column out)."""
    if c["kind"] == "npc":
        return ""
    skills = c["fardigheter"]
    best = max(skills, key=lambda k: skills[k])
    return f"{LABELS.get(best, best.replace('_', ' ').capitalize())} {skills[best]}"


def _pc_only(key: str):
    """A PC's value; nothing for an NPC, for whom it is the template's constant (its
    initiativ is its fysikfärdighet, 10 for every NPC)."""
    return lambda c: "" if c["kind"] == "npc" else c.get(key, "")


def _effects_plain(effects: dict) -> str:
    return ", ".join(f"{LABELS.get(k, k)} {_signed(v)}" for k, v in effects.items())


def _with_effects(event: dict) -> str:
    """An event as its text and, in brackets, what it gave ("... (Lönndom +2)")."""
    effects = event.get("effekter")
    return f"{event['handelse']} ({_effects_plain(effects)})" if effects else event["handelse"]


def _gear_short(c: dict) -> str:
    return ", ".join(
        f"{i['namn']}{NBSP}{_signed(i['bonus'])}" for i in c["utrustning"] if not i.get("vapen")
    )


def _joined(
    key: str, field: str, text: Callable[[dict], str], priority: int, sep: str = ", "
) -> Column:
    """A wrap column of a list field's items, each as `text` writes it."""
    return Column(key, lambda c: sep.join(text(x) for x in c[field]), priority=priority, wrap=True)


_NAME = Column("name", priority=9, wrap=True)
# a step of a batch (`chargen matinee karriarer -n 5`): the columns of that part of the sheet
STEP_ROSTERS: dict[str, tuple[Column, ...]] = {
    "megakorporation": (Column("megakorporation_namn", priority=9),),  # no name yet
    "hjaltepoang": (_NAME, Column("hjaltepoang", priority=8), Column("k_marker", priority=8)),
    "arketyp": (
        _NAME,
        Column("arketyp_namn", priority=8),
        *(Column(g, lambda c, g=g: c["grundegenskaper"][g], priority=7) for g in GRUNDEGENSKAPER),
        Column("tillgangar", priority=8),
    ),
    "uppvaxthandelser": (
        _NAME,
        _joined("uppvaxthandelser", "uppvaxthandelser", _with_effects, 8, "; "),
    ),
    "karriarer": (
        _NAME,
        _joined("karriarer", "karriarer", lambda k: k["namn"], 8),
        Column("basta_fardighet", _best_skill, priority=7),
        _joined("karriarhandelser", "karriarer", lambda k: _with_effects(k["handelse"]), 6, "; "),
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
PC_STEPS = [
    dataclasses.replace(s, roster=STEP_ROSTERS[s.id]) if s.id in STEP_ROSTERS else s
    for s in PC_STEPS
]


SYSTEM = System(
    id="matinee",
    name="Matinee Chronicles",
    language="sv",
    locale="sv_SE",
    description="Mutant Chronicles i Luna City: 2T10 slag under, hjältepoäng och beskrivningsord.",
    specs=SPECS,
    effect_keys=EFFECT_KEYS,
    facts={"megakorporation": "megakorporationer", "arketyp": "arketyper", "template": "mallar"},
    labels=LABELS,
    pc=PC_STEPS,
    npc=generate_npc,
    pc_options=[
        Option("megakorporation", table="megakorporationer", help="The megakorporation (step 1)."),
        Option(
            "arketyp", table="arketyper", help="The arketyp (step 3), if open to the corporation."
        ),
        Option(
            "karriar",
            table="karriarer",
            multiple=True,
            help="A karriär (step 5, repeatable: 2 or 3).",
        ),
        Option(
            "spend-hjaltepoang",
            flag=True,
            help="Spend the two hjältepoäng on a raise during creation.",
        ),
    ],
    npc_options=[
        Option("template", table="mallar", help="The NPC template (mallar.toml)."),
        Option("megakorporation", table="megakorporationer", help="The corporation of human NPCs."),
    ],
    sheet=None,
    parts=PARTS,
    check=check_pack,
    roster=[
        Column("name", priority=9, wrap=True),
        Column("megakorporation_namn", lambda c: c.get("megakorporation_namn", ""), priority=8),
        Column("arketyp_mall", _arketyp_or_mall, priority=8, wrap=True),
        Column("slas_ut_pa", priority=9),
        Column("initiativ", _pc_only("initiativ"), priority=4),
        Column("basta_fardighet", _best_skill, priority=6),
        Column("vapen", _weapon_short, priority=7, wrap=True),
        Column("korruption", lambda c: c.get("korruption", 0), priority=5),
    ],
)
