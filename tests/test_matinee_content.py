"""Matinee content that fits the character (issue 25, matinee), swept over thousands
of characters in one process."""

from __future__ import annotations

import pytest
from conftest import make

from chargen.systems import load

TABLES = load("matinee").tables()
RULES = TABLES["regler"].settings
SEEDS = 3000


@pytest.fixture(scope="module")
def spenders() -> list[dict]:
    return make("matinee", "pc", count=SEEDS, seed=2561, options={"spend_hjaltepoang": True})


def test_hjaltepoang_never_aim_at_a_value_no_roll_can_raise(spenders):
    best, high = 18, RULES["varde_max"]  # 2T10 reads 0-9 each
    wasted = []
    for char in spenders:
        for r in char["hojningar"]:
            if r["typ"] in ("fardighet", "tillgangar") and r["over"] >= high:
                wasted.append((char["seed"], r))
            if r["typ"] == "fardighet" and r["over"] >= best + r["plus"]:
                wasted.append((char["seed"], r))
            if r["typ"] == "grundegenskap" and r["over"] >= best:
                wasted.append((char["seed"], r))
    assert not wasted, wasted[:5]
    assert all(c["hjaltepoang"] == 0 for c in spenders)  # both points are spent


def test_the_issues_capped_character_spends_its_points_on_something_that_can_rise():
    [char] = make("matinee", "pc", seed=560989859914996, options={"spend_hjaltepoang": True})
    for r in char["hojningar"]:
        assert not (r["typ"] == "fardighet" and r["over"] >= RULES["varde_max"]), r


def test_a_bekant_is_offered_and_kept_within_personlighet(spenders):
    bought = [c for c in spenders if any(r["typ"] == "bekant" for r in c["hojningar"])]
    assert len(bought) > SEEDS // 10
    for char in bought:
        # the pot never exceeds Personlighet; the contact is made even when it is full
        personlighet = char["grundegenskaper"]["personlighet"]
        assert min(1, personlighet) <= char["bekanta"] <= personlighet
        assert any(k.startswith("Bekant från tiden som ") for k in char["kontakter"])
        assert char["bekanta_max"] == char["grundegenskaper"]["personlighet"]
    assert "bekant" in {e["id"] for e in TABLES["hojningar"].entries}
