"""LEF, the rules of Terminus Alfa (document 003, Danish): 2T6 + evne against a grade.

The document fixes six talenter and six kundskaber, each with a kampstil or
modeffekt, four forbedringer and an ekspertise; the tilstande helbred, kraft,
psyke, liv and udbytte (sjæl as a gift), each with a loft; fokus (+3 per
tilstandspoint) for the tilstand the blodarv decides, and for more through
ekspertiser; the six tracks a stjerne may be placed in. Everything else (the
blodarv list, the evne budget, personligheder, grej, NPCs, the names of Valhel) is
chargen's reading, kept in tables/lef/ with its numbers in regler.toml.

A PC is made in steps: name and hjemstat, blodarv, personlighed, evner (with the
forbedringer and ekspertiser their values reach), tilstande (lofts, fokus,
stjerner) and grej. An NPC comes from a template: a person's blodarv, its evner
from the template's dice, the ekspertiser, tilstande and stjerner they fix, its
grej, and last its name: a person's home state and a name in its style (as a
player character's), a creature's template and one of its kendetegn.

This file is the game's declaration; the rules are in steps.py (the player
character), npcs.py (the templates), sheet.py, checks.py (the pack) and rules.py.
"""

from __future__ import annotations

from chargen.procedure import Option, Step, System
from chargen.systems.lef import checks, npcs, sheet, steps
from chargen.tables import NAME_SPEC, Spec

SPECS = {
    "regler": Spec(
        "settings",
        fields={
            "evnepoint": "int[0..1000]!",
            "evne_start": "int[0..100]!",
            "evne_max_start": "int[0..100]!",
            "evne_max": "int[1..100]!",
            "forbedring_ved": "list[int[1..100]]!",
            "ekspertise_ved": "int[1..100]!",
            "loft_start": "int[1..20]!",
            "loft_max": "int[1..20]!",
            "sjael_pr_gave": "int[0..20]!",
            "fokus_bonus": "int[0..20]!",
            "fordeling_grund": "int[0..20]!",
            "fordeling_foretrukken": "int[0..20]!",
        },
        order=(
            ("evne_start", "evne_max_start"),
            ("evne_max_start", "evne_max"),
            ("loft_start", "loft_max"),
        ),
    ),
    "evner": Spec(
        "definitions",
        fields={
            "gruppe": "str!",
            "kampstil": "str",
            "modeffekt": "str",
            "forbedringer": "list[id:forbedringer]+!",
            "ekspertise": "id:ekspertiser!",
        },
    ),
    "forbedringer": Spec("definitions", fields={"virkning": "str!", "tilstand": "id:tilstande"}),
    "ekspertiser": Spec(
        "definitions",
        fields={
            "overskrift": "str!",
            "trykt_overskrift": "str",  # the document's header where it disagrees
            "loftbonus": "dict[int[0..20]]",
            "fokus": "list[id:tilstande]",
            "stjerner": "dict[int[0..20]]",
            "frie_stjerner": "int[0..20]",
            "bytte": "list[id:tilstande]",
        },
    ),
    "blodarv": Spec(
        "definitions",
        fields={"lore": "str!", "fokus": "id:tilstande!", "ekspertise": "id:ekspertiser!"},
    ),
    "personligheder": Spec(
        "definitions",
        fields={
            "ekspertiser": "list[id:ekspertiser]+!",
            "foretrukne_evner": "list[id:evner]",
            "startudstyr": "id:startudstyr!",
        },
    ),
    "tilstande": Spec("definitions", fields={"gave": "bool"}),
    "stjernespor": Spec("definitions"),
    "grej": Spec(
        "definitions", fields={"udgift": "int[0..1000000]!", "type": "str", "holdbar": "bool"}
    ),
    "startudstyr": Spec(
        "definitions", fields={"grej": "list[id:grej]!", "penge": "dice[0..10000]!"}
    ),
    "hjemstater": Spec("definitions", fields={"locale": "locale", "navne": "table"}),
    "navne_*": NAME_SPEC,
    "skabeloner": Spec(
        "definitions",
        fields={
            "evner": "dict[dice]!",  # aces and past the range: the code keeps evner within
            "ovrige": "dice!",
            "tilstande": "dict[int[0..100]]!",
            "blodarv": "list[id:blodarv]+",
            "vaesen": "bool",
            "fokus": "list[id:tilstande]",
            "ekspertiser": "list[id:ekspertiser]",
            "grej": "list[id:grej]",
            "penge": "dice",
            "kendetegn": "list[str]",
        },
    ),
}

NAVN = ("name", "kon", "hjemstat", "hjemstat_navn")
BLODARV = ("blodarv", "blodarv_navn", "blodarv_lore")
EVNER = ("talenter", "kundskaber", "kampstile", "modeffekter", "forbedringer")
TILSTANDE = ("tilstande", "fokus", "fokus_bonus", "stjerner")

PC_STEPS = [
    Step("navn", steps.navn, fields=NAVN, command=False, naming=True),
    Step(
        "blodarv",
        steps.blodarv,
        fields=(*BLODARV, "ekspertiser", "fokus"),
        lists=("blodarv",),
        label="Blodarv",
        help="The blodarv (--blodarv): its lore, exchange ekspertise and fokus tilstand.",
        roster=sheet.STEP_ROSTERS["blodarv"],
    ),
    Step(
        "personlighed",
        steps.personlighed,
        fields=("personlighed", "personlighed_navn", "ekspertiser"),
        lists=("personligheder",),
        label="Personlighed",
        help="The personlighed (--personlighed) and its starting ekspertise.",
        roster=sheet.STEP_ROSTERS["personlighed"],
        # the ekspertiser held (none twice); one that repeats the blodarv is not drawn
        reads=("blodarv", "ekspertiser"),
    ),
    Step(
        "evner",
        steps.evner,
        fields=(*EVNER, "ekspertiser"),
        lists=("evner", "forbedringer", "regler"),
        label="Evner",
        help="The twelve evner from the point budget, with the forbedringer and ekspertiser "
        "their values reach.",
        roster=sheet.STEP_ROSTERS["evner"],
        reads=("personlighed",),  # its foretrukne evner; its startudstyr's grej is held
    ),
    Step(
        "tilstande",
        steps.tilstande,
        fields=TILSTANDE,
        lists=("tilstande", "stjernespor", "ekspertiser"),
        label="Tilstande",
        help="Tilstande with value and loft, fokus and stjerner.",
        roster=sheet.STEP_ROSTERS["tilstande"],
        reads=("fokus", "ekspertiser", "forbedringer"),
    ),
    Step(
        "grej",
        steps.grej,
        fields=("grej", "startudstyr", "penge"),
        lists=("startudstyr", "grej"),
        label="Grej",
        help="The starting kit, penge and the grej the forbedringer give.",
        roster=sheet.STEP_ROSTERS["grej"],
        reads=("personlighed", "forbedringer"),
    ),
]

NPC_STEPS = [
    Step("skabelon", npcs.skabelon, fields=("template", "skabelon_navn"), command=False),
    Step("blodarv", npcs.blodarv, fields=BLODARV, reads=("template",)),
    # the evner and what they reach: ekspertiser, tilstande, fokus, stjerner
    Step(
        "evner",
        npcs.evner,
        fields=(*EVNER, "ekspertiser", *TILSTANDE),
        reads=("template", "blodarv"),
    ),
    Step("grej", npcs.grej, fields=("grej", "penge"), reads=("template",)),
    # last: a person's home state and name (as a PC's), a creature's kendetegn
    Step(
        "navn",
        npcs.navn,
        fields=(*NAVN, "kendetegn"),
        reads=("template", "blodarv"),
        naming=True,
    ),
]

SYSTEM = System(
    id="lef",
    foundry="worldbuilding",
    where_example="talenter.fysik >= 5 and tilstande.helbred.loft >= 3",
    name="LEF, Terminus Alfa",
    language="da",
    locale="da_DK",
    description="2T6 + evne mod en grad; talenter, kundskaber, tilstande, fokus og blodarv.",
    specs=SPECS,
    effect_keys=frozenset(),
    facts={"blodarv": "blodarv", "hjemstat": "hjemstater"},
    pc=PC_STEPS,
    npc=NPC_STEPS,
    pc_options=[
        Option("blodarv", table="blodarv", help="The blodarv (blodarv.toml)."),
        Option("personlighed", table="personligheder", help="The personlighed."),
    ],
    npc_options=[
        Option("template", table="skabeloner", help="The NPC template (skabeloner.toml)."),
        Option("blodarv", table="blodarv", help="The blodarv of every NPC of the batch."),
    ],
    check_options=npcs.check_options,
    check=checks.check_pack,
    sheet=None,
    parts=sheet.PARTS,
    roster=sheet.ROSTER,
)
