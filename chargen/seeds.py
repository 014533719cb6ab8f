"""Seeds and random streams: one seed per batch, one per character, one stream per step.

* The first character of a batch uses the batch seed itself; later ones derive
  theirs from the batch seed and their place in it (`character_seed`).
* Each step of a procedure draws from a stream of its own, seeded from the
  character's seed and the step's id (`step_state`), so a step's draws never shift
  because an earlier step drew more or fewer numbers, and a step can be drawn again
  from another stream (`variant`, what `--reroll STEP=K` asks for) without touching
  what does not depend on it.
* A seed has two parts: its low BODY_BITS bits seed every step but the name, the
  whole seed seeds the name step. A character whose name is taken in its batch is
  made again under `renamed(seed, attempt)`: the same body, a new name, and a seed
  that regenerates it alone.

Every seed stays below 2**53, so JavaScript and spreadsheets read it back exactly.
The stream is wyrand (Wang Yi's generator: one 128-bit product per number, which
passes PractRand and BigCrush), written so that seeding is one assignment: a
Mersenne Twister costs more to seed than a whole NPC costs to make.
"""

from __future__ import annotations

import os
import random

SEED_LIMIT = 2**53
BODY_BITS = 44
BODY_MASK = (1 << BODY_BITS) - 1
NAME_SEEDS = SEED_LIMIT >> BODY_BITS  # name variants of one body
_MASK64 = 2**64 - 1
_GOLDEN = 0x9E3779B97F4A7C15
_VARIANT = 0xD1B54A32D192ED03  # what a step's stream variant adds to its seed
_UNIT = 2.0**-53


def draw_seed() -> int:
    """A fresh batch seed when the user gives none (short enough to type back)."""
    return int.from_bytes(os.urandom(4), "big")  # os, not secrets: 7 ms less start-up


def _mix(z: int) -> int:
    """splitmix64's finaliser: every input bit reaches every output bit."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def character_seed(batch_seed: int, index: int) -> int:
    """The seed of character `index` (0-based) of the batch `batch_seed`."""
    if index == 0:
        return batch_seed
    z = (batch_seed * _GOLDEN + index * 0xBF58476D1CE4E5B9) & _MASK64
    return _mix(z) % SEED_LIMIT


def renamed(seed: int, attempt: int) -> int:
    """The seed of the same character (same low BODY_BITS) with name variant `attempt`."""
    high = ((seed >> BODY_BITS) + attempt) % NAME_SEEDS
    return (seed & BODY_MASK) | (high << BODY_BITS)


def salt(word: str) -> int:
    """A stable 64-bit number for a step id (FNV-1a over its UTF-8 bytes, then mixed)."""
    h = 0xCBF29CE484222325
    for byte in word.encode("utf-8"):
        h = ((h ^ byte) * 0x100000001B3) & _MASK64
    return _mix(h)


def step_state(seed: int, step_salt: int, variant: int = 0, whole: bool = False) -> int:
    """The starting state of a step's stream: from the seed's body bits (the whole seed
    for the name step), the step's salt and its variant (0: the usual draw).

    wyrand is a counter (its state steps by one odd constant a number) read through a
    strong mix, so two streams differ where their counters start far apart: the seed
    spread by the golden ratio, plus a salt already mixed from the step's id, is enough,
    and costs a seventh of mixing it again once a step."""
    base = seed if whole else seed & BODY_MASK
    return (base * _GOLDEN + step_salt + variant * _VARIANT) & _MASK64


class Stream(random.Random):
    """A random stream seeded by assignment (`stream.state = step_state(...)`).

    Every method of random.Random draws from it; chargen itself uses `random()`."""

    __slots__ = ("state",)

    def __init__(self, state: int = 0) -> None:
        self.state = state & _MASK64

    def seed(self, a: object = None, version: int = 2) -> None:
        if type(a) is not int:
            a = salt(str(a)) if a is not None else 0
        self.state = a & _MASK64

    def random(self) -> float:
        s = self.state = (self.state + 0xA0761D6478BD642F) & _MASK64
        t = s * (s ^ 0xE7037ED1A0B428DB)
        return ((((t >> 64) ^ t) >> 11) & 0x1FFFFFFFFFFFFF) * _UNIT

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        bits, have = 0, 0
        while have < k:
            s = self.state = (self.state + 0xA0761D6478BD642F) & _MASK64
            t = s * (s ^ 0xE7037ED1A0B428DB)
            bits = bits << 64 | (((t >> 64) ^ t) & _MASK64)
            have += 64
        return bits >> (have - k)

    def getstate(self) -> int:
        return self.state

    def setstate(self, state: object) -> None:
        if type(state) is not int:
            raise TypeError("a Stream's state is an int")
        self.state = state & _MASK64
