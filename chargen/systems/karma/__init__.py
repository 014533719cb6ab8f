"""Karmasystemet (document 002): a d6 pool game with Kontroll and karma dice.

The document fixes seven Egenskaper of 2-7 dice each, Särdrag on a list of their
own, one or more Bakgrunder with dice, a hand of karma dice whose size the campaign
decides, and one sentence per character with a vice and a virtue ("Desmond super
som ett svin men han håller sitt ord"); some important enemies have karma of their
own, "antingen per person eller gemensamt i gruppen". Everything else (the budget
of extra dice and how a Bakgrund steers it, how many Bakgrunder, the tables, the
names) is chargen's reading, kept in tables/karma/.

Coherence lives in the tables, through the engine's conditions: a virtue names the
kinds of vice it cannot stand beside (`excludes`), two Särdrag that cannot share a
body exclude each other, a template or Bakgrund is gendered (`{ male = "Hovman",
female = "Hovdam" }`) or drawn only for one gender (`when`).

This file is the game's declaration; the rules are in steps.py (the player
character), npcs.py (the templates), sheet.py, checks.py (the pack) and rules.py.
"""

from __future__ import annotations

from chargen.procedure import Option, Step, System
from chargen.systems.karma import checks, npcs, sheet, steps
from chargen.tables import NAME_SPEC, Spec

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
            "bakgrund_vikt": "num[1..100]!",
            "karma_hogst": "int[1..100]!",
            "mening": "str!",
            "namntabell": "table:namn_*!",
        },
        order=(("grundvarde", "tak"),),
    ),
    "bakgrunder": Spec("definitions", fields={"egenskaper": "list[str]"}),
    "sardrag": Spec("definitions", fields={"typ": "one:fordel|nackdel|neutral!"}),
    "laster": Spec("roll"),
    "dygder": Spec("roll"),
    "lastertyper": Spec("definitions"),
    "mallar": Spec(
        "definitions",
        fields={
            # each of the seven, a value or a range ("2-4"), read by checks.check_pack
            "egenskaper": "dict[re:^\\d{1,2}(-\\d{1,2})?$]"
            "{stark,talig,smidig,uppmarksam,overtygande,stridsvan,traffsaker}!",
            "bakgrunder": "list[id:bakgrunder]!",
            "bakgrund_tarningar": "re:^\\d{1,2}(-\\d{1,2})?$!",
            "karma": "re:^\\d{1,2}(-\\d{1,2})?$!",
            "karma_typ": "one:ingen|egen|grupp!",
            "sardrag": "int[0..20]!",
            "foljare": "list[id:mallar]",
        },
    ),
    "namn_*": NAME_SPEC,
}

PC_STEPS = [
    Step("namn", steps.namn, fields=("name", "kon"), command=False, naming=True),
    Step(
        "bakgrunder",
        steps.bakgrunder,
        fields=("bakgrunder",),
        lists=("bakgrunder",),
        label="Bakgrunder",
        help="One or more Bakgrunder (--bakgrund), each with its dice.",
    ),
    Step(
        "egenskaper",
        steps.egenskaper,
        fields=("egenskaper",),
        lists=("regler",),
        label="Egenskaper",
        help="The seven Egenskaper: each starts at 2, extra dice spread up to 7, "
        "more often on those the Bakgrunder favour.",
        reads=("bakgrunder",),
    ),
    Step(
        "sardrag",
        steps.sardrag,
        fields=("sardrag",),
        lists=("sardrag",),
        label="Särdrag",
        help="Physical Särdrag, on their own list.",
        reads=("bakgrunder",),  # a Särdrag excludes the Bakgrunder it contradicts
    ),
    Step(
        "karma",
        steps.karma,
        fields=("karma",),
        lists=("regler",),
        label="Karma",
        help="The hand of karma dice (--karma N).",
    ),
    Step(
        "mening",
        steps.mening,
        fields=("last", "dygd", "last_id", "dygd_id", "mening"),
        lists=("laster", "dygder"),
        label="Last och dygd",
        help="The one-sentence vice and virtue.",
        reads=("name", "bakgrunder", "sardrag"),  # the first name; what the vice excludes
        roster=sheet.MENING_ROSTER,
    ),
]

NPC_STEPS = [
    Step("mall", npcs.mall, fields=("template", "mall_namn"), command=False),
    Step("egenskaper", npcs.egenskaper, fields=("egenskaper",), reads=("template",)),
    Step("bakgrunder", npcs.bakgrunder, fields=("bakgrunder",), reads=("template",)),
    Step("sardrag", npcs.sardrag, fields=("sardrag",), reads=("template", "bakgrunder")),
    Step(
        "karma",
        npcs.karma,
        fields=("band", "bandkarma", "karma_typ", "karma"),
        reads=("template",),
    ),
    Step("namn", steps.namn, fields=("name", "kon"), naming=True),
    Step(
        "mening",
        npcs.mening,
        fields=("last", "dygd", "last_id", "dygd_id", "mening"),
        reads=("name", "template", "bakgrunder", "sardrag"),
    ),
]

SYSTEM = System(
    id="karma",
    foundry="worldbuilding",
    where_example='"munk" in bakgrunder and egenskaper.uppmarksam >= 3',
    name="Karmasystemet",
    language="sv",
    locale="sv_SE",
    description="T6-pölar med Kontroll, Egenskaper, Bakgrunder och karmatärningar.",
    specs=SPECS,
    effect_keys=frozenset(),
    pc=PC_STEPS,
    npc=NPC_STEPS,
    placeholders=("namn", "last", "dygd"),
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
            "karma",
            type=int,
            minimum=0,
            maximum=100,
            help="Karma dice for every NPC of the batch that has karma (a band: its pool).",
        ),
        Option(
            "band",
            flag=True,
            batch=True,
            help="The batch is one band: a leader and followers sharing one karma pool.",
        ),
    ],
    check_options=npcs.check_options,
    sheet=sheet.sheet,
    parts=sheet.PARTS,
    batch_sheet=sheet.batch_sheet,
    check=checks.check_pack,
    roster=sheet.ROSTER,
)
