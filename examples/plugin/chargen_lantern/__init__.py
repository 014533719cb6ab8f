"""Lantern: a small lamplit dungeon game, the example of a game added to chargen as a plugin.

A delver has three abilities (Might, Grace, Wits: 3d6 each, a roll of d20 at or under one
succeeds), a background that gives a skill and an item, two more items, and Guard (1d6,
the Might bonus, armour). Below wait guards, bandits, cultists, wolves and ogres.

This file is the game's declaration: its tables' specs, its steps in order, its options
and its sheet. The rules are in steps.py (a delver), npcs.py (the templates), sheet.py,
checks.py and rules.py; the content is in tables/. The package's pyproject.toml names it
in the entry-point group `chargen.systems`, and that is all chargen needs to find it.
"""

from __future__ import annotations

from pathlib import Path

from chargen.procedure import Option, Step, System
from chargen.tables import NAME_SPEC, Spec
from chargen_lantern import checks, npcs, sheet, steps

SPECS = {
    "rules": Spec(
        "settings",
        fields={
            "ability_dice": "dice[1..20]!",
            "guard_dice": "dice[1..20]!",
            "bonus_from": "int[1..20]!",
            "bonus_twice_from": "int[1..21]!",
            "gear_count": "int[0..5]!",
            "name_table": "table:names*!",
        },
        order=(("bonus_from", "bonus_twice_from"),),
    ),
    "backgrounds": Spec("definitions", fields={"skill": "str!", "item": "id:gear!"}),
    "gear": Spec(
        "definitions",
        fields={
            "kind": "one:weapon|armour|tool!",
            "damage": "dice[1..20]",
            "guard": "int[1..5]",
        },
    ),
    "templates": Spec(
        "definitions",
        fields={
            "abilities": "dict[str]{might,grace,wits}!",
            "guard": "int[1..30]!",
            "gear": "list[id:gear]!",
            "creature": "bool",
        },
    ),
    "epithets": Spec("definitions"),
    "names": NAME_SPEC,
}

PC_STEPS = [
    Step("name", steps.name, fields=("name", "gender"), command=False, naming=True),
    Step(
        "abilities",
        steps.abilities,
        fields=("abilities",),
        lists=("rules",),
        label="Abilities",
        help="Might, Grace and Wits, 3d6 each.",
    ),
    Step(
        "background",
        steps.background,
        fields=("background", "background_name", "skill"),
        lists=("backgrounds",),
        label="Background",
        help="What the delver did before (--background): a skill and an item.",
    ),
    Step(
        "gear",
        steps.gear,
        fields=("gear",),
        lists=("gear",),
        label="Gear",
        help="The background's item and two more, one armour at most.",
        reads=("background",),
    ),
    Step(
        "guard",
        steps.guard,
        fields=("guard",),
        lists=("rules",),
        label="Guard",
        help="1d6, the Might bonus and armour.",
        reads=("abilities", "gear"),
    ),
]

NPC_STEPS = [
    Step("template", npcs.template, fields=("template", "template_name")),
    Step("abilities", npcs.abilities, fields=("abilities",), reads=("template",)),
    Step("gear", npcs.gear, fields=("gear",), reads=("template",)),
    Step("guard", npcs.guard, fields=("guard",), reads=("template", "gear")),
    Step(
        "name",
        npcs.name,
        fields=("name", "gender"),
        reads=("template", "template_name"),
        naming=True,
    ),
]

SYSTEM = System(
    id="lantern",
    name="Lantern",
    language="en",
    locale="en_GB",
    description="a small lamplit dungeon game (chargen's plugin example)",
    specs=SPECS,
    effect_keys=frozenset(),
    pc=PC_STEPS,
    npc=NPC_STEPS,
    pc_options=[
        Option("background", table="backgrounds", help="The background (backgrounds.toml).")
    ],
    npc_options=[Option("template", table="templates", help="The NPC template (templates.toml).")],
    sheet=sheet.sheet,
    parts=sheet.PARTS,
    check=checks.check_pack,
    roster=sheet.ROSTER,
    labels_table="labels",
    where_example="abilities.might >= 13 and guard >= 4",
    foundry="worldbuilding",  # its mapping: worldbuilding.toml, beside tables/
    tables_root=Path(__file__).resolve().parent / "tables",
)
