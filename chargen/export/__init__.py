"""Exporters for the formats registered in chargen.formats (Foundry VTT, stat blocks)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator


def squad_runs(items: Iterable[dict]) -> Iterator[list[dict]]:
    """The characters in order, a run at a time: the members of one squad (the same
    `squad` id, one after another in a batch) together, any other character alone."""
    run: list[dict] = []
    for char in items:
        if run and char.get("squad") != run[0]["squad"]:
            yield run
            run = []
        if char.get("squad"):
            run.append(char)
        else:
            yield [char]
    if run:
        yield run
