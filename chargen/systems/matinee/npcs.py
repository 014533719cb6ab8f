"""NPCs (spelledarpersoner) from mallar.toml: the document's tiers and the Dark Legion.

"Spelledarpersoner har i regel 0 i alla grundegenskaper" and "samma värde i sina
färdigheter som deras grundegenskapsvärde + 10"; what they are slås ut på follows
their size ("strid: slås ut på"). Each NPC walks the steps of `NPC_STEPS` (see the
declaration): its template, a human's megakorporation and utrustning, then its name
(a creature's epithet is its name). What a template fixes is worked out once per
batch (`plan`, through `ctx.memo`) and goes into every member as the memo's own
objects: the grundegenskaper and färdigheter every NPC has are one dict each for the
whole batch, encoded once (chargen.encode.Lines). Each item a human may carry is
worked out once per batch too; a member's list of them is its own.
"""

from __future__ import annotations

from typing import NamedTuple

from chargen.errors import ChoiceError
from chargen.procedure import Context
from chargen.systems.matinee.rules import (
    FASTA,
    GRUNDEGENSKAPER,
    WEAPON_SKILLS,
    is_weapon,
    item_file,
)
from chargen.systems.matinee.steps import band, manovrar, person_name
from chargen.tables import Table, match_choice


class Plan(NamedTuple):
    """What a template fixes: the fields its NPCs have as they are, whether they are
    human (a megakorporation, a name in its style, utrustning), how many items."""

    fields: dict
    human: bool
    items: int


def _not_human(template: dict) -> str:
    return f"{template['name']} is a creature, not a human: it has no megakorporation"


def check_options(ctx: Context) -> None:
    """--megakorporation is a human's: a creature's --template beside it is refused."""
    given = ctx.options.get("template")
    if given and ctx.options.get("megakorporation"):
        table = ctx.table("mallar")
        template = table.get(match_choice(table, given))
        if not template.get("manniska"):
            humans = [e["id"] for e in table.entries if e.get("manniska")]
            raise ChoiceError("template", given, humans, _not_human(template))


def _values(ctx: Context) -> tuple[dict, dict, int]:
    """Every NPC's grundegenskaper and färdigheter, and its initiativ (the highest
    fysikfärdighet), once per batch."""

    def build() -> tuple[dict, dict, int]:
        base = ctx.setting("regler", "npc_grundegenskap")
        plus = ctx.setting("regler", "npc_fardighet_bas")
        grundegenskaper = ctx.memo(
            "npc_grundegenskaper", lambda: dict.fromkeys(GRUNDEGENSKAPER, base)
        )
        # every färdighet, Kunskap too (any inriktning the spelledare gives it):
        # "samma värde i sina färdigheter som deras grundegenskapsvärde + 10"
        fardigheter = ctx.memo(
            "npc_fardigheter", lambda: {f: base + plus for f in (*FASTA, "kunskap")}
        )
        return grundegenskaper, fardigheter, max(fardigheter[f] for f in WEAPON_SKILLS)

    return ctx.memo("npc_varden", build)


def plan(ctx: Context, template_id: str) -> Plan:
    """What a template fixes, once per batch (see `_plan`)."""
    return ctx.memo(("mall", template_id), _plan, ctx, template_id)


def _plan(ctx: Context, template_id: str) -> Plan:
    """A template's name, the NPC values, Slås ut på (its own, else its storlek's), its
    size, a servant's apostel and korruption with the sinnesryckning it means, its
    natural weapons and its description."""
    template = ctx.table("mallar").get(template_id)
    storlek = ctx.table("storlekar").get(template["storlek"])
    grundegenskaper, fardigheter, initiativ = _values(ctx)
    fields = {
        "mall": template["name"],
        "grundegenskaper": grundegenskaper,
        "fardigheter": fardigheter,
        "slas_ut_pa": template.get("slas_ut_pa", storlek["slas_ut_pa"]),
        "initiativ": initiativ,
        "storlek": storlek["id"],
    }
    for key in ("apostel", "korruption", "korruptionsvarde"):
        if key in template:
            fields[key] = template[key]
    if "vapen" in template:
        fields["vapen"] = list(template["vapen"])
    if "korruption" in template:
        fields["sinnesryckning"] = band(ctx, "sinnesryckning", template["korruption"])["name"]
    if template.get("description"):
        fields["beskrivning"] = template["description"]
    return Plan(fields, bool(template.get("manniska")), template.get("utrustning", 0))


def mall(char: dict, ctx: Context) -> None:
    """The template: --template, the prompt or by weight; with --megakorporation only a
    human's. The fields it fixes go in as the batch's own objects."""
    if ctx.options.get("megakorporation") is not None:  # only humans have a corporation
        humans = ctx.memo(
            "npc_manniskor", lambda: [e for e in ctx.table("mallar").entries if e.get("manniska")]
        )
        template = ctx.choose("template", "mallar", humans, _not_human)
    else:
        template = ctx.choose("template", "mallar")
    char["template"] = template["id"]
    char.update(plan(ctx, template["id"]).fields)


def megakorporation(char: dict, ctx: Context) -> None:
    """A human's megakorporation: --megakorporation, the prompt or by weight."""
    if plan(ctx, char["template"]).human:
        entry = ctx.choose("megakorporation", "megakorporationer")
        char["megakorporation"] = entry["id"]
        char["megakorporation_namn"] = ctx.text(entry["name"])


def _files(ctx: Context) -> tuple[tuple, tuple]:
    """The utrustning files an NPC draws from, once per batch: (färdighet, table, the
    table's ids) for each vapenfärdighet, and for every färdighet but armour (an NPC's
    Slås ut på is its tier), those that have a file in this pack."""

    def build() -> tuple[tuple, tuple]:
        armour = ctx.setting("regler", "rustning_fardighet")
        found = {
            s: (s, ctx.table(item_file(s)), frozenset(ctx.table(item_file(s)).ids))
            for s in FASTA
            if item_file(s) in ctx.tables
        }
        weapons = tuple(found[s] for s in WEAPON_SKILLS if s in found)
        return weapons, tuple(found[s] for s in FASTA if s in found and s != armour)

    return ctx.memo("npc_filer", build)


def _weapons(ctx: Context) -> list[tuple[str, Table, dict]]:
    """Every weapon (an item tagged `vapen`) that fits this NPC, with its färdighet and
    table: worked out once per batch for each set of fitting item pools."""
    files = _files(ctx)[0]
    pools = tuple(ctx.pool(table) for _, table, _ in files)
    return ctx.memo(("npc_vapen", *map(id, pools)), _weapon_list, files, pools)[1]


def _weapon_list(files: tuple, pools: tuple) -> tuple:
    """(the pools, kept so that their ids stay theirs, and their weapons)."""
    weapons = [
        (skill, table, e)
        for (skill, table, _), pool in zip(files, pools, strict=True)
        for e in pool.entries
        if is_weapon(e)
    ]
    return pools, weapons


def _item(ctx: Context, skill: str, item: dict, namn: str) -> dict:
    """An item as an NPC carries it (+1), once per batch."""
    return ctx.memo(("npc_foremal", skill, item["id"], namn), _npc_item, ctx, skill, item, namn)


def _npc_item(ctx: Context, skill: str, item: dict, namn: str) -> dict:
    out = {"namn": namn, "fardighet": skill, "bonus": 1}
    if is_weapon(item):
        out["vapen"] = True
        out["stridsmanovrar"] = list(manovrar(ctx, skill, item))
    return out


def utrustning(char: dict, ctx: Context) -> None:
    """A human's items, as many as its template gives (+1 each): a weapon first ("alla
    rollpersoner har ett vapen", a spelledarperson too), evenly among those that fit,
    then items of färdigheter drawn evenly (armour aside: an NPC's Slås ut på is its
    tier), no item twice. Each item is worked out once per batch, and its members
    carry it."""
    fixed = plan(ctx, char["template"])
    if not fixed.human:
        return
    count = fixed.items
    rand = ctx.rng.random
    gear: list[dict] = []
    taken: set[str] = set()

    def take(skill: str, table: Table, item: dict) -> None:
        ctx.note(item, table)  # noted, so that what excludes it is never beside it
        taken.add(item["id"])
        gear.append(_item(ctx, skill, item, ctx.text(item["name"])))

    if count > 0:
        weapons = _weapons(ctx)
        if weapons:
            take(*weapons[int(rand() * len(weapons))])
    files = _files(ctx)[1]
    for _ in range(count * 4):  # a few tries past files with nothing for this corporation
        if len(gear) >= count or not files:
            break
        skill, table, ids = files[int(rand() * len(files))]
        items = ctx.pool(table).entries
        if not taken.isdisjoint(ids):
            items = [e for e in items if e["id"] not in taken]
        if items:
            take(skill, table, items[int(rand() * len(items))])
    char["utrustning"] = gear


def namn(char: dict, ctx: Context) -> None:
    """The name: a human's (one with a megakorporation) in the style of its corporation
    and its gender; a creature's is its kind and an epithet that fits it ("Nekromutant
    med ett enda öga"), so that two of a kind in one roster are told apart."""
    if "megakorporation" in char:
        corporation = ctx.table("megakorporationer").get(char["megakorporation"])
        char["name"], char["kon"] = person_name(ctx, corporation)
    elif "epitet" in ctx.tables and ctx.table("epitet").entries:
        ctx.name_space = char["template"]  # the epithets of its kind: its own names
        epitet = ctx.text(ctx.pick("epitet")["name"])
        char["epitet"] = epitet
        char["name"] = f"{char['mall']} {epitet}"
    else:
        char["name"] = char["mall"]
