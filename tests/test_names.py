"""Names that never repeat (issue 21): within a batch, a squad or a band no two
characters share a name (a person's full name, a creature's epithet), each member
made again from its recorded seed is itself, name included, and a name space too
small for the batch is said once on stderr, the rest numbered.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from conftest import run

from chargen.context import Context
from chargen.encode import compact
from chargen.procedure import generate, make_character
from chargen.systems import load

SYSTEMS = ("matinee", "spelsystemet", "karma", "lef", "savage")
BATCH = 5_000
PER_TEMPLATE = 300
NUMBERED = re.compile(r"^(.*) (\d+)$")


def _repeats(names) -> dict:
    return {n: k for n, k in Counter(names).items() if k > 1}


@pytest.mark.parametrize("sid", SYSTEMS)
def test_a_big_batch_repeats_no_name_and_each_member_is_its_seed(sid):
    system = load(sid)
    tables = system.tables()
    warnings: list[str] = []
    batch = list(generate(system, tables, "npc", {}, BATCH, 2026, warn=warnings.append))
    assert _repeats(c["name"] for c in batch) == {}
    assert len(warnings) <= 1  # said once, at the end
    # each member from its recorded seed alone (one context, as `generate` would make it)
    ctx = Context(system, tables, "npc", {}, 1, 0)
    ctx.steering()
    steps = system.steps("npc")
    for char in batch:
        ctx.start(char["seed"], 0)
        alone = make_character(ctx, steps)
        alone["recipe"] = f"chargen {sid} npc --seed {char['seed']}"
        numbered = NUMBERED.match(char["name"])
        if numbered and alone["name"] == numbered.group(1):
            alone["name"] = char["name"]  # its name space ran out: itself but the number
        assert compact(alone) == compact(char), f"{sid} npc --seed {char['seed']}"
        assert char["recipe"] == alone["recipe"]


@pytest.mark.parametrize("sid", SYSTEMS)
def test_no_template_repeats_a_name(sid):
    system = load(sid)
    tables = system.tables()
    table = next(o.table for o in system.npc_options if o.key == "template")
    for template in tables[table].ids:
        warnings: list[str] = []
        names = [
            c["name"]
            for c in generate(
                system, tables, "npc", {"template": template}, PER_TEMPLATE, 5, warn=warnings.append
            )
        ]
        assert _repeats(names) == {}, (sid, template)
        assert len(warnings) <= 1
        if warnings:  # the numbered ones follow a name the batch already has
            assert "numbered" in warnings[0]
            numbered = [NUMBERED.match(n).group(1) for n in names if NUMBERED.match(n)]
            assert numbered and set(numbered) <= set(names), (sid, template)


@pytest.mark.parametrize(("sid", "option"), [("savage", "--squad"), ("karma", "--band")])
def test_a_squad_or_band_repeats_no_name(sid, option):
    result = run(sid, "npc", option, "-n", "200", "--seed", "8", "-f", "jsonl")
    assert result.exit_code == 0, result.stderr
    names = [line.split('"name":"', 1)[1].split('"', 1)[0] for line in result.stdout.splitlines()]
    assert len(names) == 200 and _repeats(names) == {}


def test_the_nekromutants_of_the_issue_have_six_names():
    result = run("matinee", "npc", "--template", "nekromutant", "-n", "6", "-f", "jsonl")
    names = [line.split('"name":"', 1)[1].split('"', 1)[0] for line in result.stdout.splitlines()]
    assert len(set(names)) == 6


def test_names_that_run_out_are_said_once_and_numbered():
    result = run("lef", "npc", "--template", "ulv", "-n", "40", "--seed", "1", "-f", "jsonl")
    assert result.exit_code == 0
    assert result.stderr.count("the names ran out") == 1 and "numbered" in result.stderr
    names = [line.split('"name":"', 1)[1].split('"', 1)[0] for line in result.stdout.splitlines()]
    assert _repeats(names) == {} and any(NUMBERED.match(n) for n in names)


def _kept_for_every_member(monkeypatch):
    """UniqueNames as it would be keeping the state before naming for every member."""
    from chargen import procedure

    monkeypatch.setattr(
        procedure.UniqueNames,
        "last_spent",
        property(lambda s: False, lambda s, v: None),
        raising=False,
    )


def test_a_batch_whose_names_ran_out_is_the_batch_that_keeps_every_state(monkeypatch):
    """karma names every NPC in one space (its naming step reads nothing): once that
    space has run out, a member keeps no copy of its state before naming (it will be
    numbered, not renamed). The batch, which forgets its names twice here and fills
    the space again, is the batch that keeps the copy for every member."""
    from chargen import procedure

    system = load("karma")._replace(unique_names=12_000)  # forgets twice in 30,000
    tables = system.tables()
    kept = []
    state = procedure.UniqueNames._state
    monkeypatch.setattr(
        procedure.UniqueNames, "_state", staticmethod(lambda c, x: kept.append(1) or state(c, x))
    )
    lazy = [compact(c) for c in generate(system, tables, "npc", {}, 30_000, 4)]
    assert len(kept) < 30_000 // 2, "members whose space ran out still kept their state"
    _kept_for_every_member(monkeypatch)
    assert lazy == [compact(c) for c in generate(system, tables, "npc", {}, 30_000, 4)]


def test_a_rename_without_the_state_before_naming_makes_the_same_member(monkeypatch):
    """A naming step that names its space from what it does not read (a plugin's, say:
    here karma's, naming each template apart) can meet a member whose space is still
    open after one whose space ran out: its earlier steps are made again for the
    rename, and the batch is the batch that keeps every state."""
    from chargen import procedure

    plain = load("karma")
    namn = next(s for s in plain.npc if s.naming)

    def by_template(char, ctx):
        namn.run(char, ctx)
        ctx.name_space = char["template"]

    steps = [s._replace(run=by_template) if s.naming else s for s in plain.npc]
    system = plain._replace(npc=steps)
    tables = system.tables()
    again = []
    rename = procedure.UniqueNames._rename

    def counted(self, char, ctx, seed, index, before):
        again.append(before is None and ctx.name_space not in self.spent)
        return rename(self, char, ctx, seed, index, before)

    monkeypatch.setattr(procedure.UniqueNames, "_rename", counted)
    lazy = [compact(c) for c in generate(system, tables, "npc", {}, 8_000, 4)]
    assert sum(again) > 0, "no rename made a member's earlier steps again"
    _kept_for_every_member(monkeypatch)
    assert lazy == [compact(c) for c in generate(system, tables, "npc", {}, 8_000, 4)]
