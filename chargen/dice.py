"""Dice expressions: parse text into a `Dice`, roll a `Dice` into a `Roll`.

The grammar is small and read by hand, never by `eval`::

    expression := term (("+" | "-") term)*
    term       := integer | dice
    dice       := [count] ("d" | "T" | "k") sides ["!"] [("kh" | "kl") keep]

`T` is the Swedish and Danish die letter (2T10), `k` the Hungarian one (2k6).
`d66` (or `T66`) is the tens die then the units die: 11..66; it is rolled alone,
so `2d66`, `d66!` and `d66kh1` are refused. `!` makes a die ace: a maximum roll
adds another roll of the same die, again and again (at most 100 times).
`kh3` / `kl1` keep the highest / lowest dice of that term. Numbers are at most
nine digits; a term has at most 100 dice of at most 1000 sides.

>>> import random
>>> parse("2T10").roll(random.Random(1)).total in range(2, 21)
True
>>> parse("d66").possible_values()[:7]
[11, 12, 13, 14, 15, 16, 21]
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from itertools import product
from typing import NamedTuple

from chargen.errors import DiceError

MAX_COUNT = 100
MAX_SIDES = 1000
MAX_TERMS = 20
MAX_MODIFIER = 1_000_000
MAX_ACES = 100  # extra rolls one aceing die may add, so a roll always ends
MAX_DIGITS = 9  # digits in one number of an expression
MAX_LISTED = 100_000  # totals `possible_values` lists (a range is computed, not enumerated)
MAX_TABULATED = 10_000  # totals `distribution` works out
MAX_KEEP_OUTCOMES = 200_000  # faces a kept-dice term's exact table goes through

_TERM = re.compile(r"(\d*)([dtk])(\d+|%)(!?)(?:k([hl])(\d+))?", re.IGNORECASE)
_NUMBER = re.compile(r"\d+")


class DiceTerm(NamedTuple):
    """`count` dice of `sides` sides, added (sign 1) or taken away (sign -1)."""

    count: int
    sides: int
    sign: int = 1
    aces: bool = False
    keep: str = ""  # "h" or "l", or "" to keep every die
    keep_count: int = 0
    d66: bool = False

    @property
    def kept(self) -> int:
        return self.keep_count if self.keep else self.count

    def span(self) -> tuple[int, int]:
        """The lowest and highest total of this term (aces excluded), worked out."""
        if self.d66:
            return 11, 66
        low, high = self.kept, self.kept * self.sides
        return (-high, -low) if self.sign < 0 else (low, high)

    def values(self) -> list[int]:
        """Every total this term can give on its own (aces excluded)."""
        if self.d66:
            return [10 * t + u for t in range(1, 7) for u in range(1, 7)]
        low, high = self.span()
        return list(range(low, high + 1))


class Roll(NamedTuple):
    """The result of rolling a `Dice`: its total and every die that was rolled.

    A NamedTuple, as the parsed forms are: rolls are made in the hot loop, and a
    dataclass would cost every start-up more.
    """

    expression: str
    total: int
    dice: tuple[int, ...]

    def as_json(self) -> dict:
        return {"expression": self.expression, "total": self.total, "dice": list(self.dice)}


class Dice(NamedTuple):
    """A parsed dice expression: its terms and a flat modifier."""

    text: str
    terms: tuple[DiceTerm, ...]
    modifier: int = 0

    @property
    def aces(self) -> bool:
        return any(t.aces for t in self.terms)

    @property
    def span(self) -> tuple[int, int]:
        """The lowest and highest total without aces, worked out (nothing enumerated)."""
        low = high = self.modifier
        for term in self.terms:
            a, b = term.span()
            low, high = low + a, high + b
        return low, high

    @property
    def results(self) -> int:
        """How many totals lie from the lowest to the highest (an upper bound of the count)."""
        low, high = self.span
        return high - low + 1

    @property
    def minimum(self) -> int:
        return self.span[0]

    @property
    def maximum(self) -> int:
        if self.aces:
            raise DiceError(f"'{self.text}' aces and has no maximum")
        return self.span[1]

    def roll(self, rng, depth: int = MAX_ACES) -> Roll:
        """Roll every term with `rng` (a random.Random) and add the modifier; an aceing
        die adds at most `depth` extra rolls."""
        rand = rng.random
        total = self.modifier
        faces: list[int] = []
        for term in self.terms:
            sides = term.sides
            if term.d66:
                tens, units = int(rand() * 6) + 1, int(rand() * 6) + 1
                faces += (tens, units)
                total += 10 * tens + units
            elif not term.aces and not term.keep:  # the common case, kept short
                rolled = [int(rand() * sides) + 1 for _ in range(term.count)]
                faces += rolled
                total += term.sign * sum(rolled)
            else:
                values = []
                for _ in range(term.count):
                    face = int(rand() * sides) + 1
                    value = face
                    faces.append(face)
                    extra = 0
                    while term.aces and face == sides and extra < depth:
                        face = int(rand() * sides) + 1
                        faces.append(face)
                        value += face
                        extra += 1
                    values.append(value)
                if term.keep:
                    values.sort(reverse=term.keep == "h")
                    values = values[: term.keep_count]
                total += term.sign * sum(values)
        return Roll(self.text, total, tuple(faces))

    def possible_values(self) -> list[int]:
        """Every total the expression can give without aces, sorted.

        Plain terms give every whole number between their lowest and highest total,
        so only d66 terms (with their gaps) are combined value by value.
        """
        if self.results > MAX_LISTED:
            raise DiceError(f"'{self.text}' has too many results to list ({self.results:,})")
        low = high = self.modifier
        gapped = []
        for term in self.terms:
            if term.d66:
                gapped.append(term)
            else:
                a, b = term.span()
                low, high = low + a, high + b
        totals: set[int] | range = range(low, high + 1)
        for term in gapped:
            totals = {a + b for a in totals for b in term.values()}
        return sorted(totals)

    def distribution(self) -> dict[int, float]:
        """The probability of each total (exact; aces are not allowed here)."""
        if self.aces:
            raise DiceError(f"'{self.text}' aces: its totals have no finite table")
        if self.results > MAX_TABULATED:
            raise DiceError(f"'{self.text}' has too many results to tabulate ({self.results:,})")
        dist = {self.modifier: 1.0}
        for term in self.terms:
            term_dist = _term_distribution(term)
            merged: dict[int, float] = {}
            for a, pa in dist.items():
                for b, pb in term_dist.items():
                    merged[a + b] = merged.get(a + b, 0.0) + pa * pb
            dist = merged
        return dict(sorted(dist.items()))

    def __str__(self) -> str:
        return self.text


MAX_TABLE_RESULTS = 1_000  # totals a roll table's die may have (d1000, 10d100)


def table_fault(dice: Dice) -> str:
    """Why `dice` cannot be a roll table's die ("" when it can): it must have a finite,
    small set of totals whose chances can be worked out."""
    if dice.aces:
        return "aces and cannot index a table"
    low, high = dice.span
    if dice.results > MAX_TABLE_RESULTS:
        return (
            f"has {dice.results:,} possible results ({low} to {high}); "
            f"a roll table's die has at most {MAX_TABLE_RESULTS:,}"
        )
    for term in dice.terms:
        if term.keep and term.count * math.log(term.sides) > math.log(MAX_KEEP_OUTCOMES):
            return (
                f"keeps dice of {term.count}d{term.sides}: too many ways to roll "
                f"to work out its chances (at most {MAX_KEEP_OUTCOMES:,})"
            )
    return ""


def _term_distribution(term: DiceTerm) -> dict[int, float]:
    if term.d66:
        return {v: 1 / 36 for v in term.values()}
    if term.keep:
        if term.count * math.log(term.sides) > math.log(MAX_KEEP_OUTCOMES):
            raise DiceError(f"{term.count}d{term.sides} with keep is too large to tabulate")
        counts: dict[int, int] = {}
        for faces in product(range(1, term.sides + 1), repeat=term.count):
            kept = sorted(faces, reverse=term.keep == "h")[: term.keep_count]
            value = term.sign * sum(kept)
            counts[value] = counts.get(value, 0) + 1
        whole = term.sides**term.count
        return {v: c / whole for v, c in counts.items()}
    dist = {0: 1.0}
    for _ in range(term.count):
        step: dict[int, float] = {}
        for a, pa in dist.items():
            for face in range(1, term.sides + 1):
                step[a + face] = step.get(a + face, 0.0) + pa / term.sides
        dist = step
    return {term.sign * v: p for v, p in dist.items()}


@lru_cache(maxsize=512)
def parse(text: str) -> Dice:
    """Parse a dice expression; raise DiceError naming the fault."""
    if not isinstance(text, str) or not text.strip():
        raise DiceError("empty dice expression")
    source = text.strip()
    label = source if len(source) <= 60 else source[:57] + "..."
    compact = re.sub(r"\s+", "", source)
    pos, sign, terms, modifier = 0, 1, [], 0
    while True:
        match = _TERM.match(compact, pos)
        if match and match.end() > pos:
            terms.append(_dice_term(match, sign, label))
            pos = match.end()
        else:
            number = _NUMBER.match(compact, pos)
            if not number:
                raise DiceError(_where(label, compact, pos, "a die such as 2d6 or a number"))
            modifier += sign * _number(number.group(), label)
            pos = number.end()
        if pos == len(compact):
            break
        if compact[pos] not in "+-":
            raise DiceError(_where(label, compact, pos, "'+' or '-'"))
        sign = 1 if compact[pos] == "+" else -1
        pos += 1
        if pos == len(compact):
            raise DiceError(f"dice expression '{label}' ends after '{compact[-1]}'")
    if len(terms) > MAX_TERMS:
        raise DiceError(f"'{label}' has more than {MAX_TERMS} dice terms")
    if abs(modifier) > MAX_MODIFIER:
        raise DiceError(f"'{label}': modifier over {MAX_MODIFIER}")
    return Dice(source, tuple(terms), modifier)


def _dice_term(match: re.Match, sign: int, source: str) -> DiceTerm:
    count_text, _letter, sides_text, ace, keep, keep_text = match.groups()
    count = _number(count_text, source) if count_text else 1
    sides = 100 if sides_text == "%" else _number(sides_text, source)
    if not 1 <= count <= MAX_COUNT:
        raise DiceError(f"'{source}': dice count must be 1 to {MAX_COUNT}, not {count}")
    if not 2 <= sides <= MAX_SIDES:
        raise DiceError(f"'{source}': dice sides must be 2 to {MAX_SIDES}, not {sides}")
    keep = (keep or "").lower()
    keep_count = _number(keep_text, source) if keep_text else 0
    if keep and not 1 <= keep_count <= count:
        raise DiceError(f"'{source}': can keep 1 to {count} dice, not {keep_count}")
    if sides == 66:
        if count != 1 or ace or keep:
            raise DiceError(
                f"'{source}': d66 is one tens die and one units die; it is rolled alone, "
                "without aces (!) or keeping (kh, kl)"
            )
        return DiceTerm(1, 6, sign, d66=True)
    return DiceTerm(count, sides, sign, bool(ace), keep, keep_count)


def _number(digits: str, source: str) -> int:
    if len(digits) > MAX_DIGITS:
        raise DiceError(
            f"'{source}': numbers in a dice expression have at most {MAX_DIGITS} digits"
        )
    return int(digits)


def _where(source: str, compact: str, pos: int, expected: str) -> str:
    found = compact[pos : pos + 8] or "the end"
    return f"cannot read dice expression '{source}': expected {expected} at '{found}'"
