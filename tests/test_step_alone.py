"""A step run alone (`chargen SYSTEM STEP`) prints the envelope, name included, and its
own fields as the whole character has them (those no later step changes): each step draws from its own stream, so
the steps a step alone walks for its name (the naming step, after the later steps it
reads) change nothing it shows."""

from __future__ import annotations

import pytest
from conftest import run

from chargen.procedure import ENVELOPE, generate
from chargen.systems import load

SYSTEMS = ("matinee", "spelsystemet", "karma", "lef", "savage")


@pytest.mark.parametrize("sid", SYSTEMS)
def test_every_step_alone_has_the_whole_characters_name_and_fields(sid):
    system = load(sid)
    tables = system.tables()
    whole = list(generate(system, tables, "pc", {}, 300, 11, unique_names=False))
    for at, step in enumerate(system.pc):
        if not step.command:
            continue
        later = {f for s in system.pc[at + 1 :] for f in s.fields}  # they change these
        alone = list(generate(system, tables, "pc", {}, 300, 11, step=step.id))
        for char, part in zip(whole, alone, strict=True):
            assert part["step"] == step.id
            assert isinstance(part["name"], str) and part["name"], (step.id, part)
            for key in (*ENVELOPE[:5], *step.fields):
                if key in char and key not in later:
                    assert part[key] == char[key], (step.id, key, part["seed"])
            assert all(e["step"] == step.id for e in part.get("historik", []))


def test_a_step_alone_rerolls_its_name_and_shows_it_in_its_roster():
    plain = run("spelsystemet", "genre", "--seed", "4", "-f", "jsonl")
    renamed = run("spelsystemet", "genre", "--seed", "4", "--reroll", "name", "-f", "jsonl")
    assert plain.exit_code == renamed.exit_code == 0, plain.stderr + renamed.stderr
    assert '"genre":' in plain.stdout and plain.stdout != renamed.stdout
    roster = run("spelsystemet", "genre", "--seed", "4", "-n", "3")
    assert roster.stdout.startswith("Namn"), roster.stdout
    refused = run("spelsystemet", "genre", "--seed", "4", "--reroll", "yrke")
    assert refused.exit_code == 2 and "Valid: genre, namn, name" in refused.stderr, refused.stderr
