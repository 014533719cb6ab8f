"""The recipe (issue 21): every character's command that makes it again.

For random characters of every system (a PC, an NPC of any template, a step alone,
with random choices, locales and rerolls), the recipe in the JSON, read back and run
through the Python API (`chargen.systems.remake`), gives the same character byte for
byte; a batch made one whole (a squad, a band) gives its recipe as the batch's
command, which makes the batch again. Every human format shows the seed and recipe.
"""

from __future__ import annotations

import random

import pytest

from chargen import output
from chargen.encode import compact
from chargen.errors import ChargenError
from chargen.procedure import generate, recipe_of
from chargen.recipe import Recipe, parse
from chargen.systems import load, remake

SYSTEMS = ("matinee", "spelsystemet", "karma", "lef", "savage")
PER_SYSTEM = 1_000
LOCALES = ("sv_SE", "da_DK", "hu_HU", "ja_JP", "en_US")


def _random_options(rng, system, tables, kind):
    """Random values for some of the command's options (batch-wide ones aside)."""
    chosen = {}
    for option in system.options(kind):
        if option.batch or rng.random() < 0.6:
            continue
        if option.table:
            ids = list(tables[option.table].ids)
            value = rng.choice(ids)
        elif option.choices:
            value = rng.choice(option.choices)
        elif option.flag:
            value = True
        elif option.type is int:
            value = rng.randint(option.minimum or 0, option.maximum or 10)
        else:
            continue
        chosen[option.key] = [value] if option.multiple else value
    return chosen


def _commands(system):
    return [("pc", None), ("npc", None)] + [("pc", s.id) for s in system.pc if s.command]


@pytest.mark.parametrize("sid", SYSTEMS)
def test_a_printed_recipe_makes_the_same_character(sid):
    system = load(sid)
    tables = system.tables()
    rng = random.Random(f"recipe {sid}")
    made = tried = 0
    while made < PER_SYSTEM:
        tried += 1
        assert tried < PER_SYSTEM * 5, f"{sid}: too many random choices refused"
        kind, step = rng.choice(_commands(system))
        options = _random_options(rng, system, tables, kind)
        steps = system.steps(kind) if step is None else system.pc
        variants = {rng.choice(steps).id: rng.randint(1, 3)} if rng.random() < 0.3 else None
        locale = rng.choice(LOCALES) if rng.random() < 0.2 else None
        count = rng.choice((1, 1, 4))
        try:
            batch = list(
                generate(
                    system,
                    tables,
                    kind,
                    options,
                    count,
                    rng.randrange(2**40),
                    locale,
                    step=step,
                    variants=variants,
                )
            )
        except ChargenError:
            continue  # choices that cannot go together
        for char in batch:
            text = recipe_of(char)
            assert text.startswith(f"chargen {sid} {step or kind} --seed {char['seed']}")
            again = list(remake(text, tables))
            assert len(again) == 1, text
            if again[0]["name"] != char["name"] and char["name"].startswith(again[0]["name"]):
                again[0]["name"] = char["name"]  # numbered: its template's names ran out
            assert compact(again[0]) == compact(char), f"{text} makes another character"
            made += 1


def test_the_recipe_names_the_options_that_change_the_character():
    system = load("matinee")
    char = next(
        generate(
            system,
            system.tables(),
            "pc",
            {"arketyp": "soldat", "karriar": ["infanterist"]},
            1,
            1234567,
            "en_US",
            variants={"beskrivningsord": 2, "namn": 1},
            tables_given=("my tables",),
        )
    )
    assert list(char)[:7] == ["system", "kind", "template", "seed", "name", "recipe", "version"]
    assert char["recipe"] == (
        "chargen matinee pc --seed 1234567 --arketyp soldat --karriar infanterist "
        "--locale en_US --tables 'my tables' --reroll beskrivningsord=2 --reroll namn"
    )
    assert parse(char["recipe"]) == Recipe(
        "matinee",
        "pc",
        1234567,
        (("arketyp", "soldat"), ("karriar", "infanterist")),
        "en_US",
        ("my tables",),
        (("beskrivningsord", 2), ("namn", 1)),
    )


def test_a_renamed_member_records_its_new_seed_in_its_recipe():
    system = load("matinee")
    tables = system.tables()
    batch = list(generate(system, tables, "npc", {"template": "nekromutant"}, 60, 3))
    renamed = [c for c, n in zip(batch, range(60), strict=True) if n and c["seed"] != _seed(3, n)]
    assert renamed, "no member of the batch was renamed"
    for char in renamed:
        assert f"--seed {char['seed']} " in char["recipe"] + " "
        assert compact(next(remake(char["recipe"], tables))) == compact(char)


def _seed(batch, index):
    from chargen.seeds import character_seed

    return character_seed(batch, index)


@pytest.mark.parametrize(
    ("sid", "options"), [("savage", {"squad": True}), ("karma", {"band": True})]
)
def test_a_batch_made_one_whole_has_the_batch_as_its_recipe(sid, options):
    system = load(sid)
    tables = system.tables()
    batch = list(generate(system, tables, "npc", options, 5, 77))
    recipes = {c["recipe"] for c in batch}
    assert len(recipes) == 1
    (text,) = recipes
    assert text.startswith(f"chargen {sid} npc --seed 77 -n 5 --")
    assert [compact(c) for c in remake(text, tables)] == [compact(c) for c in batch]


@pytest.mark.parametrize("sid", SYSTEMS)
def test_every_human_format_shows_the_seed_and_recipe(sid):
    system = load(sid)
    tables = system.tables()
    labels = tables.labels
    for fmt in ("table", "markdown"):
        (char,) = generate(system, tables, "pc", {}, 1, 4242)
        sheet = "".join(output.render(system, tables, iter([char]), fmt, 1, None, 200))
        assert labels.word("recipe") in sheet and char["recipe"] in sheet
        step = next(s for s in system.pc if s.command)
        (part,) = generate(system, tables, "pc", {}, 1, 4242, step=step.id)
        text = "".join(output.render(system, tables, iter([part]), fmt, 1, step, 200))
        assert part["recipe"] in text
        for width in (80, 200):
            batch = list(generate(system, tables, "npc", {}, 30, 4242))
            roster = "".join(output.render(system, tables, iter(batch), fmt, 30, None, width))
            for char in batch:
                assert str(char["seed"]) in roster, (sid, fmt, width)
            placeholder = f"<{labels.word('seed')}>"
            assert f"{labels.word('remake')}: " in roster
            assert f"chargen {sid} npc --seed {placeholder}" in roster
            if fmt == "table":
                assert max(len(line) for line in roster.splitlines()) <= width


def test_a_recipe_that_cannot_be_read_is_an_error():
    for text in ("matinee pc --seed 1", "chargen matinee pc", "chargen matinee pc --seed x"):
        with pytest.raises(ChargenError):
            parse(text)
    with pytest.raises(ChargenError, match="no option"):
        list(remake("chargen matinee pc --seed 1 --bakgrund munk"))
