"""`--list` titles: a table's heading is its label or its whole first sentence, and
the description under it reads as a sentence (never a fragment cut at a colon)."""

from __future__ import annotations

import pytest
from conftest import run

from chargen.systems import available, load


def steps(sid: str) -> list[str]:
    return [step.id for step in load(sid).pc if step.command]


@pytest.mark.parametrize("sid", available())
def test_list_descriptions_start_as_sentences(sid):
    for step in steps(sid):
        result = run(sid, step, "--list", "--width", "80")
        assert result.exit_code == 0, result.stderr
        lines = result.stdout.splitlines()
        for n, line in enumerate(lines[:-2]):
            # a heading is a line underlined by dashes of its own length
            if line and lines[n + 1] == "-" * len(line):
                after = lines[n + 2]
                assert not after[:1].islower(), f"{sid} {step} --list: {line!r} / {after!r}"
                assert not line.endswith((":", ";")), f"{sid} {step} --list: {line!r}"


def test_arketyper_title_is_not_cut_at_its_colon():
    out = run("matinee", "arketyp", "--list").stdout.splitlines()
    assert out[0] == "Arketyper"
    assert out[2].startswith("Vem rollpersonen är i grunden: tärningar")
