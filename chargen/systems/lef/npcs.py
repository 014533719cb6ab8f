"""NPCs from skabeloner.toml: bifigurer (persons, with a blodarv) and væsner (creatures).

Each NPC walks the steps of `NPC_STEPS` (see the declaration). What a template fixes
is worked out once per batch through `ctx.memo`: its evne dice (`plan`), and what it
and a blodarv fix without dice once the evner at ekspertise_ved are known (`kin`:
the ekspertiser, tilstande, fokus and stjerner). The lists and dicts they give go
into every NPC that has them as they are, shared by the batch and encoded once; an
NPC that differs (its free stjerner) gets a dict of its own.

A væsen has no personal name: it is named by its template and one of its kendetegn
("Ulv med revet øre"), drawn in the naming step, the last one, so that the engine
keeps the names of a batch apart by drawing that step alone again.
"""

from __future__ import annotations

from typing import Any

from chargen.dice import parse
from chargen.errors import ChargenError
from chargen.procedure import Context
from chargen.systems.lef import steps
from chargen.systems.lef.rules import (
    EVNER,
    KUNDSKABER,
    TALENTER,
    TILSTANDE,
    dice_groups,
    ekspertise_row,
    ekspertise_sums,
    grej_item,
    plain_dice,
    roll_groups,
)
from chargen.systems.lef.steps import kampstile, modeffekter, regler


def _persons_of(ctx: Context, arv: str) -> list[dict]:
    """The templates of persons who may be of blodarv `arv` (once per batch)."""
    return ctx.memo(("lef", "skabeloner", arv), _persons, ctx.table("skabeloner"), arv)


def _persons(table, arv: str) -> list[dict]:
    return [t for t in table.entries if arv in t.get("blodarv", ())]


def check_options(ctx: Context) -> None:
    """--blodarv needs a template of persons of that blodarv (skabeloner.toml `blodarv`)."""
    arv = ctx.option("blodarv")
    if arv is not None and not _persons_of(ctx, arv):
        raise ChargenError(
            f"--blodarv {arv}: no template in skabeloner.toml is of that blodarv "
            "(a template's `blodarv` lists the blodarv its persons may have)"
        )


def plan(ctx: Context, template_id: str) -> dict:
    """What a template fixes, once per batch (its lists and dicts, such as its grej, are
    values the batch shares).

    Its evner, the talenter then the kundskaber, are `bases` plus their dice rolled in
    `groups` (rules.dice_groups: one random number for many dice), then kept within
    0..evne_max where a die could leave it; a template with aces, keep or d66 rolls each
    evne through `Dice.roll` (`rolls`). Its penge roll the same way."""
    return ctx.memo(("lef", "skabelon", template_id), _plan, ctx, template_id)


def _plan(ctx: Context, template_id: str) -> dict:
    template = ctx.table("skabeloner").get(template_id)
    rules = regler(ctx)
    ovrige = parse(template["ovrige"])
    evne_dice = [parse(template["evner"][e]) if e in template["evner"] else ovrige for e in EVNER]
    plain = [plain_dice(d) for d in evne_dice]
    grej = ctx.table("grej")
    fixed: dict[str, Any] = {
        "template": template,
        "name": template.get("name", template["id"]),
        "evne_max": rules["evne_max"],
        "ved": rules["ekspertise_ved"],
        "fokus_bonus": rules["fokus_bonus"],
        "kendetegn": tuple(template.get("kendetegn", ())),
        "blodarv": [ctx.table("blodarv").get(b) for b in template.get("blodarv") or ()],
        "grej": [grej_item(grej.get(i, "grej")) for i in template.get("grej", ())],
        "kampstile": kampstile(ctx),
        "modeffekter": modeffekter(ctx),
        "rolls": None,
    }
    if all(plain):
        fixed["bases"] = tuple(base for base, _sides in plain)
        dice = [(i, s) for i, (_base, sides) in enumerate(plain) for s in sides]
        fixed["groups"] = dice_groups(dice)
        values = [v for d in evne_dice for v in d.possible_values()]
        fixed["clamp"] = min(values) < 0 or max(values) > rules["evne_max"]
    else:
        fixed["rolls"], fixed["clamp"] = evne_dice, True
    penge = parse(template["penge"]) if "penge" in template else None
    plain_penge = plain_dice(penge) if penge is not None else None
    if plain_penge is not None:
        penge = (plain_penge[0], dice_groups([(0, s) for s in plain_penge[1]]))
    fixed["penge"] = penge
    return fixed


def kin(ctx: Context, template_id: str, arv_id: str | None, reached: tuple[str, ...]) -> dict:
    """What a template and a blodarv (or none, for a væsen) fix without dice, once the
    evner at ekspertise_ved or more are known (an NPC's evne at 10 gives its ekspertise,
    as a PC's does): the ekspertiser, tilstande, fokus and stjerner before the free ones
    (values the batch shares), and how many free stjerner to place (`free`)."""
    key = ("lef", "kin", template_id, arv_id, reached)
    return ctx.memo(key, _kin, ctx, template_id, arv_id, reached)


def _kin(ctx: Context, template_id: str, arv_id: str | None, reached: tuple[str, ...]) -> dict:
    template = ctx.table("skabeloner").get(template_id)
    eks_table = ctx.table("ekspertiser")
    fokus: list[str] = list(template.get("fokus", ()))
    ekspertiser = []
    if arv_id is not None:
        arv = ctx.table("blodarv").get(arv_id)
        fokus.insert(0, arv["fokus"])
        ekspertiser.append(
            ekspertise_row(eks_table.get(arv["ekspertise"], "ekspertise"), "blodarv")
        )
    held = {e["id"] for e in ekspertiser}
    evner = ctx.table("evner")
    sources = [(e, "skabelon") for e in template.get("ekspertiser", ())]
    sources += [(evner.get(evne)["ekspertise"], evne) for evne in reached]
    for eks_id, kilde in sources:
        if eks_id not in held:
            ekspertiser.append(ekspertise_row(eks_table.get(eks_id, "ekspertise"), kilde))
            held.add(eks_id)
    lofts = {t: template["tilstande"].get(t, 0) for t in TILSTANDE}
    spor = ctx.table("stjernespor").ids
    rows, fokus, stjerner, free = ekspertise_sums(
        eks_table, spor, [e["id"] for e in ekspertiser], fokus, lofts
    )
    return {
        "ekspertiser": ekspertiser,
        "tilstande": rows,
        "fokus": fokus,
        "stjerner": stjerner,
        "free": len(free),
    }


# -- the steps ------------------------------------------------------------------------------


def skabelon(char: dict, ctx: Context) -> None:
    """The template: --template, the prompt, or by weight among the rows that fit (a
    hedeheks is a woman); with --blodarv only templates of persons of that blodarv."""
    arv = ctx.option("blodarv")
    template = ctx.choose(
        "template",
        "skabeloner",
        allowed=None if arv is None else _persons_of(ctx, arv),
        why=lambda t: f"a {t.get('name', t['id'])} cannot be of blodarv '{arv}'",
    )
    char["template"] = template["id"]
    char["skabelon_navn"] = template.get("name", template["id"])


def blodarv(char: dict, ctx: Context) -> None:
    """A person's blodarv among its template's (--blodarv, the prompt, or by weight);
    a væsen has none."""
    among = plan(ctx, char["template"])["blodarv"]
    if not among:
        char["blodarv"] = None
        return
    arv = ctx.choose("blodarv", "blodarv", allowed=among)
    char["blodarv"], char["blodarv_navn"] = arv["id"], arv.get("name", arv["id"])
    char["blodarv_lore"] = arv["lore"]


def evner(char: dict, ctx: Context) -> None:
    """The twelve evner from the template's dice, kept within 0..evne_max, and what they
    reach: the kampstile and modeffekter every character shows, no forbedringer (an NPC
    is made, not grown), the ekspertiser (the blodarv's, the template's, and each evne's
    at ekspertise_ved), the tilstande from the template's lofts with the ekspertise
    bonuses, values full, fokus, and stjerner, free ones placed by weight."""
    fixed = plan(ctx, char["template"])
    rolls = fixed["rolls"]
    if rolls is None:
        values = list(fixed["bases"])
        roll_groups(ctx.rng.random, fixed["groups"], values)
    else:
        rng = ctx.rng
        values = [d.roll(rng).total for d in rolls]
    if fixed["clamp"]:
        cap = fixed["evne_max"]
        values = [0 if v < 0 else cap if v > cap else v for v in values]
    char["talenter"] = dict(zip(TALENTER, values[:6], strict=True))
    char["kundskaber"] = dict(zip(KUNDSKABER, values[6:], strict=True))
    char["kampstile"] = fixed["kampstile"]
    char["modeffekter"] = fixed["modeffekter"]
    char["forbedringer"] = []
    ved = fixed["ved"]
    reached = tuple(e for e, v in zip(EVNER, values, strict=True) if v >= ved)
    fixed_kin = kin(ctx, char["template"], char["blodarv"], reached)
    char["ekspertiser"] = fixed_kin["ekspertiser"]
    char["fokus"] = fixed_kin["fokus"]
    char["tilstande"] = fixed_kin["tilstande"]
    stjerner = fixed_kin["stjerner"]
    if fixed_kin["free"]:
        stjerner = dict(stjerner)  # this NPC's own: the batch's stays as it is
        for _ in range(fixed_kin["free"]):
            stjerner[ctx.pick("stjernespor")["id"]] += 1
    char["stjerner"] = stjerner
    char["fokus_bonus"] = fixed["fokus_bonus"]


def grej(char: dict, ctx: Context) -> None:
    """The template's grej (the batch's one list) and its penge."""
    fixed = plan(ctx, char["template"])
    char["grej"] = fixed["grej"]
    penge = fixed["penge"]
    if penge is None:
        char["penge"] = 0
    elif type(penge) is tuple:
        base, groups = penge
        total = [base]
        roll_groups(ctx.rng.random, groups, total)
        char["penge"] = total[0]
    else:
        char["penge"] = penge.roll(ctx.rng).total


def navn(char: dict, ctx: Context) -> None:
    """A person's home state and a name in its style, as a player character's; a væsen's
    name is its template's and one of its kendetegn ("Ulv med revet øre")."""
    if char["blodarv"] is not None:
        steps.navn(char, ctx)
        return
    fixed = plan(ctx, char["template"])
    ctx.name_space = char["template"]  # a creature's names: its template's kendetegn
    marks = fixed["kendetegn"]
    mark = marks[int(ctx.rng.random() * len(marks))]
    char["name"] = f"{fixed['name']} {mark}"
    char["kendetegn"] = mark
