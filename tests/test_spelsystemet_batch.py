"""Spelsystemet's batches: what a batch works out once must decide exactly as the rules.

A batch works out once, through `Context.memo`, what its tables fix (a species' dice, the
skills of a genre, a yrke's skills, weapons and kits in a genre, a weapon's row for a
Grundskada, a kit's armour); the artmaximum, KP and armour it hands out are one object
shared by the members that have them. tests/test_batch.py holds every member of a batch
to itself made alone; these tests hold the pieces to the rules they stand for: an NPC's
dice roll what `Dice.roll` rolls, a skill rises within its cap as the document says, a
<klass> skill takes a specification not already held, no member changes what it
shares, and the batch follows the pack in use.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from conftest import make, run
from hypothesis import given, settings
from hypothesis import strategies as st

from chargen.dice import parse
from chargen.encode import compact
from chargen.errors import ChargenError
from chargen.procedure import generate
from chargen.systems import load
from chargen.systems.spelsystemet import rules, steps
from chargen.tables import builtin_root

SYSTEM = load("spelsystemet")
TABLES = SYSTEM.tables()
RULES = TABLES["regler"].settings


# -- dice ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "expression",
    ["3T6", "1T6+2", "1T4+12", "2T6+6", "4T6+8", "4T6-2", "1T6-3", "T20", "2k6", "d%"]
    + ["1d4+2d6", "2d6-1d4+3", "d6!", "2T6!+1", "4d6kh3", "2d20kl1", "d66", "T66"],
)
@pytest.mark.parametrize("seed", range(40))
def test_an_npcs_roller_gives_dice_roll_totals_from_the_same_numbers(expression, seed):
    engine = random.Random(seed)
    expected = parse(expression).roll(engine).total
    following = engine.random()  # the stream after the roll
    rng = random.Random(seed)
    assert rules.roller(expression)(rng.random) == expected
    assert rng.random() == following


@given(st.integers(1, 12), st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20, 100]), st.integers(-9, 20))
@settings(max_examples=200)
def test_rollers_of_any_plain_dice(count, sides, modifier):
    expression = f"{count}T{sides}{modifier:+d}" if modifier else f"{count}T{sides}"
    for seed in range(5):
        assert (
            rules.roller(expression)(random.Random(seed).random)
            == parse(expression).roll(random.Random(seed)).total
        )


# -- raising skills ---------------------------------------------------------------------


def _genre_skills(genre_id: str) -> dict:
    from chargen.procedure import Context

    return steps.genre_skills(Context(SYSTEM, TABLES, "npc"), genre_id)


@pytest.mark.parametrize("genre_id", ["fantasy", "modern", "framtid"])
def test_a_raise_stays_within_the_caps_and_keeps_the_sheet_whole(genre_id):
    """Random walks through every skill, open here or not, and specifications: a raise
    is min(start + amount, cap), never below min(start, cap) ("Studier": 15 but for
    kunskap; <Stridskonst> never above Närkamp); a skill closed in the genre is a fault;
    the values, names and groups always hold the same keys."""
    fixed = _genre_skills(genre_id)
    every = [s["id"] for s in TABLES["fardigheter"].entries]
    tongues = ["Svenska", "Alviska", "Trollmål", "Engelska"]
    raised = refused = 0
    for seed in range(150):
        walk = random.Random(seed)
        base_values, base_labels, base_groups = fixed["base"]
        values, labels = base_values.copy(), base_labels.copy()
        groups = {g: keys.copy() for g, keys in base_groups.items()}
        rng = random.Random(seed * 7)
        for _step in range(25):
            skill = fixed["skills"][walk.choice(every)]
            amount = walk.randint(-3, 14)
            chosen = None
            if skill.id == "sprak" and walk.random() < 0.5:
                chosen = skill.specified(walk.choice(tongues))
            before = dict(values)
            heard: list[dict] = []
            try:
                key = rules.raise_skill(
                    values, labels, groups, skill, amount, rng.random, chosen,
                    lambda _heard=heard, **event: _heard.append(event), "fritid",
                )  # fmt: skip
            except ChargenError as exc:
                assert not skill.open and "does not exist in the genre" in str(exc)
                assert values == before
                refused += 1
                continue
            raised += 1
            [event] = heard  # a player character's historik hears each raise
            assert (event["fardighet"], event["for"]) == (key, "fritid")
            start, value = event["fran"], event["till"]
            cap = RULES["tak"][skill.grupp]
            if skill.narkamp:
                cap = min(cap, before.get("narkamp", 0))
            assert start == before.get(key, skill.bas)
            assert value == max(min(start + amount, cap), min(start, cap))
            assert values[key] == value
            assert {k: v for k, v in values.items() if k != key} == {
                k: v for k, v in before.items() if k != key
            }
        assert set(values) == set(labels) == {k for keys in groups.values() for k in keys}
        for key, value in values.items():
            group = next(g for g, keys in groups.items() if key in keys)
            assert value <= RULES["tak"][group]
            if key.startswith("stridskonst"):
                assert value <= values.get("narkamp", 0)
    assert raised and (refused or all(s.open for s in fixed["skills"].values()))


@pytest.mark.parametrize("genre_id", ["fantasy", "modern", "framtid"])
def test_a_klass_skill_takes_a_specification_not_already_held(genre_id):
    # "Spela <Instrument>" raised as often as the genre has instruments: each one once,
    # then any again
    fixed = _genre_skills(genre_id)
    genre = TABLES["genrer"].get(genre_id)
    klass = [s for s in TABLES["fardigheter"].entries if s.get("klass")]
    klass = [s for s in klass if fixed["skills"][s["id"]].open]
    assert len(klass) >= 5
    for entry in klass:
        skill = fixed["skills"][entry["id"]]
        options = genre[entry["klass"]]
        prefix = entry.get("namn_per_genre", {}).get(genre_id) or entry.get("prefix", "")
        # a `gemen` skill writes its specification in lower case after the verb ("Spela luta")
        shown = [o[:1].lower() + o[1:] if prefix and entry.get("gemen") else o for o in options]
        named = {
            f"{entry['id']}_{rules.slug(o)}": f"{prefix} {w}".strip()
            for o, w in zip(options, shown, strict=True)
        }
        for seed in range(20):
            values, labels, groups = {"narkamp": 15}, {}, {}
            rng = random.Random(seed)
            keys = [
                rules.raise_skill(values, labels, groups, skill, 1, rng.random)
                for _ in range(len(options))
            ]
            if len(set(options)) == len(options):
                assert sorted(keys) == sorted(named), entry["id"]
            assert set(keys) <= set(named)
            assert all(labels[k] == named[k] for k in keys)


# -- the NPC and the procedure ----------------------------------------------------------


def test_an_npc_walks_the_player_characters_steps_but_its_template_species_and_yrke():
    """One procedure: an NPC's steps are the player character's own functions, but for
    the template, the species (drawn, never asked: NPCs have no --art) and the yrke
    (the template's); its name last."""
    pc = {s.id: s.run for s in SYSTEM.pc}
    own = {"mall", "art", "yrke"}
    for step in SYSTEM.npc_steps():
        if step.id not in own:
            assert step.run is pc[step.id], step.id
    assert [s.id for s in SYSTEM.npc_steps()][-1] == "namn"
    assert {s.id for s in SYSTEM.npc_steps()} - own <= set(pc)


def test_no_member_changes_what_it_shares():
    """The artmaximum, KP and armour of a batch are one object per kind for every member
    that has it: the text of each member, taken when it is made, is its text at the end."""
    made = []
    texts = []
    for char in generate(SYSTEM, TABLES, "npc", {}, 1500, 12):
        made.append(char)
        texts.append(compact(char))
    assert [compact(c) for c in made] == texts
    kept = {id(c[k]) for c in made for k in ("artmaximum", "kp", "rustning", "skydd")}
    assert len(kept) < 200  # shared, not one each
    pcs = list(generate(SYSTEM, TABLES, "pc", {}, 200, 12))
    assert len({id(c["skydd"]) for c in pcs}) < 50


def test_a_batch_follows_the_pack_in_use(tmp_path):
    pack = tmp_path / "spelsystemet"
    pack.mkdir()
    source = builtin_root() / "spelsystemet" / "narstridsvapen.toml"
    text = source.read_text(encoding="utf-8")
    text, found = re.subn(r'skada = "Grund-3\*"', 'skada = "Grund+1"', text, count=1)
    assert found
    (pack / "narstridsvapen.toml").write_text(text, encoding="utf-8")
    ladder = RULES["skadestege"]
    tables = SYSTEM.tables([tmp_path])
    for char in generate(SYSTEM, tables, "npc", {}, 60, 8):
        unarmed = char["vapen"][0]
        assert unarmed["id"] == "obevapnad" and unarmed["skada"] == "Grund+1"
        # a martial artist's Grund-2 is below this Grund+1: unchanged, and said so
        assert unarmed["faktisk_skada"] == ladder[ladder.index(char["grundskada"]) + 1]
        assert unarmed.get("stridskonst_oforandrad", True)
    for char in make("spelsystemet", "npc", count=60, seed=8):
        assert char["vapen"][0]["skada"] == "Grund-3*"


def test_npc_interactive_asks_for_template_and_genre_and_the_batch_keeps_them():
    result = run(
        "spelsystemet", "npc", "-n", "3", "--interactive", "--seed", "1", "-f", "jsonl",
        input="vakt\nmodern\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    npcs = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(c["template"], c["genre"], c["yrke"]) for c in npcs] == [
        ("vakt", "modern", "sakerhetsvakt")
    ] * 3
    assert "Mall:" in result.stderr and "Genre:" in result.stderr
