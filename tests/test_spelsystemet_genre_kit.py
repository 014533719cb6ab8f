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


def test_interactive_asks_every_choice_with_its_effects_and_no_raw_lists():
    """Genre, art, grundegenskaper as rolled or arranged, yrke, the leisure skills, a
    weapon of each kind and the armour: each asked, each answer taken, a wrong
    arrangement asked again with its reason."""
    from pty_walk import walk

    answers = [
        (r"Genre", "modern"),
        (r"Behålla", "nej"),
        (r"Fördela", "1 2 3 4 5"),
        (r"Fördela", "15 11 10 9 8"),
        (r"Yrke", "polis"),
        (r"Fritid", "spana, lyssna, leta"),
        (r"Närstrid", "1"),
        (r"Avstånd", "2"),
        (r"Rustning", "kravallutrustning"),
    ]
    args = ["spelsystemet", "pc", "--interactive", "--seed", "4", "-f", "json"]
    done = walk(args, answers)
    assert done.code == 0, done.stderr
    asked = " ".join(done.prompts)
    for word in ("Genre", "Behålla grundegenskaperna", "Fördela", "Yrke", "Fritidsfärdigheter"):
        assert word in asked, word
    for word in ("Närstridsvapen", "Avståndsvapen", "Rustningspaket"):
        assert word in asked, word
    assert "Ange just värdena" in done.stderr
    # the genres are shown by what they are, not by their lists of gods and tongues
    genre_menu = done.stderr.split("Välj Genre")[0]
    assert "Tungomål" not in genre_menu and "Gudar" not in genre_menu
    assert len(genre_menu.splitlines()) < 10
    import json

    char = json.loads(done.stdout)[0]
    assert char["genre"] == "modern" and char["yrke"] == "polis"
    g = char["grundegenskaper"]
    assert [g[k] for k in ("hal", "kra", "ski", "sto", "sty")] == [15, 11, 10, 9, 8]
    assert {"spana", "lyssna", "leta"} <= set(char["fardigheter"])
    assert char["rustningspaket"] == "Kravallutrustning"
