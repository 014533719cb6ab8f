"""Exporters for the formats registered in chargen.formats (Foundry VTT, stat blocks)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

# The fields that make a batch one group: a savage squad, a karma band.
GROUP_FIELDS = ("squad", "band")


def group_of(char: dict) -> str | None:
    """The id of the squad or band a character belongs to, or None."""
    for field in GROUP_FIELDS:
        if char.get(field):
            return char[field]
    return None


def squad_runs(items: Iterable[dict]) -> Iterator[list[dict]]:
    """The characters in order, a run at a time: the members of one squad or band (the
    same group id, one after another in a batch) together, any other character alone."""
    run: list[dict] = []
    for char in items:
        if run and group_of(char) != group_of(run[0]):
            yield run
            run = []
        if group_of(char):
            run.append(char)
        else:
            yield [char]
    if run:
        yield run
