"""Matinee Chronicles (document 000): Mutant Chronicles in Luna City, 2T10 roll-under.

The document fixes the seven creation steps ("hur en rollperson blir skapad"),
the grundegenskaper and the 22 färdigheter, the value range 0-18 with its
Nivåer, Tillgångar and its bands, hjältepoäng and their raise rules, k-marker,
Rykte, Bekanta, Öde, Slås ut på, Konsten and the NPC tiers. Its booklet with
the tables is lost: every table under tables/matinee/ says whether it is
quoted or authored, and every number the code uses comes from regler.toml.
"""

from __future__ import annotations

from bisect import bisect

from chargen.errors import ChargenError, Problem, TableError
from chargen.labels import builtin_labels
from chargen.names import picker
from chargen.procedure import Context, Option, Section, Step, System
from chargen.tables import Spec, Tables, key_line

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
RESURSER = ("tillgangar", "k_marker", "korruption")
EFFECT_KEYS = frozenset(GRUNDEGENSKAPER + FARDIGHETER + RESURSER)
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
    "grundegenskaper": Spec("definitions"),
    "fardigheter": Spec("definitions", fields={"grundegenskap": "id:grundegenskaper!"}),
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
            "titel_man": "str",
            "titel_kvinna": "str",
            "uppvaxt": "table:roll",
        },
    ),
    "namn_*": Spec(
        "settings",
        fields={
            "fornamn_man": "list[str]+!",
            "fornamn_kvinna": "list[str]+!",
            "efternamn": "list[str]+!",
            "efternamn_kvinna_suffix": "str",
        },
    ),
    "arketyper": Spec(
        "definitions",
        fields={
            **{g: "int[0..20]!" for g in GRUNDEGENSKAPER},
            "tillgangar": "dice!",
            "korporationer": "list[id:megakorporationer]",
            "karriarer": "list[id:karriarer]+!",
            "konsten": "str",
        },
    ),
    "karriarer": Spec(
        "definitions",
        fields={
            "handelser": "table:roll!",
            "korporationer": "list[id:megakorporationer]",
            "kunskap": "str",
        },
    ),
    "karriarhandelser_*": Spec("roll", fields={"kontakt": "str"}),
    "uppvaxthandelser": Spec("roll", fields={"kontakt": "str"}),
    "uppvaxthandelser_*": Spec("roll", fields={"kontakt": "str"}),
    "beskrivningsord_kategorier": Spec("definitions"),
    "beskrivningsord_*": Spec("definitions"),
    "utrustning_*": Spec("definitions", fields={"korporationer": "list[id:megakorporationer]"}),
    "hojningar": Spec("definitions"),
    "mallar": Spec(
        "definitions",
        fields={
            "slas_ut_pa": "int[0..100]!",
            "manniska": "bool",
            "utrustning": "int[0..20]",
            "apostel": "str",
            "korruption": "int[0..100]",
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


def _event(ctx: Context, table: str, why: str, char: dict) -> dict:
    """Roll one event on `table`, apply its effects, note its contact."""
    rows = ctx.roll_table(table, why)
    row = rows[0]
    rolled = next((e.get("roll") for e in reversed(ctx.historik) if e.get("table") == table), None)
    effects: dict[str, int] = {}
    for reached in rows:  # the row rolled and every row its `ref`s reached
        apply_effects(char, reached.get("effects", {}), ctx)
        for key, amount in reached.get("effects", {}).items():
            effects[key] = effects.get(key, 0) + amount
        if reached.get("kontakt"):
            char.setdefault("kontakter", []).append(reached["kontakt"])
    text = " ".join(ctx.text(r["result"]) for r in rows if r.get("result"))
    event = {"tabell": table, "slag": rolled, "handelse": text}
    if effects:
        event["effekter"] = effects
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


def _open_to(entry: dict, corporation: str) -> bool:
    return corporation in entry.get("korporationer", (corporation,))


def _names(ids, table) -> str:
    return ", ".join(table.get(i)["name"] for i in ids)


def t10_reading(dice) -> list[int]:
    """The document's T10: "Noll på tärningen är alltid noll", the ten reads 0."""
    return [0 if d == 10 else d for d in dice]


# -- the steps ---------------------------------------------------------------------


def megakorporation(char: dict, ctx: Context) -> None:
    """Step 1: välj en megakorporation."""
    entry = ctx.choose("megakorporation", "megakorporationer")
    char["megakorporation"] = entry["id"]
    char["megakorporation_namn"] = entry["name"]


def person_name(ctx: Context, corporation: dict) -> tuple[str, str]:
    """A name in the corporation's style: its authored table, else one of its Faker locales.

    `--locale` overrides both. Returns (name, "man" | "kvinna")."""
    namer = ctx.cache.get(("namer", corporation["id"]))
    if namer is None:
        namer = ctx.cache[("namer", corporation["id"])] = _namer(ctx, corporation)
    rand = ctx.rng.random
    if namer[0] == "tabell":
        _, given_f, given_m, family, suffix, titles = namer
        female = rand() < 0.5
        given = given_f if female else given_m
        first = given[int(rand() * len(given))]
        last = family[int(rand() * len(family))]
        name = f"{first} {last}{suffix}" if female else f"{first} {last}"
    else:
        _, locales, titles = namer
        locale = locales[int(rand() * len(locales))]
        name, gender = picker(ctx.locale or locale or ctx.system.locale, True).pick(ctx.rng)
        female = gender == "female"
    title = titles[0] if female else titles[1]
    return (f"{title} {name}" if title else name), KON["female" if female else "male"]


def _namer(ctx: Context, corporation: dict) -> tuple:
    """The corporation's name style with its lists looked up once per batch:
    ("tabell", female given, male given, family, suffix, titles) or ("faker", locales, titles)."""
    titles = (corporation.get("titel_kvinna"), corporation.get("titel_man"))
    if ctx.locale is None and corporation.get("namntabell"):
        names = ctx.settings(corporation["namntabell"])
        return (
            "tabell",
            names["fornamn_kvinna"],
            names["fornamn_man"],
            names["efternamn"],
            names.get("efternamn_kvinna_suffix", ""),
            titles,
        )
    return ("faker", corporation["locales"], titles)


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
    """Step 3: the arketyp's dice per grundegenskap and its Tillgångar die."""
    corp = char["megakorporation"]
    corps = ctx.table("megakorporationer")
    allowed = [e for e in ctx.table("arketyper").entries if _open_to(e, corp)]

    def why(entry: dict) -> str:
        return (
            f"{entry['name']} is open only to {_names(entry['korporationer'], corps)}, "
            f"not {corps.get(corp)['name']}"
        )

    entry = ctx.choose("arketyp", "arketyper", allowed, why)
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
    char["arketyp_namn"] = entry["name"]
    char["grundegenskaper"] = values
    char["tillgangar"] = _clamp(rolled, low, high)
    char["fardigheter"] = dict.fromkeys(FARDIGHETER, 0)
    char["korruption"] = 0
    char["kontakter"] = []
    ctx.log(tillgangar=char["tillgangar"])
    if entry.get("effects"):
        apply_effects(char, entry["effects"], ctx)
        ctx.log(arketyp=entry["id"], effects=dict(entry["effects"]))


def uppvaxthandelser(char: dict, ctx: Context) -> None:
    """Step 4: two uppväxthändelser, the first on the corporation's own table."""
    rules = _rules(ctx)
    corporation = ctx.table("megakorporationer").get(char["megakorporation"])
    tables = [rules["uppvaxt_allman"]] * rules["uppvaxthandelser_antal"]
    if corporation.get("uppvaxt") and tables:
        tables[0] = corporation["uppvaxt"]
    char["uppvaxthandelser"] = [_event(ctx, t, "uppvaxthandelse", char) for t in tables]


def karriarer(char: dict, ctx: Context) -> None:
    """Step 5: two or three karriärer open to the arketyp and the corporation."""
    rules = _rules(ctx)
    low, high = rules["karriarer_min"], rules["karriarer_max"]
    corp, arch_id = char["megakorporation"], char["arketyp"]
    arch = ctx.table("arketyper").get(arch_id)
    careers = ctx.table("karriarer")
    corps = ctx.table("megakorporationer")
    allowed = [careers.get(i) for i in arch["karriarer"]]
    allowed = [e for e in allowed if _open_to(e, corp)]

    def why(entry: dict) -> str:
        if entry["id"] not in arch["karriarer"]:
            return f"{entry['name']} is not open to the arketyp {arch['name']}"
        return (
            f"{entry['name']} is open only to {_names(entry['korporationer'], corps)}, "
            f"not {corps.get(corp)['name']}"
        )

    given = ctx.option("karriar") or []
    if len(given) > high:
        raise ChargenError(f"--karriar given {len(given)} times: a character takes {low} to {high}")
    if given:
        chosen = ctx.choose_many("karriar", "karriarer", len(given), allowed, why)
        if len(chosen) < low:
            extra = careers.draw(
                ctx.rng, low - len(chosen), exclude=tuple(e["id"] for e in chosen), among=allowed
            )
            for entry in extra:
                ctx.log(choice="karriar", id=entry["id"], name=entry["name"], by="random")
            chosen += extra
    else:
        count = low + int(ctx.rng.random() * (high - low + 1))
        if len(allowed) < count:
            raise ChargenError(
                f"only {len(allowed)} karriärer are open to {arch['name']} at "
                f"{corps.get(corp)['name']}; a character needs {count}"
            )
        ctx.log(antal_karriarer=count)
        chosen = ctx.choose_many("karriar", "karriarer", count, allowed)
    char["karriarer"] = []
    for entry in chosen:
        if entry.get("effects"):
            apply_effects(char, entry["effects"], ctx)
            ctx.log(karriar=entry["id"], effects=dict(entry["effects"]))
        if entry.get("kunskap"):
            inriktningar = char.setdefault("kunskap_inriktningar", [])
            if entry["kunskap"] not in inriktningar:
                inriktningar.append(entry["kunskap"])
        event = _event(ctx, entry["handelser"], entry["id"], char)
        char["karriarer"].append(
            {
                "id": entry["id"],
                "namn": entry["name"],
                "effekter": dict(entry.get("effects", {})),
                "handelse": event,
            }
        )


def beskrivningsord(char: dict, ctx: Context) -> None:
    """Step 6: two beskrivningsord, from two different categories (one file each)."""
    count = _rules(ctx)["beskrivningsord_antal"]
    categories = ctx.choose_many("kategori", "beskrivningsord_kategorier", count)
    words = []
    for category in categories:
        table = f"beskrivningsord_{category['id']}"
        word = ctx.choose(
            table, table
        )  # one option per category: a prompt's answer holds for the batch
        words.append({"id": word["id"], "ord": word["name"], "kategori": category["id"]})
    char["beskrivningsord"] = words


def _items(ctx: Context, corp: str, skill: str) -> list[dict]:
    """The items of utrustning_<skill>.toml open to `corp` (memoised per batch);
    only the files a character needs are read."""
    key = ("utrustning", corp, skill)
    found = ctx.cache.get(key)
    if found is None:
        name = f"utrustning_{skill}"
        found = (
            [e for e in ctx.table(name).entries if _open_to(e, corp)] if name in ctx.tables else []
        )
        ctx.cache[key] = found
    return found


def _has_items(ctx: Context, skill: str) -> bool:
    found = ctx.cache.get("item_skills")
    if found is None:  # the färdigheter (and armour) that have an utrustning file
        skills = (*FARDIGHETER, _rules(ctx)["rustning_fardighet"])
        found = ctx.cache["item_skills"] = {f for f in skills if f"utrustning_{f}" in ctx.tables}
    return skill in found


def _weighted(rng, weights: dict[str, int]) -> str:
    pool = list(weights.items())
    point = rng.random() * sum(w for _, w in pool)
    for key, weight in pool:
        point -= weight
        if point < 0:
            return key
    return pool[-1][0]


def utrustning(char: dict, ctx: Context) -> None:
    """Step 7: half of Tillgångar rounded up in bonuses, at most +5 to one färdighet.

    Each item gets +1 up to `utrustning_max_per_foremal`; the färdighet is drawn
    weighted by the character's value in it, armour (`rustning`) with its own
    weight. Armour raises Slås ut på."""
    rules = _rules(ctx)
    budget = (char["tillgangar"] + 1) // 2
    cap, per_item = rules["utrustning_max_per_fardighet"], rules["utrustning_max_per_foremal"]
    armour = rules["rustning_fardighet"]
    corp = char["megakorporation"]
    weights = {f: v for f, v in char["fardigheter"].items() if v > 0 and _has_items(ctx, f)}
    if not weights:
        weights = {f: 1 for f in FARDIGHETER if _has_items(ctx, f)}
    if _has_items(ctx, armour):
        weights[armour] = rules["rustning_vikt"]
    used: dict[str, int] = {}
    taken: set[str] = set()
    gear: list[dict] = []
    left = budget
    rand = ctx.rng.random
    while left > 0:
        open_ = {f: w for f, w in weights.items() if used.get(f, 0) < cap}
        if not open_:
            break
        target = _weighted(ctx.rng, open_)
        items = _items(ctx, corp, target)
        if not items:  # a pack without items for this corporation here
            del weights[target]
            continue
        most = min(per_item, left, cap - used.get(target, 0))
        bonus = 1 + int(rand() * most)
        fresh = [e for e in items if e["id"] not in taken] or items
        item = fresh[int(rand() * len(fresh))]
        taken.add(item["id"])
        used[target] = used.get(target, 0) + bonus
        left -= bonus
        gear.append({"namn": item["name"], "fardighet": target, "bonus": bonus})
        ctx.log(utrustning=item["id"], fardighet=target, bonus=bonus)
    char["utrustning"] = gear
    ctx.log(bonusar=budget, fordelade=budget - left)


def _roll_2t10(ctx: Context, why: str) -> int:
    roll = ctx.roll(_rules(ctx)["hojning_tarning"], why)
    return sum(t10_reading(roll.dice)) + (roll.total - sum(roll.dice))


def spendera_hjaltepoang(char: dict, ctx: Context) -> None:
    """With --spend-hjaltepoang: raises at 2 hjältepoäng each, by the document's rules."""
    if not ctx.option("spend_hjaltepoang"):
        return
    rules = _rules(ctx)
    cost = rules["hojning_kostnad"]
    kinds = ctx.table("hojningar")
    char["hojningar"] = []
    while char["hjaltepoang"] >= cost:
        pool = [e for e in kinds.entries if e["id"] != "foremal" or char["utrustning"]]
        kind = kinds.pick(ctx.rng, pool)["id"]
        char["hjaltepoang"] -= cost
        record = _raise(char, ctx, kind)
        record["hjaltepoang"] = cost
        char["hojningar"].append(record)
        ctx.log(hojning=kind, **{k: v for k, v in record.items() if k != "hjaltepoang"})


def _raise(char: dict, ctx: Context, kind: str) -> dict:
    rules = _rules(ctx)
    rand = ctx.rng.random
    high = rules["varde_max"]
    if kind == "grundegenskap":
        key = GRUNDEGENSKAPER[int(rand() * len(GRUNDEGENSKAPER))]
        value = char["grundegenskaper"][key]
        need = rules["hojning_grundegenskap_bas"] + value
        rolled = _roll_2t10(ctx, f"höja {key}")
        ok = rolled > need
        if ok:
            char["grundegenskaper"][key] = value + 1
        return {"typ": kind, "mal": key, "slag": rolled, "over": need, "lyckat": ok}
    if kind == "fardighet":
        learned = [f for f in FARDIGHETER if char["fardigheter"][f] > 0] or list(FARDIGHETER)
        key = learned[int(rand() * len(learned))]
        value = char["fardigheter"][key]
        bonus = char["grundegenskaper"][GRUND_FOR[key]]
        rolled = _roll_2t10(ctx, f"höja {key}")
        ok = rolled + bonus > value and value < high
        if ok:
            char["fardigheter"][key] = value + 1
        return {"typ": kind, "mal": key, "slag": rolled, "plus": bonus, "over": value, "lyckat": ok}
    if kind == "tillgangar":
        value = char["tillgangar"]
        rolled = _roll_2t10(ctx, "höja tillgangar")
        ok = rolled > value and value < high
        if ok:
            char["tillgangar"] = value + 1
        return {"typ": kind, "mal": "tillgangar", "slag": rolled, "over": value, "lyckat": ok}
    # föremål: roll under Tillgångar less the item's bonus; 0 (00) always fails
    item = char["utrustning"][int(rand() * len(char["utrustning"]))]
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
    elif mode == "psyke":
        count = min(ge["psyke"], rules["konsten_max"])
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


def check_pack(tables: Tables) -> list[Problem]:
    """What the specs cannot say: an arketyp's konsten is "en" or "psyke"."""
    table = tables["arketyper"]
    kategorier = tables["beskrivningsord_kategorier"]
    return [
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
        fields=("karriarer", "fardigheter", "kunskap_inriktningar", "kontakter"),
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
        "utrustning",
        utrustning,
        fields=("utrustning", "tillgangar"),
        lists=("utrustning_*",),
        label="Utrustning",
        help="Step 7: half of Tillgångar (rounded up) in item bonuses.",
    ),
    Step("spendera", spendera_hjaltepoang, fields=("hjaltepoang", "hojningar"), command=False),
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
        "weapons",
    )

    def __init__(self, ctx: Context) -> None:
        rules = _rules(ctx)
        base, plus = rules["npc_grundegenskap"], rules["npc_fardighet_bas"]
        self.mallar = ctx.table("mallar")
        self.korporationer = ctx.table("megakorporationer")
        self.plans: dict[str, tuple] = {}  # by template id
        self.grundegenskaper = dict.fromkeys(GRUNDEGENSKAPER, base)
        self.fardigheter = {f: base + plus for f in FARDIGHETER}
        self.initiativ = max(self.fardigheter[f] for f in GRUPPER["fysik"])
        armour = rules["rustning_fardighet"]
        # Items are read per corporation and färdighet as they are drawn (_items).
        self.skills = [f for f in FARDIGHETER if f != armour and _has_items(ctx, f)]
        self.weapons = [f for f in GRUPPER["fysik"] if f in self.skills]


def _npc_plan(template: dict) -> tuple:
    """A template's fixed fields: (id, name, slås ut på, human?, how many items, the
    fields it adds as they are)."""
    extra = {}
    for key in ("apostel", "korruption", "vapen"):
        if key in template:
            extra[key] = template[key]
    if template.get("description"):
        extra["beskrivning"] = template["description"]
    return (
        template["id"],
        template["name"],
        template["slas_ut_pa"],
        bool(template.get("manniska")),
        template.get("utrustning", 0),
        extra,
    )


def generate_npc(char: dict, ctx: Context) -> None:
    """A spelledarperson: grundegenskaper 0, every färdighet grundegenskap + 10.

    The tables are read once per batch (`_NpcBatch`); each NPC draws its template, a
    human's megakorporation, name and gear, in that order, as `ctx.choose` and
    `person_name` would."""
    batch = ctx.cache.get("npc")
    if batch is None:
        batch = ctx.cache["npc"] = _NpcBatch(ctx)
    if ctx.prompter is None and ctx.option("template") is None:
        template = batch.mallar.pick(ctx.rng)
    else:
        template = ctx.choose("template", "mallar")
    plan = batch.plans.get(template["id"])
    if plan is None:
        plan = batch.plans[template["id"]] = _npc_plan(template)
    template_id, name, slas_ut_pa, human, items, extra = plan
    char["template"] = template_id
    char["mall"] = name
    if human:
        if ctx.prompter is None and ctx.option("megakorporation") is None:
            corp = batch.korporationer.pick(ctx.rng)
        else:
            corp = ctx.choose("megakorporation", "megakorporationer")
        char["megakorporation"] = corp["id"]
        char["megakorporation_namn"] = corp["name"]
        char["name"], char["kon"] = person_name(ctx, corp)
    else:
        char["name"] = name
    char["grundegenskaper"] = batch.grundegenskaper.copy()
    char["fardigheter"] = batch.fardigheter.copy()
    char["slas_ut_pa"] = slas_ut_pa
    char["initiativ"] = batch.initiativ
    if human:
        char["utrustning"] = _npc_gear(ctx, batch, corp["id"], items)
    for key, value in extra.items():
        char[key] = value.copy() if isinstance(value, list) else value


def _npc_gear(ctx: Context, batch: _NpcBatch, corp: str, count: int) -> list[dict]:
    """`count` different items (+1 each) for a human NPC: a weapon first (an item
    for a fysikfärdighet), then items for färdigheter drawn at random. Armour is
    left out, since an NPC's Slås ut på is its tier."""
    skills, weapons = batch.skills, batch.weapons
    gear: list[dict] = []
    taken: set[str] = set()
    rand = ctx.rng.random
    for _ in range(count * 4):  # a few tries past files with nothing for this corporation
        if len(gear) == count or not skills:
            break
        pool = weapons if not gear and weapons else skills
        skill = pool[int(rand() * len(pool))]
        items = _items(ctx, corp, skill)
        if taken:
            items = [e for e in items if e["id"] not in taken]
        if not items:
            continue
        item = items[int(rand() * len(items))]
        taken.add(item["id"])
        gear.append({"namn": item["name"], "fardighet": skill, "bonus": 1})
    return gear


# -- the sheet -------------------------------------------------------------------


def _signed(value: int) -> str:
    return f"{value:+d}"


def _effects_text(effects: dict) -> str:
    return ", ".join(f"{LABELS.get(k, k)} {_signed(v)}" for k, v in effects.items())


def _skill_rows(char: dict, show_level: bool) -> list[list]:
    rows = []
    for grund, group in GRUPPER.items():
        for n, key in enumerate(group):
            value = char["fardigheter"][key]
            row = [LABELS[grund] if n == 0 else "", LABELS[key], value]
            if show_level:
                row.append(f"Nivå {char['nivaer'][key]}")
            rows.append(row)
    return rows


def sheet(char: dict, tables: Tables) -> list[Section]:
    if char["kind"] == "npc":
        return npc_sheet(char)
    ge = char["grundegenskaper"]
    head = [
        ["Namn", char["name"]],
        ["Megakorporation", char["megakorporation_namn"]],
        ["Arketyp", char["arketyp_namn"]],
        ["Rykte", f"{char['rykte']} ({char['rykte_band']})"],
        ["Slås ut på", f"{char['slas_ut_pa']} (10 + rustning {char['rustningsbonus']})"],
        ["Initiativ", char["initiativ"]],
    ]
    resources = [
        ["Hjältepoäng", char["hjaltepoang"]],
        ["K-marker", char["k_marker"]],
        ["Bekanta", f"0 av högst {char['bekanta_max']}"],
        ["Öde", f"0 av högst {char['ode_max']}"],
        ["Korruption", f"{char['korruption']} ({char['sinnesryckning']})"],
    ]
    sections = [
        Section("Rollperson", rows=head),
        Section("Grundegenskaper", rows=[[LABELS[g], ge[g]] for g in GRUNDEGENSKAPER]),
        Section(
            "Färdigheter",
            headers=["Grundegenskap", "Färdighet", "Värde", "Nivå"],
            rows=_skill_rows(char, True),
        ),
        Section(
            "Tillgångar",
            rows=[
                [
                    "Tillgångar",
                    char["tillgangar"],
                    char["tillgangar_band"],
                    f"Nivå {char['tillgangar_niva']}",
                ]
            ],
        ),
        Section("Resurser", rows=resources),
        Section(
            "Uppväxt",
            headers=["Slag", "Händelse", "Effekt"],
            rows=[
                [e["slag"], e["handelse"], _effects_text(e.get("effekter", {}))]
                for e in char["uppvaxthandelser"]
            ],
        ),
        Section(
            "Karriärer",
            headers=["Karriär", "Ger", "Händelse"],
            rows=[
                [
                    k["namn"],
                    _effects_text(k["effekter"]),
                    k["handelse"]["handelse"]
                    + (
                        f" ({_effects_text(k['handelse']['effekter'])})"
                        if k["handelse"].get("effekter")
                        else ""
                    ),
                ]
                for k in char["karriarer"]
            ],
        ),
        Section("Beskrivningsord", text=", ".join(b["ord"] for b in char["beskrivningsord"])),
    ]
    if char["utrustning"]:
        sections.append(
            Section(
                "Utrustning",
                headers=["Föremål", "Färdighet", "Bonus"],
                rows=[
                    [i["namn"], LABELS.get(i["fardighet"], i["fardighet"]), _signed(i["bonus"])]
                    for i in char["utrustning"]
                ],
            )
        )
    konsten = ", ".join(k.capitalize() for k in char["konsten"])
    sections.append(Section("Konsten", text=konsten if konsten else "Endast teoretisk kunskap."))
    notes = []
    if char.get("kunskap_inriktningar"):
        notes.append("Kunskap: " + ", ".join(char["kunskap_inriktningar"]) + ".")
    if char.get("kontakter"):
        notes.append("Kontakter: " + "; ".join(char["kontakter"]) + ".")
    if char["bioteknik_mycket_svart"]:
        notes.append("Bioteknik är Mycket svårt (-10) utanför Cybertronic.")
    notes.append("Etikett utanför den egna korporationen är Svårt (-5).")
    for raise_ in char.get("hojningar", []):
        outcome = "lyckades" if raise_["lyckat"] else "misslyckades"
        notes.append(
            f"Hjältepoäng: höjning av {LABELS.get(raise_['mal'], raise_['mal'])} {outcome} (slog {raise_['slag']})."
        )
    sections.append(Section("Anteckningar", text="\n".join(notes)))
    return sections


def npc_sheet(char: dict) -> list[Section]:
    head = [["Namn", char["name"]], ["Mall", char["mall"]], ["Slås ut på", char["slas_ut_pa"]]]
    if char.get("megakorporation_namn"):
        head.insert(1, ["Megakorporation", char["megakorporation_namn"]])
    if char.get("apostel"):
        head.append(["Apostel", char["apostel"]])
        head.append(["Korruption", char["korruption"]])
    sections = [
        Section("Spelledarperson", rows=head),
        Section(
            "Grundegenskaper",
            text=", ".join(f"{LABELS[g]} {v}" for g, v in char["grundegenskaper"].items()),
        ),
        Section(
            "Färdigheter",
            text="Alla färdigheter "
            + str(char["fardigheter"]["narstrid"])
            + " (grundegenskap + 10).",
        ),
    ]
    if char.get("vapen"):
        sections.append(Section("Vapen", text=", ".join(char["vapen"])))
    if char.get("utrustning"):
        sections.append(
            Section(
                "Utrustning",
                text=", ".join(
                    f"{i['namn']} ({LABELS.get(i['fardighet'], i['fardighet'])} +{i['bonus']})"
                    for i in char["utrustning"]
                ),
            )
        )
    if char.get("beskrivning"):
        sections.append(Section("Beskrivning", text=char["beskrivning"]))
    return sections


def _geo(key: str):
    return lambda c: c["grundegenskaper"][key]


def _gear_short(c: dict) -> str:
    if c.get("vapen"):
        return ", ".join(c["vapen"])
    return ", ".join(f"{i['namn']} +{i['bonus']}" for i in c.get("utrustning", ())[:3])


def _arketyp_or_mall(c: dict):
    return c.get("arketyp_namn") or c.get("mall")


SYSTEM = System(
    id="matinee",
    name="Matinee Chronicles",
    language="sv",
    locale="sv_SE",
    description="Mutant Chronicles i Luna City: 2T10 slag under, hjältepoäng och beskrivningsord.",
    specs=SPECS,
    effect_keys=EFFECT_KEYS,
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
    sheet=sheet,
    check=check_pack,
    roster=[
        ("Namn", "name"),
        ("Korporation", lambda c: c.get("megakorporation_namn", "")),
        ("Arketyp/mall", _arketyp_or_mall),
        *[(LABELS[g][:3], _geo(g)) for g in GRUNDEGENSKAPER],
        ("Slås ut på", "slas_ut_pa"),
        ("Init", "initiativ"),
        ("Utrustning / vapen", _gear_short),
    ],
)
