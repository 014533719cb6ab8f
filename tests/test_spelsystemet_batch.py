"""Spelsystemet's batch path: what it precomputes per batch must draw and decide exactly
as the engine and the procedure's full rules would.

NPCs skip ctx.roll, ctx.choose and the historik and read their tables through per-batch
plans (pools with cumulative weights, parsed dice, skills per genre, weapons per yrke,
armour per kit). These tests hold each shortcut to what it replaces: `Dice.roll`,
`Table.pick` / `Table.draw`, the full raise of `_Sheet.add`, and the procedure's steps;
that NPCs of one batch share no mutable object; and that plans follow the pack in use.
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
from chargen.errors import ChargenError
from chargen.procedure import Context, Step, generate, make_character
from chargen.seeds import character_seed
from chargen.systems import load
from chargen.systems import spelsystemet as ss
from chargen.tables import Pool, builtin_root

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
def test_rollers_give_dice_roll_totals_from_the_same_numbers(expression, seed):
    engine = random.Random(seed)
    expected = parse(expression).roll(engine).total
    following = engine.random()  # the stream after the roll
    rng = random.Random(seed)
    assert ss._roller(expression)(rng.random) == expected
    assert rng.random() == following
    text, sides, base, fast = ss._dice(expression)
    assert text == expression
    rng = random.Random(seed)
    total = base + int(rng.random() * sides) if sides else fast(rng.random)  # as NPCs roll
    assert total == expected
    assert rng.random() == following


@given(st.integers(1, 12), st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20, 100]), st.integers(-9, 20))
@settings(max_examples=200)
def test_rollers_of_any_plain_dice(count, sides, modifier):
    expression = f"{count}T{sides}{modifier:+d}" if modifier else f"{count}T{sides}"
    for seed in range(5):
        assert (
            ss._roller(expression)(random.Random(seed).random)
            == parse(expression).roll(random.Random(seed)).total
        )
    assert bool(ss._dice(expression)[1]) == (count == 1)


# -- weighted picks and draws -------------------------------------------------------------


def weighted_pack(tmp_path, weights: dict[str, int]):
    """The built-in tables with `weights` added to some skills of fardigheter.toml."""
    pack = tmp_path / "spelsystemet"
    pack.mkdir()
    text = (builtin_root() / "spelsystemet" / "fardigheter.toml").read_text(encoding="utf-8")
    for skill_id, weight in weights.items():
        text, found = re.subn(rf'(\nid = "{skill_id}"\n)', rf"\1weight = {weight}\n", text, count=1)
        assert found, skill_id
    (pack / "fardigheter.toml").write_text(text, encoding="utf-8")
    return SYSTEM.tables([tmp_path])


@pytest.mark.parametrize("weights", [{}, {"simma": 5, "sjunga": 2, "allmanbildning": 3}])
@pytest.mark.parametrize("genre_id", ["fantasy", "modern", "framtid"])
def test_leisure_draws_as_table_draw_does(tmp_path, weights, genre_id):
    tables = weighted_pack(tmp_path, weights) if weights else TABLES
    skills = ss._GenreSkills(
        tables, tables["genrer"].get(genre_id), tables["regler"].settings["tak"]
    )
    table = tables["fardigheter"]
    pool = [
        s
        for s in table.entries
        if s["grupp"] in ("vanliga", "kunskap") and ss._Skill(s, skills.genre, skills.tak).open
    ]
    for seed in range(200):
        for count in (0, 1, 3, 5):
            ours, theirs = random.Random(seed), random.Random(seed)
            drawn = [s.id for s in skills.draw_leisure(ours.random, count)]
            assert drawn == [e["id"] for e in table.draw(theirs, count, among=pool)]
            assert ours.random() == theirs.random()
    with pytest.raises(ChargenError, match="entries to draw from"):
        skills.draw_leisure(random.Random(1).random, len(pool) + 1)


def test_pools_draw_as_table_pick_does():
    plans = ss._Plans(TABLES)
    arter = TABLES["arter"]
    for seed in range(300):
        ours, theirs = random.Random(seed), random.Random(seed)
        template = ss._draw(ours, plans.templates(), "template", "mallar")
        assert template is TABLES["mallar"].pick(theirs)
        for genre_id in ("fantasy", "modern", "framtid"):
            drawn = ss._draw(ours, plans.species_pool(genre_id)[0], "art", "arter")
            living = [e for e in arter.entries if genre_id in e["genrer"]]
            assert drawn is arter.pick(theirs, living)
        jobs = [e for e in TABLES["yrken"].entries if "modern" in e["genrer"]]
        assert ss._draw(ours, plans.job_pool("modern"), "yrke", "yrken") is (
            TABLES["yrken"].pick(theirs, jobs)
        )
        assert ours.random() == theirs.random()
    with pytest.raises(ChargenError, match="no art is open here"):
        ss._draw(random.Random(1), Pool([]), "art", "arter")


# -- raising skills ---------------------------------------------------------------------


@pytest.mark.parametrize("genre_id", ["fantasy", "modern", "framtid"])
def test_npc_raise_is_the_full_raise_without_historik(genre_id):
    """`_raise` (NPCs) against `_Sheet.add` (the whole rule, with or without a historik):
    the same keys, values within caps, labels, groups, the same numbers drawn, the same
    faults, over random walks through every skill, open here or not, and specifications."""
    skills = ss._Plans(TABLES).skills(genre_id)
    every = [s["id"] for s in TABLES["fardigheter"].entries]
    tongues = ["Svenska", "Alviska", "Trollmål", "Engelska"]
    for seed in range(150):
        walk = random.Random(seed)
        base = skills.base()
        states = []
        for _ in range(3):
            values, labels = base[0].copy(), base[1].copy()
            groups = dict(zip(base[2], map(list.copy, base[3]), strict=True))
            states.append((values, labels, groups, random.Random(seed * 7)))
        events: list[dict] = []
        for _step in range(25):
            skill_id = walk.choice(every)
            amount = walk.randint(-3, 14)
            spec = walk.choice(tongues) if skill_id == "sprak" and walk.random() < 0.5 else None
            outcomes = []
            for n, (values, labels, groups, rng) in enumerate(states):
                try:
                    skill = skills[skill_id]
                    if n == 0:
                        key = ss._raise(values, labels, groups, skill, amount, rng.random, spec)
                    else:
                        log = None if n == 1 else (lambda _e=events, **e: _e.append(e))
                        sheet = ss._Sheet(values, labels, groups, rng.random, log)
                        key = sheet.add(skill, amount, spec)
                    outcomes.append(key)
                except ChargenError as exc:
                    outcomes.append(str(exc))
            assert outcomes[0] == outcomes[1] == outcomes[2]
            assert states[0][:3] == states[1][:3] == states[2][:3]
            assert states[0][3].getstate() == states[1][3].getstate() == states[2][3].getstate()
        values, labels, groups, _rng = states[0]
        assert set(values) == set(labels) == {k for keys in groups.values() for k in keys}
        for key, value in values.items():
            group = next(g for g, keys in groups.items() if key in keys)
            assert value <= RULES["tak"][group]
            if key.startswith("stridskonst"):
                assert value <= values.get("narkamp", 0)
        assert [e["fardighet"] for e in events]  # the historik path was walked too


@pytest.mark.parametrize("genre_id", ["fantasy", "modern", "framtid"])
def test_a_klass_skill_takes_a_specification_not_already_held(genre_id):
    # "Spela <Instrument>" raised as often as the genre has instruments: each one once,
    # then any again (the rule the procedure had: spec_for's `free` list)
    skills = ss._Plans(TABLES).skills(genre_id)
    genre = TABLES["genrer"].get(genre_id)
    klass = [s for s in TABLES["fardigheter"].entries if s.get("klass") and skills[s["id"]].open]
    assert len(klass) >= 5
    for entry in klass:
        skill = skills[entry["id"]]
        options = genre[entry["klass"]]
        prefix = entry.get("namn_per_genre", {}).get(genre_id) or entry.get("prefix", "")
        # a `gemen` skill writes its specification in lower case after the verb ("Spela luta")
        shown = [o[:1].lower() + o[1:] if prefix and entry.get("gemen") else o for o in options]
        named = {
            f"{entry['id']}_{ss.slug(o)}": f"{prefix} {w}".strip()
            for o, w in zip(options, shown, strict=True)
        }
        expected = set(named)
        for seed in range(20):
            for raise_ in ("npc", "pc"):
                values = {"narkamp": 15}
                labels, groups = {}, {}
                rng = random.Random(seed)
                keys = []
                for _ in range(len(options)):
                    if raise_ == "npc":
                        keys.append(ss._raise(values, labels, groups, skill, 1, rng.random))
                    else:
                        sheet = ss._Sheet(values, labels, groups, rng.random, None)
                        keys.append(sheet.add(skill, 1))
                if len(set(options)) == len(options):
                    assert sorted(keys) == sorted(expected), (entry["id"], raise_)
                assert set(keys) <= expected
                assert all(labels[k] == named[k] for k in keys)


# -- the NPC generator and the procedure ------------------------------------------------


def _template_step(char: dict, ctx: Context) -> None:
    template = ctx.choose("template", "mallar")
    char["template"] = template["id"]
    char["mall_namn"] = template["name"]


STEPWISE = [
    Step("mall", _template_step, command=False),
    *ss.PC_STEPS,  # genre, art, namn (of the species and genre), ...
]


def stepwise(count: int, seed: int, options: dict | None = None) -> list[dict]:
    """NPCs made by the procedure's steps one after another, with ctx.choose for the
    template, genre and art: what `npc` does in one function."""
    ctx = Context(SYSTEM, SYSTEM.tables(), "npc", options or {}, count, seed)
    out = []
    for index in range(count):
        ctx.start(character_seed(seed, index), index)
        out.append(make_character(ctx, STEPWISE))
    return out


@pytest.mark.parametrize(
    "options", [{}, {"template": "soldat"}, {"genre": "framtid", "template": "tjuv"}]
)
def test_the_npc_generator_is_the_procedure_for_a_template(options):
    npcs = make("spelsystemet", "npc", count=150, seed=5, options=options)
    assert npcs == stepwise(150, 5, options)


def test_npcs_of_a_batch_share_no_mutable_object():
    npcs = make("spelsystemet", "npc", count=200, seed=12)
    owner: dict[int, int] = {}
    for n, char in enumerate(npcs):
        stack = [char]
        while stack:
            node = stack.pop()
            if isinstance(node, dict | list):
                assert owner.setdefault(id(node), n) == n, node
                stack.extend(node.values() if isinstance(node, dict) else node)
    first, second = make("spelsystemet", "npc", count=2, seed=3, options={"template": "vakt"})
    first["skydd"]["huvud"]["h"] += 100
    first["fardigheter"]["narkamp"] += 100
    first["vapen"][0]["varde"] += 100
    again = make("spelsystemet", "npc", count=2, seed=3, options={"template": "vakt"})[1]
    assert second == again


def test_batch_plans_follow_the_pack_in_use(tmp_path):
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
        steps = 1 + unarmed.get("stridskonst_steg", 0)  # a martial artist: one step more
        assert unarmed["faktisk_skada"] == ladder[ladder.index(char["grundskada"]) + steps]
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
