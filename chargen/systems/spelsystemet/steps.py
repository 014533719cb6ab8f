"""The player character's creation steps, in the order the procedure walks them; an
NPC walks them too, but for its template, species and yrke (npcs.py).

Each step is a function ``(character, ctx) -> None`` drawing from its own stream
(`ctx.rng`); what it reads of the character is declared beside it in the system's
declaration (chargen/systems/spelsystemet/__init__.py). What the tables fix for a
batch (the genres a choice leaves open, a species' dice, a yrke's skills, weapons
and kits in a genre, a weapon's row for a Grundskada, a kit's armour) is worked out
once through `ctx.memo`, by the builders below; the artmaximum, KP and armour a
character gets are the memo's own objects, shared by every member that has them.

A player character rolls through `ctx.roll` and logs every choice, roll and raise
in its historik; an NPC keeps none, so it rolls with `rules.roller`, which takes
the same numbers from the stream as `ctx.roll` would.
"""

from __future__ import annotations

from bisect import bisect
from collections.abc import Callable

from chargen.errors import ChargenError
from chargen.procedure import Context
from chargen.systems.spelsystemet.rules import (
    GRUNDEGENSKAPER,
    GRUPPER,
    Skill,
    artmaximum,
    genre_name,
    grundskada,
    implied_specs,
    kp,
    lp,
    martial_art,
    off_hand,
    outfit,
    raise_skill,
    range_attribute,
    roller,
    set_skill,
    snabbhet,
    weapon_row,
    why_not,
)

# -- what a batch works out once --------------------------------------------------------


def dice(ctx: Context, expression: str) -> tuple[str, Callable]:
    """A dice expression of the tables and its roller (rules.roller), parsed once."""
    return ctx.memo(("dice", expression), _dice, expression)


def _dice(expression: str) -> tuple[str, Callable]:
    return expression, roller(expression)


def open_genres(ctx: Context, template_id: str | None) -> tuple[list[dict] | None, str]:
    """The genres that the choices made leave open (None: all of them), and why others
    are not: those the --art lives in, the --yrke (a PC's) and the template exist in."""
    art = ctx.options.get("art")
    yrke = ctx.options.get("yrke") if ctx.kind == "pc" else None
    return ctx.memo(("genrer", template_id, art, yrke), _open_genres, ctx, template_id, art, yrke)


def _open_genres(ctx: Context, template_id: str | None, art: str | None, yrke: str | None):
    tables = ctx.tables
    genres = list(tables["genrer"].entries)
    reasons = []
    if art and art in tables["arter"]:
        open_ = tables["arter"].get(art)["genrer"]
        genres = [g for g in genres if g["id"] in open_]
        reasons.append(f"the art '{art}' lives in {', '.join(open_)}")
    if yrke and yrke in tables["yrken"]:
        open_ = tables["yrken"].get(yrke)["genrer"]
        genres = [g for g in genres if g["id"] in open_]
        reasons.append(f"the yrke '{yrke}' exists in {', '.join(open_)}")
    if template_id is not None:
        template = tables["mallar"].get(template_id)
        open_ = sorted({g for y in template["yrken"] for g in tables["yrken"].get(y)["genrer"]})
        genres = [g for g in genres if g["id"] in open_]
        reasons.append(f"the template '{template['id']}' exists in {', '.join(open_)}")
    every = len(genres) == len(tables["genrer"].entries)
    return (None if every else genres), "; ".join(reasons)


def genre_species(ctx: Context, genre_id: str) -> tuple[list[dict], dict | None]:
    """The species living in a genre, and människa if it lives there."""
    return ctx.memo(("arter", genre_id), _genre_species, ctx, genre_id)


def _genre_species(ctx: Context, genre_id: str) -> tuple[list[dict], dict | None]:
    tab = ctx.table("arter")
    living = [e for e in tab.entries if genre_id in e["genrer"]]
    default = tab.get("manniska") if "manniska" in tab else None
    return living, (default if default in living else None)


def species(ctx: Context, art_id: str) -> dict:
    """A species' dice per grundegenskap (`rolled`: (grundegenskap, expression, roller),
    in GRUNDEGENSKAPER's order), its `artmaximum` and its mother tongue."""
    return ctx.memo(("art", art_id), _species, ctx, art_id)


def _species(ctx: Context, art_id: str) -> dict:
    entry = ctx.table("arter").get(art_id)
    rolled = entry["tarningar"]
    missing = [g for g in GRUNDEGENSKAPER if g not in rolled]
    if missing:
        raise ChargenError(f"arter.toml: '{art_id}' has no dice for {', '.join(missing)}")
    return {
        "rolled": tuple((g, *dice(ctx, rolled[g])) for g in GRUNDEGENSKAPER),
        "artmaximum": {g: artmaximum(rolled[g]) for g in GRUNDEGENSKAPER},
        "modersmal": entry.get("modersmal"),
    }


def genre_skills(ctx: Context, genre_id: str) -> dict:
    """The skills as a genre has them (id -> rules.Skill), what everyone has there (every
    skill with a bas above 0 that exists there: values, labels, groups) and the leisure
    skills to draw from (its vanliga and kunskap skills)."""
    return ctx.memo(("fardigheter", genre_id), _genre_skills, ctx, genre_id)


def _genre_skills(ctx: Context, genre_id: str) -> dict:
    table = ctx.table("fardigheter")
    genre = ctx.table("genrer").get(genre_id)
    tak = ctx.setting("regler", "tak")
    skills = {e["id"]: Skill(e, genre, tak) for e in table.entries}
    values: dict[str, int] = {}
    labels: dict[str, str] = {}
    groups: dict[str, list[str]] = {g: [] for g in GRUPPER}
    for entry in table.entries:
        skill = skills[entry["id"]]
        if entry["bas"] > 0 and not skill.klass and skill.open:
            value = min(skill.bas, skill.cap_for(values))
            set_skill(values, labels, groups, skill.id, skill.whole[1], skill.grupp, value)
    leisure = [
        e for e in table.entries if e["grupp"] in ("vanliga", "kunskap") and skills[e["id"]].open
    ]
    return {"genre": genre, "skills": skills, "base": (values, labels, groups), "leisure": leisure}


def _skill(ctx: Context, skills: dict, skill_id: str) -> Skill:
    found = skills.get(skill_id)
    if found is None:
        ctx.table("fardigheter").get(skill_id, "färdighet")  # the unknown id, named
    return found


def job_plan(ctx: Context, job_id: str, genre_id: str) -> dict:
    """A yrke in a genre: what everyone has there, the tongues (the genre's own to draw
    a mother tongue from, its common tongue), the yrke's skills (Stridskonst last, since
    Närkamp caps it) with their dice and the specifications it implies, as rules.Skill
    gives them, and the leisure skills with their dice."""
    return ctx.memo(("yrke", job_id, genre_id), _job_plan, ctx, job_id, genre_id)


def _job_plan(ctx: Context, job_id: str, genre_id: str) -> dict:
    rules = ctx.settings("regler")
    job = ctx.table("yrken").get(job_id)
    fixed = genre_skills(ctx, genre_id)
    skills, genre = fixed["skills"], fixed["genre"]
    specs = {
        skill_id: tuple(_skill(ctx, skills, skill_id).specified(s) for s in wanted)
        for skill_id, wanted in implied_specs(job, ctx.tables, genre_id).items()
    }
    # a yrke's skill that does not exist in the genre is not given there (no Rida in
    # the Framtid); Stridskonst last, since Närkamp caps it
    ordered = sorted(
        ((s, d) for s, d in job["fardigheter"].items() if _skill(ctx, skills, s).open),
        key=lambda kv: kv[0] == "stridskonst",
    )
    sprak = _skill(ctx, skills, "sprak")
    common = genre.get("gemensamt_sprak")
    return {
        **fixed,
        "given": tuple(
            (_skill(ctx, skills, s), *dice(ctx, d), specs.get(s, ())) for s, d in ordered
        ),
        "specs": specs,
        "sprak": sprak,
        "tongues": tuple(genre["modersmal"]),
        "native": dice(ctx, rules["modersmal"]),
        "common": common,
        "common_spec": None if common is None else sprak.specified(common),
        "common_dice": dice(ctx, rules["gemensamt_sprak_varde"]),
        "fritid": (rules["fritid_antal"], *dice(ctx, rules["fritid_varde"])),
    }


def _tongue(ctx: Context, genre_id: str, sprak: Skill, tongue: str) -> tuple:
    """Språk specified as a mother tongue in a genre."""
    return ctx.memo(("modersmal", genre_id, tongue), sprak.specified, tongue)


def arms(ctx: Context, job_id: str, genre_id: str) -> dict:
    """The weapons a yrke may carry in a genre (one list per weapon table, each weapon
    with what it demands of STO and STY), its shield, Obeväpnad, the dice of its weapon
    skills, and per weapon: (table, entry, skill key, one-handed melee, the grundegenskap
    of its Sv in metres, a wrong-hand skill, its key and label)."""
    return ctx.memo(("vapen", job_id, genre_id), _arms, ctx, job_id, genre_id)


def _arms(ctx: Context, job_id: str, genre_id: str) -> dict:
    job = ctx.table("yrken").get(job_id)
    genre = ctx.table("genrer").get(genre_id)
    skills = ctx.table("fardigheter")
    wrong_hand = ctx.labels("fel_hand_namn")
    info = {}

    def weapon(table: str, entry: dict) -> tuple:
        key = entry["fardighet"]
        found = info[(table, entry["id"])] = (
            table,
            entry,
            key,
            table == "narstridsvapen" and entry.get("grepp") == "Enhands",
            range_attribute(table, entry),
            off_hand(entry),
            f"{key}_fel_hand",
            wrong_hand.replace("{namn}", skills.get(key)["name"]),
        )
        return found

    lists = []
    for table in ("narstridsvapen", "avstandsvapen"):
        tab = ctx.table(table)
        listed = job.get(f"{table}_per_genre", {}).get(genre_id, job[table])
        here = [tab.get(w) for w in listed if w in genre[table]]
        for w in here:
            weapon(table, w)
        lists.append((table, [(w, w.get("min_sto", 0), w.get("min_sty", 0)) for w in here]))
    melee = ctx.table("narstridsvapen")
    shield = None
    if job.get("skold") and "skold" in melee and "skold" in genre["narstridsvapen"]:
        shield = weapon("narstridsvapen", melee.get("skold"))
    unarmed = None
    if "obevapnad" in melee:
        unarmed = weapon("narstridsvapen", melee.get("obevapnad"))
    # Obeväpnad joins every character, unless it is one of the weapons drawn
    drawable = {w["id"] for _t, needs in lists for w, _s, _y in needs}
    check_unarmed = "obevapnad" in drawable or (
        shield is not None and shield[1]["id"] == "obevapnad"
    )
    return {
        "lists": lists,
        "info": info,
        "shield": shield,
        "unarmed": unarmed,
        "check_unarmed": check_unarmed,
        "dice": dice(ctx, job["vapenfardighet"]),
        "skills": genre_skills(ctx, genre_id)["skills"],
        # what a character may use depends only on how many demands it meets
        "sto": sorted({s for _t, needs in lists for _w, s, _y in needs}),
        "sty": sorted({y for _t, needs in lists for _w, _s, y in needs}),
    }


def usable(ctx: Context, plan: dict, job_id: str, genre_id: str, sto: int, sty: int) -> tuple:
    """Per weapon table of `arms`: (its name, the weapons usable with STO and STY, those
    refused)."""
    level = (bisect(plan["sto"], sto), bisect(plan["sty"], sty))
    key = ("vapenval", job_id, genre_id, level)
    return ctx.memo(key, _usable, ctx, key, plan, sto, sty)


def _usable(ctx: Context, key: tuple, plan: dict, sto: int, sty: int) -> tuple:
    out = []
    for table, needs in plan["lists"]:
        # each list memoised on its own, so that picking among it finds the pool of the
        # rows that fit memoised too (Context.pool), not filtered again per member
        fits = ctx.memo((*key, table), list, [w for w, s, y in needs if sto >= s and sty >= y])
        refused = [w for w, s, y in needs if not (sto >= s and sty >= y)]
        out.append((table, fits, refused))
    return tuple(out)


def kits(ctx: Context, job_id: str, genre_id: str) -> list[dict]:
    """The yrke's rustningspaket that exist in the genre."""
    return ctx.memo(("rustningspaket", job_id, genre_id), _kits, ctx, job_id, genre_id)


def _kits(ctx: Context, job_id: str, genre_id: str) -> list[dict]:
    table = ctx.table("rustningspaket")
    listed = ctx.table("yrken").get(job_id)["rustningspaket"]
    return [table.get(k) for k in listed if genre_id in table.get(k)["genrer"]]


def _kp(ctx: Context, points: int) -> dict[str, int]:
    return {p["id"]: kp(points, p) for p in ctx.table("kroppsdelar").entries}


def worn(ctx: Context, kit: dict) -> dict:
    """A kit's armour rows, protection per body part and fatigue rolls (rules.outfit)."""
    return ctx.memo(("utrustning", kit["id"]), _worn, ctx, kit)


def _worn(ctx: Context, kit: dict) -> dict:
    rows, skydd, trotthet = outfit(kit, ctx.tables, ctx.settings("regler"))
    return {"rustning": rows, "skydd": skydd, "trotthetsslag": trotthet}


# -- the steps ---------------------------------------------------------------------------


def genre(char: dict, ctx: Context) -> None:
    """The genre (--genre), among those the chosen art, yrke or template exist in."""
    allowed, why = open_genres(ctx, char["template"])
    if allowed is not None and not allowed:
        raise ChargenError(f"no genre fits these choices: {why}")
    entry = _choose_briefly(ctx, "genre", "genrer", allowed, why, ("description",))
    char["genre"] = entry["id"]
    char["genre_namn"] = ctx.text(entry["name"])


def art(char: dict, ctx: Context) -> None:
    """The species (--art), among those living in the genre; a player character is a
    människa unless --art or the prompt says otherwise (an empty answer is that default,
    as without prompts, where the engine's choose would draw one instead)."""
    living, default = genre_species(ctx, char["genre"])
    if ctx.options.get("art") is None and default is not None:
        entry, how = default, "default"
        if ctx.prompter is not None and len(living) > 1:
            asked = ctx.prompter.choose("art", ctx.table("arter"), list(living), ctx.rng)
            if asked is None:
                name = ctx.text(entry["name"])
                ctx.prompter.say("  " + ctx.labels.prompt("default", value=name))
            else:
                entry, how = asked, "prompt"
                ctx.options["art"] = entry["id"]  # the batch takes the answer
        ctx.note(entry, "arter")
        ctx.log(choice="art", id=entry["id"], name=ctx.text(entry["name"]), by=how)
    else:
        entry = ctx.choose(
            "art",
            "arter",
            allowed=living,
            why=lambda e: (
                f"the art '{e['id']}' lives in {', '.join(e['genrer'])}, "
                f"not in the genre '{char['genre']}'"
            ),
        )
    char["art"] = entry["id"]
    char["art_namn"] = ctx.text(entry["name"])


def namn(char: dict, ctx: Context) -> None:
    """A name of the character's world: from the species' authored name table for the
    genre (fantasy), else from Faker's locale (modern tid, framtid, or any --locale)."""
    table = ctx.table("arter").get(char["art"]).get("namntabeller", {}).get(char["genre"])
    # a batch keeps names unique within their source: a small table (the trolls') that
    # runs out numbers its own, not everyone's
    if table is not None and not ctx.locale:
        ctx.name_space = f"{table}.toml"
        char["name"], char["kon"] = ctx.authored_name(table)
    else:
        ctx.name_space = f"Faker {ctx.locale or ctx.system.locale}"
        char["name"], char["kon"] = ctx.person_name()


def grundegenskaper(char: dict, ctx: Context) -> None:
    """HÄL, KRA, SKI, STO, STY rolled on the species' dice, with each one's artmaximum."""
    fixed = species(ctx, char["art"])
    if ctx.kind == "pc":
        label = ctx.labels
        char["grundegenskaper"] = {
            g: ctx.roll(text, label(g)).total for g, text, _r in fixed["rolled"]
        }
        if ctx.prompter is not None:
            char["grundegenskaper"] = _arrange(ctx, char["grundegenskaper"], fixed["artmaximum"])
    else:
        rand = ctx.rng.random
        char["grundegenskaper"] = {g: roll(rand) for g, _text, roll in fixed["rolled"]}
    char["artmaximum"] = fixed["artmaximum"]


def _arrange(ctx: Context, rolled: dict[str, int], caps: dict[str, int]) -> dict[str, int]:
    """At the prompt: the rolled values as they fell, or arranged by the player among
    the grundegenskaper (each within its artmaximum); asked again with the reason."""
    L = ctx.labels
    shown = ", ".join(f"{L(g)} {v}" for g, v in rolled.items())
    ctx.prompter.say("")
    ctx.prompter.say(f"{L('grundegenskaper')}: {shown}")
    if ctx.ask_yes_no("behall_grundegenskaper", True):
        return rolled
    order = " ".join(L(g) for g in rolled)
    values = sorted(rolled.values(), reverse=True)
    for _ in range(5):
        answer = ctx.prompter.ask(
            L.fill("ordna_grundegenskaper", ordning=order, varden=", ".join(map(str, values)))
        )
        if not answer:
            return rolled
        parts = [p for p in answer.replace(",", " ").split() if p]
        if (
            not all(p.isascii() and p.isdigit() for p in parts)
            or sorted(map(int, parts), reverse=True) != values
        ):
            ctx.prompter.refused(L.fill("ordna_fel", varden=", ".join(map(str, values))))
            continue
        arranged = dict(zip(rolled, map(int, parts), strict=True))
        over = [g for g, v in arranged.items() if v > caps[g]]
        if over:
            g = over[0]
            ctx.prompter.refused(L.fill("ordna_over", namn=L(g), max=caps[g]))
            continue
        ctx.log(grundegenskaper_ordnade=arranged)
        return arranged
    raise ChargenError(L.prompt("tries", what=L("grundegenskaper")))


def beraknade(char: dict, ctx: Context) -> None:
    """LP, Snabbhet, Grundskada and KP per body part, by the document's formulas."""
    rules = ctx.settings("regler")
    g = char["grundegenskaper"]
    points = char["lp"] = lp(g, rules)
    char["snabbhet"] = snabbhet(g, rules)
    size = g["sto"] + g["sty"]
    char["grundskada"] = ctx.memo(("grundskada", size), grundskada, size, rules)
    char["kp"] = ctx.memo(("kp", points), _kp, ctx, points)  # one object per LP
    if ctx.kind == "pc":
        ctx.log(lp=points, snabbhet=char["snabbhet"], grundskada=char["grundskada"])


def yrke(char: dict, ctx: Context) -> None:
    """The yrke (--yrke), among those of the genre, and the skills it gives."""
    genre_id = char["genre"]
    jobs = ctx.memo(("yrken", genre_id), _jobs, ctx, genre_id)
    entry = _choose_briefly(
        ctx,
        "yrke",
        "yrken",
        jobs,
        lambda e: (
            f"the yrke '{e['id']}' cannot exist in the genre '{genre_id}' "
            f"(it exists in {', '.join(e['genrer'])})"
        ),
        ("description", "fardigheter", "vapenfardighet"),
    )
    char["yrke"] = entry["id"]
    char["yrke_namn"] = ctx.text(genre_name(entry, genre_id))
    skills(char, ctx)


def _choose_briefly(
    ctx: Context,
    option: str,
    table: str,
    among: list[dict] | None,
    why: str | Callable[[dict], str],
    keep: tuple[str, ...],
) -> dict:
    """`ctx.choose`, asked at the prompt with each row shown by what it does (`keep`:
    its description, a yrke's skills), not the lists of weapons, gods and tongues the
    tables keep for later steps. The answer is taken as the option (the batch takes it
    too) and the historik says the player chose it; an empty answer leaves it to the
    dice, which are shown, not asked again with the long rows."""
    asked = _ask_brief(ctx, option, table, among, keep)
    if asked is None:  # not asked: no prompt, the option given, or one row
        return ctx.choose(option, table, allowed=among, why=why)
    if asked:
        ctx.options[option] = asked["id"]
        entry = ctx.choose(option, table, allowed=among, why=why)
        for event in reversed(ctx.historik):  # the engine took the answer as the option
            if event.get("choice") == option:
                event["by"] = "prompt"
                break
        return entry
    prompter, ctx.prompter = ctx.prompter, None  # the dice, without the question again
    try:
        entry = ctx.choose(option, table, allowed=among, why=why)
    finally:
        ctx.prompter = prompter
    prompter.drawn(entry)
    return entry


def _ask_brief(
    ctx: Context, option: str, table: str, among: list[dict] | None, keep: tuple[str, ...]
) -> dict | bool | None:
    """The brief question of `_choose_briefly`: the row answered, False for an empty
    answer, None when there is nothing to ask."""
    if ctx.prompter is None or ctx.options.get(option) is not None:
        return None
    rows = list(ctx.table(table).entries) if among is None else among
    if len(rows) < 2:
        return None
    brief = [{k: e[k] for k in ("id", "name", *keep) if k in e} for e in rows]
    asked = ctx.prompter.choose(option, ctx.table(table), brief, ctx.rng)
    return False if asked is None else asked


def _jobs(ctx: Context, genre_id: str) -> list[dict]:
    return [e for e in ctx.table("yrken").entries if genre_id in e["genrer"]]


def skills(char: dict, ctx: Context) -> None:
    """The skills of the yrke: what everyone has in the genre, the mother tongue and the
    genre's common tongue, the yrke's own skills and `fritid_antal` leisure skills."""
    genre_id = char["genre"]
    plan = job_plan(ctx, char["yrke"], genre_id)
    base_values, base_labels, base_groups = plan["base"]
    values = char["fardigheter"] = base_values.copy()
    labels = char["fardighetsnamn"] = base_labels.copy()
    groups = char["fardighetsgrupper"] = {g: keys.copy() for g, keys in base_groups.items()}
    rand = ctx.rng.random
    pc = ctx.kind == "pc"
    log = ctx.log if pc else None
    # The character's own tongue: the species' if it has one, else one of the genre's.
    sprak = plan["sprak"]
    tongue = species(ctx, char["art"])["modersmal"]
    if not tongue:
        tongues = plan["tongues"]
        tongue = tongues[int(rand() * len(tongues))]
    native = _tongue(ctx, genre_id, sprak, tongue)
    text, roll = plan["native"]
    amount = ctx.roll(text, native[1]).total if pc else roll(rand)  # "Språk Alviska"
    key = raise_skill(values, labels, groups, sprak, amount, rand, native, log, "modersmål")
    char["modersmal"] = key
    # "alla har minst 10 i det språk som används": the genre's common tongue beside one's own
    common = plan["common"]
    if common is not None and common != tongue:
        chosen = plan["common_spec"]
        text, roll = plan["common_dice"]
        amount = ctx.roll(text, chosen[1]).total if pc else roll(rand)
        key = raise_skill(
            values, labels, groups, sprak, amount, rand, chosen, log, "gemensamt språk"
        )
    char["gemensamt_sprak"] = key
    why = char["yrke"]
    for skill, text, roll, options in plan["given"]:  # Stridskonst last
        amount = ctx.roll(text, skill.id).total if pc else roll(rand)
        chosen = _one_of(options, rand) if options else None
        raise_skill(values, labels, groups, skill, amount, rand, chosen, log, why)
    # Leisure: a few vanliga or kunskap skills of the genre; a yrke's specialisation of
    # one of them stays its own.
    count, text, roll = plan["fritid"]
    specs, every = plan["specs"], plan["skills"]
    leisure = _ask_leisure(ctx, plan["leisure"], count) if pc and ctx.prompter else None
    if leisure is None:
        leisure = ctx.draw("fardigheter", count, among=plan["leisure"])
        if pc and ctx.prompter is not None:
            ctx.prompter.drawn(leisure)
    for entry in leisure:
        skill = every[entry["id"]]
        amount = ctx.roll(text, skill.id).total if pc else roll(rand)
        options = specs.get(skill.id)
        chosen = _one_of(options, rand) if options else None
        raise_skill(values, labels, groups, skill, amount, rand, chosen, log, "fritid")


def _ask_leisure(ctx: Context, among: list[dict], count: int) -> list[dict] | None:
    """At the prompt, the leisure skills: each shown by its group and base value only
    (None: the dice draw them)."""
    table = ctx.table("fardigheter")
    brief = [{k: e[k] for k in ("id", "name", "grupp", "bas") if k in e} for e in among]
    asked = ctx.prompter.choose_many("fritid", table, brief, count)
    if asked is None:
        return None
    chosen = [table.get(e["id"]) for e in asked]
    for entry in chosen:
        ctx.note(entry, table)
        ctx.log(choice="fritid", id=entry["id"], name=entry["name"], by="prompt")
    return chosen


def _one_of(options: tuple, rand: Callable[[], float]) -> tuple:
    return options[0] if len(options) == 1 else options[int(rand() * len(options))]


def vapen(char: dict, ctx: Context) -> None:
    """Weapons from the document's tables, suited to yrke and genre, within their
    demands (bows' STY, great weapons' STO and STY 9): one of each kind the yrke carries
    here, a shield beside a one-handed melee weapon, Obeväpnad always; each weapon's
    skill raised, its actual damage worked out, a wrong-hand skill at 1."""
    g = char["grundegenskaper"]
    job_id, genre_id = char["yrke"], char["genre"]
    plan = arms(ctx, job_id, genre_id)
    info = plan["info"]
    pc = ctx.kind == "pc"
    carried: list[tuple] = []
    for table, fits, refused in usable(ctx, plan, job_id, genre_id, g["sto"], g["sty"]):
        if pc:
            for w in refused:
                ctx.log(vapen=w["id"], ej_valbart=f"kräver {why_not(w, g)}")
        if fits:
            asked = (
                ctx.prompter.choose(table, ctx.table(table), fits) if pc and ctx.prompter else None
            )
            if asked is None:
                asked = ctx.pick(table, among=fits)
                if pc and ctx.prompter is not None:
                    ctx.prompter.drawn(asked)
            else:
                ctx.note(asked, table)
            carried.append(info[(table, asked["id"])])
    # A shield with a one-handed melee weapon (the melee weapon, if any, is drawn first).
    if plan["shield"] is not None and carried and carried[0][3]:
        carried.append(plan["shield"])
    skills = plan["skills"]
    values, labels = char["fardigheter"], char["fardighetsnamn"]
    groups = char["fardighetsgrupper"]
    rand = ctx.rng.random
    log = ctx.log if pc else None
    text, roll = plan["dice"]
    rolled: list[str] = []
    for weapon in carried:
        key = weapon[2]
        if key not in rolled:
            rolled.append(key)
            amount = ctx.roll(text, key).total if pc else roll(rand)
            skill = _skill(ctx, skills, key)
            raise_skill(values, labels, groups, skill, amount, rand, None, log, weapon[1]["id"])
    # Everyone can fight unarmed (the table's first row, with Närkamp).
    unarmed = plan["unarmed"]
    if unarmed is not None and (
        not plan["check_unarmed"] or all(w[1]["id"] != "obevapnad" for w in carried)
    ):
        carried.insert(0, unarmed)
    grund = char["grundskada"]
    rules = ctx.settings("regler")
    rows = []
    for table, entry, key, _one_hand, attr, wrong_hand, off_key, off_label in carried:
        if key not in values:
            skill = ctx.table("fardigheter").get(key)
            set_skill(values, labels, groups, key, skill["name"], skill["grupp"], skill["bas"])
        row = ctx.memo(
            ("vapenrad", table, entry["id"], grund),
            weapon_row,
            ctx.tables,
            rules,
            table,
            entry,
            grund,
        ).copy()  # the character's own: its skill value goes in
        row["varde"] = values[key]
        if entry["id"] == "obevapnad":
            martial_art(row, values, labels, rules, grund)
        if attr is not None:
            row["skottvidd_meter"] = g[attr]
        rows.append(row)
        if pc:
            ctx.log(vapen=entry["id"], skada=row["skada"], faktisk_skada=row["faktisk_skada"])
        if wrong_hand:
            set_skill(values, labels, groups, off_key, off_label, "strid", rules["fel_hand"])
    char["vapen"] = rows


def rustning(char: dict, ctx: Context) -> None:
    """Armour and helmet per body part from a kit of the yrke, SP and fatigue rolls."""
    job_id, genre_id = char["yrke"], char["genre"]
    among = kits(ctx, job_id, genre_id)
    if not among:
        raise ChargenError(
            f"yrken.toml: the yrke '{job_id}' has no rustningspaket in the genre '{genre_id}'"
        )
    kit = None
    if ctx.kind == "pc" and ctx.prompter is not None and len(among) > 1:
        kit = ctx.prompter.choose("rustningspaket", ctx.table("rustningspaket"), among)
    if kit is None:
        kit = ctx.pick("rustningspaket", among=among)
        if ctx.kind == "pc" and ctx.prompter is not None and len(among) > 1:
            ctx.prompter.drawn(kit)
    else:
        ctx.note(kit, "rustningspaket")
    kit_id = kit["id"]
    if ctx.kind == "pc":
        ctx.log(rustningspaket=kit_id)
    char["rustningspaket"] = ctx.text(kit["name"])
    # the kit's rows, protection and fatigue rolls: one object each for every wearer
    fixed = worn(ctx, kit)
    char["rustning"] = fixed["rustning"]
    char["skydd"] = fixed["skydd"]
    char["trotthetsslag"] = fixed["trotthetsslag"]
    if ctx.kind == "pc":
        ctx.log(trotthetsslag=char["trotthetsslag"]["summa"])
