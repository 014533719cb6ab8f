"""`--reroll STEP[=K]` and `chargen SYSTEM reroll STEP FILE` (issue 21).

tests/test_streams.py holds every step to its declared reads: what does not depend
on a rerolled step stays. Here: a step that draws at all changes under a reroll for
most seeds (its own fields or those of the steps reading it); the K-th alternatives
differ from one another; a rerolled character's recipe (with its `--reroll`) makes it
again; and the saved-file command checks system, version and recipe before it draws.
"""

from __future__ import annotations

import json

import pytest
from conftest import run

from chargen.commands import reroll_variants
from chargen.encode import compact
from chargen.errors import ChargenError
from chargen.procedure import generate
from chargen.recipe import parse
from chargen.systems import load, remake

SYSTEMS = ("matinee", "spelsystemet", "karma", "lef", "savage")
SEEDS = {"pc": 100, "npc": 300}  # (a PC costs several NPCs)


def _drawing(system, kind):
    """The system with each step wrapped to note whether it drew from its stream."""
    drew: dict[str, int] = {}

    def wrap(step):
        def run_step(char, ctx):
            start = ctx.rng.state
            step.run(char, ctx)
            if ctx.rng.state != start:
                drew[step.id] = drew.get(step.id, 0) + 1

        return step._replace(run=run_step)

    steps = [wrap(s) for s in system.steps(kind)]
    if kind == "npc":
        return system._replace(npc=steps), drew
    return system._replace(pc=steps), drew


@pytest.mark.parametrize("sid", SYSTEMS)
@pytest.mark.parametrize("kind", ["pc", "npc"])
def test_rerolling_a_step_that_draws_changes_it(sid, kind):
    from test_streams import dependents

    system, drew = _drawing(load(sid), kind)
    tables = system.tables()
    usual = list(generate(system, tables, kind, {}, SEEDS[kind], 5, unique_names=False))
    for step in system.steps(kind):
        _ids, touched = dependents(system.steps(kind), step.id)
        before = drew.get(step.id, 0)
        changed = 0
        again = generate(
            system, tables, kind, {}, SEEDS[kind], 5, variants={step.id: 1}, unique_names=False
        )
        for char, other in zip(usual, again, strict=True):
            changed += any(char.get(f) != other.get(f) for f in touched)
        if drew.get(step.id, 0) - before < SEEDS[kind] // 4:
            continue  # a step that seldom draws (a derived value, a rare branch)
        assert changed >= SEEDS[kind] // 10, (sid, kind, step.id, changed)


@pytest.mark.parametrize("sid", SYSTEMS)
def test_the_kth_alternatives_differ_and_their_recipes_make_them_again(sid):
    system = load(sid)
    tables = system.tables()
    for kind in ("pc", "npc"):
        steps = system.steps(kind)
        naming = next(s.id for s in steps if s.naming)
        assert reroll_variants(system, kind, None, ["name"]) == {naming: 1}
        assert reroll_variants(system, kind, None, ["name", f"{naming}=2"]) == {naming: 3}
        for seed in range(1, 13):
            names = set()
            for k in range(1, 6):
                (char,) = generate(system, tables, kind, {}, 1, seed, variants={naming: k})
                assert char["recipe"].endswith(f"--reroll {naming}" + ("" if k == 1 else f"={k}"))
                assert compact(next(remake(char["recipe"], tables))) == compact(char)
                names.add(char["name"])
            assert len(names) >= 3, (sid, kind, seed, names)


def test_an_unknown_step_to_reroll_is_refused():
    system = load("karma")
    with pytest.raises(ChargenError, match="Valid: .*name"):
        reroll_variants(system, "pc", None, ["bakgrund"])
    result = run("karma", "pc", "--reroll", "nosuch")
    assert result.exit_code == 2 and "name" in result.stderr
    assert run("karma", "pc", "--reroll", "namn=0").exit_code == 2


def test_reroll_on_the_command_line_keeps_the_rest(tmp_path):
    usual = json.loads(run("matinee", "pc", "--seed", "9", "-f", "json").stdout)[0]
    again = json.loads(
        run("matinee", "pc", "--seed", "9", "--reroll", "name", "-f", "json").stdout
    )[0]
    assert again["name"] != usual["name"] and again["arketyp"] == usual["arketyp"]
    assert again["recipe"] == "chargen matinee pc --seed 9 --reroll namn"
    sheet = run("matinee", "pc", "--seed", "9", "--reroll", "name").stdout
    assert again["name"] in sheet and "--reroll namn" in sheet


def test_reroll_a_saved_character(tmp_path):
    saved = tmp_path / "c.json"
    assert run("karma", "pc", "--seed", "12", "-o", str(saved), "-f", "json").exit_code == 0
    char = json.loads(saved.read_text(encoding="utf-8"))[0]
    result = run("karma", "reroll", "name", str(saved), "-f", "json")
    assert result.exit_code == 0, result.stderr
    (new,) = json.loads(result.stdout)
    direct = json.loads(run("karma", "pc", "--seed", "12", "--reroll", "namn", "-f", "json").stdout)
    assert new == direct[0] and new["egenskaper"] == char["egenskaper"]
    # again on the rerolled one: the second alternative
    saved.write_text(json.dumps([new], ensure_ascii=False), encoding="utf-8")
    second = json.loads(run("karma", "reroll", "name", str(saved), "-f", "json").stdout)[0]
    assert second["recipe"].endswith("--reroll namn=2")


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda c: c.update(system="lef"), "is a lef character, not karma"),
        (lambda c: c.update(version="0.1.0"), "made by chargen 0.1.0"),
        (lambda c: c.pop("version"), "older chargen"),
        (lambda c: c.update(karma=c["karma"] + 1), "does not match its recipe"),
        (lambda c: c.pop("recipe"), "has no recipe"),
    ],
)
def test_a_saved_character_that_does_not_hold_is_refused(tmp_path, change, reason):
    saved = tmp_path / "c.json"
    run("karma", "pc", "--seed", "12", "-o", str(saved), "-f", "json")
    char = json.loads(saved.read_text(encoding="utf-8"))[0]
    change(char)
    saved.write_text(json.dumps(char, ensure_ascii=False), encoding="utf-8")
    result = run("karma", "reroll", "name", str(saved))
    assert result.exit_code == 2 and reason in result.stderr and "Traceback" not in result.stderr


def test_a_squad_member_is_rerolled_in_its_place(tmp_path):
    saved = tmp_path / "squad.jsonl"
    run("savage", "npc", "--squad", "-n", "4", "--seed", "3", "-f", "jsonl", "-o", str(saved))
    members = [json.loads(line) for line in saved.read_text(encoding="utf-8").splitlines()]
    result = run("savage", "reroll", "name", str(saved), "-f", "jsonl")
    assert result.exit_code == 0, result.stderr
    again = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(again) == 4
    assert [c["name"] for c in again] != [c["name"] for c in members]
    assert {c["recipe"] for c in again} == {"chargen savage npc --seed 3 -n 4 --squad --reroll nev"}


def test_an_unreadable_file_is_refused(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    for path in (str(bad), str(tmp_path / "missing.json")):
        result = run("karma", "reroll", "name", path)
        assert result.exit_code == 2 and "Traceback" not in result.stderr


def _no_historik(text: str) -> list:
    return [{k: v for k, v in c.items() if k != "historik"} for c in json.loads(text)]


@pytest.mark.parametrize("sid", SYSTEMS)
def test_roll_again_at_the_prompts_is_kept_in_the_recipe(sid):
    """The game's word for "again" at the first question: at a choice the dice draw (and
    again), the empty answer keeps the draw; the recipe names the answers as typed
    (`--answers`), and makes the same character (tests/test_answers.py sweeps this)."""
    labels = load(sid).tables().labels
    word = labels.word("again")
    assert word != "again" and "again" not in labels.missing
    for seed in range(1, 9):
        asked = run(
            sid,
            "pc",
            "--seed",
            str(seed),
            "-f",
            "json",
            "--interactive",
            input=f"{word}\n{word.upper()}\n" + "\n" * 400,
        )
        assert asked.exit_code == 0, asked.stderr[-400:]
        (char,) = json.loads(asked.stdout)
        assert parse(char["recipe"]).answers == f"{word}/{word.upper()}", char["recipe"]
        assert asked.stderr.count(labels.prompt("drawn", value="").strip()) >= 2
        (again,) = list(remake(char["recipe"]))
        assert compact(again) == compact(char)
