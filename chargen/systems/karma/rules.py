"""Karmasystemet's terms and small rules, shared by its steps, NPCs, sheet and checks."""

from __future__ import annotations

EGENSKAPER = ("stark", "talig", "smidig", "uppmarksam", "overtygande", "stridsvan", "traffsaker")
# How an NPC's karma is kept (mallar.toml karma_typ): none, its own, or its group's.
KARMA_TYPER = ("ingen", "egen", "grupp")


def karma_typ(template: dict) -> str:
    return template.get("karma_typ", "ingen")


def between(rand, low: int, high: int) -> int:
    """A whole number from `low` to `high`, evenly, from one draw of `rand()`."""
    return low + int(rand() * (high - low + 1))


def first_name(name: str) -> str:
    return name.split()[0]
