"""Mellékszereplők from mellekszereplok.toml, and --wild-card Főszereplő NPCs.

Each NPC walks the steps of `NPC_STEPS` (see the declaration): the template and its
era, the stat block, the kit, the role, the name. What a template fixes is worked
out once per batch through `ctx.memo` (`plan`): its dice on the ladder, the lowest
rung each trait may take, its Előnyök, Hátrányok, gear and special abilities as the
character carries them. A member of a template is one of `mellekszereplo_valtozatok`
stat blocks (the first the template itself, the others varied from a stream of
their own, seeded by the template and the block's number), each worked out the
first time a member of the batch draws it (`block`). What memo gives goes into the
character as it is: every member that has it shares it, and the batch encodes it
once. With --squad the batch is one group: the first member draws the era, the
template and the group's action card, and the others share them (`ctx.shared`).
"""

from __future__ import annotations

from chargen.errors import ChargenError
from chargen.procedure import Context
from chargen.seeds import Stream, salt, step_state
from chargen.systems.savage import steps
from chargen.systems.savage.rules import (
    ATTRS,
    card,
    derived,
    edge_row,
    flaw_row,
    items,
    rules,
    sum_effects,
)


def check_options(ctx: Context) -> None:
    """What a batch's options ask, checked before the first character: --elony of a
    starting rank (a PC); --squad, --wild-card and --tough that can stand together."""
    if ctx.kind != "npc":
        steps.check_options(ctx)
        return
    wild = bool(ctx.option("wild_card"))
    squad = bool(ctx.option("squad"))
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
    if ctx.option("tough") and wild:
        raise ChargenError(
            "--tough cannot go with --wild-card: Szívós and Nagyon szívós are grades of a "
            "Mellékszereplő; a Főszereplő bears three Sebek"
        )


# -- what a template fixes, once per batch ----------------------------------------------


def plan(ctx: Context, template_id: str) -> dict:
    """A template's dice as rungs of the ladder (checked: a die off it names file and
    line), the rungs a varied member keeps within, and its constants."""
    return ctx.memo(("sablon", template_id), _plan, ctx, template_id)


def _plan(ctx: Context, template_id: str) -> dict:
    r = rules(ctx)
    table = ctx.table("mellekszereplok")
    template = table.get(template_id)
    index = table.entries.index(template)
    attrs, skills = template["alaptulajdonsagok"], template["kepzettsegek"]
    base = [r.die_index(table, "alaptulajdonsagok", attrs[a], index) for a in ATTRS] + [
        r.die_index(table, "kepzettsegek", skills[k], index) for k in skills
    ]
    edges = [ctx.table("elonyok").get(i) for i in template.get("elonyok", ())]
    flaws = [ctx.table("hatranyok").get(i) for i in template.get("hatranyok", ())]
    run = template.get("futaskocka")
    spread = template.get("szoras", r.s["mellekszereplo_szoras"])
    return {
        "template": template,
        "skills": tuple(skills),
        "base": base,
        "tops": [max(b, r.attr_cap) for b in base],
        "floors": _floors(ctx, template, edges, flaws, base),
        "fx": sum_effects([*edges, *flaws, template]),
        "pace": template.get("mozgas", r.s["mozgas"]),
        "run": r.run_die if run is None else r.die_index(table, "futaskocka", run, index),
        "size": template.get("meret", 0),
        "natural": template.get("pancel", 0),
        "spread": spread,
        "blocks": r.s["mellekszereplo_valtozatok"] if spread else 1,
        "person": template.get("szemelynev", True),
        "kind": template["name"].lower(),  # the creature a beast's epithets go before
        "salt": salt(f"savage:mellekszereplo:{template_id}"),  # its stat blocks' streams
    }


def kit(ctx: Context, template_id: str) -> dict:
    """The template's Előnyök, Hátrányok, gear and special abilities as the character
    carries them (once per batch: every member of the template shares the lists)."""
    return ctx.memo(("felszereles", template_id), _kit, ctx, template_id)


def _kit(ctx: Context, template_id: str) -> dict:
    template = ctx.table("mellekszereplok").get(template_id)
    edges, flaws = ctx.table("elonyok"), ctx.table("hatranyok")
    rows = items(ctx)
    out = {
        "elonyok": [edge_row(edges.get(i)) for i in template.get("elonyok", ())],
        "hatranyok": [flaw_row(flaws.get(i)) for i in template.get("hatranyok", ())],
        "felszereles": [rows[i] for i in template.get("felszereles", ())],
    }
    if template.get("kulonleges"):
        out["kulonleges"] = list(template["kulonleges"])
    return out


def _floors(ctx: Context, template: dict, edges: list[dict], flaws: list[dict], base: list[int]):
    """The lowest rung each trait of a varied member may take: what the template's
    Előnyök require and, for Erő, the min. Erő of its own gear (never above its base)."""
    r = rules(ctx)
    skills = template["kepzettsegek"]
    need = dict.fromkeys((*ATTRS, *skills), 0)
    for edge in edges:
        for key, die in {
            **edge.get("kell_tulajdonsag", {}),
            **edge.get("kell_kepzettseg", {}),
        }.items():
            if key in need:
                need[key] = max(need[key], r.index[die])
    fx = sum_effects(flaws + edges)
    gear = ctx.table("felszereles")
    for item_id in template.get("felszereles", ()):
        item = gear.get(item_id)
        if "min_ero" in item:
            shift = fx["pancel_ero"] if item["tipus"] == "pancel" else 0
            need["ero"] = max(need["ero"], r.index[item["min_ero"]] - shift)
    return [min(need[k], b) for k, b in zip((*ATTRS, *skills), base, strict=True)]


def block(ctx: Context, fixed: dict, number: int) -> dict:
    """Stat block `number` of a template: its traits and the values derived from them.

    Block 0 is the template itself (a squad's); each other moves each trait with
    `mellekszereplo_valtozas_esely` % chance by 1 to `szoras` steps, within the floors
    and the caps, drawn from a stream seeded by the template and the number alone."""
    return ctx.memo(("blokk", fixed["template"]["id"], number), _block, ctx, fixed, number)


def _block(ctx: Context, fixed: dict, number: int) -> dict:
    r = rules(ctx)
    rungs = list(fixed["base"])
    if number and fixed["spread"]:
        rng = Stream(step_state(number, fixed["salt"]))
        chance = r.s["mellekszereplo_valtozas_esely"] / 100.0
        half = chance / 2.0
        for i, base in enumerate(fixed["base"]):
            roll = rng.random()
            if roll < chance:
                step = 1 + int(rng.random() * fixed["spread"])
                new = base - step if roll < half else base + step
                rungs[i] = min(max(new, fixed["floors"][i]), fixed["tops"][i])
    attrs = {a: r.ladder[rungs[i]] for i, a in enumerate(ATTRS)}
    skills = {k: r.ladder[rungs[i + 5]] for i, k in enumerate(fixed["skills"])}
    values = derived(
        r,
        fixed["fx"],
        attrs,
        skills,
        kit(ctx, fixed["template"]["id"])["felszereles"],
        fixed["pace"],
        fixed["run"],
        fixed["size"],
        fixed["natural"],
    )
    return {"alaptulajdonsagok": attrs, "kepzettsegek": skills, **values}


def role(ctx: Context, template_id: str) -> dict:
    """What the role gives (once per batch and template): a Mellékszereplő no Vadkocka,
    no Sorspont and no Seb to bear (Szívós or Nagyon szívós by --tough or its
    template); a --wild-card Főszereplő its Vadkocka, three Sebek and Sorspont."""
    return ctx.memo(("szerep", template_id), _role, ctx, template_id)


def _role(ctx: Context, template_id: str) -> dict:
    s = rules(ctx).s
    fixed = plan(ctx, template_id)
    if ctx.option("wild_card"):
        return {
            "foszereplo": True,
            "vadkocka": s["vadkocka"],
            "sorspont": s["sorspont_vad_npc"] + fixed["fx"]["sorspont"],
            "sebek_max": s["sebek_foszereplo"],
            "elviselt_sebek": s["sebek_foszereplo"],
            "szivos": None,
        }
    grade = ctx.option("tough") or fixed["template"].get("szivos")
    borne = (
        ctx.table("szivos_fokozatok").get(grade)["sebek_max"]
        if grade
        else s["sebek_mellekszereplo"]
    )
    # the contract's sebek_max is a Mellékszereplő's 0 whatever its grade; what a Nagyon
    # szívós one bears ("egy Sebet elvisel") is elviselt_sebek
    return {
        "foszereplo": False,
        "vadkocka": None,
        "sorspont": 0,
        "sebek_max": s["sebek_mellekszereplo"],
        "elviselt_sebek": borne,
        "szivos": grade,
    }


# -- the NPC's steps --------------------------------------------------------------------


def sablon(char: dict, ctx: Context) -> None:
    """The era (--korszak, or one under which --template can hold) and the template
    (--template, the prompt, or by weight among those of the era). A squad's first
    member chooses them and draws the group's action card; the others share them."""
    if ctx.option("squad"):
        squad = ctx.shared.get("squad")
        if squad is None:
            era = ctx.choose("korszak", "korszakok")
            template = ctx.choose("template", "mellekszereplok")
            s = rules(ctx).s
            group = {
                "squad": f"{template['id']}-{ctx.batch_seed}",
                "csoport_vadkocka": s["csoport_vadkocka"],
                "akciokartya": card(ctx.rng, s),
            }
            squad = ctx.shared["squad"] = (era, template, group)
        else:
            era, template, _ = squad
            ctx.set_fact("korszak", era["id"])
            ctx.note(era, "korszakok")
            ctx.set_fact("sablon", template["id"])
            ctx.note(template, "mellekszereplok")
        char["template"] = template["id"]
        char["sablon"] = template["name"]
        char["korszak"] = era["id"]
        char.update(squad[2])
        return
    era = ctx.choose("korszak", "korszakok")
    template = ctx.choose("template", "mellekszereplok")
    char["template"] = template["id"]
    char["sablon"] = template["name"]
    char["korszak"] = era["id"]


def tulajdonsagok(char: dict, ctx: Context) -> None:
    """The member's stat block: one of its template's, by one draw (a squad's is the
    template's own); its alaptulajdonságok, képzettségek and derived values."""
    fixed = plan(ctx, char["template"])
    number = 0 if ctx.option("squad") else int(ctx.rng.random() * fixed["blocks"])
    char.update(block(ctx, fixed, number))


def felszereles(char: dict, ctx: Context) -> None:
    """The template's Előnyök, Hátrányok, gear and special abilities."""
    char.update(kit(ctx, char["template"]))


def szerep(char: dict, ctx: Context) -> None:
    """Mellékszereplő or Főszereplő: Vadkocka, Sorspont, Sebek, Szívós."""
    char.update(role(ctx, char["template"]))


def nev(char: dict, ctx: Context) -> None:
    """A person's Hungarian name, or for a beast or monster one or two epithets that
    fit it before its kind ("Sebhelyes farkas", "Öreg, sebhelyes farkas"). Distinct
    within a batch: the engine draws a taken one again under a new seed."""
    fixed = plan(ctx, char["template"])
    if fixed["person"]:
        char["name"], gender = steps.person_name(ctx)
        char["nem"] = ctx.labels(gender)
        return
    ctx.name_space = char["template"]  # a creature's epithets: its template's own names
    table = ctx.table("jelzok")
    pool = ctx.pool(table)
    if not pool:
        raise ChargenError(f"{table.path}: no epithet fits the template {char['template']}")
    rng = ctx.rng
    first = pool.pick(rng)
    ctx.note(first, table)
    if len(pool) < 2 or rng.random() * 100 >= rules(ctx).s["jelzo_ket_esely"]:
        char["name"] = f"{first['name']} {fixed['kind']}"
        return
    second = first
    while second is first:
        second = pool.pick(rng)
    ctx.note(second, table)
    char["name"] = f"{first['name']}, {second['name'].lower()} {fixed['kind']}"
