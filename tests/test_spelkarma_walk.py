"""The interactive walk of spelsystemet and karma through a pseudo-terminal (issue 11/13):
every prompt in Swedish, every answer taken, an empty answer taking the flag's default."""

from __future__ import annotations

import json

from pty_walk import walk

ENGLISH = ("Choose", "random", "empty for", "number or id")


def _swedish(prompts: list[str]) -> None:
    assert prompts
    for prompt in prompts:
        assert not any(word in prompt for word in ENGLISH), prompt


def test_spelsystemet_walk_answers_every_prompt_in_swedish():
    run = walk(
        ["spelsystemet", "pc", "--interactive", "--seed", "3", "-f", "json"],
        answers=[("Genre", "1"), ("Art", "2"), ("Yrke", "riddare")],
    )
    assert run.code == 0, run.stderr
    _swedish(run.prompts)
    [char] = json.loads(run.stdout)
    assert (char["genre"], char["art"], char["yrke"]) == ("fantasy", "alv", "riddare")
    chosen = {e["choice"]: e["by"] for e in char["historik"] if "choice" in e}
    assert chosen["genre"] == chosen["art"] == chosen["yrke"] == "prompt"
    assert {"rida_hast"} <= set(char["fardigheter"])  # the riddare rides a horse


def test_spelsystemet_empty_species_answer_is_a_human():
    run = walk(
        ["spelsystemet", "pc", "--interactive", "--seed", "5", "-f", "json", "--genre", "fantasy"],
        default="",
    )
    assert run.code == 0, run.stderr
    [char] = json.loads(run.stdout)
    assert char["art"] == "manniska"
    assert any("Art" in p for p in run.prompts)
    [event] = [e for e in char["historik"] if e.get("choice") == "art"]
    assert event["by"] == "default"


def test_spelsystemet_empty_genre_and_yrke_answers_are_asked_once():
    """An empty answer to the brief Genre and Yrke menus leaves them to the dice, said on
    the terminal, without asking again with the long rows (weapons, tongues, gods)."""
    run = walk(["spelsystemet", "pc", "--interactive", "--seed", "3", "-f", "json"], default="")
    assert run.code == 0, run.stderr
    asked = [p for p in run.prompts if p.startswith(("Välj Genre", "Välj Yrke"))]
    assert len(asked) == 2, run.prompts
    assert "Närstridsvapen:" not in run.stderr  # the long rows were never shown
    [char] = json.loads(run.stdout)
    chosen = {e["choice"]: e["by"] for e in char["historik"] if "choice" in e}
    assert chosen["genre"] == chosen["yrke"] == "random"
    assert f"Slumpen gav: {char['genre_namn']}" in run.stderr
    assert f"Slumpen gav: {char['yrke_namn']}" in run.stderr


def test_spelsystemet_npc_asks_only_what_npc_has_options_for():
    run = walk(["spelsystemet", "npc", "--interactive", "--seed", "2", "-f", "json"], default="")
    assert run.code == 0, run.stderr
    _swedish(run.prompts)
    asked = " ".join(run.prompts)
    assert "Mall" in asked and "Genre" in asked
    assert "Art" not in asked and "Yrke" not in asked


def test_karma_walk_asks_bakgrunder_and_the_karma_hand():
    run = walk(
        ["karma", "pc", "--interactive", "--seed", "4", "-f", "json"],
        answers=[("Bakgrund", "munk"), ("Karma", "9")],
    )
    assert run.code == 0, run.stderr
    _swedish(run.prompts)
    [char] = json.loads(run.stdout)
    assert [b["id"] for b in char["bakgrunder"]] == ["munk"]
    assert char["karma"] == 9
    assert any(e.get("ask") == "karma" and e["by"] == "prompt" for e in char["historik"])


def test_karma_npc_walk():
    run = walk(["karma", "npc", "--interactive", "--seed", "4", "-f", "json"], default="")
    assert run.code == 0, run.stderr
    _swedish(run.prompts)
    assert any("Mall" in p for p in run.prompts)
