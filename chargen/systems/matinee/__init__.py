"""Matinee Chronicles (document 000): Mutant Chronicles in Luna City, 2T10 roll-under.

The document fixes the seven creation steps ("hur en rollperson blir skapad"),
the grundegenskaper and the 22 färdigheter, the value range 0-18 with its
Nivåer, Tillgångar and its bands, hjältepoäng and their raise rules, k-marker,
Rykte, Bekanta, Öde, Slås ut på, Konsten and the NPC tiers. Its booklet with
the tables is lost: every table under tables/matinee/ says whether it is
quoted or authored, and every number the code uses comes from regler.toml.
chargen decided the rest (docs/matinee.md, "Decisions where the document is
silent"): a grundegenskap is the count of its T10 showing 6 or more, one
uppväxthändelse from the corporation's table and one from the general one, two or
three karriärer, two beskrivningsord from two categories, a weapon first in the
utrustning, hjältepoäng spent before utrustning, Kunskap kept per inriktning.

Coherence lives in the tables, through the engine's conditions: an arketyp or a
karriär open only to some corporations and arketyper (`when`/`unless`), events
that exclude each other (one cannot lose a father twice), beskrivningsord against
the character's faction or life, items of a corporation, epithets that fit a
creature's body.

This file is the game's declaration; the rules are in steps.py (the player
character), npcs.py (the spelledarpersoner), sheet.py, checks.py (the pack) and
rules.py (the terms and small formulas they share).
"""

from __future__ import annotations

from chargen.procedure import Option, Step, System
from chargen.systems.matinee import checks, npcs, sheet, steps
from chargen.systems.matinee.rules import EFFECT_FIELDS, EFFECT_KEYS, GRUNDEGENSKAPER
from chargen.tables import NAME_SPEC, Spec

SPECS = {
    "regler": Spec(
        "settings",
        fields={
            "hjaltepoang": "int[0..100]!",
            "k_marker": "int[0..100]!",
            "slas_ut_pa_bas": "int[0..100]!",
            "varde_min": "int[0..100]!",
            "varde_max": "int[1..100]!",
            "grundegenskap_tarning": "dice[1..100]!",
            "grundegenskap_traff": "int[1..100]!",
            "uppvaxthandelser_antal": "int[0..20]!",
            "uppvaxt_allman": "table:roll!",
            "karriarer_min": "int[1..20]!",
            "karriarer_max": "int[1..20]!",
            "beskrivningsord_antal": "int[0..20]!",
            "utrustning_max_per_fardighet": "int[0..100]!",
            "utrustning_max_per_foremal": "int[0..100]!",
            "rustning_fardighet": "str!",
            "rustning_vikt": "int[0..1000]!",
            "konsten_max": "int[0..20]!",
            "npc_grundegenskap": "int[0..100]!",
            "npc_fardighet_bas": "int[0..100]!",
            "hojning_kostnad": "int[1..100]!",
            "hojning_grundegenskap_bas": "int[0..100]!",
            "hojning_tarning": "dice[1..1000]!",
            "bioteknik_korporation": "id:megakorporationer!",
        },
        order=(("varde_min", "varde_max"), ("karriarer_min", "karriarer_max")),
    ),
    "regeltext": Spec(
        "settings",
        fields={
            k: "str!"
            for k in (
                "satsa",
                "k_marker",
                "hjaltepoang",
                "bekanta",
                "ode",
                "skada",
                "slas_ut_pa",
                "initiativ",
                "namnlos",
                "namngiven",
                "stridsmanovrar",
                "konsten_sidoeffekt",
                "konsten_teori",
                "korruption",
                "bioteknik",
                "etikett",
                "utrustning",
            )
        },
    ),
    "grundegenskaper": Spec("definitions"),
    "fardigheter": Spec("definitions", fields={"grundegenskap": "id:grundegenskaper!"}),
    "kunskap": Spec("definitions"),
    "stridsmanovrar": Spec(
        "definitions", fields={"fardigheter": "list[id:fardigheter]+!"}, ids=("satsa",)
    ),
    "skada": Spec(
        "definitions", fields={"min": "int[0..1000]!", "modifikation": "int[-100..100]!"}
    ),
    "konsten_grader": Spec("definitions", fields={"skada": "int[0..100]!"}),
    "konsten_varaktighet": Spec("definitions", fields={"skada": "int[0..100]!"}),
    "konsten_rackvidd": Spec("definitions", fields={"skada": "int[0..100]!"}),
    "storlekar": Spec("definitions", fields={"slas_ut_pa": "int[0..100]!"}),
    "epitet": Spec("definitions"),
    "nivaer": Spec("definitions", fields={"niva": "int[0..100]!", "min": "int[0..1000]!"}),
    "tillgangar_band": Spec("definitions", fields={"min": "int[0..1000]!"}),
    "rykte_band": Spec("definitions", fields={"min": "int[0..1000]!"}),
    "sinnesryckning": Spec("definitions", fields={"min": "int[0..1000]!", "description": "text!"}),
    "konsten": Spec("definitions"),
    "megakorporationer": Spec(
        "definitions",
        fields={
            "locales": "list[locale]+!",
            "namntabell": "table:settings",
            "titel": "text",
            "uppvaxt": "table:roll",
        },
    ),
    "namn_*": NAME_SPEC,
    "arketyper": Spec(
        "definitions",
        fields={
            **{g: "int[0..20]!" for g in GRUNDEGENSKAPER},
            "tillgangar": "dice[0..100]!",
            "konsten": "str",
            "kunskap": "dict[int[0..20]]",
            "vapen": "list[str]",
        },
    ),
    "karriarer": Spec(
        "definitions",
        fields={
            "handelser": "table:roll!",
            "kunskap": "dict[int[0..20]]",
        },
    ),
    "karriarhandelser_*": Spec("roll", fields={"kontakt": "str", "kunskap": "dict[int[0..20]]"}),
    "uppvaxthandelser": Spec("roll", fields={"kontakt": "str", "kunskap": "dict[int[0..20]]"}),
    "uppvaxthandelser_*": Spec("roll", fields={"kontakt": "str", "kunskap": "dict[int[0..20]]"}),
    "beskrivningsord_kategorier": Spec("definitions"),
    "beskrivningsord_*": Spec("definitions"),
    "utrustning_*": Spec(
        "definitions",
        fields={
            "stridsmanovrar": "list[id:stridsmanovrar]",
        },
    ),
    "hojningar": Spec("definitions", fields={"kostnad": "int[1..100]"}),
    "mallar": Spec(
        "definitions",
        fields={
            "storlek": "id:storlekar!",
            "slas_ut_pa": "int[0..100]",
            "manniska": "bool",
            "utrustning": "int[0..20]",
            "apostel": "str",
            "korruption": "int[0..100]",
            "korruptionsvarde": "int[0..100]",
            "vapen": "list[str]",
        },
    ),
}

# What the arketyp, the events and the karriärer change: a row's effects add to the
# values there (so they read them too), its contacts join the kontakter.
CHANGED = (*EFFECT_FIELDS, "kontakter")

PC_STEPS = [
    Step(
        "megakorporation",
        steps.megakorporation,
        fields=("megakorporation", "megakorporation_namn"),
        lists=("megakorporationer",),
        label="Megakorporation",
        help="Step 1: the megakorporation (--megakorporation).",
    ),
    # the name early: a step alone (`chargen matinee arketyp -n 5`) shows who it is
    Step(
        "namn",
        steps.namn,
        fields=("name", "kon"),
        command=False,
        reads=("megakorporation",),  # the corporation's names and title
        naming=True,
    ),
    Step(
        "hjaltepoang",
        steps.hjaltepoang,
        fields=("hjaltepoang", "k_marker"),
        lists=("regler",),
        label="Hjältepoäng",
        help="Step 2: two hjältepoäng (and five k-marker).",
    ),
    Step(
        "arketyp",
        steps.arketyp,
        fields=("arketyp", "arketyp_namn", *CHANGED),
        lists=("arketyper",),
        label="Arketyp",
        help="Step 3: the arketyp (--arketyp): T10 per grundegenskap, Tillgångar.",
        reads=("megakorporation", "k_marker"),  # arketyper open to it; effects on k-marker
    ),
    Step(
        "uppvaxthandelser",
        steps.uppvaxthandelser,
        fields=("uppvaxthandelser", *CHANGED),
        lists=("uppvaxthandelser*",),
        label="Uppväxthändelser",
        help="Step 4: two uppväxthändelser, effects applied.",
        reads=("megakorporation", *CHANGED),  # its own table first
    ),
    Step(
        "karriarer",
        steps.karriarer,
        fields=("karriarer", *CHANGED),
        lists=("karriarer", "karriarhandelser_*"),
        label="Karriärer",
        help="Step 5: two or three karriärer (--karriar), each with a karriärhändelse.",
        reads=("megakorporation", "arketyp", *CHANGED),  # the karriärer open to them
    ),
    Step(
        "beskrivningsord",
        steps.beskrivningsord,
        fields=("beskrivningsord",),
        lists=("beskrivningsord_*",),
        label="Beskrivningsord",
        help="Step 6: two different beskrivningsord.",
        # none against the corporation, the arketyp (direktör), a karriär (spion) or
        # the character's means (Tillgångar's band)
        reads=("megakorporation", "arketyp", "karriarer", "tillgangar"),
    ),
    Step(
        "spendera",
        steps.spendera_hjaltepoang,
        fields=(
            "hjaltepoang",
            "hojningar",
            "bekanta",
            "kontakter",
            "grundegenskaper",
            "fardigheter",
            "tillgangar",
        ),
        command=False,
        # what a raise can still lift; a Bekant of the arketyp or a karriär
        reads=(
            "hjaltepoang",
            "grundegenskaper",
            "fardigheter",
            "tillgangar",
            "arketyp_namn",
            "karriarer",
            "kontakter",
        ),
    ),
    Step(
        "utrustning",
        steps.utrustning,
        fields=("utrustning",),
        lists=("utrustning_*",),
        label="Utrustning",
        help="Step 7: half of Tillgångar (rounded up) in item bonuses.",
        # the budget, the best vapenfärdighet, the arketyp's own weapon, items open to both
        reads=("tillgangar", "fardigheter", "arketyp", "megakorporation"),
    ),
    Step(
        "foremal",
        steps.foremal,
        fields=("utrustning", "hojningar"),
        command=False,
        reads=("hojningar", "utrustning", "tillgangar"),  # the föremål raises paid for
    ),
    Step(
        "harledda",
        steps.harledda,
        fields=(
            "rykte",
            "rykte_band",
            "bekanta_max",
            "ode_max",
            "rustningsbonus",
            "slas_ut_pa",
            "nivaer",
            "tillgangar_niva",
            "tillgangar_band",
            "initiativ",
            "sinnesryckning",
            "bioteknik_mycket_svart",
            "konsten",
        ),
        command=False,
        reads=(
            "grundegenskaper",
            "fardigheter",
            "tillgangar",
            "korruption",
            "utrustning",
            "megakorporation",
            "arketyp",
        ),
    ),
]
PC_STEPS = [
    s._replace(roster=sheet.STEP_ROSTERS[s.id]) if s.id in sheet.STEP_ROSTERS else s
    for s in PC_STEPS
]

# What a template fixes (npcs.plan): the same for every NPC of it.
TEMPLATE_FIELDS = (
    "template",
    "mall",
    "grundegenskaper",
    "fardigheter",
    "slas_ut_pa",
    "initiativ",
    "storlek",
    "apostel",
    "korruption",
    "korruptionsvarde",
    "vapen",
    "sinnesryckning",
    "beskrivning",
)

NPC_STEPS = [
    Step("mall", npcs.mall, fields=TEMPLATE_FIELDS, command=False),
    Step(
        "megakorporation",
        npcs.megakorporation,
        fields=("megakorporation", "megakorporation_namn"),
        reads=("template",),  # humans only
    ),
    Step(
        "utrustning",
        npcs.utrustning,
        fields=("utrustning",),
        reads=("template", "megakorporation"),  # how many items; those open to it
    ),
    Step(
        "namn",
        npcs.namn,
        fields=("name", "kon", "epitet"),
        reads=("template", "mall", "megakorporation"),  # a person's style, a creature's kind
        naming=True,
    ),
]

SYSTEM = System(
    id="matinee",
    foundry="worldbuilding",
    where_example="slas_ut_pa >= 11 and initiativ >= 10",
    name="Matinee Chronicles",
    language="sv",
    locale="sv_SE",
    description="Mutant Chronicles i Luna City: 2T10 slag under, hjältepoäng och beskrivningsord.",
    specs=SPECS,
    effect_keys=EFFECT_KEYS,
    facts={
        "megakorporation": "megakorporationer",
        "arketyp": "arketyper",
        "template": "mallar",
        # how well off the character is when the beskrivningsord are drawn (no one rich
        # "föraktar de rika"): set by the beskrivningsord step
        "tillgangar_band": "tillgangar_band",
    },
    pc=PC_STEPS,
    npc=NPC_STEPS,
    pc_options=[
        Option("megakorporation", table="megakorporationer", help="The megakorporation (step 1)."),
        Option(
            "arketyp", table="arketyper", help="The arketyp (step 3), if open to the corporation."
        ),
        Option(
            "karriar",
            table="karriarer",
            multiple=True,
            help="A karriär (step 5, repeatable: 2 or 3).",
        ),
        Option(
            "spend-hjaltepoang",
            flag=True,
            help="Spend the two hjältepoäng on a raise during creation.",
        ),
    ],
    npc_options=[
        Option("template", table="mallar", help="The NPC template (mallar.toml)."),
        Option("megakorporation", table="megakorporationer", help="The corporation of human NPCs."),
    ],
    check_options=npcs.check_options,
    sheet=None,
    parts=sheet.PARTS,
    check=checks.check_pack,
    roster=sheet.ROSTER,
)
