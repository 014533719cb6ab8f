"""Exact odds of a dice expression: each total's chance, at least / at most, the mean.

Every chance is an exact fraction (integer counts over a common denominator); the
floats in the output are rounded from those. Plain dice are summed here by a
sliding-window convolution (cheap and exact); kept dice (kh, kl) and aces (!)
go to icepool, which works out a pool's kept sum without walking every roll. It
is imported only here, so only `chargen roll --odds` pays for it.

Aces have no top, so their table goes to a stated depth: a die adds at most
`depth` extra rolls, the last one kept as it falls, which is exactly how the
roller stops (`dice.MAX_ACES` is its depth). `cut` is the chance that some die
would have aced again past the depth.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple

from chargen.dice import MAX_ACES, Dice, DiceTerm
from chargen.errors import DiceError

DEFAULT_DEPTH = 3
MAX_TOTALS = 20_000  # totals one table may have
MAX_WORK = 4_000_000  # count products a table's convolutions may take
MAX_POOL_WORK = 2_000_000  # a kept-dice pool's faces x dice x kept totals (icepool's cost)


class Odds(NamedTuple):
    """An expression's exact distribution: `counts[total]` ways out of `whole`."""

    expression: str
    counts: dict[int, int]  # ordered by total
    whole: int
    depth: int | None  # the aces' depth, or None when nothing aces
    cut: Fraction  # the chance that a die would ace past `depth`

    def chance(self, total: int) -> Fraction:
        return Fraction(self.counts.get(total, 0), self.whole)

    @property
    def mean(self) -> Fraction:
        return Fraction(sum(t * c for t, c in self.counts.items()), self.whole)

    def rows(self) -> list[tuple[int, Fraction, Fraction, Fraction]]:
        """(total, chance, at least, at most) for every total, lowest first."""
        rows, below = [], 0
        for total, count in self.counts.items():
            rows.append(
                (
                    total,
                    Fraction(count, self.whole),
                    Fraction(self.whole - below, self.whole),
                    Fraction(below + count, self.whole),
                )
            )
            below += count
        return rows

    def as_json(self) -> dict:
        """The roll object's keys (`expression`, and `total` in each row) with the odds."""
        return {
            "expression": self.expression,
            "mean": float(self.mean),
            "minimum": next(iter(self.counts)),
            "maximum": next(reversed(self.counts)),
            "depth": self.depth,
            "cut": float(self.cut),
            "totals": [
                {
                    "total": total,
                    "chance": float(chance),
                    "at_least": float(at_least),
                    "at_most": float(at_most),
                    "exact": f"{chance.numerator}/{chance.denominator}",
                }
                for total, chance, at_least, at_most in self.rows()
            ],
        }


def odds(dice: Dice, depth: int = DEFAULT_DEPTH) -> Odds:
    """The exact distribution of `dice`, aces to `depth` extra rolls a die."""
    if not 0 <= depth <= MAX_ACES:
        raise DiceError(f"the aces' depth is 0 to {MAX_ACES}, not {depth}")
    _check_size(dice, depth)
    counts, whole = {dice.modifier: 1}, 1
    work = 0
    for term in dice.terms:
        term_counts, term_whole = _term_counts(term, depth)
        work += len(counts) * len(term_counts)
        if work > MAX_WORK:
            raise DiceError(_too_large(dice, "its terms take too many steps to combine"))
        counts, whole = _combine(counts, term_counts), whole * term_whole
    cut = Fraction(0)
    if dice.aces:
        stays = Fraction(1)
        for term in dice.terms:
            if term.aces:
                stays *= (1 - Fraction(1, term.sides) ** (depth + 1)) ** term.count
        cut = 1 - stays
    return Odds(dice.text, dict(sorted(counts.items())), whole, depth if dice.aces else None, cut)


def _check_size(dice: Dice, depth: int) -> None:
    low = high = dice.modifier
    for term in dice.terms:
        a, b = _term_span(term, depth)
        low, high = low + a, high + b
        if term.keep:
            faces = term.sides * (depth + 1 if term.aces else 1)
            if faces * term.count * (b - a + 1) > MAX_POOL_WORK:
                raise DiceError(
                    _too_large(dice, f"keeping dice of {term.count}d{term.sides} is too much work")
                )
    if high - low + 1 > MAX_TOTALS:
        raise DiceError(
            _too_large(dice, f"{high - low + 1:,} totals ({low} to {high}), at most {MAX_TOTALS:,}")
        )


def _too_large(dice: Dice, why: str) -> str:
    return f"'{dice.text}' is too large for --odds: {why}"


def _term_span(term: DiceTerm, depth: int) -> tuple[int, int]:
    if term.d66 or not term.aces:
        return term.span()
    low, high = term.kept, term.kept * term.sides * (depth + 1)
    return (-high, -low) if term.sign < 0 else (low, high)


def _term_counts(term: DiceTerm, depth: int) -> tuple[dict[int, int], int]:
    """One term's totals as integer counts out of a whole."""
    if term.d66:
        return {10 * t + u: 1 for t in range(1, 7) for u in range(1, 7)}, 36
    if term.keep:
        counts, whole = _pool_counts(term, depth)
    elif term.aces:
        one, whole_one = _ace_counts(term.sides, depth)
        counts, whole = one, whole_one
        for _ in range(term.count - 1):
            counts, whole = _combine(counts, one), whole * whole_one
    else:
        counts, whole = _sum_counts(term.count, term.sides), term.sides**term.count
    if term.sign < 0:
        counts = {-t: c for t, c in counts.items()}
    return counts, whole


def _sum_counts(count: int, sides: int) -> dict[int, int]:
    """The ways `count` dice of `sides` sides make each sum: multiply by the
    polynomial x + ... + x^sides once per die, as a running window sum."""
    ways = [1]  # ways[i]: the ways to make (dice so far) + i
    for _ in range(count):
        window, step = 0, []
        for i in range(len(ways) + sides - 1):
            if i < len(ways):
                window += ways[i]
            if i >= sides:
                window -= ways[i - sides]
            step.append(window)
        ways = step
    return {count + i: w for i, w in enumerate(ways)}


def _ace_counts(sides: int, depth: int) -> tuple[dict[int, int], int]:
    """One aceing die out of sides ** (depth + 1): after `extra` maximums, a face
    below the maximum ends it; at the depth any face ends it, as in the roller."""
    counts = {}
    for extra in range(depth + 1):
        last = sides if extra == depth else sides - 1
        for face in range(1, last + 1):
            counts[sides * extra + face] = sides ** (depth - extra)
    return counts, sides ** (depth + 1)


def _pool_counts(term: DiceTerm, depth: int) -> tuple[dict[int, int], int]:
    import icepool  # heavy, and only --odds needs it

    one = _ace_counts(term.sides, depth)[0] if term.aces else None
    die = icepool.Die(one) if one else icepool.d(term.sides)
    pool = die.pool(term.count)
    if term.keep == "h":
        pool = pool.highest(term.keep_count)
    elif term.keep == "l":
        pool = pool.lowest(term.keep_count)
    total = pool.sum()
    counts = {int(t): int(q) for t, q in total.items() if q}
    return counts, int(total.denominator())


def _combine(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    merged: dict[int, int] = {}
    for x, cx in a.items():
        for y, cy in b.items():
            merged[x + y] = merged.get(x + y, 0) + cx * cy
    return merged


def percent(chance: Fraction | float) -> str:
    """A chance in percent to four significant digits ("2.778%", "100%", "0.0001286%")."""
    if chance == 0:
        return "0%"
    value = float(chance) * 100
    if value < 1e-6:  # (or below a float's range): "7.653e-80%", not eighty zeros
        exact = Fraction(chance) * 100
        power = math.floor(math.log10(exact.numerator) - math.log10(exact.denominator))
        mantissa = float(exact / Fraction(10) ** power)
        if mantissa >= 10:  # (the logarithms' rounding)
            mantissa, power = mantissa / 10, power + 1
        return f"{mantissa:.3f}".rstrip("0").rstrip(".") + f"e{power}%"
    digits = max(0, 3 - math.floor(math.log10(value)))
    text = f"{value:.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text + "%"


def odds_text(tables: list[Odds], markdown: bool, width: int = 80) -> str:
    """Each expression's odds as a table under a line naming it, its mean and range."""
    from chargen.render import md_inline, md_table, table_lines, wrap

    heads = ["total", "chance", "at least", "at most"]
    out: list[str] = []
    for table in tables:
        head = f"{table.expression}: mean {_number(table.mean)}"
        if table.depth is not None:
            head += (
                f"; aces to depth {table.depth} (at most {table.depth} extra rolls a die;"
                f" {percent(table.cut)} of rolls would ace further)"
            )
        rows = [[t, percent(c), percent(lo), percent(hi)] for t, c, lo, hi in table.rows()]
        if markdown:
            out += [f"## {md_inline(head)}", "", *md_table(rows, heads), ""]
        else:
            out += [*wrap(head, width, "  "), *table_lines(rows, heads, width), ""]
    return "\n".join(out).rstrip("\n") + "\n"


def _number(value: Fraction) -> str:
    return f"{float(value):.4f}".rstrip("0").rstrip(".")


class Estimate(NamedTuple):
    """How often a random character matched: `matches` of `samples`, with the Wilson
    score interval at `confidence` (it stays inside 0..1 and is honest at 0 matches)."""

    samples: int
    matches: int
    low: float
    high: float
    confidence: float = 0.95

    @property
    def rate(self) -> float:
        return self.matches / self.samples

    def as_json(self) -> dict:
        return {
            "samples": self.samples,
            "matches": self.matches,
            "rate": self.rate,
            "low": self.low,
            "high": self.high,
            "confidence": self.confidence,
        }


Z95 = 1.959963984540054  # the normal quantile for a two-sided 95 % interval


def wilson(matches: int, samples: int) -> Estimate:
    """The share `matches / samples` with its 95 % Wilson score interval."""
    if not 0 <= matches <= samples or samples < 1:
        raise ValueError(f"{matches} of {samples}")
    p, z2 = matches / samples, Z95 * Z95
    centre = (p + z2 / (2 * samples)) / (1 + z2 / samples)
    half = (
        Z95 * math.sqrt(p * (1 - p) / samples + z2 / (4 * samples * samples)) / (1 + z2 / samples)
    )
    low = 0.0 if matches == 0 else max(0.0, centre - half)
    high = 1.0 if matches == samples else min(1.0, centre + half)
    return Estimate(samples, matches, low, high)
