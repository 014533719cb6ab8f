"""The player character's creation steps, in the order the procedure walks them.

Each step is a function ``(character, ctx) -> None`` drawing from its own stream
(`ctx.rng`); what a step reads of the character is declared beside it in the
system's declaration (chargen/systems/karma/__init__.py).
"""

from __future__ import annotations

from chargen.dice import parse
from chargen.procedure import Context
from chargen.systems.karma.rules import EGENSKAPER, first_name


def namn(char: dict, ctx: Context) -> None:
    """A name of the Bakgrunder's medieval Nordic world; Faker's modern names with --locale."""
    if ctx.locale:
        char["name"], char["kon"] = ctx.person_name()
    else:
        char["name"], char["kon"] = ctx.authored_name(ctx.setting("regler", "namntabell"))


def bakgrunder(char: dict, ctx: Context) -> None:
    """One or more Bakgrunder (--bakgrund, repeatable), each with its own dice."""
    dice = ctx.setting("regler", "bakgrund_tarningar")
    how_many = ctx.setting("regler", "antal_bakgrunder")
    given = ctx.option("bakgrund") or ()
    count = len(given) or ctx.roll(how_many, "antal Bakgrunder").total
    span = (parse(how_many).minimum, parse(how_many).maximum)  # what a player may pick
    chosen = ctx.choose_many("bakgrund", "bakgrunder", count, span=span)
    rows = []
    for entry in chosen:
        name = ctx.text(entry["name"])
        rows.append({"id": entry["id"], "namn": name, "tarningar": ctx.roll(dice, name).total})
    char["bakgrunder"] = rows


def egenskaper(char: dict, ctx: Context) -> None:
    """Every Egenskap starts at grundvärdet; the extra dice land one at a time, on an
    Egenskap the character's Bakgrunder favour `bakgrund_vikt` times as often."""
    rules = ctx.table("regler")
    base, cap = rules.setting("grundvarde"), rules.setting("tak")
    budget, weight = rules.setting("extra_tarningar"), rules.setting("bakgrund_vikt")
    table = ctx.table("bakgrunder")
    favoured = {
        e for b in char.get("bakgrunder", ()) for e in table.get(b["id"]).get("egenskaper", ())
    }
    values = dict.fromkeys(EGENSKAPER, base)
    placed = []
    rand = ctx.rng.random
    for _ in range(budget):
        open_ = [e for e in EGENSKAPER if values[e] < cap]
        if not open_:
            break
        weights = [weight if e in favoured else 1 for e in open_]
        point = rand() * sum(weights)
        chosen = open_[-1]
        for e, w in zip(open_, weights, strict=True):
            if point < w:
                chosen = e
                break
            point -= w
        values[chosen] += 1
        placed.append(chosen)
    ctx.log(grundvarde=base, tak=cap, gynnade=sorted(favoured), extra_tarningar=placed)
    # at --interactive the player keeps the drawn distribution or gives each its dice
    char["egenskaper"] = ctx.ask_spread("behall_egenskaper", values, base, cap, len(placed))


def sardrag_rows(entries: list[dict], ctx: Context) -> list[dict]:
    return [{"id": e["id"], "namn": ctx.text(e["name"]), "typ": e["typ"]} for e in entries]


def sardrag(char: dict, ctx: Context) -> None:
    """Physical Särdrag, all different, none beside one it excludes (a Bakgrund too);
    at --interactive the player picks as many as `antal_sardrag` can give."""
    how_many = ctx.setting("regler", "antal_sardrag")
    count = ctx.roll(how_many, "antal Särdrag").total
    span = (parse(how_many).minimum, parse(how_many).maximum)
    drawn = ctx.choose_many("sardrag", "sardrag", count, span=span)
    char["sardrag"] = sardrag_rows(drawn, ctx)
    ctx.log(sardrag=[e["id"] for e in drawn])


def karma(char: dict, ctx: Context) -> None:
    """The hand of karma dice: --karma N, the prompt, or the campaign's default."""
    default = ctx.setting("regler", "karma")
    high = ctx.setting("regler", "karma_hogst")
    char["karma"] = ctx.ask_number("karma", 0, high, default)


def sentence(char: dict, ctx: Context, vice: dict, virtue: dict) -> None:
    """The vice-and-virtue sentence (regler.toml `mening`: "{namn} {last} men {han} {dygd}")."""
    char["last"] = ctx.text(vice["result"])
    char["dygd"] = ctx.text(virtue["result"])
    char["last_id"], char["dygd_id"] = vice.get("id"), virtue.get("id")
    char["mening"] = ctx.text(
        ctx.setting("regler", "mening"),
        namn=first_name(char["name"]),
        last=char["last"],
        dygd=char["dygd"],
    )


def mening(char: dict, ctx: Context) -> None:
    """The one sentence every player writes about the character: a vice, then a virtue
    among those that do not exclude it (the historik records both rows). At
    --interactive the players agree on both: the vice, then a virtue that fits it."""
    vice = ctx.roll_or_choose("last", "laster")
    virtue = ctx.roll_or_choose("dygd", "dygder")
    sentence(char, ctx, vice, virtue)
