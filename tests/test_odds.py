"""`chargen roll --odds`: exact odds checked against computations of their own.

Small expressions are enumerated roll by roll (every face of every die, aces
followed to the depth as the roller follows them); larger ones are checked
against closed forms (the sum of n dice by inclusion-exclusion, the highest and
lowest die by powers, a single aceing die by its geometric series).
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from math import comb

import pytest
from conftest import assert_usage_error, run

from chargen.dice import MAX_ACES, parse
from chargen.odds import odds, percent
from chargen.systems import load


def die_outcomes(sides: int, aces: bool, depth: int) -> list[tuple[int, Fraction]]:
    """One die's values with their chances: a maximum adds a roll, at most `depth` times."""
    if not aces:
        return [(f, Fraction(1, sides)) for f in range(1, sides + 1)]
    out = []
    for extra in range(depth + 1):
        for face in range(1, sides + 1):
            if face == sides and extra < depth:
                continue  # it aces: counted under the next roll
            out.append((sides * extra + face, Fraction(1, sides) ** (extra + 1)))
    return out


def brute(text: str, depth: int = 3) -> dict[int, Fraction]:
    """The distribution of `text` by enumerating every combination of its dice."""
    dice = parse(text)
    dist = {dice.modifier: Fraction(1)}
    for term in dice.terms:
        if term.d66:
            term_dist = {10 * t + u: Fraction(1, 36) for t in range(1, 7) for u in range(1, 7)}
        else:
            term_dist: dict[int, Fraction] = {}
            one = die_outcomes(term.sides, term.aces, depth)
            for combo in product(one, repeat=term.count):
                values = sorted((v for v, _ in combo), reverse=term.keep != "l")
                kept = values[: term.keep_count] if term.keep else values
                chance = Fraction(1)
                for _, p in combo:
                    chance *= p
                total = term.sign * sum(kept)
                term_dist[total] = term_dist.get(total, 0) + chance
        merged: dict[int, Fraction] = {}
        for a, pa in dist.items():
            for b, pb in term_dist.items():
                merged[a + b] = merged.get(a + b, 0) + pa * pb
        dist = merged
    return dict(sorted(dist.items()))


def exact(text: str, depth: int = 3) -> dict[int, Fraction]:
    table = odds(parse(text), depth)
    return {t: table.chance(t) for t in table.counts}


SMALL = [
    "d2",
    "2d6",
    "3d6",
    "2T10",
    "2k6",
    "d%",
    "1T6-1",
    "1d4+2d6",
    "2d6-1d4+3",
    "10-2d6",
    "4d6kh3",
    "4d6kl3",
    "3d8kh1",
    "5d4kl2",
    "2d20kl1",
    "2d20kh1",
    "3d6kh2+d4",
    "d66",
    "d66+2",
    "T66-d6",
    "d6!",
    "d4!",
    "2d6!",
    "d10!+3",
    "3d4!kh2",
    "3d6!kl1",
    "2d6!-d6!",
    "d2!",
]


@pytest.mark.parametrize("text", SMALL)
def test_odds_equal_enumerating_every_roll(text):
    assert exact(text) == brute(text)


@pytest.mark.parametrize("depth", [0, 1, 2, 5])
@pytest.mark.parametrize("text", ["d6!", "2d4!", "3d3!kh2", "d4!+d6"])
def test_aces_to_every_stated_depth(text, depth):
    assert exact(text, depth) == brute(text, depth)


@pytest.mark.parametrize("n,s", [(1, 20), (5, 6), (12, 20), (30, 10), (100, 6), (3, 1000)])
def test_a_sum_of_dice_is_the_inclusion_exclusion_count(n, s):
    got = exact(f"{n}d{s}")
    for total in range(n, n * s + 1):
        ways = sum(
            (-1) ** k * comb(n, k) * comb(total - k * s - 1, n - 1)
            for k in range((total - n) // s + 1)
        )
        assert got[total] == Fraction(ways, s**n)
    assert len(got) == n * s - n + 1


@pytest.mark.parametrize("n,s", [(12, 20), (20, 6), (7, 100)])
def test_the_highest_and_the_lowest_die_are_powers(n, s):
    high, low = exact(f"{n}d{s}kh1"), exact(f"{n}d{s}kl1")
    for m in range(1, s + 1):
        assert high[m] == Fraction(m**n - (m - 1) ** n, s**n)
        assert low[m] == Fraction((s - m + 1) ** n - (s - m) ** n, s**n)


@pytest.mark.parametrize("s,depth", [(6, 3), (10, 10), (20, 100)])
def test_one_aceing_die_is_a_geometric_series(s, depth):
    got = exact(f"d{s}!", depth)
    for extra in range(depth + 1):
        faces = range(1, s + 1) if extra == depth else range(1, s)
        for face in faces:
            assert got[s * extra + face] == Fraction(1, s) ** (extra + 1)
    assert sum(got.values()) == 1


def test_the_roller_aces_exactly_as_deep_as_the_odds_at_its_own_depth():
    got = exact("d6!", MAX_ACES)
    assert max(got) == 6 * MAX_ACES + 6 and got[max(got)] == Fraction(1, 6) ** (MAX_ACES + 1)


def test_twelve_d20_keep_three_works_and_is_right():
    table = odds(parse("12d20kh3"))
    assert min(table.counts) == 3 and max(table.counts) == 60
    assert table.chance(60) == Fraction(
        sum(comb(12, k) * 19 ** (12 - k) for k in range(3, 13)), 20**12
    )
    assert table.chance(3) == Fraction(1, 20**12)
    assert sum(table.counts.values()) == table.whole


@pytest.mark.parametrize("text", ["3d6", "4d6kh3", "d6!", "d66", "2d6-3"])
def test_mean_at_least_and_at_most_follow_from_the_chances(text):
    table = odds(parse(text))
    dist = brute(text)
    assert table.mean == sum(t * p for t, p in dist.items())
    for total, chance, at_least, at_most in table.rows():
        assert chance == dist[total]
        assert at_least == sum(p for t, p in dist.items() if t >= total)
        assert at_most == sum(p for t, p in dist.items() if t <= total)


def test_means_match_their_closed_forms():
    assert odds(parse("3d6")).mean == Fraction(21, 2)
    assert odds(parse("d66")).mean == Fraction(385, 10)
    # one d6 aceing to depth d: 3.5 * (1 + 1/6 + ... + 1/6^d)
    for depth in (0, 1, 4):
        want = Fraction(7, 2) * sum(Fraction(1, 6) ** k for k in range(depth + 1))
        assert odds(parse("d6!"), depth).mean == want


def test_the_cut_is_the_chance_of_acing_past_the_depth():
    assert odds(parse("d6!"), 3).cut == Fraction(1, 6**4)
    assert odds(parse("2d6!"), 1).cut == 1 - (1 - Fraction(1, 36)) ** 2
    assert odds(parse("3d6")).cut == 0 and odds(parse("3d6")).depth is None


def test_percent_keeps_four_significant_digits():
    assert percent(Fraction(1, 36)) == "2.778%"
    assert percent(Fraction(1)) == "100%"
    assert percent(Fraction(1, 2)) == "50%"
    assert percent(Fraction(1, 6**5)) == "0.01286%"
    assert percent(Fraction(0)) == "0%"


def test_odds_as_json_fit_the_roll_object():
    result = run("roll", "2d6", "4d6kh3", "--odds", "-f", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert [d["expression"] for d in data] == ["2d6", "4d6kh3"]
    two = data[0]
    assert two["mean"] == 7 and two["minimum"] == 2 and two["maximum"] == 12
    assert two["depth"] is None and two["cut"] == 0
    seven = next(r for r in two["totals"] if r["total"] == 7)
    assert seven["exact"] == "1/6" and seven["at_least"] == pytest.approx(21 / 36)
    assert abs(sum(r["chance"] for r in data[1]["totals"]) - 1) < 1e-12
    lines = run("roll", "2d6", "d6!", "--odds", "-f", "jsonl").stdout.splitlines()
    assert [json.loads(x)["expression"] for x in lines] == ["2d6", "d6!"]
    assert json.loads(lines[1])["depth"] == 3


def test_odds_as_table_and_markdown():
    text = run("roll", "2d6", "--odds").stdout
    assert text.splitlines()[0] == "2d6: mean 7"
    assert "    7  16.67%    58.33%   58.33%" in text
    aces = run("roll", "d6!", "--odds", "--depth", "1", "--width", "200").stdout
    assert "aces to depth 1" in aces and "2.778% of rolls would ace further" in aces
    md = run("roll", "3d6", "--odds", "-f", "markdown").stdout
    assert md.startswith("## 3d6: mean 10.5\n") and "| 3 | 0.463% | 100% | 0.463% |" in md


def test_odds_refuse_what_is_too_large_and_depth_without_odds():
    assert_usage_error(run("roll", "100d1000", "--odds"), "too large for --odds")
    assert_usage_error(run("roll", "100d100kh50", "--odds"), "too large for --odds")
    assert run("roll", "d6!", "--odds", "--depth", "100").exit_code == 0


# -- estimates from samples (--where ... --odds) --------------------------------------


def test_wilson_interval_matches_its_closed_form_and_known_values():
    import math

    from chargen.odds import Z95, wilson

    half = wilson(50, 100)
    assert (round(half.low, 4), round(half.high, 4)) == (0.4038, 0.5962)
    none = wilson(0, 100)
    assert none.low == 0 and round(none.high, 4) == 0.037  # z^2 / (n + z^2)
    assert none.high == pytest.approx(Z95**2 / (100 + Z95**2))
    every = wilson(20, 20)
    assert every.high == 1 and every.low == pytest.approx(20 / (20 + Z95**2))
    for k, n in [(1, 7), (13, 40), (999, 1000), (3210, 10000)]:
        e = wilson(k, n)
        p = k / n
        # the interval's ends solve (p - q)^2 = z^2 q (1 - q) / n
        for q in (e.low, e.high):
            assert math.isclose((p - q) ** 2, Z95**2 * q * (1 - q) / n, rel_tol=1e-9, abs_tol=1e-15)
        assert e.low < p < e.high


def test_wilson_covers_the_true_rate_about_95_percent_of_the_time():
    import random

    from chargen.odds import wilson

    rng = random.Random(21)
    rate, n, trials = 0.3, 200, 2000
    covered = 0
    for _ in range(trials):
        k = sum(rng.random() < rate for _ in range(n))
        e = wilson(k, n)
        covered += e.low <= rate <= e.high
    assert 0.93 <= covered / trials <= 0.97


@pytest.mark.parametrize(
    "system_id,kind,where",
    [
        ("karma", "pc", "egenskaper.stark >= 4"),
        ("matinee", "pc", "grundegenskaper.psyke >= 4"),
        ("savage", "npc", "alaptulajdonsagok.ero >= d8"),
        ("lef", "pc", "talenter.styrke >= 10 or talenter.fysik >= 10"),
        ("spelsystemet", "npc", "lp > 12"),
    ],
)
def test_where_odds_count_the_matches_among_the_stated_samples(system_id, kind, where):
    from chargen import where as conditions
    from chargen.procedure import generate

    result = run(
        system_id, kind, "--where", where, "--odds", "--samples", "300", "--seed", "9", "-f", "json"
    )
    assert result.exit_code == 0, result.stderr
    (got,) = json.loads(result.stdout)
    system = load(system_id)
    chars = generate(
        system, system.tables(), kind, {}, 300, 9, None, None, None, unique_names=False
    )
    condition = conditions.parse(where)
    want = sum(condition.holds(c) for c in chars)
    assert (got["samples"], got["matches"], got["where"], got["seed"]) == (300, want, where, 9)
    assert got["low"] <= got["rate"] <= got["high"] and got["confidence"] == 0.95
    assert 0 < want < 300, "a condition that tells something"


def test_where_odds_at_the_extremes_and_in_words():
    always = json.loads(
        run(
            "karma", "pc", "--where", "karma >= 0", "--odds", "--samples", "50", "-f", "json"
        ).stdout
    )[0]
    assert always["matches"] == 50 and always["high"] == 1 and always["low"] > 0.9
    never = json.loads(
        run(
            "karma", "pc", "--where", "karma > 1000", "--odds", "--samples", "50", "-f", "json"
        ).stdout
    )[0]
    assert never["matches"] == 0 and never["low"] == 0 and 0 < never["high"] < 0.1
    text = run(
        "karma", "pc", "--where", "karma >= 0", "--odds", "--samples", "40", "--seed", "4"
    ).stdout
    assert (
        "40 of 40 random characters matched: 100% (91.24% to 100%, 95%)" in text
        and "seed 4" in text
    )


def test_where_odds_refuse_what_they_cannot_do():
    assert_usage_error(run("karma", "pc", "--odds"), "--where")
    assert_usage_error(run("karma", "pc", "--where", "karma > 1", "--odds", "-n", "3"), "--samples")
    assert_usage_error(
        run("karma", "pc", "--where", "nope > 1", "--odds", "--samples", "300"), "nope"
    )
    assert_usage_error(run("karma", "pc", "--where", "karma > 1", "--odds", "-f", "pdf"), "pdf")


def test_depth_caps_the_roller_as_it_caps_the_odds():
    rolls = json.loads(
        run("roll", "d2!", "-n", "3000", "--depth", "2", "--seed", "1", "-f", "json").stdout
    )
    totals = {r["total"] for r in rolls}
    assert totals <= set(exact("d2!", 2)) and max(totals) == 6  # 2 + 2 + a last 2 kept
    assert all(len(r["dice"]) <= 3 for r in rolls)
    free = json.loads(run("roll", "d2!", "-n", "3000", "--seed", "1", "-f", "json").stdout)
    assert max(r["total"] for r in free) > 6


def test_where_odds_in_words_give_the_share_and_its_interval_to_one_precision():
    import re

    for condition, places in (('"munk" in bakgrunder', 2), ("karma >= 6", 3)):
        text = run(
            "karma", "pc", "--where", condition, "--odds", "--samples", "2000", "--seed", "1"
        ).stdout
        line = text.splitlines()[1]
        shown = re.findall(r"(\d+(?:\.\d+)?)%", line)
        decimals = {len(n.split(".")[1]) for n in shown if "." in n}
        assert len(shown) == 4 and shown[-1] == "95" and decimals == {places}, line
