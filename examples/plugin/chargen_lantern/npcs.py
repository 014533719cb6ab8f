"""Lantern's NPCs, from templates.toml: its ranges rolled evenly, its gear as the template has it.

What a template fixes is worked out once per batch through `ctx.memo`; the gear list is
that memo's own object, shared by every member, so a batch encodes it once.
"""

from __future__ import annotations

from chargen.procedure import Context
from chargen.tables import parse_range
from chargen_lantern.rules import ABILITIES, armour, item


def plan(ctx: Context, template_id: str) -> dict:
    def build() -> dict:
        entry = ctx.table("templates").get(template_id)
        gear = ctx.table("gear")
        return {
            "entry": entry,
            "ranges": [(a, parse_range(entry["abilities"][a])) for a in ABILITIES],
            "gear": [item(gear.get(i), ctx.text(gear.get(i)["name"])) for i in entry["gear"]],
        }

    return ctx.memo(("template", template_id), build)


def template(char: dict, ctx: Context) -> None:
    entry = ctx.choose("template", "templates")
    char["template"] = entry["id"]
    char["template_name"] = ctx.text(entry["name"])


def abilities(char: dict, ctx: Context) -> None:
    rand = ctx.rng.random
    char["abilities"] = {
        a: low + int(rand() * (high - low + 1))
        for a, (low, high) in plan(ctx, char["template"])["ranges"]
    }


def gear(char: dict, ctx: Context) -> None:
    char["gear"] = plan(ctx, char["template"])["gear"]


def guard(char: dict, ctx: Context) -> None:
    char["guard"] = plan(ctx, char["template"])["entry"]["guard"] + armour(char["gear"])


def name(char: dict, ctx: Context) -> None:
    """A person's name, or for a creature its template and an epithet ("Wolf with one eye")."""
    entry = plan(ctx, char["template"])["entry"]
    if entry.get("creature"):
        ctx.name_space = char["template"]  # a wolf's epithets run out apart from an ogre's
        char["name"] = f"{char['template_name']} {ctx.text(ctx.pick('epithets')['name'])}"
        char["gender"] = None
    else:
        char["name"], char["gender"] = ctx.authored_name(ctx.setting("rules", "name_table"))
