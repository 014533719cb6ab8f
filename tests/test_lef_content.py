"""LEF content a Danish reader takes as written (issue 25, lef): no two ekspertiser with
the same effect, one headline per ekspertise in --list, "Begge" never read as a name,
interactive headings and evne names capitalised."""

from __future__ import annotations

import re

from conftest import make, run
from pty_walk import walk

from chargen.systems import load

TABLES = load("lef").tables()
EFFECT_KEYS = ("bytte", "fokus", "loftbonus", "stjerner", "frie_stjerner")


def _effect(entry: dict) -> tuple:
    return tuple((k, repr(entry[k])) for k in EFFECT_KEYS if k in entry)


def test_no_character_holds_two_ekspertiser_with_the_same_effect():
    eks = TABLES["ekspertiser"]
    twice = []
    for char in make("lef", "pc", count=6000, seed=2564):
        effects = [_effect(eks.get(e["id"])) for e in char["ekspertiser"]]
        effects = [e for e in effects if e]  # those without a shared effect key are unique
        if len(effects) != len(set(effects)):
            twice.append((char["seed"], [e["id"] for e in char["ekspertiser"]]))
    assert not twice, twice[:5]


def test_the_issues_character_holds_no_repeated_exchange():
    [char] = make("lef", "pc", seed=1145664300318373)
    held = {e["id"] for e in char["ekspertiser"]}
    assert not {"manakraft", "ritual"} <= held


def test_praecision_has_one_headline_in_list():
    out = run("lef", "tilstande", "--list", "--width", "300").stdout  # ekspertiser too
    line = next(x for x in out.splitlines() if "Præcision:" in x)
    assert line.count("Overskrift") == 1 and "FOKUS KRAFT | AUTO" in line, line
    assert "HELBRED +1 | KRAFT" not in out


def test_begge_is_no_name():
    names = " ".join(c["name"] for c in make("lef", "npc", count=3000, seed=607820174125))
    assert "Begge" not in names.split()
    assert "Begge" not in (TABLES["navne_wittgenval"].text or "")


def test_interactive_headings_and_evne_names_are_capitalised():
    run_ = walk(["lef", "pc", "--interactive", "--seed", "3", "-f", "json"], default="")
    assert run_.code == 0, run_.stderr
    headings = [x for x in run_.stderr.splitlines() if re.match(r"^\S.*:$", x)]
    assert headings
    for heading in headings:
        assert heading[0].isupper(), heading
    asked = " ".join(run_.prompts)
    assert "Forbedring for Sind, der har nået 5" in asked, asked
    assert not re.search(r"for (fysik|karisma|sanse|sind|snilde|styrke|bioalkymi)\b", asked)
