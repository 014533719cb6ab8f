"""The player character's creation steps, in the order "hur en rollperson blir skapad"
walks them, and the derived values after them.

Each step is a function ``(character, ctx) -> None`` drawing from its own stream
(`ctx.rng`); what a step writes and reads of the character is declared beside it in
the system's declaration (chargen/systems/matinee/__init__.py). Every game number
comes from regler.toml, every word a reader sees from the tables and etiketter.toml.
"""

from __future__ import annotations

from chargen.dice import parse
from chargen.errors import ChargenError, TableError
from chargen.procedure import Context
from chargen.systems.matinee.rules import (
    FARDIGHETER,
    FASTA,
    GRUND_FOR,
    GRUNDEGENSKAPER,
    GRUPPER,
    KON,
    KUNSKAP,
    WEAPON_SKILLS,
    band_of,
    clamp,
    grund_for,
    is_weapon,
    item_file,
    item_text,
    konsten_faults,
    sorted_bands,
    t10_reading,
)

PENDING_FOREMAL = "_foremal"  # föremål raises paid for before utrustning, rolled after it


# -- what the steps share ------------------------------------------------------------


def apply_effects(char: dict, effects: dict, ctx: Context) -> None:
    """Add a table row's effects: grundegenskaper (never below 0), färdigheter and
    Tillgångar (kept within 0-18), k-marker and korruption (never below 0)."""
    if not effects:
        return
    rules = ctx.settings("regler")
    low, high = rules["varde_min"], rules["varde_max"]
    for key, amount in effects.items():
        if key in GRUNDEGENSKAPER:
            char["grundegenskaper"][key] = clamp(char["grundegenskaper"][key] + amount, 0)
        elif key in GRUND_FOR:
            char["fardigheter"][key] = clamp(char["fardigheter"][key] + amount, low, high)
        elif key == "tillgangar":
            char["tillgangar"] = clamp(char["tillgangar"] + amount, low, high)
        else:  # k_marker, korruption
            char[key] = clamp(char.get(key, 0) + amount, 0)


def add_kunskap(char: dict, points: dict, ctx: Context) -> None:
    """Kunskap points per inriktning ({sprangamnen: 2}): each inriktning is its own
    färdighet, `kunskap_<id>`, kept within 0-18; one that falls to 0 is dropped."""
    if not points:
        return
    rules = ctx.settings("regler")
    skills = char["fardigheter"]
    for inriktning, amount in points.items():
        key = KUNSKAP + inriktning
        value = clamp(skills.get(key, 0) + amount, rules["varde_min"], rules["varde_max"])
        if value > 0:
            skills[key] = value
        else:
            skills.pop(key, None)


def band(ctx: Context, table: str, value: int) -> dict:
    """The entry of a band table (`min` per entry) that `value` falls in (the bands
    sorted once per batch)."""
    return band_of(ctx.memo(("band", table), _bands, ctx, table), value)


def _bands(ctx: Context, table: str) -> tuple[list[int], list[dict]]:
    return sorted_bands(ctx.table(table).entries)


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


# -- the steps -----------------------------------------------------------------------


def megakorporation(char: dict, ctx: Context) -> None:
    """Step 1: välj en megakorporation (steered by --arketyp and --karriar)."""
    entry = ctx.choose("megakorporation", "megakorporationer")
    char["megakorporation"] = entry["id"]
    char["megakorporation_namn"] = ctx.text(entry["name"])


def namn(char: dict, ctx: Context) -> None:
    """A name in the style of the character's corporation."""
    corporation = ctx.table("megakorporationer").get(char["megakorporation"])
    char["name"], char["kon"] = person_name(ctx, corporation)


def hjaltepoang(char: dict, ctx: Context) -> None:
    """Step 2: två hjältepoäng (and the five k-marker every player starts with)."""
    rules = ctx.settings("regler")
    char["hjaltepoang"] = rules["hjaltepoang"]
    char["k_marker"] = rules["k_marker"]
    ctx.log(hjaltepoang=char["hjaltepoang"], k_marker=char["k_marker"])


def arketyp(char: dict, ctx: Context) -> None:
    """Step 3: the arketyp's dice per grundegenskap and its Tillgångar die; only an
    arketyp whose conditions fit the corporation (steered by --karriar)."""
    entry = ctx.choose("arketyp", "arketyper")
    rules = ctx.settings("regler")
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
    char["tillgangar"] = clamp(rolled, low, high)
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
    rules = ctx.settings("regler")
    corporation = ctx.table("megakorporationer").get(char["megakorporation"])
    tables = [rules["uppvaxt_allman"]] * rules["uppvaxthandelser_antal"]
    if corporation.get("uppvaxt") and tables:
        tables[0] = corporation["uppvaxt"]
    char["uppvaxthandelser"] = [_event(ctx, t, "uppvaxthandelse", char) for t in tables]


def karriarer(char: dict, ctx: Context) -> None:
    """Step 5: two or three karriärer whose conditions fit the arketyp and the
    corporation; the player says how many and which (--karriar, or the prompt)."""
    rules = ctx.settings("regler")
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
    count = ctx.setting("regler", "beskrivningsord_antal")
    ctx.set_fact("tillgangar_band", band(ctx, "tillgangar_band", char["tillgangar"])["id"])
    categories = ctx.choose_many("kategori", "beskrivningsord_kategorier", count)
    words = []
    for category in categories:
        table = f"beskrivningsord_{category['id']}"
        word = ctx.choose(table, table)  # one option per category: a prompt's answer holds
        words.append({"id": word["id"], "ord": ctx.text(word["name"]), "kategori": category["id"]})
    for n, word in enumerate(words):  # without a prompt the drawn word stands
        own = ctx.ask_text(f"eget_beskrivningsord_{n + 1}", word["ord"]).strip()
        if own and own != word["ord"]:
            words[n] = {"id": None, "ord": own, "kategori": "eget"}
    char["beskrivningsord"] = words


def _items(ctx: Context, skill: str) -> tuple[dict, ...]:
    """The items of utrustning_<skill>.toml that fit this character (its corporation,
    arketyp, what it already has); only the files a character needs are read."""
    name = item_file(skill)
    if name not in ctx.tables:
        return ()
    return ctx.pool(name).entries  # memoised per batch by what decides it


def has_items(ctx: Context, skill: str) -> bool:
    """Whether a färdighet (or armour) has an utrustning file in this pack."""

    def build() -> frozenset:
        skills = (*FARDIGHETER, ctx.setting("regler", "rustning_fardighet"))
        return frozenset(f for f in skills if f"utrustning_{f}" in ctx.tables)

    return ("kunskap" if skill.startswith(KUNSKAP) else skill) in ctx.memo("item_skills", build)


def _weighted(rng, weights: dict[str, int]) -> str:
    pool = list(weights.items())
    point = rng.random() * sum(w for _, w in pool)
    for key, weight in pool:
        point -= weight
        if point < 0:
            return key
    return pool[-1][0]


def manovrar(ctx: Context, skill: str, item: dict) -> tuple[str, ...]:
    """The stridsmanövrar a weapon allows: its own list, else its färdighet's."""
    if item.get("stridsmanovrar"):
        return tuple(item["stridsmanovrar"])
    return ctx.memo(
        ("manovrar", skill),
        lambda: tuple(
            e["id"] for e in ctx.table("stridsmanovrar").entries if skill in e["fardigheter"]
        ),
    )


def gear_item(ctx: Context, item: dict, skill: str, bonus: int) -> dict:
    """An item as the character carries it, its own dict (noted, so its exclusions hold)."""
    ctx.note(item, item_file(skill))
    out = {"namn": ctx.text(item["name"]), "fardighet": skill, "bonus": bonus}
    if is_weapon(item):
        out["vapen"] = True
        out["stridsmanovrar"] = list(manovrar(ctx, skill, item))
    return out


def _weapon(ctx: Context, char: dict, taken: set[str]) -> tuple[str, dict] | None:
    """A weapon for the character: of its best vapenfärdighet (one drawn evenly among
    equals), so a prickskytt with Enkelskott 18 carries a gun, not a knife; an item
    tagged `vapen` of that färdighet that fits the character. None only in a pack with
    no weapon at all for it."""
    options = {}
    for skill in WEAPON_SKILLS:
        items = [e for e in _items(ctx, skill) if is_weapon(e) and e["id"] not in taken]
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
                if item["id"] == item_id and is_weapon(item):
                    return skill, item
    return None


def utrustning(char: dict, ctx: Context) -> None:
    """Step 7: half of Tillgångar rounded up in bonuses, at most +5 to one färdighet.

    First a weapon ("alla rollpersoner har ett vapen"), its bonus counted in the
    budget (+0 when the budget is 0); then items for färdigheter drawn weighted by
    the character's value in them, armour (`rustning`) with its own weight. Each
    item gets +1 up to `utrustning_max_per_foremal`; no item is taken twice.
    Armour raises Slås ut på. At the prompt the player then edits what was drawn."""
    rules = ctx.settings("regler")
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
        gear.append(gear_item(ctx, item, target, bonus))
        ctx.log(utrustning=item["id"], fardighet=target, bonus=bonus)

    weapon = _own_weapon(ctx, char) or _weapon(ctx, char, taken)
    if weapon is not None:
        take(weapon[1], weapon[0])
    weights = {f: v for f, v in char["fardigheter"].items() if v > 0 and has_items(ctx, f)}
    if not weights:
        weights = {f: 1 for f in FASTA if has_items(ctx, f)}
    if has_items(ctx, armour):
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
    if ctx.prompter is not None:  # "Hitta på utrustning": the player edits what was drawn
        gear, left = _edit_gear(ctx, char, gear, budget, taken)
    char["utrustning"] = gear
    ctx.log(bonusar=budget, fordelade=budget - left)


def _edit_gear(
    ctx: Context, char: dict, gear: list[dict], budget: int, taken: set[str]
) -> tuple[list[dict], int]:
    """ "Hitta på utrustning" at the prompt: keep some of the drawn items, add others
    that fit (+1 each), then name items of one's own; the budget and the +5 per
    färdighet hold, and a weapon stays (the drawn one comes back if none is kept)."""
    rules = ctx.settings("regler")
    cap, per_item = rules["utrustning_max_per_fardighet"], rules["utrustning_max_per_foremal"]
    skills = [f for f, v in char["fardigheter"].items() if v > 0 and has_items(ctx, f)]
    pool = []  # what may be added: a few items for each of the character's best färdigheter
    ranked = sorted(skills, key=lambda f: -char["fardigheter"][f])[:6]
    for skill in ranked or [f for f in WEAPON_SKILLS if has_items(ctx, f)]:
        fresh = [i for i in _items(ctx, skill) if i["id"] not in taken]
        pool += [(item, skill) for item in fresh[:3] if all(item is not p[0] for p in pool)]
    offered = [{"namn": ctx.text(i["name"]), "fardighet": s, "bonus": 1} for i, s in pool]
    kept = ctx.ask_list("utrustning", gear, offered, show=item_text(ctx.tables))
    if not any(i.get("vapen") for i in kept) and any(i.get("vapen") for i in gear):
        kept.insert(0, next(i for i in gear if i.get("vapen")))
    out: list[dict] = []
    used: dict[str, int] = {}
    left = budget
    for item in kept:
        if item in offered:  # an added item: noted like a drawn one, at +1
            source, skill = pool[offered.index(item)]
            item = gear_item(ctx, source, skill, 1)
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


# -- hjältepoäng spent during creation ---------------------------------------------------


def _roll_2t10(ctx: Context, why: str) -> int:
    roll = ctx.roll(ctx.setting("regler", "hojning_tarning"), why)
    return sum(t10_reading(roll.dice)) + (roll.total - sum(roll.dice))


def spendera_hjaltepoang(char: dict, ctx: Context) -> None:
    """With --spend-hjaltepoang: raises at 2 hjältepoäng each, by the document's rules.

    They are bought before utrustning (creation order: a raised Tillgångar gives
    the larger budget); a raise of a föremål is paid here and rolled once the
    utrustning exists (step `foremal`). What a raise goes to: the player's answer,
    else drawn from hojningar.toml by weight."""
    char["hojningar"] = []
    char["bekanta"] = 0
    if not ctx.option("spend_hjaltepoang"):
        return
    raise_cost = ctx.setting("regler", "hojning_kostnad")
    while True:
        kinds = [
            e
            for e in ctx.table("hojningar").entries
            if e.get("kostnad", raise_cost) <= char["hjaltepoang"]
            and _can_raise(char, ctx, e["id"])
        ]
        if not kinds:
            break
        entry = ctx.choose("hojning", "hojningar", kinds)
        kind, cost = entry["id"], entry.get("kostnad", raise_cost)
        char["hjaltepoang"] -= cost
        if kind == "foremal":
            char[PENDING_FOREMAL] = char.get(PENDING_FOREMAL, 0) + 1
            ctx.log(hojning=kind, hjaltepoang=cost, efter="utrustning")
            continue
        if kind == "bekant":
            _bekant(char, ctx, cost)
            continue
        _record(char, ctx, _raise(char, ctx, kind), cost)


def _best_roll(ctx: Context) -> int:
    """The highest a raise's 2T10 can read (each ten reads 0: 9 + 9)."""
    dice = parse(ctx.setting("regler", "hojning_tarning"))
    return sum(t.kept * (t.sides - 1 if t.sides == 10 else t.sides) for t in dice.terms) + (
        dice.modifier
    )


def _raisable_skills(char: dict, ctx: Context) -> list[str]:
    """The färdigheter a raise can still lift: below the cap, and within reach of the
    best roll plus the grundegenskap (the character's own, else the fasta ones)."""
    skills, high, best = char["fardigheter"], ctx.setting("regler", "varde_max"), _best_roll(ctx)
    learned = [f for f in skills if skills[f] > 0] or list(FASTA)
    ge = char["grundegenskaper"]
    return [f for f in learned if skills[f] < high and best + ge[grund_for(f)] > skills[f]]


def _raisable_grundegenskaper(char: dict, ctx: Context) -> list[str]:
    bas, best = ctx.setting("regler", "hojning_grundegenskap_bas"), _best_roll(ctx)
    return [k for k, v in char["grundegenskaper"].items() if best > bas + v]


def _can_raise(char: dict, ctx: Context, kind: str) -> bool:
    """Whether hjältepoäng on `kind` can buy anything: never a value at its cap or one
    no roll can lift (the points would be lost)."""
    if kind == "grundegenskap":
        return bool(_raisable_grundegenskaper(char, ctx))
    if kind == "fardighet":
        return bool(_raisable_skills(char, ctx))
    if kind == "tillgangar":
        high = ctx.setting("regler", "varde_max")
        return char["tillgangar"] < high and _best_roll(ctx) > char["tillgangar"]
    return True  # a föremål (rolled once the utrustning exists), a Bekant


def _bekant(char: dict, ctx: Context, cost: int) -> None:
    """ "Hitta på en kontakt": a Bekant of the character's arketyp or a karriär (the
    document: "relaterad till rollpersonens arketyp, tidigare karriär eller
    färdigheter"); the points go into Bekanta, which never exceeds Personlighet."""
    sources = [("arketyp", char["arketyp_namn"])]
    sources += [("karriar", k["namn"]) for k in char.get("karriarer", ())]
    kind, source = sources[int(ctx.rng.random() * len(sources))]
    char["bekanta"] = min(char["bekanta"] + cost, char["grundegenskaper"]["personlighet"])
    char["kontakter"] = [
        *char.get("kontakter", ()),
        ctx.labels.fill("bekant_fran", slag=ctx.labels(kind).lower(), kalla=source),
    ]
    char["hojningar"].append({"typ": "bekant", "mal": source, "hjaltepoang": cost})
    ctx.log(hojning="bekant", kalla=source, hjaltepoang=cost, bekanta=char["bekanta"])


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


def foremal(char: dict, ctx: Context) -> None:
    """The föremål raises paid for before utrustning, rolled now that it exists."""
    cost = ctx.setting("regler", "hojning_kostnad")
    for _ in range(char.pop(PENDING_FOREMAL, 0)):
        if char["utrustning"]:
            _record(char, ctx, _raise(char, ctx, "foremal"), cost)


def _record(char: dict, ctx: Context, record: dict, cost: int) -> None:
    record["hjaltepoang"] = cost
    char["hojningar"].append(record)
    ctx.log(hojning=record["typ"], **{k: v for k, v in record.items() if k != "hjaltepoang"})


def _raise(char: dict, ctx: Context, kind: str) -> dict:
    rules = ctx.settings("regler")
    rand = ctx.rng.random
    high = rules["varde_max"]
    if kind == "grundegenskap":
        open_ = set(_raisable_grundegenskaper(char, ctx))
        pool = [e for e in ctx.table("grundegenskaper").entries if e["id"] in open_]
        key = ctx.choose("hojning_grundegenskap", "grundegenskaper", pool)["id"]
        value = char["grundegenskaper"][key]
        need = rules["hojning_grundegenskap_bas"] + value
        rolled = _roll_2t10(ctx, f"höja {key}")
        ok = rolled > need
        if ok:
            char["grundegenskaper"][key] = value + 1
        return {"typ": kind, "mal": key, "slag": rolled, "over": need, "lyckat": ok}
    if kind == "fardighet":
        skills = char["fardigheter"]
        learned = _raisable_skills(char, ctx)
        # evenly among the character's own färdigheter (each Kunskap inriktning one of
        # them) that a raise can lift; at the prompt asked as the färdighet, then for
        # Kunskap the inriktning
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
    kept = ctx.ask_list("hojning_foremal", gear, show=item_text(ctx.tables))
    # one item kept picks that item; the whole list (an empty answer) leaves it to chance
    item = kept[0] if len(kept) == 1 else gear[int(rand() * len(gear))]
    against = char["tillgangar"] - item["bonus"]
    rolled = _roll_2t10(ctx, f"höja {item['namn']}")
    total_for = sum(i["bonus"] for i in char["utrustning"] if i["fardighet"] == item["fardighet"])
    ok = 0 < rolled <= against and total_for < rules["utrustning_max_per_fardighet"]
    if ok:
        item["bonus"] += 1
    return {"typ": kind, "mal": item["namn"], "slag": rolled, "mot": against, "lyckat": ok}


# -- the derived values ------------------------------------------------------------------


def harledda(char: dict, ctx: Context) -> None:
    """The derived values: Rykte, Bekanta, Öde, Slås ut på, Nivåer, band, Konsten, initiativ."""
    rules = ctx.settings("regler")
    ge = char["grundegenskaper"]
    char["rykte"] = ge["personlighet"] + ge["psyke"]
    char["rykte_band"] = band(ctx, "rykte_band", char["rykte"])["name"]
    char["bekanta_max"] = ge["personlighet"]
    char["ode_max"] = ge["psyke"]
    armour = sum(
        i["bonus"] for i in char["utrustning"] if i["fardighet"] == rules["rustning_fardighet"]
    )
    char["rustningsbonus"] = armour
    char["slas_ut_pa"] = rules["slas_ut_pa_bas"] + armour
    char["nivaer"] = {f: band(ctx, "nivaer", v)["niva"] for f, v in char["fardigheter"].items()}
    char["tillgangar_niva"] = band(ctx, "nivaer", char["tillgangar"])["niva"]
    char["tillgangar_band"] = band(ctx, "tillgangar_band", char["tillgangar"])["name"]
    char["initiativ"] = max(char["fardigheter"][f] for f in GRUPPER["fysik"])
    char["sinnesryckning"] = band(ctx, "sinnesryckning", char["korruption"])["name"]
    char["bioteknik_mycket_svart"] = char["megakorporation"] != rules["bioteknik_korporation"]
    arch = ctx.table("arketyper").get(char["arketyp"])
    mode = arch.get("konsten")
    if mode == "en":
        count = 1
    elif mode == "psyke":  # as many as Psyke; a mystiker knows at least one
        count = max(1, min(ge["psyke"], rules["konsten_max"]))
    elif mode is None:
        count = 0
    else:  # a pack used without `tables check`: the fault the pack check names
        raise TableError(konsten_faults(ctx.table("arketyper")))
    chosen = []
    if count > 0:  # konsten.toml is read only for those who use the Art
        count = min(count, len(ctx.table("konsten").entries))
        chosen = ctx.choose_many("inriktning", "konsten", count)
    char["konsten"] = [e["id"] for e in chosen]
    ctx.log(rykte=char["rykte"], slas_ut_pa=char["slas_ut_pa"], initiativ=char["initiativ"])
