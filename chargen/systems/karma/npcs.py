"""NPCs from mallar.toml: a template's ranges rolled evenly, karma its own or its group's.

Each NPC walks the steps of `NPC_STEPS` (see the declaration); what a template fixes
is worked out once per batch (`plan`, through `ctx.memo`). With --band the batch is
one band: the first member is its leader (a template with karma_typ = grupp), the
rest its followers (the leader's `foljare`), and the band shares one karma pool.
"""

from __future__ import annotations

from chargen.errors import ChargenError
from chargen.procedure import Context
from chargen.systems.karma.rules import EGENSKAPER, between, karma_typ
from chargen.systems.karma.steps import sardrag_rows, sentence
from chargen.tables import parse_range


def check_options(ctx: Context) -> None:
    """What a batch's options ask of the templates, checked before the first NPC."""
    given = ctx.options.get("template")
    if given and ctx.option("karma") is not None and not ctx.option("band"):
        template = ctx.table("mallar").get(given)
        if karma_typ(template) == "ingen":
            having = [e["id"] for e in ctx.table("mallar").entries if karma_typ(e) != "ingen"]
            raise ChargenError(
                f"--karma: the template '{template['id']}' has no karma (karma_typ = ingen); "
                "only important enemies have karma of their own or their group's "
                f"(templates with karma: {', '.join(having)})"
            )
    if ctx.option("band") and ctx.count < 2:
        raise ChargenError(
            "--band needs -n 2 or more: a band is a leader and the followers who share "
            "the leader's karma"
        )


def plan(ctx: Context, template_id: str) -> dict:
    """What a template fixes, once per batch: its ranges as (low, span), its Bakgrunder's
    entries."""
    return ctx.memo(("mall", template_id), _plan, ctx, template_id)


def _plan(ctx: Context, template_id: str) -> dict:
    template = ctx.table("mallar").get(template_id)

    def span(text: str) -> tuple[int, int]:
        low, high = parse_range(text)
        return low, high - low + 1

    return {
        "template": template,
        "egenskaper": [(e, *span(template["egenskaper"][e])) for e in EGENSKAPER],
        "bakgrunder": [ctx.table("bakgrunder").get(b) for b in template["bakgrunder"]],
        "tarningar": span(template["bakgrund_tarningar"]),
        "karma": parse_range(template["karma"]),
        "sardrag": template["sardrag"],
    }


def _band(ctx: Context) -> tuple[dict, int, str]:
    """The band's leader template, its shared karma pool and the band's id (once a batch)."""
    found = ctx.shared.get("band")
    if found is None:
        leaders = [e for e in ctx.table("mallar").entries if karma_typ(e) == "grupp"]
        template = ctx.choose(
            "template",
            "mallar",
            allowed=leaders,
            why="--band: the band's leader must be a template whose karma the group shares "
            "(karma_typ = grupp)",
        )
        pool = ctx.option("karma")
        if pool is None:
            pool = between(ctx.rng.random, *plan(ctx, template["id"])["karma"])
        found = ctx.shared["band"] = (template, pool, f"{template['id']}-{ctx.batch_seed}")
    return found


def mall(char: dict, ctx: Context) -> None:
    """The template: --template, the prompt or by weight among those that fit (a Häxa is
    a woman); in a band the leader's, then its followers'."""
    if ctx.option("band"):
        leader = _band(ctx)[0]
        if ctx.index == 0:
            template = leader
            ctx.note(template, "mallar")
        else:
            followers = [ctx.table("mallar").get(f) for f in leader.get("foljare", ())]
            if not followers:
                raise ChargenError(f"mallar.toml: '{leader['id']}' leads a band but has no foljare")
            template = ctx.pick("mallar", among=followers)
    else:
        template = ctx.choose("template", "mallar")
    char["template"] = template["id"]
    char["mall_namn"] = ctx.text(template["name"])


def egenskaper(char: dict, ctx: Context) -> None:
    """Each Egenskap evenly within the template's range."""
    rand = ctx.rng.random
    char["egenskaper"] = {
        e: low + int(rand() * span) for e, low, span in plan(ctx, char["template"])["egenskaper"]
    }


def bakgrunder(char: dict, ctx: Context) -> None:
    """The template's Bakgrunder, each with dice within its range (noted, so that what
    excludes them is never drawn beside them: no one-armed archer)."""
    fixed = plan(ctx, char["template"])
    rand = ctx.rng.random
    low, span = fixed["tarningar"]
    text = ctx.text  # a name may be gendered (Köpman, Köpkvinna): the member's own
    char["bakgrunder"] = [
        {"id": b["id"], "namn": text(b["name"]), "tarningar": low + int(rand() * span)}
        for b in fixed["bakgrunder"]
    ]
    for entry in fixed["bakgrunder"]:
        ctx.note(entry, "bakgrunder")


def sardrag(char: dict, ctx: Context) -> None:
    """As many Särdrag as the template gives, none beside what excludes it."""
    count = plan(ctx, char["template"])["sardrag"]
    char["sardrag"] = sardrag_rows(ctx.draw("sardrag", count), ctx) if count else []


def karma(char: dict, ctx: Context) -> None:
    """No karma, the NPC's own (within the template's range, or --karma), or the band's."""
    fixed = plan(ctx, char["template"])
    if ctx.option("band"):
        _leader, pool, band_id = _band(ctx)
        char["band"] = band_id
        char["bandkarma"] = pool
        char["karma_typ"] = "grupp"
        char["karma"] = pool if ctx.index == 0 else 0
        return
    kind = karma_typ(fixed["template"])
    char["karma_typ"] = kind
    if kind == "ingen":
        char["karma"] = 0  # no karma, --karma or not
    else:
        forced = ctx.option("karma")
        char["karma"] = forced if forced is not None else between(ctx.rng.random, *fixed["karma"])


def mening(char: dict, ctx: Context) -> None:
    """The vice-and-virtue sentence: a vice that fits what the NPC is and has drawn, then
    a virtue among those that do not exclude it (no historik: an NPC stays lean)."""
    vice = ctx.pick("laster")
    virtue = ctx.pick("dygder")
    sentence(char, ctx, vice, virtue)
