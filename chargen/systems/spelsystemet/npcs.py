"""NPCs from mallar.toml: the player character's procedure, with the yrke from a template.

Each NPC walks the steps of `NPC_STEPS` (see the declaration): the template, then the
genre it exists in, a species drawn among those living there (an NPC has no --art and
is never asked for one), its grundegenskaper and what follows from them, the first of
the template's yrken that exists in the genre with that yrke's skills, weapons and
armour, and last its name. What a template fixes is worked out once per batch through
`ctx.memo` (steps.py and below).
"""

from __future__ import annotations

from chargen.errors import ChargenError, ChoiceError
from chargen.procedure import Context
from chargen.systems.spelsystemet.rules import genre_name
from chargen.systems.spelsystemet.steps import genre_species, open_genres, skills


def templates_in(ctx: Context, genre_id: str) -> list[dict]:
    """The templates that have a yrke in the genre."""

    def build() -> list[dict]:
        here = {e["id"] for e in ctx.table("yrken").entries if genre_id in e["genrer"]}
        return [t for t in ctx.table("mallar").entries if any(y in here for y in t["yrken"])]

    return ctx.memo(("mallar", genre_id), build)


def template_job(ctx: Context, template_id: str, genre_id: str) -> dict:
    """An NPC's yrke: the first of its template's yrken that exists in the genre."""

    def build() -> dict:
        template = ctx.table("mallar").get(template_id)
        yrken = ctx.table("yrken")
        fits = [y for y in template["yrken"] if genre_id in yrken.get(y)["genrer"]]
        if not fits:
            raise ChargenError(
                f"the template '{template_id}' has no yrke in the genre '{genre_id}'"
            )
        return yrken.get(fits[0])

    return ctx.memo(("mallens yrke", template_id, genre_id), build)


def check_options(ctx: Context) -> None:
    """What a batch's options ask of the tables, before the first character: a genre
    that the given --genre, --art, --yrke or --template leave open (exit 2 naming why)."""
    template = ctx.options.get("template") if ctx.kind == "npc" else None
    wanted = ctx.options.get("genre")
    if (
        ctx.kind == "npc"
        and wanted is not None
        and template is None
        and not templates_in(ctx, wanted)
    ):
        raise ChargenError(f"no template has a yrke in the genre '{wanted}'")
    allowed, why = open_genres(ctx, template)
    if allowed is None:
        return
    if not allowed:
        raise ChargenError(f"no genre fits these choices: {why}")
    if wanted is not None and all(g["id"] != wanted for g in allowed):
        raise ChoiceError("genre", wanted, [g["id"] for g in allowed], why)


def mall(char: dict, ctx: Context) -> None:
    """The template: --template, the prompt or by weight; with --genre alone, among
    the templates that have a yrke there."""
    allowed = None
    genre_id = ctx.options.get("genre")
    if genre_id is not None and ctx.options.get("template") is None:
        allowed = templates_in(ctx, genre_id)
    char["template"] = ctx.choose("template", "mallar", allowed=allowed)["id"]


def art(char: dict, ctx: Context) -> None:
    """A species by weight among those living in the genre."""
    entry = ctx.pick("arter", among=genre_species(ctx, char["genre"])[0])
    char["art"] = entry["id"]
    char["art_namn"] = ctx.text(entry["name"])


def yrke(char: dict, ctx: Context) -> None:
    """The template's yrke in the genre (its name there too) and the skills it gives."""
    genre_id = char["genre"]
    template = ctx.table("mallar").get(char["template"])
    char["mall_namn"] = ctx.text(genre_name(template, genre_id))
    entry = template_job(ctx, template["id"], genre_id)
    ctx.note(entry, "yrken")
    char["yrke"] = entry["id"]
    char["yrke_namn"] = ctx.text(genre_name(entry, genre_id))
    skills(char, ctx)
