"""Savage's fast NPC path (issue 10's speed) gives what the slow path would.

The batch path splices each member's JSON from text encoded once per batch, draws the
body from a stream seeded by the seed's body bits and names from pure functions of a
name seed; these tests hold each shortcut to the plain result.
"""

from __future__ import annotations

import json

import pytest
from conftest import make

from chargen import output
from chargen.systems import load, savage

SYSTEM = load("savage")


@pytest.mark.parametrize(
    "kind, options, count",
    [
        ("npc", {}, 3000),
        ("npc", {"squad": True}, 40),
        ("npc", {"squad": True, "template": "farkas"}, 40),
        ("npc", {"wild_card": True}, 300),
        ("npc", {"tough": "nagyon_szivos", "korszak": "modern"}, 300),
        ("npc", {"template": "medve"}, 300),
        ("pc", {}, 40),
    ],
)
def test_json_line_is_the_default_encoders_text(kind: str, options: dict, count: int) -> None:
    chars = make("savage", kind, count=count, seed=31, options=options)
    for char in chars:
        line = savage.json_line(char)
        assert line == output.compact(char) + "\n"
        assert json.loads(line) == char
    spliced = [c for c in chars if getattr(c.get("alaptulajdonsagok"), "link", None)]
    assert len(spliced) == (count if kind == "npc" else 0)


def test_jsonl_format_uses_the_systems_line_and_it_falls_back_when_a_field_changed() -> None:
    chars = make("savage", "npc", count=50, seed=8)
    lines = list(output.render(SYSTEM, SYSTEM.tables(), iter(chars), "jsonl", 50))
    assert lines == [output.compact(c) + "\n" for c in chars]
    char = dict(chars[0])
    char["szivossag"] = 99  # a replaced field: the whole character is encoded again
    assert json.loads(savage.json_line(char))["szivossag"] == 99
    char = {**chars[1], "extra": [1, 2]}  # a field the splice does not know
    assert json.loads(savage.json_line(char))["extra"] == [1, 2]


def test_body_stream_is_a_whole_random_seeded_by_the_body_bits() -> None:
    a, b = savage._BodyStream(5), savage._BodyStream(5 + (7 << savage.BODY_BITS))
    draws = [a.random(), a.randrange(10), a.choice("abcdef"), a.sample(range(50), 4)]
    assert draws == [b.random(), b.randrange(10), b.choice("abcdef"), b.sample(range(50), 4)]
    a.seed(6)
    values = [a.random() for _ in range(2000)]
    assert all(0.0 <= v < 1.0 for v in values)
    assert 0.45 < sum(values) / len(values) < 0.55
    a.seed(6)
    assert a.random() == values[0]
    assert savage._BodyStream(6).getrandbits(70) < 2**70


def test_person_names_are_a_function_of_the_name_seed_and_agree_with_gender() -> None:
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
