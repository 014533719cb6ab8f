"""`chargen lef pc --interactive` walked through a pseudo-terminal, as a Danish player would:
blodarv, personlighed and its ekspertise, the evnepoint (keeping the drawn spread or giving
each evne its value), each forbedring, each stjerne's track and Alsidig's free stjerner, all
asked in Danish within 80 columns, and every answer in the historik."""

from __future__ import annotations

import json
import re

from conftest import make

from chargen.systems import load

TABLES = load("lef").tables()
ENGLISH = re.compile(r"\b(Choose|choose|number|random|empty|Keep|yes|no)\b")


def _number(evne: str) -> str:
    """The prompt for one evne's value (successive prompts share a paragraph)."""
    return rf"\b{evne} \(\d+–\d+[^)]*\):$"


def _walk(args, answers, default=""):
    from pty_walk import walk

    return walk(["lef", "pc", "--interactive", "-f", "json", *args], answers, default=default)


def test_a_whole_walk_in_danish_with_every_answer_recorded():
    answers = [
        ("^Vælg Blodarv", "vanaætlinge"),
        ("^Vælg Personlighed", "militant"),
        ("^Vælg Personlighedens ekspertise", "Kommandoråb"),
        ("^Behold den slåede fordeling", "nej"),
        (_number("Fysik"), "10"),
        (_number("Karisma"), "10"),
        (_number("Sanse"), "0"),
        (_number("Sind"), "0"),
        (_number("Snilde"), "0"),
        (_number("Styrke"), "6"),
        (_number("Bioalkymi"), "0"),
        (_number("Feltkunst"), "0"),
        (_number("Kultur"), "10"),
        ("^Vælg Forbedring for Fysik, der har nået 5", "helbred"),
        ("^Vælg Forbedring for Fysik, der har nået 10", "liv"),
        ("^Vælg Forbedring for Karisma, der har nået 5", "stjerne"),
        ("^Vælg Sporet til stjernen", "levned"),
        ("^Vælg Forbedring for Kultur, der har nået 5", "kraft"),
        ("^Vælg Forbedring for Kultur, der har nået 10", "stjerne"),
        ("^Vælg Sporet til stjernen", "de ulovlige markeder"),
        ("^Vælg Sporet til en af Alsidigs", "prygl"),
        ("^Vælg Sporet til en af Alsidigs", "prygl"),
    ]
    run = _walk(["--seed", "1"], answers)
    assert run.code == 0, run.stderr[-3000:]
    for prompt in run.prompts:
        assert not ENGLISH.search(prompt), prompt
    assert all(len(line) <= 80 for line in run.stderr.splitlines()), max(
        run.stderr.splitlines(), key=len
    )
    char = json.loads(run.stdout)[0]
    assert (char["blodarv"], char["personlighed"]) == ("vanaaetlinge", "militante")
    assert char["ekspertiser"][1]["id"] == "kommandorab"
    values = {**char["talenter"], **char["kundskaber"]}
    assert values == {
        "fysik": 10, "karisma": 10, "sanse": 0, "sind": 0, "snilde": 0, "styrke": 6,
        "bioalkymi": 0, "feltkunst": 0, "kultur": 10, "mytologi": 0, "okkultisme": 0,
        "teknologi": 0,
    }  # fmt: skip
    gained = {(f["evne"], f["ved"]): f for f in char["forbedringer"]}
    assert gained["fysik", 5]["forbedring"] == "helbred"
    assert gained["fysik", 10]["forbedring"] == "liv"
    assert gained["karisma", 5]["spor"] == "levned"
    assert gained["kultur", 5]["forbedring"] == "kraft"
    assert gained["kultur", 10]["spor"] == "de_ulovlige_markeder"
    alsidig = [e for e in char["historik"] if e.get("choice") == "fri_stjerne_alsidig"]
    assert [e["id"] for e in alsidig] == ["prygl", "prygl"]
    assert {"vital", "mental", "alsidig"} <= {e["id"] for e in char["ekspertiser"]}
    assert char["stjerner"]["prygl"] == 2  # Alsidig's two; Kamptrænet was not chosen
    asked = {e["ask"]: e for e in char["historik"] if "ask" in e}
    assert asked["behold_evner"]["value"] is False and asked["behold_evner"]["by"] == "prompt"
    assert asked["fysik"]["value"] == 10 and asked["kultur"]["by"] == "prompt"
    # the rest of the budget left Mytologi, Okkultisme and Teknologi no choice: not asked
    assert not any(re.search(_number(e), p) for e in ("Mytologi", "Teknologi") for p in run.prompts)


def test_empty_answers_keep_the_drawn_character_and_say_what_the_dice_gave():
    run = _walk(["--seed", "7"], [])
    assert run.code == 0, run.stderr[-3000:]
    char = json.loads(run.stdout)[0]
    drawn = make("lef", "pc", seed=7)[0]
    same = ("blodarv", "personlighed", "talenter", "kundskaber", "forbedringer", "stjerner")
    assert {k: char[k] for k in same} == {k: drawn[k] for k in same}
    assert run.stderr.count("Terningerne gav:") >= len(run.prompts) - 1
    assert run.prompts[0].startswith("Vælg Blodarv")
    assert any(p.startswith("Behold den slåede fordeling") for p in run.prompts)
