"""Savage --interactive, whole and in Hungarian, through a pseudo-terminal: concept,
era, how many Hátrányok and which, how their points are spent, the attribute steps, the
skill points, the Előnyök, the powers and the gear."""

from __future__ import annotations

import json

from pty_walk import walk

ANSWERS = [
    (r"Súlyos hátrány", "1"),
    (r"Enyhe hátrány", "2, 3"),
    (r"alaptulajdonság-lépés", "1"),
    (r"további Előny", "0"),
    (r"képzettségpont", "1"),
    (r"Ügyesség: lépések", "0"),
    (r"Ész: lépések", "1"),
    (r"Lélek: lépések", "4"),
    (r"Erő: lépések", "0"),
    (r"Elfogadod", "nem"),
    (r"^Hit \(", "3"),
    (r"Válassz: Előny", "1"),
    (r"Hatalmak", "1, 2, 3"),
    (r"Felszerelés", "1"),
]


def test_the_whole_walk_in_hungarian_and_each_answer_taken():
    # the concept prompt itself is walked by tests/test_presentation.py; here it is given
    args = ["savage", "pc", "--interactive", "--template", "pap", "--seed", "5", "-f", "json"]
    run = walk(args, ANSWERS)
    assert run.code == 0, run.stderr
    for prompt in run.prompts:
        assert "Choose" not in prompt and "random" not in prompt, prompt
    asked = " ".join(run.prompts)
    for word in (
        "Súlyos hátrány",
        "Enyhe hátrány",
        "Hátránypontokból",
        "lépések d4 fölé",
        "Elfogadod",
        "Előny",
        "Hatalmak",
        "Felszerelés",
    ):
        assert word in asked, word
    char = json.loads(run.stdout)[0]
    assert char["template"] == "pap" and char["arkan_hatter"]["id"] == "csodatetel"
    flaws = char["hatranyok"]
    assert [h["sulyossag"] for h in flaws] == ["sulyos", "enyhe", "enyhe"]
    points = char["hatrany_pontok"]
    assert points == {"osszes": 4, "tulajdonsag": 1, "elony": 0, "kepzettseg": 1, "penz": 1}
    attrs = char["alaptulajdonsagok"]
    assert (attrs["ugyesseg"], attrs["esz"], attrs["lelek"], attrs["ero"]) == (
        "d4",
        "d6",
        "d12",
        "d4",
    )
    assert attrs["allokepesseg"] == "d6"  # the last one takes the steps left (6 in all)
    assert char["kepzettsegek"]["hit"] == "d10"  # d4 the Előny needs, then 3 steps asked
    assert len(char["arkan_hatter"]["hatalmak"]) == 3
    assert len(char["felszereles"]) == 1
    assert char["kezdo_penz"] == 500 + 1000 and char["penz"] == 1500 - char["felszereles"][0]["ar"]
    hows = [e.get("by") for e in char["historik"] if "by" in e]
    assert hows.count("prompt") >= 10
    assert any(e.get("ask") == "lepes_lelek" and e["value"] == 4 for e in char["historik"])
