"""Dice grammar and distributions, with hypothesis generating expressions from the grammar."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from conftest import assert_usage_error, run
from hypothesis import given, settings
from hypothesis import strategies as st

from chargen.dice import MAX_COUNT, MAX_SIDES, parse
from chargen.errors import DiceError

letters = st.sampled_from(["d", "D", "T", "t", "k"])
counts = st.integers(1, 12)
sides = st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20, 100])
seeds = st.integers(0, 2**32)


@given(counts, letters, sides, st.integers(-20, 20), seeds)
def test_ndm_plus_modifier_stays_in_range(n, letter, m, mod, seed):
    expr = f"{n}{letter}{m}{mod:+d}" if mod else f"{n}{letter}{m}"
    roll = parse(expr).roll(random.Random(seed))
    assert n + mod <= roll.total <= n * m + mod
    assert len(roll.dice) == n and all(1 <= d <= m for d in roll.dice)
    assert roll.total == sum(roll.dice) + mod


@given(st.integers(1, 8), sides, st.data(), seeds, st.sampled_from(["h", "l"]))
def test_keep_highest_and_lowest(n, m, data, seed, which):
    keep = data.draw(st.integers(1, n))
    roll = parse(f"{n}d{m}k{which}{keep}").roll(random.Random(seed))
    ordered = sorted(roll.dice, reverse=which == "h")
    assert roll.total == sum(ordered[:keep])
    assert keep <= roll.total <= keep * m


@given(sides, seeds)
def test_aces_never_total_exactly_a_multiple_of_the_maximum(m, seed):
    roll = parse(f"d{m}!").roll(random.Random(seed))
    assert roll.total % m != 0  # a maximum face always adds another roll
    assert roll.total == sum(roll.dice)
    assert all(d == m for d in roll.dice[:-1]) and roll.dice[-1] != m


def test_aces_do_happen_and_chain():
    rng = random.Random(3)
    totals = [parse("d6!").roll(rng).total for _ in range(20000)]
    assert max(totals) > 12
    assert 6 not in totals and 12 not in totals


@given(seeds)
def test_d66_is_tens_then_units(seed):
    roll = parse("d66").roll(random.Random(seed))
    tens, units = roll.dice
    assert roll.total == 10 * tens + units
    assert 1 <= tens <= 6 and 1 <= units <= 6


def test_d66_values_and_uniformity():
    dice = parse("T66")
    assert dice.possible_values() == [10 * t + u for t in range(1, 7) for u in range(1, 7)]
    assert all(p == pytest.approx(1 / 36) for p in dice.distribution().values())


def test_missing_count_means_one_and_letters_are_equivalent():
    for text in ("T20", "d20", "1d20", "1T20", "k20"):
        assert parse(text).possible_values() == list(range(1, 21))
    assert parse("1T6-1").possible_values() == list(range(0, 6))
    assert parse("d%").possible_values() == list(range(1, 101))


def test_distribution_of_2d6_and_4d6kh3_is_exact():
    dist = parse("2k6").distribution()
    assert dist[7] == pytest.approx(6 / 36) and dist[2] == pytest.approx(1 / 36)
    assert sum(dist.values()) == pytest.approx(1)
    kh = parse("4d6kh3").distribution()
    assert kh[18] == pytest.approx(21 / 1296) and kh[3] == pytest.approx(1 / 1296)


def test_sampled_3d6_matches_its_distribution():
    rng = random.Random(11)
    counts = Counter(parse("3T6").roll(rng).total for _ in range(60000))
    exact = parse("3T6").distribution()
    for total, p in exact.items():
        assert abs(counts[total] / 60000 - p) < 0.01


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "  ",
        "d",
        "2x6",
        "3d",
        "d6+",
        "+",
        "0d6",
        "d1",
        "2d66",
        "4d6kh5",
        "4d6kh0",
        f"{MAX_COUNT + 1}d6",
        f"d{MAX_SIDES + 1}",
        "2d6*3",
        "eval('1')",
        "1d6!!",
    ],
)
def test_bad_expressions_are_refused(bad):
    with pytest.raises(DiceError):
        parse(bad)


@settings(max_examples=200)
@given(st.text(max_size=12))
def test_any_text_either_parses_or_raises_dice_error(text):
    try:
        dice = parse(text)
    except DiceError:
        return
    assert dice.roll(random.Random(1)).total in range(-(10**7), 10**7)


def test_roll_command_objects_and_seed():
    import json

    first = run("roll", "2T10", "d66", "-n", "3", "--seed", "9", "-f", "jsonl")
    again = run("roll", "2T10", "d66", "-n", "3", "--seed", "9", "-f", "jsonl")
    assert first.exit_code == 0 and first.stdout == again.stdout
    rolls = [json.loads(line) for line in first.stdout.splitlines()]
    assert [r["expression"] for r in rolls] == ["2T10", "d66"] * 3
    for r in rolls:
        assert set(r) == {"expression", "total", "dice"}
    assert all(r["total"] == sum(r["dice"]) for r in rolls if r["expression"] == "2T10")


def test_roll_command_bad_expression_and_limits_exit_2():
    assert_usage_error(run("roll", "2x6"), "2x6")
    assert_usage_error(run("roll", "1000d6"), "count")
    assert_usage_error(run("roll", "d5000"), "sides")
