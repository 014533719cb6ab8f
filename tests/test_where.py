"""`--where EXPR` (issue 21): only characters that satisfy a condition.

The grammar is parsed by hand (chargen.where) and never evaluated as Python. For
every system, conditions over numbers, texts, dice, lists and drawn rows keep only
characters that an independent Python check passes, each of which its recipe makes
again, with no name twice; a path no character has, or a condition too rare for the
tries, is exit 2 with the reason.
"""

from __future__ import annotations

import json

import pytest
from conftest import run

from chargen import commands as cli
from chargen.encode import compact
from chargen.errors import ChargenError
from chargen.procedure import ENVELOPE, generate
from chargen.systems import load, remake
from chargen.where import parse


def rank(die: str | None) -> int:
    """A die's size, worked out apart from chargen.where: d8 -> 8, d12+1 -> 13."""
    if not die:
        return 0
    sides, _, plus = die[1:].partition("+")
    return int(sides) + int(plus or 0)


CASES = [
    ("matinee", "pc", "grundegenskaper.psyke >= 4", lambda c: c["grundegenskaper"]["psyke"] >= 4),
    (
        "matinee",
        "pc",
        'arketyp == "mystiker" or tillgangar >= 10 and not megakorporation == "capitol"',
        lambda c: (
            c["arketyp"] == "mystiker"
            or (c["tillgangar"] >= 10 and c["megakorporation"] != "capitol")
        ),
    ),
    (
        "karma",
        "pc",
        '"munk" in bakgrunder',
        lambda c: any(b["id"] == "munk" for b in c["bakgrunder"]),
    ),
    (
        "karma",
        "npc",
        'not (egenskaper.stark < 3) and (karma != 5 or template == "bonde")',
        lambda c: (
            c["egenskaper"]["stark"] >= 3 and (c.get("karma") != 5 or c["template"] == "bonde")
        ),
    ),
    (
        "savage",
        "pc",
        "kepzettsegek.kozelharc >= d8",
        lambda c: rank(c["kepzettsegek"].get("kozelharc")) >= 8,
    ),
    (
        "savage",
        "npc",
        "all alaptulajdonsagok.* >= d6 and szivossag > 5",
        lambda c: all(rank(v) >= 6 for v in c["alaptulajdonsagok"].values()) and c["szivossag"] > 5,
    ),
    (
        "lef",
        "pc",
        'any talenter.* >= 6 and "kraft" not in fokus',
        lambda c: any(v >= 6 for v in c["talenter"].values()) and "kraft" not in c["fokus"],
    ),
    (
        "spelsystemet",
        "pc",
        'grundegenskaper.sty >= 15 or (lp > 13 and art != "manniska")',
        lambda c: c["grundegenskaper"]["sty"] >= 15 or (c["lp"] > 13 and c["art"] != "manniska"),
    ),
]


@pytest.mark.parametrize(("sid", "kind", "text", "check"), CASES)
def test_every_match_satisfies_the_condition_and_regenerates(sid, kind, text, check):
    system = load(sid)
    tables = system.tables()
    condition = cli.where_condition(system, kind, {}, text, False)
    count = 40
    tried = []

    def candidates():
        for char in generate(system, tables, kind, {}, 5_000, 21, unique_names=False):
            tried.append(check(char))
            yield char

    matches = list(cli.matching(candidates(), condition, count, 5_000))
    assert len(matches) == count
    assert not all(tried), f"{text}: every character matched; the condition tests nothing"
    assert len({c["name"] for c in matches}) == count
    for char in matches:
        assert check(char), (text, char["recipe"])
        assert compact(next(remake(char["recipe"], tables))) == compact(char)


def test_the_grammar():
    char = {
        "a": 3,
        "t": "munk",
        "d": "d8",
        "l": [{"id": "munk", "n": 2}, {"id": "smed", "n": 5}],
        "s": ["x", "y"],
        "m": {"p": 1, "q": 7},
        "b": True,
        "z": None,
    }
    holds = {
        "a == 3": True,
        "a != 3": False,
        "a < 4 and a <= 3 and a > 2 and a >= 3": True,
        "not a == 3 or t == 'munk'": True,
        "not (a == 3 or t == 'munk')": False,
        "a == 1 or a == 3 and t == 'x'": False,  # and binds tighter than or
        "d > d6 and d < d10 and d == d8 and d < d12+1": True,
        "d >= 8": False,  # a die and a number do not order
        '"munk" in l and "smed" in l and not "bonde" in l': True,
        '"bonde" not in l': True,
        "any l.n >= 5": True,
        "all l.n >= 5": False,
        "any m.* > 5 and all m.* >= 1": True,
        '"p" in m and "un" in t': True,
        '"x" in s and any s == "y"': True,
        "b and not z": True,
        "b == true and z == null": True,
        "nosuch == 1 or nosuch != 1 or nosuch < 1": False,  # a missing value never holds
        "any nosuch == 1": False,
        "all nosuch == 1": True,
    }
    for text, expected in holds.items():
        assert parse(text).holds(char) is expected, text
    assert parse("l.n >= 1 and any m.* > 0").paths == (("l", "n"), ("m", "*"))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "a ==",
        "a = 3",
        "(a == 3",
        "a == 3)",
        "a == 3 b",
        '__import__("os").system("true")',
        "a.B == 1",
        "any 3 == 3",
        "a == 'open",
        "and",
        "a === 3",
    ],
)
def test_what_is_no_condition_is_refused(text):
    with pytest.raises(ChargenError, match="--where"):
        parse(text)


def test_a_path_no_character_has_names_the_fields():
    result = run("matinee", "pc", "--where", "grundegenskapr.psyke >= 4")
    assert result.exit_code == 2 and "grundegenskaper" in result.stderr
    result = run("matinee", "pc", "--where", "grundegenskaper.psykee >= 4")
    assert result.exit_code == 2 and "psyke" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("sid", "text", "into", "kind"),
    [
        ("spelsystemet", "lp.x == 3", "lp", "a number"),
        ("spelsystemet", "vapen.namn.x == 1", "vapen.namn", "a text"),
        ("karma", "egenskaper.stark.niva >= 2", "egenskaper.stark", "a number"),
        ("matinee", 'arketyp.namn == "Soldat"', "arketyp", "a text"),
    ],
)
def test_a_path_into_a_value_without_fields_is_refused_after_the_first_tries(
    monkeypatch, sid, text, into, kind
):
    """Going into a number or a text as if it had fields can match nothing: said at
    the 200th character, not after 50,000, with what the field holds."""
    monkeypatch.setattr(cli, "WHERE_TRIES", 10**9)  # (were it not said, this would not end)
    kind_of = "pc" if sid == "matinee" else "npc"
    result = run(sid, kind_of, "--where", text, "--seed", "1")
    assert result.exit_code == 2, result.stderr
    assert f"goes into {into}, which is {kind} (" in result.stderr, result.stderr
    assert f"compare {into} itself" in result.stderr and "Traceback" not in result.stderr
    odds = run(sid, kind_of, "--where", text, "--odds", "--samples", "1000")
    assert odds.exit_code == 2 and f"goes into {into}" in odds.stderr


@pytest.mark.parametrize("count", ["1", "2", "300"])
def test_a_misspelt_path_under_all_or_not_matches_with_a_note(count):
    """`all vapen.nman == "Dolk"` holds for every character (no weapon has the field):
    the characters are kept, and stderr says which path none of them has."""
    text = 'all vapen.nman == "Dolk"'
    result = run("spelsystemet", "npc", "--where", text, "-n", count, "--seed", "2", "-f", "jsonl")
    assert result.exit_code == 0 and len(result.stdout.splitlines()) == int(count)
    tried = min(int(count), 200)
    some = f"none of the {tried:,} characters tried" if tried > 1 else "the one character tried"
    assert f"note: --where: {some} has" in result.stderr and "'vapen.nman'" in result.stderr
    assert "vapen has: " in result.stderr and "namn" in result.stderr, result.stderr
    odds = run("spelsystemet", "npc", "--where", "not lp.x == 3", "--odds", "--samples", "500")
    assert odds.exit_code == 0 and "500 of 500" in odds.stdout
    assert "note: --where: 'lp.x' goes into lp, which is a number" in odds.stderr
    fine = run("spelsystemet", "npc", "--where", 'all vapen.namn != "Dolk"', "-n", count)
    assert fine.exit_code == 0 and "note" not in fine.stderr, fine.stderr


def test_a_condition_too_rare_says_how_rare(monkeypatch):
    monkeypatch.setattr(cli, "WHERE_TRIES", 300)
    assert cli.where_tries(1) == 1000 and cli.where_tries(5) == 5000
    result = run("karma", "npc", "--where", "egenskaper.stark >= 12", "--seed", "1")
    assert result.exit_code == 2 and "0 of 300 characters matched" in result.stderr


STEP_CASES = [
    ("matinee", "arketyp", 'arketyp == "soldat"', lambda c: c["arketyp"] == "soldat"),
    ("karma", "egenskaper", "egenskaper.stark >= 4", lambda c: c["egenskaper"]["stark"] >= 4),
    ("lef", "blodarv", '"kraft" in fokus', lambda c: "kraft" in c["fokus"]),
    ("savage", "hatranyok", '"modern" in korszak', lambda c: "modern" in c["korszak"]),
    ("spelsystemet", "grundegenskaper", "grundegenskaper.sty >= 14", None),
]


@pytest.mark.parametrize(("sid", "step", "text", "check"), STEP_CASES)
def test_a_step_alone_takes_where_over_its_part_and_each_match_regenerates(sid, step, text, check):
    """`chargen SYSTEM STEP --where` (the contract's common options): the step's part
    and the name are what the condition reads; a field of another step is refused."""
    system = load(sid)
    if check is None:
        check = lambda c: c["grundegenskaper"]["sty"] >= 14  # noqa: E731
    out = run(sid, step, "--where", text, "-n", "12", "--seed", "5", "-f", "jsonl")
    assert out.exit_code == 0, out.stderr
    chars = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(chars) == 12 and len({c["name"] for c in chars}) == 12
    assert all(c["step"] == step and check(c) for c in chars)
    for char in chars[:3]:
        again = run(*char["recipe"].split()[1:], "-f", "jsonl")
        assert json.loads(again.stdout) == char
    other = next(s for s in system.pc if s.command and s.id != step and s.fields)
    field = next(
        f
        for f in other.fields
        if f not in {*system.step(step).fields, *system.step_context, *ENVELOPE}
    )
    refused = run(sid, step, "--where", f"{field} == 1")
    assert refused.exit_code == 2 and f"no character has '{field}'" in refused.stderr
    odds = run(sid, step, "--where", text, "--odds", "--samples", "300", "--seed", "5")
    assert odds.exit_code == 0 and "of 300 random characters matched" in odds.stdout


@pytest.mark.parametrize(
    ("system_id", "field", "said"),
    [
        ("matinee", "kon", '"kvinna" or "man"'),
        ("lef", "kon", '"kvinde" or "mand"'),
        ("savage", "nem", '"férfi" or "nő"'),
    ],
)
def test_a_text_no_character_had_is_said_with_the_texts_they_had(
    monkeypatch, system_id, field, said
):
    """A script's `kon == "female"` in a game whose kon is Swedish: the failure says what
    the characters tried had there, so the mistake is seen (not only "0 matched")."""
    monkeypatch.setattr(cli, "WHERE_TRIES", 300)
    for condition in (f'{field} == "female"', f'"female" == {field}', f'"female" in {field}'):
        result = run(system_id, "npc", "--where", condition, "--seed", "4")
        assert result.exit_code == 2, result.stderr
        assert f'in the first 200 tried, {field} was {said}, never "female"' in result.stderr


def test_no_texts_are_listed_for_a_varied_field_or_one_that_was_met(monkeypatch):
    monkeypatch.setattr(cli, "WHERE_TRIES", 300)
    result = run("matinee", "npc", "--where", 'name == "Nobody" and kon == "man"', "--seed", "4")
    assert result.exit_code == 2 and "in the first" not in result.stderr  # names: too many
    result = run("matinee", "npc", "--where", 'kon == "man" and kon == "kvinna"', "--seed", "4")
    assert result.exit_code == 2 and "in the first" not in result.stderr  # both were met


@pytest.mark.parametrize(
    ("args", "count"),
    [
        (["lef", "npc", "--template", "ulv", "--where", "talenter.styrke >= 0"], 13),
        (["matinee", "npc", "--template", "robust", "--where", "slas_ut_pa >= 0"], 30),
        (["lef", "npc", "--where", "blodarv == null"], 40),
    ],
)
def test_matches_whose_names_ran_out_are_numbered_as_a_batch_numbers_them(args, count):
    """A dozen epithets for the wolves asked: the matches after them are kept with a
    number (not passed by until the tries run out); no name twice; the rest regenerate."""
    out = run(*args, "-n", str(count), "--seed", "3", "-f", "jsonl")
    assert out.exit_code == 0, out.stderr
    chars = [json.loads(line) for line in out.stdout.splitlines()]
    names = [c["name"] for c in chars]
    assert len(chars) == count and len(set(names)) == count
    numbered = [n for n in names if n.rsplit(" ", 1)[-1].isdigit()]
    assert numbered, names  # the names ran out
    plain = next(c for c in chars if c["name"] not in numbered)
    assert json.loads(run(*plain["recipe"].split()[1:], "-f", "jsonl").stdout) == plain


def test_a_too_rare_condition_counts_the_matches_passed_by_for_their_names(monkeypatch):
    monkeypatch.setattr(cli, "where_tries", lambda count: 40)
    result = run("lef", "npc", "--template", "ulv", "--where", "talenter.styrke >= 0", "-n", "30")
    assert result.exit_code == 2, result.stderr
    assert "more whose names were taken" in result.stderr, result.stderr


def test_where_on_the_command_line():
    out = run(
        "karma", "pc", "--where", '"munk" in bakgrunder', "-n", "3", "--seed", "2", "-f", "json"
    )
    chars = json.loads(out.stdout)
    assert len(chars) == 3 and all(any(b["id"] == "munk" for b in c["bakgrunder"]) for c in chars)
    again = json.loads(run(*chars[1]["recipe"].split()[1:], "-f", "json").stdout)[0]
    assert again == chars[1]
    assert run("savage", "npc", "--squad", "-n", "3", "--where", "sorspont >= 0").exit_code == 2


@pytest.mark.parametrize("system_id", ["matinee", "spelsystemet", "karma", "lef", "savage"])
def test_the_helps_example_is_the_games_own_and_random_characters_match_it(system_id):
    system = load(system_id)
    tables = system.tables()
    condition = parse(system.where_example)
    for kind in ("pc", "npc"):
        held = [condition.holds(c) for c in generate(system, tables, kind, {}, 1_500, 3)]
        assert 0 < sum(held) < len(held), (system_id, kind, sum(held))
    helped = run(system_id, "pc", "--help", env={"COLUMNS": "400"}).stdout
    assert f"e.g. '{system.where_example}'" in " ".join(helped.split())


@pytest.mark.parametrize(
    "condition,said",
    [
        ("bakgrunder.tarningar >= 3", "any bakgrunder.tarningar >= 3"),
        ('bakgrunder.id == "munk"', "several values"),
        ("egenskaper.* >= 2", "all egenskaper.* >= 2"),
        ('sardrag != "enarmad"', "several values"),
        ("egenskaper >= 2", "PATH.KEY"),
    ],
)
def test_a_comparison_of_several_values_says_how_to_ask_instead_of_matching_none(condition, said):
    for args in (("-n", "2"), ("--odds", "--samples", "50")):
        refused = run("karma", "pc", "--where", condition, *args)
        assert refused.exit_code == 2 and said in refused.stderr, refused.stderr
        assert "Traceback" not in refused.stderr and refused.stderr.count("\n") == 1
    with pytest.raises(ChargenError, match="several values|a dict"):
        (char,) = generate(load("karma"), load("karma").tables(), "pc", {}, 1, 1)
        parse(condition).holds(char)
    # asked under a quantifier, or as membership, the same paths are fine
    quantified = "any " + condition if "*" in condition or "." in condition else None
    if quantified is not None:
        assert run("karma", "pc", "--where", quantified, "--odds", "--samples", "50").exit_code == 0
    assert run("karma", "pc", "--where", '"munk" in bakgrunder', "-n", "1").exit_code == 0
    assert run("karma", "pc", "--where", 'bakgrunder != "munk"', "-n", "1").exit_code == 2


def test_a_mistake_in_any_clause_is_said_whatever_the_others_give():
    for condition in (
        "karma > 5 and egenskaper.* >= 2",  # (karma > 5 never holds for a PC)
        "karma >= 5 or egenskaper.* >= 2",  # (karma >= 5 always does)
        "egenskaper.* in bakgrunder",
    ):
        refused = run("karma", "pc", "--where", condition, "--odds", "--samples", "50")
        assert refused.exit_code == 2 and "several values" in refused.stderr, refused.stderr
    kept = run("karma", "pc", "--where", '"munk" not in bakgrunder', "--odds", "--samples", "200")
    assert kept.exit_code == 0 and "matched" in kept.stdout
