"""Savage characters make sense to a Hungarian Savage Worlds player (issue 10's content).

A native reviewer's list of contradictions, written here independently of the tables
(which keep them apart through the conditions engine: `excludes`, `unless`, `requires`):
each property reads thousands of generated PCs and NPCs and fails on the first
character that shows one.
"""

from __future__ import annotations

import itertools

import pytest
from conftest import by_id, make

from chargen.systems import load

SYSTEM = load("savage")
TABLES = SYSTEM.tables()
ITEMS = by_id(TABLES, "felszereles")
SKILLS = by_id(TABLES, "kepzettsegek")
POWERS = by_id(TABLES, "hatalmak")
TEMPLATES = by_id(TABLES, "mellekszereplok")
PCS = 3000
FIGHTERS = {"harcos", "lovag", "zsoldos", "katona", "ijasz", "vadasz", "felderito"}
# Pairs that cannot stand on one character: Előny / Hátrány ids (either grade).
CLASHES = [
    ({"lassu", "lassu_sulyos"}, {"gyors", "gyorslabu"}),
    ({"kover"}, {"gyorslabu", "termetes"}),
    ({"apro"}, {"termetes"}),
    ({"csunya", "csunya_sulyos"}, {"karizmatikus", "vonzo", "nagyon_vonzo"}),
    ({"nagyothallo_sulyos"}, {"eber", "nyelvzseni"}),
    ({"pacifista", "pacifista_sulyos"}, {"berzerker", "verszomjas", "bosszuallo_sulyos"}),
    ({"pacifista", "pacifista_sulyos"}, {"kedvenc_fegyver", "elsopro_tamadas", "rajtauto"}),
    ({"gyava"}, {"bator", "berzerker", "hos", "halalvagy"}),
    ({"becsuletkodex"}, {"verszomjas", "rajtauto", "kapzsi_sulyos"}),
    ({"hos"}, {"kapzsi_sulyos"}),
    ({"szegyenlos"}, {"karizmatikus", "parancsnok", "arrogans", "tulzottan_magabiztos"}),
    ({"szegeny"}, {"gazdag", "nagyon_gazdag", "nemes"}),
    ({"irastudatlan"}, {"tudos", "nyomozo", "magia"}),
    ({"ketbalkezes"}, {"ezermester"}),
    ({"verszegeny"}, {"ellenallo"}),
]
# Concepts a Hátrány contradicts.
CONCEPT_CLASHES = {
    "pacifista": FIGHTERS,
    "pacifista_sulyos": FIGHTERS,
    "irastudatlan": {"tudos", "pap", "magus", "hekker", "nyomozo", "feltalalo"},
    "ketbalkezes": {"feltalalo", "hekker", "pilota"},
    "becsuletkodex": {"szelhamos"},
}
ARCANE_SKILLS = {
    "hit": "csodatetel",
    "varazslas": "magia",
    "pszionika": "pszionika",
    "furcsa_tudomany": "furcsa_tudomany",
}


@pytest.fixture(scope="module")
def pcs() -> list[dict]:
    return make("savage", "pc", count=PCS, seed=1201)


def _traits(char: dict) -> set[str]:
    return {e["id"] for e in char["elonyok"]} | {h["id"] for h in char["hatranyok"]}


def _weapons(char: dict) -> list[str]:
    return [i["id"] for i in char["felszereles"] if i["tipus"] in ("kozelharci", "tavolsagi")]


def test_no_two_traits_that_contradict_each_other(pcs):
    seen = dict.fromkeys(range(len(CLASHES)), 0)
    for char in pcs:
        traits = _traits(char)
        for n, (left, right) in enumerate(CLASHES):
            assert not (traits & left and traits & right), (char["seed"], traits)
            seen[n] += bool(traits & left)
    assert all(seen.values()), seen  # every left side does occur: the pairs are tested


def test_no_trait_that_contradicts_the_concept(pcs):
    met = 0
    for char in pcs:
        for flaw in _traits(char) & set(CONCEPT_CLASHES):
            met += 1
            assert char["template"] not in CONCEPT_CLASHES[flaw], (char["seed"], flaw)
    assert met > 200


def test_a_pacifist_carries_no_weapon_and_knows_no_wounding_power(pcs):
    pacifists = [c for c in pcs if _traits(c) & {"pacifista", "pacifista_sulyos"}]
    assert len(pacifists) > 50
    casters = 0
    for char in pacifists:
        assert not _weapons(char), (char["seed"], _weapons(char))
        powers = (char.get("arkan_hatter") or {}).get("hatalmak") or ()
        casters += bool(powers)
        for power in powers:
            assert "fegyver" not in POWERS[power["id"]].get("tags", ()), (char["seed"], power)
    assert casters > 5


def test_arcane_skills_only_with_their_arcane_background(pcs):
    arcane = 0
    for char in pcs:
        traits = _traits(char)
        for skill, background in ARCANE_SKILLS.items():
            if skill in char["kepzettsegek"]:
                arcane += 1
                assert background in traits, (char["seed"], skill, sorted(traits))
    assert arcane > 100


def test_an_illiterate_character_does_no_research(pcs):
    illiterate = [c for c in pcs if "irastudatlan" in _traits(c)]
    assert len(illiterate) > 20
    for char in illiterate:
        assert not {"kutatas", "akademikus_ismeretek"} & set(char["kepzettsegek"]), char["seed"]


def test_every_skill_edge_and_item_exists_in_the_characters_era(pcs):
    edges = by_id(TABLES, "elonyok")
    by_era = dict.fromkeys(("kozepkor", "modern"), 0)
    for char in pcs:
        era = char["korszak"]
        by_era[era] += 1
        for skill in char["kepzettsegek"]:
            when = SKILLS[skill].get("when", {}).get("korszak")
            assert when in (None, era), (char["seed"], era, skill)
        for edge in char["elonyok"]:
            when = edges[edge["id"]].get("when", {}).get("korszak")
            assert when in (None, era), (char["seed"], era, edge["id"])
        for item in char["felszereles"]:
            assert era in ITEMS[item["id"]]["korszak"], (char["seed"], era, item["id"])
    assert min(by_era.values()) > PCS // 5


@pytest.mark.parametrize("era", ["kozepkor", "modern"])
@pytest.mark.parametrize("tough", [None, "szivos", "nagyon_szivos"])
def test_npcs_fit_their_era_and_their_epithets_fit_the_creature(era: str, tough: str | None):
    options = {"korszak": era} | ({"tough": tough} if tough else {})
    epithets = TABLES["jelzok"].entries
    npcs = make("savage", "npc", count=600, seed=77, options=options)
    templates = {c["template"] for c in npcs}
    assert len(templates) >= 8
    for char in npcs:
        template = TEMPLATES[char["template"]]
        assert template.get("when", {}).get("korszak", era) == era, (char["name"], era)
        for item in char["felszereles"]:
            if item["tipus"] != "termeszetes":
                assert era in ITEMS[item["id"]]["korszak"], (char["name"], item["id"])
        if template.get("szemelynev", True):
            continue
        words = char["name"].lower()
        for epithet in epithets:
            if epithet["name"].lower() + " " in words or epithet["name"].lower() + "," in words:
                fits = epithet.get("when", {}).get("sablon")
                assert fits is None or char["template"] in fits, (char["name"], epithet["id"])


def test_the_reviewers_cases_are_gone_over_every_concept():
    """The native reviewer's finds, concept by concept: no Pacifista (of either grade)
    among the fighters, no Lassú beside Gyors, no Csúnya beside Karizmatikus."""
    for concept in sorted(FIGHTERS):
        for char in make("savage", "pc", count=150, seed=3, options={"template": concept}):
            traits = _traits(char)
            assert not traits & {"pacifista", "pacifista_sulyos"}, (concept, char["seed"])
    pairs = [(a, b) for left, right in CLASHES[:4] for a, b in itertools.product(left, right)]
    for flaw, edge in pairs:
        options = {"elony": [edge]}
        for char in make("savage", "pc", count=40, seed=9, options=options):
            assert flaw not in _traits(char), (flaw, edge, char["seed"])
