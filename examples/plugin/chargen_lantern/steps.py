"""A delver's creation steps, in the order the procedure walks them.

Each is a function ``(character, ctx) -> None``: it reads tables through `ctx`, draws
from `ctx.rng` (its own stream) and writes its part of the character.
"""

from __future__ import annotations

from chargen.procedure import Context
from chargen_lantern.rules import ABILITIES, armour, bonus, item


def name(char: dict, ctx: Context) -> None:
    """A name of the lamplit towns (names.toml), and the gender it follows."""
    table = ctx.setting("rules", "name_table")
    char["name"], char["gender"] = ctx.authored_name(table)


def abilities(char: dict, ctx: Context) -> None:
    """Might, Grace and Wits: each rolled on `ability_dice`, in that order."""
    dice = ctx.setting("rules", "ability_dice")
    char["abilities"] = {a: ctx.roll(dice, a).total for a in ABILITIES}


def background(char: dict, ctx: Context) -> None:
    """What the delver did before (--background, the prompt, or the dice)."""
    entry = ctx.choose("background", "backgrounds")
    char["background"] = entry["id"]
    char["background_name"] = ctx.text(entry["name"])
    char["skill"] = entry["skill"]


def gear(char: dict, ctx: Context) -> None:
    """The background's own item, then `gear_count` more, all different, one armour at most."""
    own = ctx.table("gear").get(ctx.table("backgrounds").get(char["background"])["item"])
    ctx.note(own, "gear")
    more = ctx.draw("gear", ctx.setting("rules", "gear_count"), exclude=(own["id"],))
    char["gear"] = [item(e, ctx.text(e["name"])) for e in (own, *more)]
    ctx.log(gear=[e["id"] for e in (own, *more)])  # the historik: what was drawn


def guard(char: dict, ctx: Context) -> None:
    """Guard: `guard_dice` plus the Might bonus plus what armour adds."""
    rules = ctx.settings("rules")
    rolled = ctx.roll(rules["guard_dice"], "guard").total
    char["guard"] = rolled + bonus(char["abilities"]["might"], rules) + armour(char["gear"])
