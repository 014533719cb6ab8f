"""Savage (document 004): Hungarian Savage Worlds-style Főszereplők and Mellékszereplők.

The document fixes the play rules: a Főszereplő rolls a Vadkocka, bears three
Sebek and has Sorspontok; a Mellékszereplő has no Vadkocka and one Seb takes it
out, unless it is Szívós (the first Seb only makes it Megzavart) or Nagyon szívós
(it bears one Seb); identical Mellékszereplők act as a group on one shared card
and roll one trait die plus a shared d6 wild die; the running die is d6. The
creation budget (five attribute steps, twelve skill points, Hátrányok and what
their points buy, the free Előny of humans) is the Savage Worlds one named in
the design notes, kept with every other number in tables/savage/beallitasok.toml.
chargen decided the rest (docs/savage.md): concepts and eras that weight and shape
the draws, the templates and their varied members, the names.

This file is the game's declaration; the rules are in steps.py (the Főszereplő),
npcs.py (the Mellékszereplők), sheet.py, checks.py (the pack) and rules.py.
"""

from __future__ import annotations

from chargen.procedure import Option, Step, System
from chargen.systems.savage import checks, npcs, sheet, steps
from chargen.systems.savage.rules import EFFECTS
from chargen.tables import Spec

SPECS = {
    "beallitasok": Spec(
        "settings",
        fields={
            "kocka_letra": "list[str]+!",
            "tulajdonsag_kezdo": "str!",
            "tulajdonsag_lepesek": "int[0..100]!",
            "tulajdonsag_max": "str!",
            "kepzettseg_pontok": "int[0..200]!",
            "alap_kepzettseg_kezdo": "str!",
            "kepzettseg_max": "str!",
            "lepes_ar_alatt": "int[0..100]!",
            "lepes_ar_felett": "int[0..100]!",
            "kedvelt_kepzettseg_szorzo": "int[0..1000]!",
            "hatrany_max_pont": "int[0..50]!",
            "hatrany_pont_sulyos": "int[0..50]!",
            "hatrany_pont_enyhe": "int[0..50]!",
            "ar_tulajdonsag": "int[0..50]!",
            "ar_elony": "int[0..50]!",
            "ar_kepzettseg": "int[0..50]!",
            "ar_penz": "int[0..50]!",
            "hatrany_pont_sulyok": "list[int[0..1000]]!",
            "hatrany_koltes_sulyok": "dict[int[0..1000]]!",
            "ingyen_elony": "int[0..20]!",
            "kezdo_rangok": "list[str]+!",
            "kedvelt_elony_szorzo": "int[0..1000]!",
            "mozgas": "int[1..100]!",
            "futaskocka": "str!",
            "futaskocka_min": "str!",
            "haritas_alap": "int[0..100]!",
            "szivossag_alap": "int[0..100]!",
            "vadkocka": "str!",
            "csoport_vadkocka": "str!",
            "sorspont_jatekos": "int[0..100]!",
            "sorspont_vad_npc": "int[0..100]!",
            "sebek_foszereplo": "int[0..100]!",
            "sebek_mellekszereplo": "int[0..100]!",
            "sebbuntetes_max": "int[0..100]!",
            "kezdo_penz": "int[0..1000000000]!",
            "penz_pont_szorzo": "int[0..1000]!",
            "penznem": "str!",
            "bevasarlas": "list[str]+!",
            "fegyvert_vesz": "dict[str]!",
            "mellekszereplo_szoras": "int[0..100]!",
            "mellekszereplo_valtozas_esely": "int[0..1000]!",
            "mellekszereplo_valtozatok": "int[0..10000]!",
            "jelzo_ket_esely": "int[0..100]!",
            "masodik_utonev_esely": "int[0..100]!",
            "kartya_ertekek": "list[str]+!",
            "kartya_szinek": "list[str]+!",
            "jokerek": "int[0..100]!",
        },
    ),
    "alaptulajdonsagok": Spec("definitions"),
    "kepzettsegek": Spec(
        "definitions", fields={"tulajdonsag": "id:alaptulajdonsagok!", "alap": "bool"}
    ),
    "hatranyok": Spec("definitions", fields={"sulyossag": "str!"}),
    "elonyok": Spec(
        "definitions",
        fields={
            "rang": "str!",
            "kell_tulajdonsag": "dict[str]",
            "kell_kepzettseg": "dict[str]",
            "kell_elony": "list[id:elonyok]",
            "arkan_kepzettseg": "id:kepzettsegek",
            "hatalompont": "int[0..1000]",
            "kezdo_hatalmak": "int[0..50]",
        },
    ),
    "hatalmak": Spec(
        "definitions",
        fields={
            "rang": "str!",
            "ar": "int[1..100]!",
            "hatotav": "str!",
            "idotartam": "str!",
            "hatas": "str!",
        },
    ),
    "koncepciok": Spec(
        "definitions",
        fields={
            "korszak": "list[id:korszakok]+!",
            "tulajdonsag_sulyok": "dict[int[0..1000]]!",
            "kepzettseg_sulyok": "dict[int[0..1000]]!",
            "kedvelt_elonyok": "list[id:elonyok]",
            "arkan_hatter": "id:elonyok",
            "kedvelt_hatalmak": "list[id:hatalmak]",
            "kell_tulajdonsag": "dict[str]",
            "kell_kepzettseg": "dict[str]",
            "keszlet": "list[list[id:felszereles]+]",
        },
    ),
    "korszakok": Spec(
        "definitions",
        fields={"penznem": "str", "utonevek_ferfi": "list[str]+", "utonevek_noi": "list[str]+"},
    ),
    "felszereles": Spec(
        "definitions",
        fields={
            "tipus": "str!",
            "ar": "int[0..1000000]!",
            "sebzes": "str",
            "pancel_tores": "int[0..100]",
            "lotav": "str",
            "tgy": "int[0..100]",
            "pancel": "int[0..100]",
            "hely": "list[str]",
            "haritas": "int[0..100]",
            "min_ero": "str",
            "kepzettseg": "id:kepzettsegek",
            "ketkezes": "bool",
            "eleres": "int[1..20]",
            "dobhato": "bool",
            "lovedek_ellen": "int[1..20]",
            "talalat": "int[1..10]",
            "ujratoltes": "int[1..20]",
            "lovesek": "int[1..1000]",
            "korszak": "list[str]!",
        },
    ),
    "mellekszereplok": Spec(
        "definitions",
        fields={
            "alaptulajdonsagok": "dict[str]!",
            "kepzettsegek": "dict[str]!",
            "felszereles": "list[id:felszereles]",
            "elonyok": "list[id:elonyok]",
            "hatranyok": "list[id:hatranyok]",
            "meret": "int[-4..20]",  # SWADE's Sizes, small to huge
            "pancel": "int[0..100]",
            "mozgas": "int[0..100]",
            "futaskocka": "str",
            "szoras": "int[0..100]",
            "szivos": "id:szivos_fokozatok",
            "szemelynev": "bool",
            "kulonleges": "list[str]",
        },
    ),
    "szivos_fokozatok": Spec("definitions", fields={"sebek_max": "int[0..10]!"}),
    "jelzok": Spec("definitions"),
}

PC_STEPS = [
    Step(
        "koncepcio",
        steps.koncepcio,
        fields=("template", "koncepcio", "foszereplo", "rang"),
        lists=("koncepciok",),
        label="Koncepció",
        help="The character concept (--template): it weights the random choices.",
    ),
    Step(
        "korszak",
        steps.korszak,
        fields=("korszak",),
        lists=("korszakok",),
        label="Korszak",
        help="The era (--korszak) among the concept's: it shapes skills, Előnyök and gear.",
        reads=("template",),
    ),
    Step(
        "hatranyok",
        steps.hatranyok,
        fields=("hatranyok", "hatrany_pontok"),
        lists=("hatranyok",),
        label="Hátrányok",
        help="Hátrányok worth at most 4 points in any mix (--hatrany), and what the points buy.",
        # the concept's Mágikus háttér must be paid for; a Hátrány fits concept and era
        reads=("template", "korszak"),
    ),
    Step(
        "alaptulajdonsagok",
        steps.alaptulajdonsagok,
        fields=("alaptulajdonsagok",),
        lists=("alaptulajdonsagok",),
        label="Alaptulajdonságok",
        help="Five attributes from d4 with five steps to spend (cap d12).",
        reads=("template", "hatrany_pontok"),  # the concept's weights, the bought steps
    ),
    Step(
        "kepzettsegek",
        steps.kepzettsegek,
        fields=("kepzettsegek",),
        lists=("kepzettsegek",),
        label="Képzettségek",
        help="Five core skills at d4 and twelve skill points priced by the linked attribute.",
        # the era's skills, none a Hátrány excludes, priced by the linked attribute
        reads=("template", "korszak", "hatranyok", "hatrany_pontok", "alaptulajdonsagok"),
    ),
    Step(
        "elonyok",
        steps.elonyok,
        fields=("elonyok",),
        lists=("elonyok",),
        label="Előnyök",
        help="The free Előny of humans and the bought ones (--elony), requirements met.",
        reads=(
            "template",
            "korszak",
            "hatranyok",
            "hatrany_pontok",
            "alaptulajdonsagok",
            "kepzettsegek",
        ),
    ),
    Step(
        "hatalmak",
        steps.hatalmak,
        fields=("arkan_hatter",),
        lists=("hatalmak",),
        label="Hatalmak",
        help="A Mágikus háttér's arcane skill, Power Points and starting powers.",
        # the concept's favourites; no wounding power beside what excludes it
        reads=("template", "hatranyok", "elonyok"),
    ),
    Step(
        "felszereles",
        steps.felszereles,
        fields=("kezdo_penz", "felszereles", "penz"),
        lists=("felszereles", "korszakok"),
        label="Felszerelés",
        help="Weapons, armour and gear bought with the starting money.",
        reads=(
            "korszak",
            "hatranyok",
            "hatrany_pontok",
            "alaptulajdonsagok",
            "kepzettsegek",
            "elonyok",
        ),
    ),
    Step(
        "szarmaztatott",
        steps.szarmaztatott,
        fields=(
            "mozgas",
            "futaskocka",
            "haritas",
            "pancel",
            "meret",
            "szivossag",
            "vadkocka",
            "sorspont",
            "sebek_max",
            "elviselt_sebek",
            "sebbuntetes_max",
            "szivos",
        ),
        command=False,
        reads=("hatranyok", "alaptulajdonsagok", "kepzettsegek", "elonyok", "felszereles"),
    ),
    Step("nev", steps.nev, fields=("name", "nem"), command=False, naming=True, reads=("korszak",)),
]

NPC_STEPS = [
    Step(
        "sablon",
        npcs.sablon,
        fields=("template", "sablon", "korszak", "squad", "csoport_vadkocka", "akciokartya"),
        command=False,
    ),
    Step(
        "tulajdonsagok",
        npcs.tulajdonsagok,
        fields=(
            "alaptulajdonsagok",
            "kepzettsegek",
            "mozgas",
            "futaskocka",
            "haritas",
            "pancel",
            "meret",
            "szivossag",
        ),
        reads=("template",),
    ),
    Step(
        "felszereles",
        npcs.felszereles,
        fields=("elonyok", "hatranyok", "felszereles", "kulonleges"),
        reads=("template",),
    ),
    Step(
        "szerep",
        npcs.szerep,
        fields=("foszereplo", "vadkocka", "sorspont", "sebek_max", "elviselt_sebek", "szivos"),
        reads=("template",),
    ),
    # a beast's epithets fit its template (jelzok.toml `when = { sablon = ... }`)
    Step("nev", npcs.nev, fields=("name", "nem"), reads=("template", "korszak"), naming=True),
]

SYSTEM = System(
    id="savage",
    foundry="swade",
    where_example="alaptulajdonsagok.ero >= d8 and haritas >= 5",
    name="Savage",
    language="hu",
    locale="hu_HU",
    description="Főszereplők és Mellékszereplők: Vadkocka, Sorspont, Sebek, Szívósság, Hárítás.",
    specs=SPECS,
    effect_keys=frozenset(EFFECTS),
    facts={
        "koncepcio": "koncepciok",
        "korszak": "korszakok",
        "sablon": "mellekszereplok",
        "arkan_hatter": "elonyok",
    },
    pc=PC_STEPS,
    npc=NPC_STEPS,
    pc_options=[
        Option(
            "template",
            table="koncepciok",
            fact="koncepcio",
            help="The character concept (koncepciok.toml).",
        ),
        Option("hatrany", table="hatranyok", multiple=True, help="A Hátrány (repeatable)."),
        Option("elony", table="elonyok", multiple=True, help="An Előny (repeatable)."),
        Option("korszak", table="korszakok", help="The era the character shops in."),
    ],
    npc_options=[
        Option(
            "template",
            table="mellekszereplok",
            fact="sablon",
            help="The template (mellekszereplok.toml).",
        ),
        Option("korszak", table="korszakok", help="The era of the batch (korszakok.toml)."),
        Option(
            "tough",
            table="szivos_fokozatok",
            help="szivos (the first Seb only makes it Megzavart) or nagyon_szivos (bears one Seb).",
        ),
        Option("wild-card", flag=True, help="A Főszereplő NPC: Vadkocka, three Sebek, Sorspont."),
        Option(
            "squad",
            flag=True,
            batch=True,
            help="The batch is one squad of identical Mellékszereplők (needs -n 2 or more).",
        ),
    ],
    check_options=npcs.check_options,
    sheet=sheet.sheet,
    parts=sheet.PARTS,
    labels_table="cimkek",
    batch_sheet=sheet.batch_sheet,
    check=checks.check_pack,
    roster=sheet.ROSTER,
    # Faker's hu_HU lists give 100 x 100 names a gender, a beast one or two epithets
    # before its kind: in a big batch a member finds a free one in up to 48 new name
    # seeds before its space (people, or a creature's template) is numbered
    rename_tries=48,
    # a step alone keeps the era: its prices and bought money are in the era's currency
    step_context=("korszak",),
)
