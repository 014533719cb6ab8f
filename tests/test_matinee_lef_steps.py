"""Matinee and LEF: a step of a batch (`chargen matinee karriarer -n 5`) reads like its
part of the sheet, one row per character, at 80 and 60 columns (issue 11)."""

from __future__ import annotations

import re

import pytest
from conftest import run

from chargen.systems import load

STEPS = {
    "matinee": [s.id for s in load("matinee").pc if s.command],
    "lef": [s.id for s in load("lef").pc if s.command],
}
CASES = [(system, step) for system, steps in STEPS.items() for step in steps]


@pytest.mark.parametrize(("system", "step"), CASES)
@pytest.mark.parametrize("width", [80, 60])
def test_a_step_batch_has_its_own_columns_and_fits(system, step, width):
    out = run(system, step, "-n", "12", "--seed", "21", "--width", str(width)).stdout
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= width, out
    head = lines[0].split("  ")
    heads = [h.strip() for h in head if h.strip()]
    assert len(heads) == len(set(heads)), heads  # no column twice
    body = "\n".join(lines[2:])
    # no field dump: no "Label value; Label value" pairs, no ids, no Python values
    assert not re.search(r"; [A-ZÆØÅ][a-zæøå]+ [A-ZÆØÅ+\d]", body.split("\n\n")[0]), out
    assert "{" not in out and "[" not in out and "True" not in out
    assert "_" not in body.split("\n\n")[0], out


def test_every_pc_step_of_both_systems_has_a_roster():
    for system, steps in STEPS.items():
        by_id = {s.id: s for s in load(system).pc}
        for step in steps:
            assert by_id[step].roster, (system, step)


def test_matinee_beskrivningsord_batch_reads_as_words():
    out = run("matinee", "beskrivningsord", "-n", "30", "--seed", "3").stdout
    assert "Kategori" not in out and "One-liners" not in out and "., " not in out
    assert re.search(r"”[^”]+”", out)  # a replik or motto, in quotation marks


def test_lef_tilstande_batch_shows_value_and_loft():
    out = run("lef", "tilstande", "-n", "5", "--seed", "3").stdout
    assert re.search(r"Helbred \d/\d", out) and "Værdi +" not in out
