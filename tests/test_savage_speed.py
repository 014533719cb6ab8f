"""Savage's NPC batches on the engine's one batch path (issues 10 and 20).

What a template fixes is worked out once per batch (`ctx.memo`): its stat blocks,
their alaptulajdonságok and képzettségek, its Előnyök, Hátrányok and gear. A member
carries those very objects, so the batch encodes each once (chargen.encode.Lines);
tests/test_batch.py holds every member to itself made alone, byte for byte. These
tests hold the sharing to what it promises, and the names to Faker's lists.
"""

from __future__ import annotations

import json

import pytest
from conftest import make

from chargen import output
from chargen.encode import Lines, compact
from chargen.procedure import Character
from chargen.systems import load

SYSTEM = load("savage")
SHARED = ("alaptulajdonsagok", "kepzettsegek", "elonyok", "hatranyok", "felszereles")


@pytest.mark.parametrize(
    "options, count",
    [
        ({}, 3000),
        ({"squad": True}, 40),
        ({"squad": True, "template": "farkas"}, 40),
        ({"wild_card": True}, 300),
        ({"tough": "nagyon_szivos", "korszak": "modern"}, 300),
        ({"template": "medve"}, 1000),
    ],
)
def test_members_carry_the_batchs_shared_values_and_lines_are_the_encoders(
    options: dict, count: int
) -> None:
    chars = make("savage", "npc", count=count, seed=31, options=options)
    line = Lines().line
    blocks: dict[str, set[int]] = {}
    for char in chars:
        for key in SHARED:  # the memo's own object, registered for the encoder
            found = char.constants.get(id(char[key]))
            assert found is not None and found[0] is char[key], key
        blocks.setdefault(char["template"], set()).add(id(char["alaptulajdonsagok"]))
        text = line(char)
        assert text == compact(char) + "\n"
        assert json.loads(text) == char
    # a member's stat block is one of its template's `mellekszereplo_valtozatok`
    most = SYSTEM.tables()["beallitasok"].settings["mellekszereplo_valtozatok"]
    assert all(len(ids) <= most for ids in blocks.values())
    if options.get("squad"):
        assert [len(ids) for ids in blocks.values()] == [1]


def test_jsonl_format_is_the_encoders_text_and_a_replaced_field_is_encoded_as_it_is() -> None:
    chars = make("savage", "npc", count=50, seed=8)
    lines = list(output.render(SYSTEM, SYSTEM.tables(), iter(chars), "jsonl", 50))
    assert lines == [compact(c) + "\n" for c in chars]
    char = Character(chars[0])
    char.constants = chars[0].constants
    char["alaptulajdonsagok"] = {**char["alaptulajdonsagok"], "ero": "d12+9"}  # not shared
    char["szivossag"] = 99
    decoded = json.loads(Lines().line(char))
    assert decoded["alaptulajdonsagok"]["ero"] == "d12+9" and decoded["szivossag"] == 99
    assert decoded["kepzettsegek"] == chars[0]["kepzettsegek"]


def test_person_names_agree_with_gender_and_some_carry_a_second_given_name() -> None:
    from chargen.names import picker

    lists = picker("hu_HU")
    chars = make("savage", "npc", count=2000, seed=5)
    people = [c for c in chars if c.get("nem")]
    assert len(people) > 500
    female = set(lists.given["female"].names)
    male = set(lists.given["male"].names)
    second = 0
    for char in people:
        given = char["name"].split()[1:]
        assert set(given) <= (female if char["nem"] == "nő" else male), char["name"]
        second += len(given) == 2
    assert 0.15 < second / len(people) < 0.35  # masodik_utonev_esely = 25
