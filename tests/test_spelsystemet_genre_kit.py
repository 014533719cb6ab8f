"""Spelsystemet kit and skills that follow the genre, the mixed roster's columns and
listings that say a thing once (issue 25, spelsystemet)."""

from __future__ import annotations

import pytest
from conftest import make, run

# what a Swedish reader would not see among the stars: wooden clubs, swords, axes, staffs,
# bows, crossbows, flintlocks, slings and horses
PAST = {"traklubba", "stridsklubba", "vedyxa", "svard", "stav", "flintlaspistol", "slunga"}
PAST_PREFIXES = ("armborst", "pilbage", "s_bage", "langbage")


@pytest.mark.parametrize("kind", ["pc", "npc"])
def test_the_future_carries_no_past_weapons_and_rides_no_horse(kind):
    chars = make("spelsystemet", kind, count=1500, seed=2525, options={"genre": "framtid"})
    bad = [
        (c["seed"], c["yrke"], w["id"])
        for c in chars
        for w in c["vapen"]
        if w["id"] in PAST or w["id"].startswith(PAST_PREFIXES)
    ]
    assert bad == [], bad[:5]
    riders = [
        (c["seed"], c["yrke"]) for c in chars if any(k.startswith("rida") for k in c["fardigheter"])
    ]
    assert riders == [], riders[:5]


def test_fantasy_and_modern_riders_still_ride():
    chars = make("spelsystemet", "pc", count=400, seed=26, options={"genre": "fantasy"})
    assert any(k.startswith("rida") for c in chars for k in c["fardigheter"])


@pytest.mark.parametrize("width", [80, 100])
def test_a_mixed_npc_roster_keeps_genre_and_art(width):
    out = run("spelsystemet", "npc", "-n", "6", "--seed", "5", "--width", width)
    assert out.exit_code == 0, out.stderr
    header = out.stdout.splitlines()[0]
    assert "Genre" in header and "Art" in header, header
    dropped = next(line for line in out.stdout.splitlines() if line.startswith("Får inte plats"))
    if "Grundskada" in header:  # Grundskada only beside Genre and Art, never instead
        assert "Genre" not in dropped


@pytest.mark.parametrize(
    ("step", "repeated"),
    [
        ("vapen", ["Skada: Grund-3*", "Typ: Kross", "L: 0", "Grepp: Enhands"]),
        ("rustning", ["SP: H 1"]),
        ("art", ["Människonamn i fantasy"]),
    ],
)
def test_a_listing_says_each_thing_once(step, repeated):
    out = run("spelsystemet", step, "--list", "--width", "200")
    assert out.exit_code == 0, out.stderr
    flat = " ".join(out.stdout.split())
    for text in repeated:
        assert text not in flat, text
    if step == "vapen":
        assert "Obeväpnad: Skada Grund-3*, Typ Kross, L 0. Färdighet: Närkamp" in flat
