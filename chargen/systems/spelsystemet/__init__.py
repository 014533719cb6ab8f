"""Spelsystemet (document 001): a generic T20 roll-under system for many worlds.

The document fixes the grundegenskaper HÄL, KRA, SKI, STO and STY (3T6 for
humans), artmaximum (the highest plus the lowest roll of the species' dice),
LP = (HÄL + STO) / 2 and Snabbhet = (SKI + STY) / 4, always rounded up,
Grundskada and the damage steps of weapons ("Grund+2"), the skill groups with
their caps, the <klass> skills, the off-hand skill at 1, and the weapon and
armour tables with their notes. Its Grundskada and KP tables are lost and its
chapter "Rollpersonen" is empty: the readings chargen uses (SYSTEMS.md) live in
tables/spelsystemet/regler.toml and kroppsdelar.toml, and a character's skills
and kit come from an authored yrke that fits a genre (docs/spelsystemet.md).

This file is the game's declaration; the rules are in steps.py (the player
character's procedure, which NPCs walk too), npcs.py (the templates), sheet.py,
checks.py (the pack) and rules.py (the formulas and tables' rules).
"""

from __future__ import annotations

from chargen.procedure import Option, Step, System
from chargen.systems.spelsystemet import checks, npcs, sheet, steps
from chargen.systems.spelsystemet.rules import KLASS_FIELDS
from chargen.tables import NAME_SPEC, Spec

SPECS = {
    "regler": Spec(
        "settings",
        fields={
            "skadestege": "list[dice[0..1000]]+!",
            "grundskada_grans": "list[int[0..1000]]+!",
            "minsta_skada": "dice[1..100]!",
            "stjarna_minst": "dice[1..100]!",
            "dubbelstjarna_hogst": "dice[1..100]!",
            "lp_delare": "int[1..100]!",
            "snabbhet_delare": "int[1..100]!",
            "tak": "dict[int[1..100]]{vanliga,kunskap,strid,yrke}!",
            "fel_hand": "int[0..100]!",
            "modersmal": "dice[0..100]!",
            "fritid_antal": "int[0..20]!",
            "fritid_varde": "dice[0..100]!",
            "trotthet_grund": "int[0..100]!",
            "tungt_pansar_hsp": "int[0..100]!",
            "tungt_pansar_delar": "int[0..100]!",
            "hjalm_hsp": "int[0..100]!",
            "gemensamt_sprak_varde": "dice[10..100]!",
            "stridskonst_skada": "re:^Grund[+-][0-9]+$!",
        },
    ),
    "kroppsdelar": Spec(
        "definitions",
        fields={
            "taljare": "int[1..100]!",
            "namnare": "int[1..100]!",
            "rustning": "str!",
            "vital": "bool",
        },
    ),
    "arter": Spec(
        "definitions",
        fields={
            "tarningar": "dict[dice[0..100]]{hal,kra,ski,sto,sty}!",
            "genrer": "list[id:genrer]+!",
            "modersmal": "str",
            "namntabeller": "dict[table:namn_*]",
        },
    ),
    "genrer": Spec(
        "definitions",
        fields={
            "modersmal": "list[str]+!",
            "gemensamt_sprak": "str",
            **{k: "list[str]+!" for k in KLASS_FIELDS},
            "narstridsvapen": "list[id:narstridsvapen]!",
            "avstandsvapen": "list[id:avstandsvapen]!",
            "rustningar": "list[id:rustningar]!",
            "hjalmar": "list[id:hjalmar]!",
        },
    ),
    "fardigheter": Spec(
        "definitions",
        fields={
            "grupp": "str!",
            "bas": "int[0..100]!",
            "klass": "str",
            "prefix": "str",
            "namn_per_genre": "dict[str]",
            "genrer": "list[id:genrer]",
            "gemen": "bool",
        },
    ),
    "narstridsvapen": Spec(
        "definitions",
        fields={
            "skada": "str!",
            "typ": "one:Hugg|Kross|Stick!",
            "langd": "int[0..100]!",
            "grepp": "str",
            "fardighet": "id:fardigheter!",
            "som": "id:narstridsvapen",
            "fel_hand": "bool",
            "min_sto": "int[0..100]",
            "min_sty": "int[0..100]",
            "anmarkning": "str",
            "tabellnamn": "str",
        },
    ),
    "avstandsvapen": Spec(
        "definitions",
        fields={
            "skada": "str!",
            "typ": "one:Hugg|Kross|Stick!",
            "eldhastighet": "str!",
            "skottvidd": "re:^(\\d{1,5}|STY)$!",
            "fardighet": "id:fardigheter!",
            "min_sto": "int[0..100]",
            "min_sty": "int[0..100]",
            "anmarkning": "str",
            "tabellnamn": "str",
        },
    ),
    "rustningar": Spec(
        "definitions",
        fields={
            "sp": "dict[int[0..100]]{h,k,s}!",
            "sp_laser": "int[0..100]",
            "under": "bool",
            "med_hjalm": "bool",
            "anmarkning": "str",
            "tabellnamn": "str",
        },
    ),
    "hjalmar": Spec(
        "definitions",
        fields={"sp": "dict[int[0..100]]{h,k,s}!", "anmarkning": "str", "tabellnamn": "str"},
    ),
    "rustningspaket": Spec(
        "definitions",
        fields={
            "genrer": "list[id:genrer]+!",
            "delar": "dict[id:rustningar]!",
            "under": "dict[id:rustningar]",
            "hjalm": "id:hjalmar",
        },
    ),
    "yrken": Spec(
        "definitions",
        fields={
            "genrer": "list[id:genrer]+!",
            "fardigheter": "dict[dice[0..100]]!",
            "vapenfardighet": "dice[0..100]!",
            "narstridsvapen": "list[id:narstridsvapen]!",
            "avstandsvapen": "list[id:avstandsvapen]!",
            "skold": "bool",
            "rustningspaket": "list[id:rustningspaket]+!",
            "specifikationer": "dict[list[str]]",
            "narstridsvapen_per_genre": "dict[list[id:narstridsvapen]]",
            "avstandsvapen_per_genre": "dict[list[id:avstandsvapen]]",
            "namn_per_genre": "dict[str]",
        },
    ),
    # a template has a yrke (every yrke exists in some genre), so it has a genre
    "mallar": Spec(
        "definitions", fields={"yrken": "list[id:yrken]+!", "namn_per_genre": "dict[str]"}
    ),
    "namn_*": NAME_SPEC,
}

SKILLS = ("fardigheter", "fardighetsnamn", "fardighetsgrupper")
YRKE = ("yrke", "yrke_namn", "modersmal", "gemensamt_sprak", *SKILLS)
# the vapen step raises the skills of the weapons it draws and adds wrong-hand skills
VAPEN = ("vapen", *SKILLS)
RUSTNING = ("rustningspaket", "rustning", "skydd", "trotthetsslag")

PC_STEPS = [
    Step(
        "genre",
        steps.genre,
        fields=("genre", "genre_namn"),
        lists=("genrer",),
        label="Genre",
        help="The genre (--genre): fantasy, modern tid or framtid.",
        roster=sheet.GENRE_ROSTER,
    ),
    Step(
        "art",
        steps.art,
        fields=("art", "art_namn"),
        lists=("arter",),
        label="Art",
        help="The species (--art; människa by default) and its dice.",
        reads=("genre",),
        roster=sheet.ART_ROSTER,
    ),
    Step(
        "namn",
        steps.namn,
        fields=("name", "kon"),
        command=False,
        reads=("genre", "art"),  # the species' name table of the genre
        naming=True,
    ),
    Step(
        "grundegenskaper",
        steps.grundegenskaper,
        fields=("grundegenskaper", "artmaximum"),
        lists=("arter",),
        label="Grundegenskaper",
        help="HÄL, KRA, SKI, STO and STY on the species' dice, with artmaximum.",
        reads=("art",),
        roster=sheet.GRUNDEGENSKAPER_ROSTER,
    ),
    Step(
        "beraknade",
        steps.beraknade,
        fields=("lp", "snabbhet", "grundskada", "kp"),
        lists=("regler", "kroppsdelar"),
        label="Beräknade egenskaper",
        help="LP, Snabbhet, Grundskada and KP per body part.",
        reads=("grundegenskaper",),
        roster=sheet.BERAKNADE_ROSTER,
    ),
    Step(
        "yrke",
        steps.yrke,
        fields=YRKE,
        lists=("yrken",),
        label="Yrke",
        help="The yrke (--yrke) and the skills it gives, by group, within the caps.",
        reads=("genre", "art"),  # the yrken of the genre; the species' mother tongue
        roster=sheet.YRKE_ROSTER,
    ),
    Step(
        "vapen",
        steps.vapen,
        fields=VAPEN,
        lists=("narstridsvapen", "avstandsvapen"),
        label="Vapen",
        help="Weapons from the document's tables with their actual damage.",
        # the yrke's weapons in the genre, within STO and STY; Grundskada; the skills
        reads=("genre", "grundegenskaper", "grundskada", "yrke", *SKILLS),
        roster=sheet.VAPEN_ROSTER,
    ),
    Step(
        "rustning",
        steps.rustning,
        fields=RUSTNING,
        lists=("rustningar", "hjalmar", "rustningspaket"),
        label="Rustning",
        help="Armour and helmet per body part, SP H/K/S and fatigue rolls.",
        reads=("genre", "yrke"),  # the yrke's kits in the genre
        roster=sheet.RUSTNING_ROSTER,
    ),
]

# The same procedure for a template, the name last (as late as it can be: it reads only
# the genre and the species); a member whose name is taken draws its name again.
NPC_STEPS = [
    Step("mall", npcs.mall, fields=("template",), command=False),
    Step("genre", steps.genre, fields=("genre", "genre_namn"), reads=("template",)),
    Step("art", npcs.art, fields=("art", "art_namn"), reads=("genre",)),
    Step(
        "grundegenskaper",
        steps.grundegenskaper,
        fields=("grundegenskaper", "artmaximum"),
        reads=("art",),
    ),
    Step(
        "beraknade",
        steps.beraknade,
        fields=("lp", "snabbhet", "grundskada", "kp"),
        reads=("grundegenskaper",),
    ),
    Step("yrke", npcs.yrke, fields=("mall_namn", *YRKE), reads=("template", "genre", "art")),
    Step(
        "vapen",
        steps.vapen,
        fields=VAPEN,
        reads=("genre", "grundegenskaper", "grundskada", "yrke", *SKILLS),
    ),
    Step("rustning", steps.rustning, fields=RUSTNING, reads=("genre", "yrke")),
    Step("namn", steps.namn, fields=("name", "kon"), reads=("genre", "art"), naming=True),
]

SYSTEM = System(
    id="spelsystemet",
    foundry="brp",
    where_example='grundegenskaper.sto >= 14 and genre == "fantasy"',
    name="Spelsystemet",
    language="sv",
    locale="sv_SE",
    description="T20 slag under: HÄL KRA SKI STO STY, LP, KP, Grundskada, vapen och rustning.",
    specs=SPECS,
    effect_keys=frozenset(),
    pc=PC_STEPS,
    npc=NPC_STEPS,
    pc_options=[
        Option("genre", table="genrer", help="The genre (genrer.toml)."),
        Option("art", table="arter", help="The species (arter.toml); människa by default."),
        Option("yrke", table="yrken", help="The yrke (yrken.toml); it must exist in the genre."),
    ],
    npc_options=[
        Option("template", table="mallar", help="The NPC template (mallar.toml)."),
        Option("genre", table="genrer", help="The genre (genrer.toml)."),
    ],
    check_options=npcs.check_options,
    sheet=sheet.sheet,
    parts=sheet.PARTS,
    check=checks.check_pack,
    roster=sheet.ROSTER,
)
