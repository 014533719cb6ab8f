"""Karmasystemet (document 002): a d6 pool game with Kontroll and karma dice.

The document fixes seven Egenskaper of 2-7 dice each, Särdrag on a list of
their own, one or more Bakgrunder with dice, a hand of karma dice whose size
the campaign decides, and one sentence per character with a vice and a virtue
("Desmond super som ett svin men han håller sitt ord"). Everything else (the
budget of extra dice, how many Bakgrunder, the tables) is chargen's reading,
kept in tables/karma/regler.toml.
"""

from __future__ import annotations

from chargen.dice import parse
from chargen.labels import builtin_labels
from chargen.procedure import Context, Option, Section, Step, System
from chargen.tables import Spec, Tables, parse_range

EGENSKAPER = ("stark", "talig", "smidig", "uppmarksam", "overtygande", "stridsvan", "traffsaker")
PRONOUN = {"male": "han", "female": "hon"}

SPECS = {
    "regler": Spec(
        "settings",
        fields={
            "grundvarde": "int[0..10]!",
            "tak": "int[1..20]!",
            "extra_tarningar": "int[0..100]!",
            "antal_bakgrunder": "dice[1..10]!",
            "bakgrund_tarningar": "dice[0..20]!",
            "antal_sardrag": "dice[0..10]!",
            "karma": "int[0..100]!",
        },
        order=(("grundvarde", "tak"),),
    ),
    "bakgrunder": Spec("definitions"),
    "sardrag": Spec("definitions", fields={"typ": "one:fordel|nackdel|neutral!"}),
    "laster": Spec("roll"),
    "dygder": Spec("roll"),
    "mallar": Spec(
        "definitions",
        fields={
            "egenskaper": "dict[str]!",
            "bakgrunder": "list[id:bakgrunder]!",
            "bakgrund_tarningar": "re:^\\d{1,2}(-\\d{1,2})?$!",
            "karma": "re:^\\d{1,2}(-\\d{1,2})?$!",
            "karma_typ": "one:ingen|egen|grupp!",
            "sardrag": "int[0..20]!",
        },
    ),
}

# Display words live in tables/karma/etiketter.toml (chargen.labels).
LABELS = builtin_labels("karma")


def _name(char: dict, ctx: Context) -> None:
    char["name"], char["kon"] = ctx.person_name()


def egenskaper(char: dict, ctx: Context) -> None:
    """Every Egenskap starts at grundvärdet; the extra dice land one at a time."""
    rules = ctx.table("regler")
    base, cap, budget = (
        rules.setting("grundvarde"),
        rules.setting("tak"),
        rules.setting("extra_tarningar"),
    )
    values = dict.fromkeys(EGENSKAPER, base)
    placed = []
    for _ in range(budget):
        open_ = [e for e in EGENSKAPER if values[e] < cap]
        if not open_:
            break
        chosen = open_[int(ctx.rng.random() * len(open_))]
        values[chosen] += 1
        placed.append(chosen)
    char["egenskaper"] = values
    ctx.log(grundvarde=base, tak=cap, extra_tarningar=placed)


def sardrag(char: dict, ctx: Context) -> None:
    count = ctx.roll(ctx.setting("regler", "antal_sardrag"), "antal Särdrag").total
    drawn = ctx.table("sardrag").draw(ctx.rng, count)
    char["sardrag"] = [{"id": e["id"], "namn": e["name"], "typ": e["typ"]} for e in drawn]
    ctx.log(sardrag=[e["id"] for e in drawn])


def bakgrunder(char: dict, ctx: Context) -> None:
    """One or more Bakgrunder (--bakgrund, repeatable), each with its own dice."""
    dice = ctx.setting("regler", "bakgrund_tarningar")
    how_many = ctx.setting("regler", "antal_bakgrunder")
    given = ctx.option("bakgrund") or ()
    count = len(given) or ctx.roll(how_many, "antal Bakgrunder").total
    span = (parse(how_many).minimum, parse(how_many).maximum)  # what a player may pick
    chosen = ctx.choose_many("bakgrund", "bakgrunder", count, span=span)
    char["bakgrunder"] = [
        {"id": e["id"], "namn": e["name"], "tarningar": ctx.roll(dice, e["name"]).total}
        for e in chosen
    ]


def karma(char: dict, ctx: Context) -> None:
    char["karma"] = ctx.option("karma", ctx.setting("regler", "karma"))
    ctx.log(karma=char["karma"], by="option" if ctx.option("karma") is not None else "regler")


def mening(char: dict, ctx: Context) -> None:
    """The vice-and-virtue sentence: "<förnamn> <last> men <han/hon> <dygd>"."""
    vice = ctx.roll_table("laster")[0]["result"]
    virtue = ctx.roll_table("dygder")[0]["result"]
    char["last"], char["dygd"] = vice, virtue
    char["mening"] = sentence(char["name"], char["kon"], vice, virtue)


def sentence(name: str, gender: str, vice: str, virtue: str) -> str:
    return f"{name.split()[0]} {vice} men {PRONOUN[gender]} {virtue}"


PC_STEPS = [
    Step("namn", _name, fields=("name", "kon"), command=False),
    Step(
        "egenskaper",
        egenskaper,
        fields=("egenskaper",),
        lists=("regler",),
        label="Egenskaper",
        help="The seven Egenskaper: each starts at 2, extra dice spread up to 7.",
    ),
    Step(
        "sardrag",
        sardrag,
        fields=("sardrag",),
        lists=("sardrag",),
        label="Särdrag",
        help="Physical Särdrag, on their own list.",
    ),
    Step(
        "bakgrunder",
        bakgrunder,
        fields=("bakgrunder",),
        lists=("bakgrunder",),
        label="Bakgrunder",
        help="One or more Bakgrunder (--bakgrund), each with its dice.",
    ),
    Step(
        "karma",
        karma,
        fields=("karma",),
        lists=("regler",),
        label="Karma",
        help="The hand of karma dice (--karma N).",
    ),
    Step(
        "mening",
        mening,
        fields=("last", "dygd", "mening"),
        lists=("laster", "dygder"),
        label="Last och dygd",
        help="The one-sentence vice and virtue.",
    ),
]


def npc(char: dict, ctx: Context) -> None:
    """An NPC from a template: its ranges rolled evenly, its karma its own or its group's."""
    template = ctx.choose("template", "mallar")
    plan = ctx.cache.get(template["id"])
    if plan is None:  # parse the template once per batch, not once per NPC
        ranges = [(e, parse_range(template["egenskaper"][e])) for e in EGENSKAPER]
        backgrounds = [(b, ctx.table("bakgrunder").get(b)["name"]) for b in template["bakgrunder"]]
        plan = ctx.cache[template["id"]] = (
            ranges,
            backgrounds,
            parse_range(template["bakgrund_tarningar"]),
            parse_range(template["karma"]),
        )
    ranges, backgrounds, dice_range, karma_range = plan
    rand = ctx.rng.random
    char["template"] = template["id"]
    char["name"], char["kon"] = ctx.person_name()
    char["egenskaper"] = {e: lo + int(rand() * (hi - lo + 1)) for e, (lo, hi) in ranges}
    lo, hi = dice_range
    char["bakgrunder"] = [
        {"id": b, "namn": n, "tarningar": lo + int(rand() * (hi - lo + 1))} for b, n in backgrounds
    ]
    count = template["sardrag"]
    drawn = ctx.table("sardrag").draw(ctx.rng, count) if count else []
    char["sardrag"] = [{"id": e["id"], "namn": e["name"], "typ": e["typ"]} for e in drawn]
    forced = ctx.option("karma")
    if forced is None:
        lo, hi = karma_range
        forced = lo + int(rand() * (hi - lo + 1))
    char["karma"] = forced
    char["karma_typ"] = template["karma_typ"]
    vice = ctx.table("laster").pick(ctx.rng)["result"]
    virtue = ctx.table("dygder").pick(ctx.rng)["result"]
    char["last"], char["dygd"] = vice, virtue
    char["mening"] = sentence(char["name"], char["kon"], vice, virtue)


def sheet(char: dict, tables: Tables) -> list[Section]:
    eg = char["egenskaper"]
    head = [["Namn", char["name"]], ["Karma", f"{char['karma']} karmatärningar"]]
    if char.get("template"):
        head.insert(1, ["Mall", char["template"]])
        head.append(["Karmans slag", char.get("karma_typ", "")])
    sections = [
        Section("Rollperson" if char["kind"] == "pc" else "Bifigur", rows=head),
        Section("Egenskaper", rows=[[LABELS[e], f"{eg[e]}T6"] for e in EGENSKAPER]),
        Section(
            "Bakgrunder", rows=[[b["namn"], f"{b['tarningar']}T6"] for b in char["bakgrunder"]]
        ),
        Section(
            "Särdrag",
            text=", ".join(f"{s['namn']} ({s['typ']})" for s in char["sardrag"]) or "Inga",
        ),
        Section("Last och dygd", text=char["mening"] + "."),
        Section(
            "Slag",
            text="4-6 Lyckade ligger kvar, 1-3 Slängs; varje slängd 1:a kostar en Kontrolltärning.\n"
            "Karma: högst lika många karmatärningar som Egenskapens eller Bakgrundens tärningar.",
        ),
    ]
    return sections


def _short(key: str):
    return lambda c: c["egenskaper"][key]


SYSTEM = System(
    id="karma",
    name="Karmasystemet",
    language="sv",
    locale="sv_SE",
    description="T6-pölar med Kontroll, Egenskaper, Bakgrunder och karmatärningar.",
    specs=SPECS,
    effect_keys=frozenset(),
    labels=LABELS,
    pc=PC_STEPS,
    npc=npc,
    pc_options=[
        Option(
            "karma",
            type=int,
            minimum=0,
            maximum=100,
            help="The hand of karma dice (default from regler.toml).",
        ),
        Option("bakgrund", table="bakgrunder", multiple=True, help="A Bakgrund (repeatable)."),
    ],
    npc_options=[
        Option("template", table="mallar", help="The NPC template (mallar.toml)."),
        Option(
            "karma", type=int, minimum=0, maximum=100, help="Karma dice for every NPC of the batch."
        ),
    ],
    sheet=sheet,
    roster=[
        ("Namn", "name"),
        ("Mall", "template"),
        *[(LABELS[e][:4], _short(e)) for e in EGENSKAPER],
        (
            "Bakgrunder",
            lambda c: ", ".join(f"{b['namn']} {b['tarningar']}" for b in c["bakgrunder"]),
        ),
        ("Karma", "karma"),
    ],
)
