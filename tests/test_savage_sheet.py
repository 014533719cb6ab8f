"""Savage sheets that carry their rules: Előnyök and Hátrányok with their effect, the rank,
the wound penalty, each item's rules in the sheet and in the JSON (issue 14)."""

from __future__ import annotations

import pytest
from conftest import by_id, make

from chargen.output import render
from chargen.systems import load

SYSTEM = load("savage")
TABLES = SYSTEM.tables()
ITEMS = by_id(TABLES, "felszereles")
EDGES = by_id(TABLES, "elonyok")
FLAWS = by_id(TABLES, "hatranyok")
RULE_KEYS = (
    "min_ero",
    "ketkezes",
    "eleres",
    "dobhato",
    "lovedek_ellen",
    "talalat",
    "ujratoltes",
    "lovesek",
    "sebzes",
    "pancel_tores",
    "lotav",
    "tgy",
    "pancel",
    "hely",
    "haritas",
)


@pytest.fixture(scope="module")
def pcs() -> list[dict]:
    return make("savage", "pc", count=400, seed=11)


def _sheet(char: dict) -> str:
    """The sheet with its wrapped lines joined, so a rules text reads as one line."""
    return " ".join("".join(render(SYSTEM, TABLES, [char], "table", 1)).split())


def test_json_items_carry_their_rules_fields(pcs):
    seen = set()
    for char in pcs + make("savage", "npc", count=400, seed=11):
        for item in char["felszereles"]:
            entry = ITEMS[item["id"]]
            for key in RULE_KEYS:
                assert item.get(key) == entry.get(key), (item["id"], key)
                seen.update(k for k in RULE_KEYS if k in item)
    assert {"min_ero", "ketkezes", "eleres", "dobhato", "lovesek", "ujratoltes"} <= seen


def test_the_documents_item_rules_reach_the_sheet():
    # the Kevlar vest, the shotgun, the crossbow, the spear, a thrown dagger
    assert ITEMS["golyoallo_melleny"]["lovedek_ellen"] == 4
    assert ITEMS["soretes_puska"]["talalat"] == 2
    assert ITEMS["szamszerij"]["ujratoltes"] == 1
    assert ITEMS["landzsa"]["eleres"] == 1 and ITEMS["landzsa"]["ketkezes"]
    assert ITEMS["tor"]["dobhato"]
    from chargen.systems.savage.rules import item_row
    from chargen.systems.savage.sheet import item_rules

    char = {"alaptulajdonsagok": {"ero": "d6"}, "hatranyok": [], "elonyok": []}
    text = {i: item_rules(item_row(ITEMS[i]), char, TABLES) for i in ITEMS}
    assert "+4 lövedék ellen" in text["golyoallo_melleny"]
    assert "+2 a támadásra" in text["soretes_puska"]
    assert "Újratöltés 1 cselekvés" in text["szamszerij"]
    assert "Elérés 1" in text["landzsa"] and "kétkezes" in text["landzsa"]
    assert "dobható" in text["tor"]
    assert "(törzs, kar, láb)" in text["lancing"] and "min. Erő d8" in text["lancing"]
    assert "Erő alatt: -1" in text["lancing"]  # Erő d6 against d8: the penalty shows
    kover = {"alaptulajdonsagok": {"ero": "d8"}, "hatranyok": [{"id": "kover"}], "elonyok": []}
    assert "Erő alatt: -1" in item_rules(item_row(ITEMS["lancing"]), kover, TABLES)


def test_sheet_shows_rank_wound_penalty_and_each_effect(pcs):
    for char in pcs[:60]:
        text = _sheet(char)
        assert "Rang" in text and "Újonc" in text
        assert "Sebbüntetés" in text and "legfeljebb -3" in text
        for flaw in char["hatranyok"]:
            assert " ".join(FLAWS[flaw["id"]]["description"].split()) in text
            assert flaw["hatas"] == FLAWS[flaw["id"]]["description"]
        for edge in char["elonyok"]:
            assert " ".join(EDGES[edge["id"]]["description"].split()) in text
            assert edge["rang"] == EDGES[edge["id"]]["rang"]
        assert char["rang"] == "ujonc" and char["sebbuntetes_max"] == 3


def test_hungarian_fixes_on_the_sheet():
    skills = {e["id"]: e["name"] for e in TABLES["kepzettsegek"].entries}
    assert skills["hackeles"] == "Hekkelés"
    assert skills["akademikus_ismeretek"] == "Akadémiai ismeretek"
    assert "vakon hisz" in FLAWS["vak_hit"]["description"].lower()
    assert FLAWS["nagyothallo_sulyos"]["name"] == "Teljesen süket"
    assert "Nyelvismeret" in EDGES["nyelvzseni"]["description"]
    zombie = next(e for e in TABLES["mellekszereplok"].entries if e["id"] == "zombi")
    line = next(k for k in zombie["kulonleges"] if k.startswith("Élőhalott"))
    assert line.endswith(".") and "Megzavart további Megzavarástól Sebbe" not in line


@pytest.mark.parametrize("width", [80, 60])
@pytest.mark.parametrize("kind", ["npc", "pc"])
def test_roster_explains_its_abbreviations_and_names_what_did_not_fit(kind: str, width: int):
    labels = TABLES.labels
    chars = make("savage", kind, count=12, seed=21)
    text = "".join(render(SYSTEM, TABLES, iter(chars), "table", 12, width=width))
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= width
    header = lines[0].split()
    legend = " ".join(line.strip() for line in lines[lines.index("") + 1 :])
    full = {labels.label(k): k for k in labels.labels}
    for word in header:  # every shortened header is spelled out under the roster
        if word not in full:
            assert f"{word} = " in legend, (word, legend)
    # the columns left out are named (Hárítás and Szívósság are the last to go)
    assert "Nem fért ki" in legend
    assert any(h in header for h in ("Hár", "Hárítás"))
    assert any(h in header for h in ("Szív", "Szívóss.", "Szívósság"))
    # a Hungarian reader's words: the legend has no id, no Python value
    assert "_" not in legend and "None" not in legend and "True" not in legend


def test_squad_sheet_shows_the_seed_not_the_squad_id():
    chars = make("savage", "npc", count=4, seed=3, options={"template": "katona", "squad": True})
    text = "".join(render(SYSTEM, TABLES, iter(chars), "table", 4))
    assert "katona-3" not in text and "Mag" in text


def test_the_hatalmak_step_alone_says_why_a_character_has_no_power():
    from chargen.procedure import generate

    step = SYSTEM.step("hatalmak")
    for char in generate(SYSTEM, TABLES, "pc", {"template": "harcos"}, 3, 4, step="hatalmak"):
        text = "".join(render(SYSTEM, TABLES, iter([char]), "table", 1, step))
        assert "Mágikus háttér" in text and "Nincs" in text
