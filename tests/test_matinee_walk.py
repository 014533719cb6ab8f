"""`chargen matinee pc --interactive` through a pseudo-terminal, as a player walks it:
every choice the document gives the player is asked, in Swedish, and each answer
is what the character is made of (and is recorded as `prompt` in the historik)."""

from __future__ import annotations

import json

from pty_walk import walk

ENGLISH = ("Choose", "random", "number or id", "empty for")


def _prompted(char: dict) -> dict:
    """What the historik says was answered at the prompt: option -> value (or id)."""
    out = {}
    for event in char["historik"]:
        if event.get("by") != "prompt":
            continue
        key = event.get("choice") or event.get("ask")
        out.setdefault(key, []).append(event.get("id", event.get("value")))
    return out


def _swedish(run) -> None:
    assert run.code == 0, run.stderr
    for prompt in run.prompts:
        assert not any(word in prompt for word in ENGLISH), prompt
    assert "Traceback" not in run.stderr


def test_a_soldier_walked_through_every_choice():
    # seed 2: at seed 3 both items are Enkelskott's, whose +5 cap leaves one point unspent
    run = walk(
        ["matinee", "pc", "--interactive", "--seed", "2", "--spend-hjaltepoang", "-f", "json"],
        [
            ("Välj Megakorporation", "Capitol"),
            ("Välj Arketyp", "soldat"),
            ("Antal karriärer", "3"),
            ("Välj 3 Karriär", "infanterist, polis, livvakt"),
            ("Välj 2 Kategori", "1, 2"),
            ("Välj Beskrivningsord \\(utseende", "2"),
            ("Välj Beskrivningsord \\(ageranden", "Knackar på trä"),
            ("Första beskrivningsordet", "Hostar blod"),
            ("Andra beskrivningsordet", ""),
            ("Välj Hjältepoäng på en höjning", "Tillgångar"),
            ("Utrustning:", "1"),
            ("Hitta på ett föremål", "Kikarsikte med mörkerseende"),
            ("Välj Färdighet som föremålet", "Enkelskott"),
        ],
        default="",
    )
    _swedish(run)
    char = json.loads(run.stdout)[0]
    answered = _prompted(char)
    assert char["megakorporation"] == "capitol" and char["arketyp"] == "soldat"
    assert [k["id"] for k in char["karriarer"]] == ["infanterist", "polis", "livvakt"]
    assert answered["antal_karriarer"] == [3]
    words = [w["ord"] for w in char["beskrivningsord"]]
    assert words == ["Hostar blod", "Knackar på trä"]
    assert char["beskrivningsord"][0]["kategori"] == "eget"
    (raise_,) = char["hojningar"]
    assert raise_["typ"] == "tillgangar" and answered["hojning"] == ["tillgangar"]
    # the raise came before utrustning: the budget is half the Tillgångar after it
    assert sum(i["bonus"] for i in char["utrustning"]) == (char["tillgangar"] + 1) // 2
    names = [i["namn"] for i in char["utrustning"]]
    assert char["utrustning"][0]["vapen"] and "Kikarsikte med mörkerseende" in names
    own = next(i for i in char["utrustning"] if i["namn"] == "Kikarsikte med mörkerseende")
    assert own["fardighet"] == "enkelskott" and own["bonus"] >= 1
    assert {"megakorporation", "arketyp", "karriar", "utrustning", "eget_foremal"} <= set(answered)


def test_a_mystic_chooses_her_inriktningar_and_what_a_raise_goes_to():
    run = walk(
        ["matinee", "pc", "--interactive", "--seed", "6", "--spend-hjaltepoang", "-f", "json"],
        [
            ("Välj Megakorporation", "7"),
            ("Välj Arketyp", "Mystiker"),
            ("Antal karriärer", "2"),
            ("Välj 2 Karriär", "missionar, lakare"),
            ("Välj Hjältepoäng på en höjning", "Grundegenskap"),
            ("Välj Grundegenskap att höja", "Psyke"),
            ("Välj 3 Inriktning", "1, 3, Mentalismen"),  # seed 6: Psyke 3, the raise fails
        ],
        default="",
    )
    _swedish(run)
    char = json.loads(run.stdout)[0]
    assert char["megakorporation"] == "brodraskapet" and char["arketyp"] == "mystiker"
    assert [k["id"] for k in char["karriarer"]] == ["missionar", "lakare"]
    (raise_,) = char["hojningar"]
    assert raise_["typ"] == "grundegenskap" and raise_["mal"] == "psyke"
    assert char["grundegenskaper"]["psyke"] == 3
    assert char["konsten"] == ["exorcismen", "forandringen", "mentalismen"]
    # an empty answer takes the dice and says what they gave, in Swedish
    assert "Slumpen gav:" in run.stderr


def test_a_choice_that_does_not_fit_is_asked_again_not_a_traceback():
    run = walk(
        ["matinee", "pc", "--interactive", "--seed", "3", "-f", "json"],
        [("Välj Megakorporation", "umbrella"), ("Välj Megakorporation", "1")],
        default="",
    )
    _swedish(run)
    assert json.loads(run.stdout)[0]["megakorporation"] == "bauhaus"
