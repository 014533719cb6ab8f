"""The Főszereplő's creation steps, in the order the procedure walks them.

Each step is a function ``(character, ctx) -> None`` drawing from its own stream
(`ctx.rng`); what a step reads of the character is declared beside it in the
system's declaration (chargen/systems/savage/__init__.py). The questions of
`--interactive` are asked where each choice is made, through the engine's
`ctx.choose`, `ctx.choose_many`, `ctx.ask_number`, `ctx.ask_yes_no` and
`ctx.ask_list`; an empty answer takes what the dice draw without prompts. Two are
asked here on the prompter itself, each further Előny and the powers: their draw
weighs the concept's favourites, which the engine's choice does not.
"""

from __future__ import annotations

from chargen import names
from chargen.errors import ChargenError, ChoiceError
from chargen.procedure import Context
from chargen.render import wrap
from chargen.systems.savage.rules import (
    ATTRS,
    FIGHTING,
    PURCHASES,
    Rules,
    clash,
    derived,
    edge_row,
    flaw_row,
    items,
    rules,
    sum_effects,
    weighted,
)

# -- the concept and the era ---------------------------------------------------------


def koncepcio(char: dict, ctx: Context) -> None:
    """The concept (--template): it only weights the random choices that follow.

    At the prompt it is asked as a Koncepció (the labels' `koncepcio`), the option
    being --template: the engine asks a choice under its option's name."""
    option = "template" if ctx.prompter is None or ctx.option("template") else "koncepcio"
    entry = ctx.choose(
        option, "koncepciok", allowed=open_concepts(ctx), why=_concept_why(ctx), fact="koncepcio"
    )
    char["template"] = entry["id"]
    char["koncepcio"] = entry["name"]
    char["foszereplo"] = True
    char["rang"] = rules(ctx).starting[0]


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


def _concept(char: dict, ctx: Context) -> dict:
    return ctx.table("koncepciok").get(char["template"])


def open_concepts(ctx: Context) -> list[dict]:
    """The concepts the options leave open (once per batch)."""
    return ctx.memo(
        "nyitott_koncepciok",
        lambda: [c for c in ctx.table("koncepciok").entries if not concept_unfit(c, ctx)],
    )


def _concept_why(ctx: Context):
    return lambda concept: concept_unfit(concept, ctx)


def concept_unfit(concept: dict, ctx: Context) -> str:
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
    asked = asked_edges(ctx)
    other = [e["id"] for e in asked if e.get("arkan_kepzettseg") and e["id"] != arcane]
    if other:
        return f"{concept['name']} takes {arcane}, not {other[0]}"
    count = len({e["id"] for e in asked} | {arcane})
    flaws = ctx.table("hatranyok")
    given = ctx.option("hatrany")
    points = (
        rules(ctx).flaw_points([flaws.get(h, "hatrany") for h in given])
        if given
        else s["hatrany_max_pont"]
    )
    if (count - s["ingyen_elony"]) * s["ar_elony"] > points:
        return f"{concept['name']} takes {arcane} besides the Előnyök asked for: too many to pay"
    return ""


def asked_edges(ctx: Context) -> list[dict]:
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


def refuse_rank(ctx: Context, edge: dict, asked: str) -> None:
    """An Előny of a rank beyond `kezdo_rangok` is refused before anything is drawn."""
    starting = rules(ctx).starting
    if edge["rang"] in starting:
        return
    L = ctx.labels
    ranks = " or ".join(L(k) for k in starting)
    raise ChoiceError(
        "elony",
        asked,
        [e["id"] for e in ctx.table("elonyok").entries if e["rang"] in starting],
        f"{edge['name']} is an Előny of rank {L(edge['rang'])}; a new Főszereplő takes only "
        f"Előnyök of rank {ranks} (beallitasok.toml kezdo_rangok)",
    )


def check_options(ctx: Context) -> None:
    """--elony: every Előny asked for, and each it requires, of a starting rank."""
    edges = ctx.table("elonyok")
    for asked in ctx.option("elony") or ():
        todo, seen = [asked], set()
        while todo:
            edge = edges.get(todo.pop(0), "elony")
            if edge["id"] in seen:
                continue
            seen.add(edge["id"])
            refuse_rank(ctx, edge, asked)
            todo.extend(edge.get("kell_elony") or ())


def wanted_edges(ctx: Context, concept_id: str) -> list[dict]:
    """The Előnyök a character of this concept must take: the concept's Mágikus háttér
    and the ones the options ask for, each after the Előnyök it requires (once per
    batch and concept). Known before the steps that must make room for them: the
    Hátrányok they exclude, the dice they require, the Hátrány points they cost."""

    def build() -> list[dict]:
        table = ctx.table("elonyok")
        concept = ctx.table("koncepciok").get(concept_id)
        out: list[dict] = []

        def add(edge_id: str, path: tuple[str, ...]) -> None:
            edge = table.get(edge_id, "elony")
            if edge in out or edge_id in path:
                return
            refuse_rank(ctx, edge, path[0] if path else edge_id)
            for before in edge.get("kell_elony") or ():
                add(before, (*path, edge_id))
            out.append(edge)

        if concept.get("arkan_hatter"):
            add(concept["arkan_hatter"], ())
        for wanted in ctx.option("elony") or ():
            add(wanted, ())
        arcane = [e["id"] for e in out if e.get("arkan_kepzettseg")]
        if len(arcane) > 1:
            raise ChargenError(
                f"{' and '.join(arcane)} are two Mágikus hátterek: a character has one "
                + (
                    f"(the concept {concept['id']} takes {concept['arkan_hatter']})"
                    if concept.get("arkan_hatter")
                    else ""
                )
            )
        return out

    return ctx.memo(("elonyok_kellenek", concept_id), build)


def _wanted(char: dict, ctx: Context) -> list[dict]:
    return wanted_edges(ctx, char["template"])


# -- Hátrányok and what their points buy ----------------------------------------------


def _check_hatranyok(chosen: list[dict], r: Rules) -> None:
    s = r.s
    for n, entry in enumerate(chosen):
        other = clash(entry, chosen[:n])
        if other is not None:
            shared = set(entry.get("tags") or ()) & set(other.get("tags") or ())
            what = "are two grades of one Hátrány" if shared else "cannot stand together"
            raise ChargenError(f"--hatrany {other['id']} and {entry['id']} {what}: take one")
    points = r.flaw_points(chosen)
    if points > s["hatrany_max_pont"]:
        listed = ", ".join(e["id"] for e in chosen)
        raise ChargenError(
            f"Hátrányok give at most {s['hatrany_max_pont']} points in any mix (súlyos "
            f"{s['hatrany_pont_sulyos']}, enyhe {s['hatrany_pont_enyhe']}); {listed} "
            f"give {points}"
        )


def hatranyok(char: dict, ctx: Context) -> None:
    """Hátrányok worth at most four points in any mix (súlyos 2, enyhe 1), and what
    the points buy."""
    r = rules(ctx)
    s = r.s
    table = ctx.table("hatranyok")
    wanted = _wanted(char, ctx)
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
            edge = clash(e, wanted)
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
        options = [p for p in options if r.compositions(p)]
        if not options:
            raise ChargenError("no number of Hátrány points fits beallitasok.hatrany_pont_sulyok")
        points = weighted(ctx.rng, options, [weights[p] for p in options])
        comps = r.compositions(points)
        major, minor = comps[int(ctx.rng.random() * len(comps))]
        chosen = _draw_hatranyok(ctx, r, major, minor)
    points = r.flaw_points(chosen)
    if points < reserved:
        raise ChargenError(
            f"--elony given {len(wanted)} times needs {reserved} Hátrány points, "
            f"the chosen Hátrányok give {points}"
        )
    char["hatranyok"] = [flaw_row(e) for e in chosen]
    bought = _spend(ctx, r, points - reserved, extra_edges)
    if points > reserved:
        bought = _ask_spending(ctx, r, points - reserved, extra_edges, bought)
    char["hatrany_pontok"] = {"osszes": points, **bought}
    ctx.log(hatrany_pontok=points, vasarlas=char["hatrany_pontok"])


def _draw_hatranyok(ctx: Context, r: Rules, major: int, minor: int) -> list[dict]:
    """`major` súlyos Hátrányok, then `minor` enyhe ones in what the points leave, each
    fitting the character so far (its concept and era, the Előnyök it must take, the
    Hátrányok drawn before it: the tables' `when`, `unless` and `excludes`). At the
    prompt: how many súlyos ones and which, then the enyhe ones; an empty answer takes
    the drawn number of random ones."""
    s = r.s
    table = ctx.table("hatranyok")
    cap = s["hatrany_max_pont"]
    majors = [e for e in table.entries if e["sulyossag"] == "sulyos"]
    top = cap // s["hatrany_pont_sulyos"]
    chosen = ctx.choose_many("sulyos_hatrany", "hatranyok", major, allowed=majors, span=(0, top))
    room = (cap - len(chosen) * s["hatrany_pont_sulyos"]) // s["hatrany_pont_enyhe"]
    minors = [e for e in table.entries if e["sulyossag"] == "enyhe"]
    fitting = len(ctx.pool(table, minors))
    chosen += ctx.choose_many(
        "enyhe_hatrany",
        "hatranyok",
        min(minor, room, fitting),
        allowed=minors,
        span=(0, min(room, fitting)),
    )
    _check_hatranyok(chosen, r)
    return chosen


def _spend(ctx: Context, r: Rules, left: int, edges: int) -> dict[str, int]:
    """Spend the Hátrány points left by the weights of the table."""
    s = r.s
    bought = {"tulajdonsag": 0, "elony": edges, "kepzettseg": 0, "penz": 0}
    kinds = list(PURCHASES)
    weights = [s["hatrany_koltes_sulyok"].get(k, 0) for k in kinds]
    prices = [s[f"ar_{k}"] for k in kinds]
    while left > 0:
        open_ = [(k, w) for k, w, p in zip(kinds, weights, prices, strict=True) if 0 < p <= left]
        open_ = [(k, w) for k, w in open_ if w > 0]
        if not open_:
            raise ChargenError("beallitasok: no purchase fits the Hátrány points left")
        kind = weighted(ctx.rng, [k for k, _ in open_], [w for _, w in open_])
        bought[kind] += 1
        left -= s[f"ar_{kind}"]
    return bought


def _ask_spending(
    ctx: Context, r: Rules, left: int, edges: int, drawn: dict[str, int]
) -> dict[str, int]:
    """How the Hátrány points are spent: attribute steps, Előnyök and skill points in
    turn (the prompt's answer, else as drawn); what is left buys money."""
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


# -- alaptulajdonságok and képzettségek --------------------------------------------------


def _needs(char: dict, ctx: Context, key: str) -> dict[str, int]:
    """The least rung of each trait the concept and the wanted Előnyök require
    (`kell_tulajdonsag` or `kell_kepzettseg`): the steps spend there first, so the
    Előnyök can be taken and the concept is what it says (a Lovag rides)."""
    r = rules(ctx)
    out: dict[str, int] = {}
    for edge in [_concept(char, ctx), *_wanted(char, ctx)]:
        for trait, die in (edge.get(key) or {}).items():
            out[trait] = max(out.get(trait, -1), r.index[die])
    return out


def alaptulajdonsagok(char: dict, ctx: Context) -> None:
    """Every attribute starts at d4; five steps (and the bought ones) land by the concept,
    first where a wanted Előny needs them. At the prompt: the steps of each in turn."""
    r = rules(ctx)
    weights_of = _concept(char, ctx)["tulajdonsag_sulyok"]
    values = dict.fromkeys(ATTRS, r.attr_start)
    steps = r.s["tulajdonsag_lepesek"] + char["hatrany_pontok"]["tulajdonsag"]
    placed = []
    for attr, rung in _needs(char, ctx, "kell_tulajdonsag").items():
        while values[attr] < rung and len(placed) < steps:
            values[attr] += 1
            placed.append(attr)
        if values[attr] < rung:
            wanted = ", ".join(e["id"] for e in _wanted(char, ctx))
            raise ChargenError(
                f"--elony {wanted}: the {steps} attribute steps cannot reach every die "
                f"they require ({ctx.labels(attr)} {r.ladder[rung]})"
            )
    forced = list(placed)
    while len(placed) < steps:
        open_ = [a for a in ATTRS if values[a] < r.attr_cap]
        if not open_:
            raise ChargenError("every alaptulajdonság is at its cap: too many steps to spend")
        chosen = weighted(ctx.rng, open_, [max(weights_of.get(a, 1), 0) + 0.01 for a in open_])
        values[chosen] += 1
        placed.append(chosen)
    placed = _ask_steps(ctx, r, forced, placed, steps)
    values = dict.fromkeys(ATTRS, r.attr_start)
    for attr in placed:
        values[attr] += 1
    char["alaptulajdonsagok"] = {a: r.ladder[values[a]] for a in ATTRS}
    ctx.log(lepesek=placed)


def _ask_steps(ctx: Context, r: Rules, forced: list[str], drawn: list[str], steps: int):
    """The steps of each alaptulajdonság in turn beyond the ones a wanted Előny needs
    (the prompt's answer, else as drawn); the last takes what is left."""
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


def kepzettsegek(char: dict, ctx: Context) -> None:
    """The core skills at d4; twelve points (and the bought ones) at their prices. At
    the prompt: the drawn skills to accept, or set skill by skill."""
    r = rules(ctx)
    s = r.s
    attrs = char["alaptulajdonsagok"]
    favour = _concept(char, ctx)["kepzettseg_sulyok"]
    mult = s["kedvelt_kepzettseg_szorzo"]
    table = ctx.table("kepzettsegek")
    level = {k: -1 for k in r.skills if ctx.fits(table.get(k))}  # the era's skills only
    for k in r.core:
        level[k] = r.skill_start
    budget = s["kepzettseg_pontok"] + char["hatrany_pontok"]["kepzettseg"]
    left = budget
    bought = []
    for skill, rung in _needs(char, ctx, "kell_kepzettseg").items():
        if skill not in level:
            wanted = ", ".join(e["id"] for e in _wanted(char, ctx))
            era = ctx.table("korszakok").get(char["korszak"])["name"]
            raise ChargenError(
                f"--elony {wanted} needs {r.skills[skill]['name']}, a skill not known in {era}"
            )
        while level[skill] < rung:
            price = r.step_cost(skill, level[skill] + 1, attrs)
            if price > left:
                wanted = ", ".join(e["id"] for e in _wanted(char, ctx))
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
        chosen = weighted(ctx.rng, open_, weights)
        level[chosen] += 1
        left -= r.step_cost(chosen, level[chosen], attrs)
        bought.append(chosen)
    if ctx.prompter is not None:  # the drawn skills, shown before the question
        drawn = ", ".join(
            f"{r.skills[k]['name']} {r.ladder[lv]}" for k, lv in level.items() if lv >= 0
        )
        width = getattr(ctx.prompter, "width", 80)
        for line in wrap(f"{ctx.labels('kepzettsegek')}: {drawn}", width, "  "):
            ctx.prompter.say(line)
    if not ctx.ask_yes_no("kepzettseg_elfogad", True):
        level, bought = _ask_skills(ctx, r, level, attrs, budget, forced=bought[:forced])
    char["kepzettsegek"] = {k: r.ladder[lv] for k, lv in level.items() if lv >= 0}
    for k in char["kepzettsegek"]:
        ctx.note(table.get(k), table)
    ctx.log(kepzettseg_pontok=budget, vasarlas=bought)


def _ask_skills(ctx: Context, r: Rules, drawn: dict, attrs: dict, budget: int, forced: list):
    """The steps of each skill of the era in turn, at their prices, while points last
    (the steps a wanted Előny needs are kept)."""
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


# -- Előnyök and the Mágikus háttér ---------------------------------------------------


def _edge_problem(entry: dict, char: dict, taken: set[str], wanted: set[str], ctx: Context) -> str:
    """Why a character cannot take an Előny now ('' when it can)."""
    r = rules(ctx)
    if entry["rang"] not in r.starting:
        return f"rang {entry['rang']} (a new Főszereplő is {', '.join(r.starting)})"
    if entry["id"] in taken:
        return "already taken"
    for attr, die in (entry.get("kell_tulajdonsag") or {}).items():
        have = char["alaptulajdonsagok"].get(attr)
        if have is None or r.index[have] < r.index.get(die, 99):
            return f"needs {ctx.labels(attr)} {die}"
    for skill, die in (entry.get("kell_kepzettseg") or {}).items():
        have = char["kepzettsegek"].get(skill)
        if have is None or r.index[have] < r.index.get(die, 99):
            name = r.skills[skill]["name"] if skill in r.skills else skill
            return f"needs {name} {die}"
    for other in entry.get("kell_elony") or ():
        if other not in taken:
            return f"needs the Előny {other}"
    if entry["id"] not in wanted and not ctx.fits(entry):
        return "it cannot stand beside what the character already is (its tables' conditions)"
    return ""


def elonyok(char: dict, ctx: Context) -> None:
    """The free Előny of humans and the bought ones, only where requirements are met;
    the concept's favourites weigh `kedvelt_elony_szorzo` times more. At the prompt
    each Előny in turn (the engine's choice has no weights of the concept's: the
    question is asked here, the draw made as without prompts)."""
    r = rules(ctx)
    table = ctx.table("elonyok")
    count = r.s["ingyen_elony"] + char["hatrany_pontok"]["elony"]
    favour = set(_concept(char, ctx).get("kedvelt_elonyok") or ())
    mult = r.s["kedvelt_elony_szorzo"]
    taken: list[dict] = []
    ids: set[str] = set()
    given = set(ctx.option("elony") or ())
    wanted = _wanted(char, ctx)
    wanted_ids = {e["id"] for e in wanted}
    for entry in wanted:
        why = _edge_problem(entry, char, ids, wanted_ids, ctx)
        if why:
            valid = [
                e["id"] for e in table.entries if not _edge_problem(e, char, ids, wanted_ids, ctx)
            ]
            raise ChoiceError("elony", entry["id"], valid, why)
        taken.append(entry)
        ids.add(entry["id"])
        how = "option" if entry["id"] in given else "requirement"
        ctx.log(choice="elony", id=entry["id"], name=entry["name"], by=how)
    while len(taken) < count:
        pool = [
            e
            for e in table.entries
            if not e.get("arkan_kepzettseg") and not _edge_problem(e, char, ids, wanted_ids, ctx)
        ]
        if not pool:
            raise ChargenError("elonyok: no Előny left whose requirements this character meets")
        entry = ctx.prompter.choose("uj_elony", table, pool) if ctx.prompter else None
        how = "prompt"
        if entry is None:
            weights = [e.get("weight", 1) * (mult if e["id"] in favour else 1) for e in pool]
            entry = weighted(ctx.rng, pool, weights)
            how = "random"
            if ctx.prompter is not None:
                ctx.prompter.drawn(entry)
        taken.append(entry)
        ids.add(entry["id"])
        ctx.note(entry, table)
        ctx.log(choice="elony", id=entry["id"], name=entry["name"], by=how)
    char["elonyok"] = [edge_row(e) for e in taken]


def hatalmak(char: dict, ctx: Context) -> None:
    """A Mágikus háttér's arcane skill, Hatalompontok and starting powers (null without one).

    The powers are drawn among those of a starting rank, the concept's favourites
    weighted up; `kezdo_hatalmak` of them, all different. At the prompt they are asked
    here (the engine's choice has no weights of the concept's)."""
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
    pool = [p for p in powers.entries if p["rang"] in r.starting]
    pool = list(ctx.pool(powers, pool).entries)  # the powers of this background
    count = background.get("kezdo_hatalmak", 0)
    if len(pool) < count:
        raise ChargenError(
            f"hatalmak: {background['name']} starts with {count} powers, only {len(pool)} "
            f"are of a starting rank ({', '.join(r.starting)})"
        )
    mult = r.s["kedvelt_elony_szorzo"]
    chosen = ctx.prompter.choose_many("hatalom", powers, pool, count) if ctx.prompter else None
    how = "prompt"
    if chosen is None:
        chosen, how = [], "random"
        for _ in range(count):
            weights = [p.get("weight", 1) * (mult if p["id"] in favour else 1) for p in pool]
            power = weighted(ctx.rng, pool, weights)
            pool.remove(power)
            chosen.append(power)
        if ctx.prompter is not None:
            ctx.prompter.drawn(chosen)
    for power in chosen:
        ctx.note(power, powers)
        ctx.log(choice="hatalom", id=power["id"], name=power["name"], by=how)
    skill = background["arkan_kepzettseg"]
    char["arkan_hatter"] = {
        "id": background["id"],
        "nev": background["name"],
        "kepzettseg": skill,
        "kepzettseg_nev": r.skills[skill]["name"],
        "tulajdonsag": r.skills[skill]["tulajdonsag"],
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


# -- felszerelés ----------------------------------------------------------------------


def _traits(char: dict, ctx: Context) -> list[dict]:
    """The table entries of the character's Előnyök and Hátrányok."""
    edges = ctx.table("elonyok")
    flaws = ctx.table("hatranyok")
    return [edges.get(e["id"]) for e in char.get("elonyok", ())] + [
        flaws.get(h["id"]) for h in char.get("hatranyok", ())
    ]


def starting_money(char: dict, ctx: Context) -> int:
    """The starting money: kezdo_penz changed by the `penz_szazalek` effects, and twice
    the starting funds more for each Hátrány point spent on money."""
    s = rules(ctx).s
    percent = 100 + sum_effects(_traits(char, ctx))["penz_szazalek"]
    bought = char.get("hatrany_pontok", {}).get("penz", 0)
    extra = bought * s["penz_pont_szorzo"] * s["kezdo_penz"]
    return max(0, s["kezdo_penz"] * percent // 100) + extra


def _ero_short(item: dict, ero: int, fx: dict[str, int], r: Rules) -> int:
    """How many die steps Erő falls short of the item's min. Erő (0 when it is met).

    For armour Erő counts `pancel_ero` steps more (Kövér: one step lower)."""
    need = item.get("min_ero")
    if need is None:
        return 0
    have = ero + (fx.get("pancel_ero", 0) if item["tipus"] == "pancel" else 0)
    return max(0, r.index[need] - have)


def felszereles(char: dict, ctx: Context) -> None:
    """Shopping in the era with the starting money: first the kit the concept calls for
    and a weapon for each skill trained to `fegyvert_vesz`, then weapons, armour,
    shield and gear. At the prompt: the drawn purchases to accept, or keep some and add
    from the shop."""
    r = rules(ctx)
    era = ctx.table("korszakok").get(char["korszak"])
    money = starting_money(char, ctx)
    char["kezdo_penz"] = money
    fx = sum_effects(_traits(char, ctx))
    ero = r.index[char["alaptulajdonsagok"]["ero"]]
    skills = char["kepzettsegek"]
    items_table = ctx.table("felszereles")
    stock = [
        e
        for e in items_table.entries
        if era["id"] in e["korszak"] and _ero_short(e, ero, fx, r) <= 0
    ]
    bought: list[dict] = []
    kinds = list(r.s["bevasarlas"])
    slots = _kit_slots(char, ctx, r, stock)
    for n, slot in enumerate(slots):
        if any(e in slot for e in bought):
            continue  # an earlier slot's item fills this one (a bow for Lövészet)
        # what the later slots cost at least stays in the purse, but for those this
        # slot's item may fill as well
        later = [
            min((e["ar"] for e in s if ctx.fits(e)), default=0)
            for s in slots[n + 1 :]
            if not any(e in s for e in slot)
        ]
        entry = _buy(ctx, r, skills, bought, slot, money - sum(later))
        if entry is not None:
            money -= entry["ar"]
            if entry["tipus"] in kinds:
                kinds.remove(entry["tipus"])  # the kit takes that kind's turn
    for kind in kinds:
        entry = _buy(ctx, r, skills, bought, [e for e in stock if e["tipus"] == kind], money)
        if entry is not None:
            money -= entry["ar"]
    bought, money = _ask_gear(ctx, char, stock, bought, money)
    rows = items(ctx)
    char["felszereles"] = [rows[e["id"]] for e in bought]
    char["penz"] = money


def _kit_slots(char: dict, ctx: Context, r: Rules, stock: list[dict]) -> list[list[dict]]:
    """The items the character buys one of before anything else, slot by slot: each of
    the concept's `keszlet` slots, then for each skill at or above its `fegyvert_vesz`
    die (beallitasok) the weapons used with it."""
    slots = []
    for slot in _concept(char, ctx).get("keszlet") or ():
        wanted = set(slot)
        slots.append([e for e in stock if e["id"] in wanted])
    for skill, die in r.s["fegyvert_vesz"].items():
        have = char["kepzettsegek"].get(skill)
        if have is not None and r.index[have] >= r.index[die]:
            slots.append(
                [
                    e
                    for e in stock
                    if e.get("kepzettseg") == skill and "fegyver" in e.get("tags", ())
                ]
            )
    return slots


def _buy(
    ctx: Context, r: Rules, skills: dict, bought: list[dict], among: list[dict], money: int
) -> dict | None:
    """One item of `among` the character can pay, use and carry beside what it has
    (None when none is left), weighted by the die of the skill it is used with."""
    have = {e["id"] for e in bought}
    torso = any("torzs" in e.get("hely", ()) for e in bought if e["tipus"] == "pancel")
    pool = []
    for e in among:
        if e["id"] in have or e["ar"] > money:
            continue
        if "kepzettseg" in e and e["kepzettseg"] not in skills:
            continue
        if e["tipus"] == "pajzs" and FIGHTING not in skills:
            continue
        if e["tipus"] == "pancel" and torso and "torzs" in e.get("hely", ()):
            continue
        pool.append(e)
    items_table = ctx.table("felszereles")
    pool = list(ctx.pool(items_table, pool).entries) if pool else pool
    if not pool:
        return None
    weights = [
        e.get("weight", 1) * (1 + r.index[skills[e["kepzettseg"]]]) ** 2
        if "kepzettseg" in e
        else e.get("weight", 1)
        for e in pool
    ]
    entry = weighted(ctx.rng, pool, weights)
    ctx.note(entry, items_table)
    bought.append(entry)
    ctx.log(vasarlas=entry["id"], ar=entry["ar"], maradt=money - entry["ar"])
    return entry


def currency(ctx: Context, era: str) -> str:
    """The money an era counts in (`penznem` of korszakok.toml, else beallitasok)."""
    return ctx.table("korszakok").get(era).get("penznem") or rules(ctx).s["penznem"]


def _ask_gear(ctx: Context, char: dict, stock: list[dict], bought: list[dict], money: int):
    """The drawn purchases, accepted or edited at the prompt (keep some, add from the
    era's shop what the character can carry and use); the money must cover it."""
    unit = currency(ctx, char["korszak"])
    skills = char["kepzettsegek"]
    shop = [
        e
        for e in stock
        if e not in bought and ("kepzettseg" not in e or e["kepzettseg"] in skills) and ctx.fits(e)
    ]

    def show(e: dict) -> str:
        return f"{e['name']} ({e['ar']} {unit})"

    def refused(kept: list[dict]) -> str:
        """Why the player's list cannot be bought, in the labels' words ('' when it can)."""
        for n, entry in enumerate(kept):
            other = clash(entry, kept[:n])
            if other is not None:
                return ctx.labels.fill(
                    "felszereles_utkozes", elso=other["name"], masodik=entry["name"]
                )
        cost = sum(e["ar"] for e in kept)
        if cost > char["kezdo_penz"]:
            return ctx.labels.fill(
                "felszereles_draga", ar=cost, penz=char["kezdo_penz"], penznem=unit
            )
        return ""

    kept = ctx.ask_list("felszereles_lista", bought, shop, show, refused)
    if kept == bought:
        return bought, money
    why = refused(kept)  # a scripted answer is held to the same
    if why:
        raise ChargenError(why)
    cost = sum(e["ar"] for e in kept)
    for entry in kept:
        if entry not in bought:
            ctx.note(entry, "felszereles")
    return kept, char["kezdo_penz"] - cost


# -- derived values and the name ---------------------------------------------------------


def szarmaztatott(char: dict, ctx: Context) -> None:
    """Mozgás, futáskocka, Hárítás, Szívósság, Vadkocka, Sorspont and Sebek of a Főszereplő."""
    r = rules(ctx)
    fx = sum_effects(_traits(char, ctx))
    gear = char.get("felszereles", ())
    char.update(
        derived(
            r,
            fx,
            char["alaptulajdonsagok"],
            char["kepzettsegek"],
            gear,
            r.s["mozgas"],
            r.run_die,
            0,
            0,
        )
    )
    char["vadkocka"] = r.s["vadkocka"]
    char["sorspont"] = r.s["sorspont_jatekos"] + fx["sorspont"]
    char["sebek_max"] = r.s["sebek_foszereplo"]
    char["elviselt_sebek"] = r.s["sebek_foszereplo"]
    char["sebbuntetes_max"] = r.s["sebbuntetes_max"]
    char["szivos"] = None


def _namer(ctx: Context, era: str | None) -> tuple:
    """What a batch's person names are drawn from (once per batch and era): Faker's
    lists for the locale, the given names only those the era allows (korszakok
    `utonevek_ferfi` / `utonevek_noi`, for the Hungarian lists they name), whether the
    family name comes first (Hungarian) and the chance of a second given name."""
    return ctx.memo(("nevek", era), _name_lists, ctx, era)


def _name_lists(ctx: Context, era: str | None) -> tuple:
    locale = ctx.locale or ctx.system.locale
    family_first = locale.startswith("hu")
    chance = rules(ctx).s["masodik_utonev_esely"] / 100 if family_first else 0.0
    picker = names.picker(locale)
    row = ctx.table("korszakok").get(era) if era else None
    if row is not None and locale == ctx.system.locale:
        allowed = {
            gender: row[key]
            for gender, key in (("male", "utonevek_ferfi"), ("female", "utonevek_noi"))
            if row.get(key)
        }
        if allowed:
            picker = picker.only_given(allowed)
    return picker, family_first, chance


def person_name(ctx: Context) -> tuple[str, str]:
    """(name, gender): a family and a given name from Faker's lists for the locale,
    family name first for Hungarian, and for `masodik_utonev_esely` % of them a second
    given name, as many Hungarians carry ("Juhász Ferenc Tamás"); the given names
    are the era's (a medieval Tolvaj is no Vivien)."""
    gender = ctx.gender()
    picker, family_first, chance = _namer(ctx, ctx.fact("korszak"))
    rng = ctx.rng
    name, _ = picker.pick(rng, gender, family_first)
    if chance and rng.random() < chance:
        family, given = name.split(" ", 1)
        more = picker.given[gender].pick(rng)
        if more != given and more != family:
            name = f"{name} {more}"
    return name, gender


def nev(char: dict, ctx: Context) -> None:
    """A Hungarian name, family name first (distinct within a batch: the engine's)."""
    char["name"], gender = person_name(ctx)
    char["nem"] = ctx.labels(gender)
