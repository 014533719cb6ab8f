"""TOML tables: load them lazily, validate them strictly, roll on them.

A system's pack is a folder of `NAME.toml` files. Each file is one of three kinds,
declared per table name by the system's `Spec`s (this module knows no system):

* ``roll``: a die (``die = "d66"``) and ``[[entries]]`` whose ``roll`` ranges cover
  every result exactly once, or entries with a ``weight`` each;
* ``definitions``: ``[[entries]]`` with a unique ``id`` (what a command-line choice
  takes), an optional ``weight`` for random picks and typed fields of their own;
* ``settings``: top-level keys only: budgets, caps and other game numbers.

A user's pack laid over the built-in one replaces tables of the same name and adds
new ones. Every fault found names its file and line.
"""

from __future__ import annotations

import bisect
import fnmatch
import functools
import math
import operator
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate
from pathlib import Path
from typing import Any, NamedTuple

from chargen import conditions, names, tomlfile
from chargen.dice import Dice, parse, table_fault
from chargen.errors import (
    ChargenError,
    ChoiceError,
    DiceError,
    Problem,
    TableError,
    UnknownTable,
)
from chargen.labels import Labels
from chargen.labels import check as check_labels
from chargen.slugs import normalize, unbroken
from chargen.tomlfile import builtin_root, entry_lines, key_line, read_text, section_line

KINDS = ("roll", "definitions", "settings", "labels")
# Keys any entry may carry; anything else must be declared by the table's Spec.
COMMON_KEYS = {
    "id": "str",
    "name": "text",
    "roll": "any",
    "weight": "num",
    "result": "text",
    "description": "text",
    "rules": "text",  # a short rules text the sheet prints beside the entry's name
    "effects": "effects",
    "ref": "table",
    "source": "str",
    "tags": "list[str]",
    # conditions (chargen/conditions.py checks their shape and values)
    "when": "any",
    "unless": "any",
    "requires": "any",
    "excludes": "any",
}
EFFECT_AMOUNT = "int[-1000..1000]"  # what one effect may add or take away
MAX_WEIGHT = 1e12  # a weight; with the smallest ones the sums stay exact enough
TOP_KEYS = {"die", "description", "source", "entries"}
SLUG = re.compile(r"^[a-z0-9][a-z0-9_]*$")


class Spec(NamedTuple):
    """What a table of a given name must look like.

    `fields` maps extra entry keys (or, for settings, top-level keys) to a type:
    str (non-empty text), int, num (finite), bool, dice, table, id:TABLE, locale
    (a Faker locale with person names), any; int[LO..HI], num[LO..HI] and
    dice[LO..HI] (totals within the bounds; either bound may be left out);
    table:KIND or table:PATTERN (a reference to a table of that kind or name);
    one:a|b|c (one of these words); re:PATTERN (a text matching the regular
    expression); list[T], dict[T]; then "+" for a non-empty list or dict,
    "{a,b}" for a dict that has (at least) these keys, and "!" last to make the
    key required.

    `order` (settings): pairs of keys (low, high) whose values must not decrease.
    `ids` (definitions): the ids the game's code names, which every version of the
    table must have.
    """

    kind: str
    fields: dict[str, str] = {}  # (shared by default: never changed)
    description: str = ""
    order: tuple[tuple[str, str], ...] = ()
    ids: tuple[str, ...] = ()


# Authored name tables (chargen.names.TablePicker reads them): a system registers the
# spec for a pattern, `SPECS["namn_*"] = NAME_SPEC`.
NAME_SPEC = Spec(
    "settings",
    {
        "male": "list[str]!",
        "female": "list[str]!",
        "family": "list[str]",
        "family_male": "list[str]",
        "family_female": "list[str]",
        "patronym": "dict[str]",
        "byname": "list[str]",
        "byname_male": "list[str]",
        "byname_female": "list[str]",
        "byname_chance": "num[0..1]",
        "family_first": "bool",
    },
    "Authored names: given names per gender, family names, a patronym or a byname rule.",
)


def pack_dir(root: Path, system: str, known: Iterable[str] = ()) -> Path | None:
    """The folder of `system`'s tables inside a user's pack `root`, if it has one.

    A pack is laid out as ROOT/SYSTEM/*.toml (one folder per system it changes); a
    folder named after the system, or holding *.toml files directly, is taken as
    that system's. A layout that cannot be meant (no system's tables at all, a
    system folder that is a file or not in lower case, an unreadable folder) is a
    TableError, the same for `chargen tables check` and for generation. `known` are
    the ids of every system installed (`system` is always one of them).
    """
    problems = pack_problems(root, known or (system,))
    if problems:
        raise TableError(problems)
    if (root / system).is_dir():
        return root / system
    if root.name == system or _loose_tables(root):
        return root
    return None


def pack_problems(root: Path, known: Iterable[str]) -> list[Problem]:
    """What is wrong with the layout of the pack folder `root` (nothing: []); `known`
    are the ids of the systems installed."""
    known = tuple(known)
    where = str(root)
    try:
        listing = sorted(os.listdir(root))
    except OSError as exc:
        return [Problem(where, 0, f"cannot read the pack folder: {exc.strerror or exc}")]
    out = []
    found = False
    for name in listing:
        system = name.lower()
        if system not in known:
            continue
        path = root / name
        if name != system:
            out.append(Problem(str(path), 0, f"a system folder is named in lower case: {system}"))
        elif not path.is_dir():
            out.append(Problem(str(path), 0, f"{name} must be a folder of {name}'s *.toml tables"))
        elif outside(path, root):
            out.append(Problem(str(path), 0, _outside_message(path)))
        else:
            found = True
    if out or found or root.name in known or _loose_tables(root):
        return out
    nested = sorted(
        str(sub.relative_to(root)) for sub in root.glob("*/*") if sub.name in known and sub.is_dir()
    )
    hint = f" (found {nested[0]}: give {root / Path(nested[0]).parent} instead)" if nested else ""
    systems = ", ".join(known)
    return [
        Problem(
            where,
            0,
            f"holds no system's tables: lay a pack out as {root.name or root}/SYSTEM/*.toml "
            f"(SYSTEM one of {systems}){hint}",
        )
    ]


def outside(path: Path, root: Path) -> bool:
    """Whether `path` (a symlink, or under one) leads outside the folder `root`: a pack
    is shared between strangers, so its files stay inside it."""
    base = os.path.realpath(root)
    real = os.path.realpath(path)
    return real != base and not real.startswith(base.rstrip(os.sep) + os.sep)


def _outside_message(path: Path) -> str:
    return (
        f"a symlink leading outside the pack (to {os.path.realpath(path)}): "
        "a pack's files and folders must lie inside it"
    )


def _loose_tables(root: Path) -> bool:
    try:
        return any(p.suffix == ".toml" for p in root.iterdir())
    except OSError:
        return False


_weight = operator.methodcaller("get", "weight", 1)  # an entry's weight (1 unless it says)
_bisect = bisect.bisect


class Pool:
    """Entries with their running weight sums: many weighted picks from one fixed set.

    `Pool(entries).pick(rng)` picks what `Table.pick(rng, among=entries)` picks, for
    the cost of one bisect once the pool is built (build it once per batch).
    """

    __slots__ = ("entries", "sums", "total", "_last", "_where", "_whole", "_unit")

    def __init__(self, entries) -> None:
        self.entries = tuple(entries)
        self.sums = list(accumulate(map(float, map(_weight, self.entries))))
        self.total = self.sums[-1] if self.sums else 0.0
        self._last = len(self.entries) - 1  # (a draw at the very top lands on the last)
        self._where: dict[int, int] | None = None  # entry -> its place (see `left`)
        self._whole = self._unit = False

    def pick(self, rng) -> dict:
        index = _bisect(self.sums, rng.random() * self.total)
        return self.entries[index if index < self._last else self._last]

    def _places(self) -> dict[int, int]:
        """Each entry's place (by id), built on first need with whether the weights are
        whole numbers below 2**53 (they then sum exactly in any order)."""
        where = self._where
        if where is None:
            where = self._where = {id(e): i for i, e in enumerate(self.entries)}
            self._whole = self.total < 2**53 and all(s.is_integer() for s in self.sums)
            # every weight 1: the running sums are 1, 2, 3 ... (see _pick_many_unit)
            self._unit = self._whole and self.total == len(self.entries)
        return where

    def left(self, taken: list[dict]) -> list[int]:
        """The places of the entries of `taken` that are in this pool, in order."""
        where = self._places()
        return sorted(where[id(e)] for e in taken if id(e) in where)

    def _share(self, index: int) -> tuple[float, float]:
        """(where the entry's weight starts in the running sums, its weight)."""
        start = self.sums[index - 1] if index else 0.0
        return start, self.sums[index] - start

    def _land(self, rng, shares: list[tuple[float, float]], taken: float) -> int:
        """The place a draw lands on in the weight left (the total but `taken`, the sum of
        `shares`, those of the rows taken, in the pool's order): stepping over each."""
        point = rng.random() * (self.total - taken)
        for start, share in shares:
            if start <= point:
                point += share
        return min(bisect.bisect(self.sums, point), len(self.entries) - 1)

    def pick_without(self, rng, taken: list[dict]) -> dict:
        """What `Pool(the entries but those taken).pick(rng)` picks, without building that
        pool when the weights are whole numbers (they then sum exactly either way): the
        draw falls in the weight left and steps over the shares of the rows taken."""
        places = self.left(taken)
        if not places:
            return self.pick(rng)
        if not self._whole or len(places) >= len(self.entries):
            rest = [e for i, e in enumerate(self.entries) if i not in places]
            return Pool(rest).pick(rng)
        shares = [self._share(i) for i in places]
        return self.entries[self._land(rng, shares, sum(w for _, w in shares))]

    def pick_many(self, rng, count: int) -> list[dict] | None:
        """`count` different entries: each what `pick_without(rng, those before it)`
        picks, from the same numbers, keeping the shares taken as it goes (whole
        weights; otherwise through pick_without). None when fewer than `count` are here."""
        if count > len(self._places()):
            return None
        out: list[dict] = []
        if not self._whole:
            for _ in range(count):
                out.append(self.pick_without(rng, out) if out else self.pick(rng))
            return out
        if self._unit:
            return self._pick_many_unit(rng, count)
        shares: list[tuple[float, float]] = []  # of the entries taken, in the pool's order
        taken = 0.0
        for _ in range(count):
            index = self._land(rng, shares, taken)
            share = self._share(index)
            bisect.insort(shares, share)
            taken += share[1]
            out.append(self.entries[index])
        return out

    def _pick_many_unit(self, rng, count: int) -> list[dict]:
        """pick_many where every weight is 1, in whole places: `_land` steps a draw
        over each taken row's share (its start, a whole number, at or below the point
        adds 1), and the sums 1, 2, 3 ... put the point at the place of its whole part,
        so counting in places lands where it does, from the same numbers."""
        entries, last = self.entries, self._last
        size = len(entries)
        taken: list[int] = []  # the places taken, in order
        out: list[dict] = []
        for k in range(count):
            place = int(rng.random() * (size - k))
            for before in taken:
                if before > place:
                    break
                place += 1
            if place > last:
                place = last
            bisect.insort(taken, place)
            out.append(entries[place])
        return out

    def __bool__(self) -> bool:
        return bool(self.entries)

    def __len__(self) -> int:
        return len(self.entries)


class Table:
    """One validated table file. Entries are plain dicts, as written in TOML."""

    def __init__(
        self, name: str, path: Path, spec: Spec, data: dict, text: str | None = None
    ) -> None:
        self.name, self.path, self.spec = name, path, spec
        if text is not None:  # else read when asked for (a table from the cache)
            self.text = text
        self.kind = spec.kind
        self.description: str = data.get("description", "")
        self.die: Dice | None = parse(data["die"]) if "die" in data else None
        self.entries: tuple[dict, ...] = tuple(data.get("entries", ()))
        self.settings: dict = {k: v for k, v in data.items() if k not in TOP_KEYS}
        self.ids: tuple[str, ...] = tuple(e["id"] for e in self.entries if "id" in e)
        self._by_id = {e["id"]: e for e in self.entries if "id" in e}

    @functools.cached_property
    def text(self) -> str:
        """The file's text (for the lines that messages name)."""
        return read_text(self.path)[0]

    # What draws need is worked out at the first draw: a sheet loads two dozen tables,
    # many of them only for their settings or labels.
    @functools.cached_property
    def _by_value(self) -> dict[int, dict]:
        """The entry each die result gives."""
        by_value: dict[int, dict] = {}
        if self.die is not None:
            for entry in self.entries:
                for value in entry_values(entry, self.die):
                    by_value[value] = entry
        return by_value

    @functools.cached_property
    def _pool(self) -> Pool:
        return Pool(self.entries)

    @functools.cached_property
    def compiled(self) -> conditions.Compiled:
        return conditions.Compiled(self.entries)

    @property
    def conditioned(self) -> bool:
        """Whether any entry has conditions (requires, excludes, facts)."""
        return self.compiled.conditioned

    @functools.cached_property
    def text_keys(self) -> tuple[str, ...]:
        """This table's text keys (type "text")."""
        allowed = {**COMMON_KEYS, **self.spec.fields}
        return tuple(k for k, kind in allowed.items() if kind.rstrip("!+") == "text")

    @functools.cached_property
    def varying(self) -> frozenset[int]:
        """The entries (by id) whose text varies by gender or holds placeholders:
        Context.roll_table hands those out resolved."""
        keys = self.text_keys
        return frozenset(
            id(e) for e in self.entries if any(conditions.varies(e.get(k)) for k in keys)
        )

    def __repr__(self) -> str:
        return f"<Table {self.name} ({self.kind}, {len(self.entries)} entries)>"

    def get(self, entry_id: str, what: str = "") -> dict:
        """The entry with this id; a ChoiceError listing the valid ids otherwise."""
        try:
            return self._by_id[entry_id]
        except KeyError:
            raise ChoiceError(what or self.name, entry_id, list(self.ids)) from None

    def __contains__(self, entry_id: str) -> bool:
        return entry_id in self._by_id

    def setting(self, key: str) -> Any:
        """A settings value; a missing one is a table fault naming the file."""
        try:
            return self.settings[key]
        except KeyError:
            raise TableError([Problem(str(self.path), 0, f"missing setting '{key}'")]) from None

    def roll(self, rng) -> tuple[int | None, dict]:
        """Roll on the table: (die result or None for weighted tables, entry)."""
        if self.die is None:
            return None, self.pick(rng)
        value = self.die.roll(rng).total
        return value, self._by_value[value]

    def pick(self, rng, among: list[dict] | None = None) -> dict:
        """A random entry by weight (default 1 each), optionally among some entries."""
        if among is not None:
            return _weighted_pick(rng, among)
        if self.die is not None:
            return self.roll(rng)[1]
        if not self.entries:
            raise TableError([Problem(str(self.path), 0, "table has no entries")])
        return self._pool.pick(rng)

    def draw(self, rng, count: int, exclude: tuple = (), among: list[dict] | None = None) -> list:
        """`count` different entries by weight, none of them in `exclude` (ids or dicts)."""
        if count == 1 and among is None and not exclude and self.die is None:
            return [self.pick(rng)]  # the common case, at the speed of one bisect
        pool = list(self.entries if among is None else among)
        if exclude:
            pool = [e for e in pool if e.get("id") not in exclude and e not in exclude]
        if count > len(pool):
            raise ChargenError(
                f"table {self.name} ({self.path}) has {len(pool)} entries to draw from, "
                f"not the {count} asked for"
            )
        drawn = []
        for _ in range(count):
            entry = _weighted_pick(rng, pool)
            pool.remove(entry)
            drawn.append(entry)
        return drawn

    def probabilities(self) -> list[float]:
        """Each entry's chance, in the order of `entries`."""
        if self.die is None:
            return [float(e.get("weight", 1)) / self._pool.total for e in self.entries]
        dist = self.die.distribution()
        return [sum(dist.get(v, 0.0) for v in entry_values(e, self.die)) for e in self.entries]

    def entry_line(self, index: int) -> int:
        lines = entry_lines(self.text)
        return lines[index] if index < len(lines) else 0

    def favouring(self, index: int) -> Table:
        """This table with its entry `index` made all but certain to come up: every die
        result gives it, or it outweighs all the other rows together (which are kept,
        so a draw of several and a lookup by id still find them). `tables check` makes
        a character from each entry of a user's table this way."""
        entries = [dict(e) for e in self.entries]
        if self.die is None:
            for i, entry in enumerate(entries):
                entry["weight"] = MAX_WEIGHT if i == index else 1 / MAX_WEIGHT
        data = {**self.settings, "entries": entries}
        if self.description:
            data["description"] = self.description
        favoured = Table(self.name, self.path, self.spec, data, self.text)
        favoured.die = self.die
        if self.die is not None:
            favoured._by_value = dict.fromkeys(self._by_value, entries[index])
        return favoured


def _weighted_pick(rng, entries: list[dict]) -> dict:
    return Pool(entries).pick(rng)


def entry_values(entry: dict, die: Dice) -> list[int]:
    """The die results an entry's `roll` covers (only results the die can give)."""
    low, high = parse_range(entry["roll"])
    return [v for v in die.possible_values() if low <= v <= high]


def parse_range(roll: Any) -> tuple[int, int]:
    """'11-13' -> (11, 13); '14' or 14 -> (14, 14). ValueError when unreadable."""
    if isinstance(roll, bool):
        raise ValueError(roll)
    if isinstance(roll, int):
        return roll, roll
    text = str(roll).strip().replace("–", "-")
    match = re.fullmatch(r"(-?\d+)\s*(?:-\s*(-?\d+))?", text)
    if not match:
        raise ValueError(roll)
    low = int(match.group(1))
    high = int(match.group(2)) if match.group(2) else low
    if high < low:
        raise ValueError(roll)
    return low, high


class Tables:
    """A system's pack: built-in tables with user overlays laid over them, loaded lazily."""

    def __init__(
        self,
        system: str,
        specs: dict[str, Spec],
        effect_keys: frozenset[str] | set[str],
        dirs: list[Path],
        consistency: Callable[[Tables], list[Problem]] | None = None,
        facts: dict[str, Any] | None = None,
        pronouns: dict[str, tuple[str, str]] | None = None,
        placeholders: tuple[str, ...] = (),
        roots: dict[Path, Path] | None = None,
    ) -> None:
        self.system, self.specs, self.effect_keys = system, specs, frozenset(effect_keys)
        # the system's facts and their domains (None: the linter knows no facts)
        self.facts, self.pronouns, self.placeholders = facts, pronouns or {}, placeholders
        self.consistency = consistency  # the system's own checks across fields and files
        self.dirs = dirs
        self.files: dict[str, Path] = {}
        self.escaping: set[Path] = set()  # a user's files that lead outside their folder
        self.miscased: list[Path] = []  # a user's laster.TOML: meant as a table, not read
        for number, folder in enumerate(dirs):
            try:
                listing = sorted(os.listdir(folder))
            except OSError as exc:
                why = exc.strerror or str(exc)
                raise TableError([Problem(str(folder), 0, f"cannot read folder: {why}")]) from None
            for entry in listing:
                if entry.endswith(".toml"):
                    self.files[entry[:-5]] = folder / entry
                    pack_root = (roots or {}).get(folder, folder)
                    if number and outside(folder / entry, pack_root):  # the built-in: trusted
                        self.escaping.add(folder / entry)
                elif number and entry.lower().endswith(".toml"):
                    self.miscased.append(folder / entry)
        self._loaded: dict[str, Table] = {}
        self._labels: Any = None
        self.stamps: dict[tuple, tuple[Path, str, str]] = {}  # see _table_cache
        self._matched: dict[str, Spec | None] = {}  # spec_for of names no spec names
        self.thorough = False  # `tables check`: a trial of every entry of a user's table

    @property
    def labels(self) -> Any:
        """The pack's `Labels` (chargen.labels): every word a reader sees."""
        if self._labels is None:
            name = next((n for n, s in self.specs.items() if s.kind == "labels"), None)
            self._labels = Labels(self[name].settings if name and name in self else None)
        return self._labels

    def names(self) -> list[str]:
        return sorted(self.files)

    def __contains__(self, name: str) -> bool:
        return name in self.files

    def _unknown(self, name: str, asker: str = "") -> UnknownTable:
        """A table of no such name: the nearest names said (`asker`: who asked for it)."""
        from difflib import get_close_matches

        near = get_close_matches(str(name), list(self.files), n=3)
        hint = f"did you mean {' or '.join(repr(n) for n in near)}?" if near else ""
        if not near:
            hint = f"its tables: {', '.join(sorted(self.files))}"
        text = f"{self.system} has no table named '{name}'{asker} ({hint})"
        return UnknownTable([Problem(str(self.dirs[0]), 0, text)], name)

    def __getitem__(self, name: str) -> Table:
        table = self._loaded.get(name)
        if table is None:
            if name not in self.files:
                raise self._unknown(name)
            table, problems = load_table(name, self.files[name], self)
            if problems:
                raise TableError(problems)
            self._loaded[name] = table
        return table

    def spec_for(self, name: str) -> Spec | None:
        """The spec of a table: its own, else the first pattern's it matches."""
        if name in self.specs:
            return self.specs[name]
        if name not in self._matched:
            self._matched[name] = next(
                (spec for pattern, spec in self.specs.items() if _matches(name, pattern)), None
            )
        return self._matched[name]

    def check(self) -> list[Problem]:
        """Every file alone, then what spans files: references, ids and cycles."""
        problems: list[Problem] = [
            Problem(str(path), 0, f"a table file is named in lower case: {path.name.lower()}")
            for path in self.miscased
        ]
        tables: dict[str, Table] = {}
        for name in self.names():
            table, found = load_table(name, self.files[name], self)
            problems += found
            if table is not None and not found:
                tables[name] = table
                self._loaded.setdefault(name, table)
        for table in tables.values():
            problems += _check_references(table, self, tables)
        problems += _check_cycles(tables)
        problems += conditions.check_pack(self, tables)
        problems += _check_name_tables(tables)
        problems += _check_required_tables(self)
        problems += _check_builtin_keys(self, tables)
        if not problems and self.consistency is not None:
            problems += self.consistency(self)
        return problems


def _matches(name: str, pattern: str) -> bool:
    """Whether a table name matches a spec's pattern (a name that is no pattern does
    not); "prefix_*", the usual pattern, without compiling one."""
    head = pattern[:-1]
    if pattern.endswith("*") and not ("*" in head or "?" in head or "[" in head):
        return name.startswith(head)
    if "*" in pattern or "?" in pattern or "[" in pattern:
        return fnmatch.fnmatchcase(name, pattern)
    return False


def load_table(name: str, path: Path, pack: Tables) -> tuple[Table | None, list[Problem]]:
    """Read and validate one file; return the table (None if unusable) and its faults."""
    where = str(path)
    if path in pack.escaping:
        return None, [Problem(where, 0, _outside_message(path))]
    cache = _table_cache(name, path, pack)
    cached = _cached_table(name, path, pack, cache) if cache else None
    if cached is not None:
        return cached, []
    text, fault = read_text(path)
    if fault:
        return None, [Problem(where, 0, fault)]
    try:
        data = tomlfile.loads(text)
    except tomlfile.TOMLError as exc:
        match = re.search(r"line (\d+)", str(exc))
        return None, [Problem(where, int(match.group(1)) if match else 0, f"TOML syntax: {exc}")]
    except RecursionError:
        return None, [Problem(where, 0, f"nested more than {MAX_DEPTH} levels deep")]
    if _depth(data) > MAX_DEPTH:
        return None, [Problem(where, 0, f"nested more than {MAX_DEPTH} levels deep")]
    if not SLUG.match(name):
        return None, [Problem(where, 0, f"table name '{name}' must be an ASCII slug (a-z, 0-9, _)")]
    spec = pack.spec_for(name)
    if spec is None:
        known = ", ".join(sorted(pack.specs))
        return None, [
            Problem(where, 0, f"'{name}' matches no known {pack.system} table (known: {known})")
        ]
    known = _documented_labels(name, path, pack) if spec.kind == "labels" else None
    problems = _check_shape(data, spec, pack.effect_keys, where, text, known)
    if not problems:
        problems = _check_conditions(data, spec, pack, where, text)
    if problems:
        return None, problems
    if cache is not None:
        from chargen.cache import write_sealed

        write_sealed(cache[0], cache[1], data)
    return Table(name, path, spec, data, text), []


# -- the parsed built-in tables, cached ---------------------------------------------
# Parsing and checking the TOML of a sheet's two dozen tables is about half of what
# `chargen matinee pc` costs. The built-in tables change only with chargen itself, so
# their checked data is kept as JSON, keyed by the file's size and time (as Python
# keys its bytecode) and by chargen's code (the specs and checks live there), so a
# cached table is not even read. A user's pack is always read afresh.
_TABLE_CACHE_VERSION = 3  # 2: sealed with a digest of the data; 3: keyed by size and time


def _table_cache(name: str, path: Path, pack: Tables) -> tuple[Path, str] | None:
    """(cache file, key) for a built-in table, or None for a pack's own file (or one
    that is not a regular file: reading it says why)."""
    if os.environ.get("CHARGEN_NO_CACHE"):
        return None
    root = builtin_root()
    where = (root, os.environ.get("XDG_CACHE_HOME"), os.environ.get("HOME"))  # cache_dir()'s
    stamp = pack.stamps.get(where)
    if stamp is None:
        stamp = pack.stamps[where] = _pack_stamp(pack, root)
    folder, prefix, shared = stamp
    if path.parent != folder:
        return None
    try:
        info = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    import zlib  # not hashlib: its import alone costs a few ms of every start-up

    # what the checks read besides the file: the spec, and what every table shares
    raw = f"{info.st_size}:{info.st_mtime_ns}:{pack.spec_for(name)!r}{shared}".encode()
    key = f"{len(raw):x}-{zlib.crc32(raw):08x}-{zlib.adler32(raw):08x}"
    return Path(f"{prefix}{name}.json"), key


def _pack_stamp(pack: Tables, root: Path) -> tuple[Path, str, str]:
    """(the pack's built-in folder, the start of its cache files' paths, what the key
    of each of its tables holds besides the file's stamp and spec: the effect keys,
    facts, pronouns and placeholders, and chargen's own code), worked out once."""
    import zlib

    from chargen.cache import cache_dir

    # a file of its own for each installed chargen: two installs (a checkout beside a
    # site install) would otherwise overwrite each other's tables at every start
    where = f"{zlib.crc32(str(root).encode('utf-8')):08x}"
    prefix = cache_dir() / f"tables{_TABLE_CACHE_VERSION}-{where}-{pack.system}-"
    context = (sorted(pack.effect_keys), pack.facts, pack.pronouns, pack.placeholders)
    return root / pack.system, str(prefix), repr((context, _code_stamp()))


def _cached_table(name: str, path: Path, pack: Tables, cache: tuple[Path, str]) -> Table | None:
    """The table from its cache file when that holds data under this very key, sealed
    with the digest of its data (an edited entry is rebuilt)."""
    from chargen.cache import read_sealed

    cached = read_sealed(cache[0], cache[1])
    spec = pack.spec_for(name)
    if not isinstance(cached, dict) or spec is None:
        return None
    return Table(name, path, spec, cached)


@functools.cache
def _code_stamp() -> str:
    """chargen's own source files, by name, size and time: a changed spec or check
    (an upgrade, or an edit in a development checkout) makes every cached table stale."""
    here = os.path.dirname(os.path.realpath(__file__))
    systems = os.path.join(here, "systems")
    folders = [(here, ""), (systems, "systems/")]
    with os.scandir(systems) as listing:
        folders += [
            (e.path, f"systems/{e.name}/")
            for e in listing
            if e.is_dir() and not e.name.startswith("_")
        ]
    parts = []
    for folder, prefix in folders:  # scandir, not glob: this runs in every start-up of a sheet
        with os.scandir(folder) as listing:
            for entry in listing:
                if entry.name.endswith(".py"):
                    info = entry.stat()
                    parts.append(f"{prefix}{entry.name}:{info.st_size}:{info.st_mtime_ns}")
    return ";".join(sorted(parts))


MAX_DEPTH = 8  # tables and lists inside one another in a file
MAX_ENTRIES = 5_000  # [[entries]] in one file
MAX_PROBLEMS = 50  # faults reported for one file before the rest are left out


def _depth(data: Any) -> int:
    """How deeply tables and lists nest in `data` (worked out without recursion)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, level = stack.pop()
        if level > deepest:
            deepest = level
            if deepest > MAX_DEPTH:
                break
        items = value.values() if isinstance(value, dict) else value
        stack.extend((v, level + 1) for v in items if isinstance(v, dict | list))
    return deepest


def _documented_labels(name: str, path: Path, pack: Tables) -> dict | None:
    """The placeholders each text of the built-in labels file uses (what a user's labels
    file may use for the same key), or None for the built-in file itself."""
    from chargen.labels import documented

    builtin = pack.dirs[0] / f"{name}.toml"
    if path == builtin:
        return None
    text, fault = read_text(builtin)
    try:
        return documented(tomlfile.loads(text)) if not fault else {}
    except tomlfile.TOMLError:
        return {}


def _check_shape(
    data: dict,
    spec: Spec,
    effect_keys: frozenset[str],
    where: str,
    text: str,
    known: dict | None = None,
) -> list[Problem]:
    out: list[Problem] = []

    def fault(msg: str, key: str | None = None, index: int | None = None) -> None:
        if len(out) >= MAX_PROBLEMS:
            if len(out) == MAX_PROBLEMS:
                out.append(
                    Problem(where, 0, f"more problems left out after the first {MAX_PROBLEMS}")
                )
            return
        line = key_line(text, key, index) if key else 0
        if not line and index is not None:
            lines = entry_lines(text)
            line = lines[index] if index < len(lines) else 0
        out.append(Problem(where, line, msg))

    for key, index in _dates(data):  # no field takes one, and JSON cannot hold one
        fault(f"'{key}' is a date or time: no table field takes one", key, index)
    for key in ("description", "source"):
        if key in data and _type_error(data[key], "str"):
            fault(f"'{key}' must be {_noun('str')}, not {_shown(data[key])}", key)
    if out:
        return out
    if spec.kind == "labels":
        for key, message in check_labels(data, known):
            section, _, sub = key.partition(".")
            line = section_line(text, section, sub) if sub else key_line(text, key)
            out.append(Problem(where, line or key_line(text, section), message))
        return out

    if spec.kind == "settings":
        for key in data:
            if key in ("description", "source"):
                continue
            if key not in spec.fields and key.rstrip("!") not in spec.fields:
                fault(f"unknown setting '{key}' (known: {', '.join(sorted(spec.fields))})", key)
        for key, kind in spec.fields.items():
            required, kind = kind.endswith("!"), kind.rstrip("!")
            if key not in data:
                if required:
                    fault(f"missing setting '{key}'")
            else:
                wanted = _type_error(data[key], kind)
                if wanted:
                    fault(f"setting '{key}' must be {wanted}, not {_shown(data[key])}", key)
        if not out:
            for low, high in spec.order:
                if low in data and high in data and data[low] > data[high]:
                    fault(f"setting '{low}' ({data[low]}) is above '{high}' ({data[high]})", low)
        return out

    for key in data:
        if key not in TOP_KEYS:
            fault(
                f"unknown top-level key '{key}' (a {spec.kind} table has {sorted(TOP_KEYS)})", key
            )
    entries = data.get("entries")
    if not isinstance(entries, list) or not entries:
        fault("needs [[entries]]")
        return out
    if len(entries) > MAX_ENTRIES:
        fault(f"{len(entries):,} entries: a table has at most {MAX_ENTRIES:,}")
        return out
    die = None
    if "die" in data:
        if spec.kind != "roll":
            fault("'die' belongs to roll tables only", "die")
        else:
            try:
                die = parse(data["die"]) if isinstance(data["die"], str) else None
                if die is None:
                    fault(
                        f'die must be a dice expression such as "d66", not {_shown(data["die"])}',
                        "die",
                    )
                elif table_fault(die):
                    fault(f"die '{data['die']}' {table_fault(die)}", "die")
                    die = None
            except DiceError as exc:
                fault(f"die: {exc}", "die")
    allowed = {**COMMON_KEYS, **spec.fields}
    ids: dict[str, int] = {}
    covered: dict[int, int] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            fault(f"entry {i + 1} is not a table", None, i)
            continue
        for key, value in entry.items():
            if key not in allowed:
                fault(f"unknown key '{key}' in entry {i + 1}", key, i)
                continue
            kind = allowed[key].rstrip("!")
            if key == "effects":
                if not isinstance(value, dict):
                    fault("effects must be a table such as { fysik = 1 }", key, i)
                    continue
                for effect, amount in value.items():
                    if effect not in effect_keys:
                        valid = ", ".join(sorted(effect_keys)) or "none"
                        fault(f"unknown effect key '{effect}' (valid: {valid})", key, i)
                    elif _type_error(amount, EFFECT_AMOUNT):
                        fault(
                            f"effect '{effect}' must be {_noun(EFFECT_AMOUNT)}, "
                            f"not {_shown(amount)}",
                            key,
                            i,
                        )
            elif key == "roll":
                if spec.kind != "roll":
                    fault("'roll' belongs to roll tables only", key, i)
                elif isinstance(value, bool) or not isinstance(value, int | str):
                    fault(
                        f'roll must be a number or a range such as "11-13", not {_shown(value)}',
                        key,
                        i,
                    )
            elif key == "weight":
                if (
                    isinstance(value, bool)
                    or not isinstance(value, int | float)
                    or not math.isfinite(value)
                    or not 0 < value <= MAX_WEIGHT
                ):
                    fault(
                        f"weight must be a finite number above 0 (at most {MAX_WEIGHT:,}), "
                        f"not {_shown(value)}",
                        key,
                        i,
                    )
            elif key == "ref":
                if not (isinstance(value, str) or _type_ok(value, "list[str]")):
                    fault("ref must name a table (or a list of tables)", key, i)
            else:
                wanted = _type_error(value, kind)
                if wanted:
                    fault(f"'{key}' must be {wanted}, not {_shown(value)}", key, i)
        for key, kind in spec.fields.items():
            if kind.endswith("!") and key not in entry:
                fault(f"entry {i + 1} lacks required key '{key}'", None, i)
        if spec.kind == "definitions":
            entry_id = entry.get("id")
            if not isinstance(entry_id, str) or not SLUG.match(entry_id):
                fault(
                    f"entry {i + 1} needs an 'id' that is an ASCII slug, not {entry_id!r}", "id", i
                )
            elif entry_id in ids:
                fault(f"duplicate id '{entry_id}' (first at entry {ids[entry_id] + 1})", "id", i)
            else:
                ids[entry_id] = i
        elif spec.kind == "roll":
            if "result" not in entry:
                fault(f"entry {i + 1} lacks 'result'", None, i)
            if "id" in entry:
                entry_id = entry["id"]
                if not isinstance(entry_id, str) or not SLUG.match(entry_id):
                    fault(f"'id' must be an ASCII slug, not {_shown(entry_id)}", "id", i)
                elif entry_id in ids:
                    fault(
                        f"duplicate id '{entry_id}' (first at entry {ids[entry_id] + 1})", "id", i
                    )
                else:
                    ids[entry_id] = i
            if "die" in data:
                if "roll" not in entry:
                    fault(
                        f"entry {i + 1} lacks 'roll' (the table has die = {data['die']!r})", None, i
                    )
                elif die is not None:
                    _cover(entry, i, die, covered, fault)
                if "weight" in entry:  # the die decides: a weight would be read as one
                    fault(
                        f"entry {i + 1} has a 'weight', but a table with die = {data['die']!r} "
                        "gives each entry its share by its 'roll' range: remove the weight "
                        "(or the die, to draw by weight)",
                        "weight",
                        i,
                    )
            elif "weight" not in entry:
                fault(f"entry {i + 1} needs a 'weight' (or give the table a 'die')", None, i)
    lacking = [i for i in spec.ids if i not in ids]
    if lacking and not out:
        fault(f"lacks the entries {', '.join(lacking)}: the game names them", None, 0)
    if die is not None and not out:
        missing = [v for v in die.possible_values() if v not in covered]
        if missing:
            fault(f"gap: no entry covers {_ranges(missing)} of {die.text}", "die")
    return out


def _dates(data: dict) -> Iterator[tuple[str, int | None]]:
    """(key, entry index or None) of every date or time value in a file's data."""
    import datetime

    def holds(value: Any) -> bool:
        if isinstance(value, datetime.date | datetime.time):
            return True
        items = (
            value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        )
        return any(holds(v) for v in items)

    for key, value in data.items():
        if key == "entries" and isinstance(value, list):
            for i, entry in enumerate(value):
                if isinstance(entry, dict):
                    yield from ((k, i) for k, v in entry.items() if holds(v))
        elif holds(value):
            yield key, None


def _check_conditions(data: dict, spec: Spec, pack: Tables, where: str, text: str) -> list[Problem]:
    """The condition keys and text placeholders of every entry (see chargen/conditions.py)."""
    if spec.kind == "settings":
        return []
    allowed = {**COMMON_KEYS, **spec.fields}
    text_keys = {k for k, kind in allowed.items() if kind.rstrip("!") == "text"}
    out = []
    for i, entry in enumerate(data.get("entries") or ()):
        for key, message in conditions.entry_faults(entry, text_keys, pack):
            out.append(Problem(where, key_line(text, key, i), message))
    return out


def _cover(entry: dict, i: int, die: Dice, covered: dict[int, int], fault) -> None:
    try:
        low, high = parse_range(entry["roll"])
    except ValueError:
        fault(f'roll {entry["roll"]!r} is not a number or a range such as "11-13"', "roll", i)
        return
    possible = die.possible_values()
    if low < possible[0] or high > possible[-1]:
        fault(
            f"roll {entry['roll']!r} is outside {die.text} ({possible[0]}-{possible[-1]})",
            "roll",
            i,
        )
        return
    values = [v for v in possible if low <= v <= high]
    if not values:
        fault(f"roll {entry['roll']!r} covers no result {die.text} can give", "roll", i)
    for value in values:
        if value in covered:
            fault(f"overlap: {value} is also covered by entry {covered[value] + 1}", "roll", i)
            return
        covered[value] = i


def _ranges(values: list[int]) -> str:
    parts, start, prev = [], values[0], values[0]
    for v in values[1:] + [None]:
        if v is not None and v == prev + 1:
            prev = v
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if v is not None:
            start = prev = v
    return ", ".join(parts)


def _type_ok(value: Any, kind: str) -> bool:
    return _type_error(value, kind) is None


# The patterns of a field's kind, compiled at their first use (re keeps them): only a
# table that is read afresh is checked, and a start-up from the cache compiles none.
_KEYS = r"\{([a-z0-9_,]+)\}$"  # dict[T]{a,b}: a table that has these keys
_DICE_RANGED = r"^dice\[(-?\d+)?\.\.(-?\d+)?\]$"
_RANGED = r"^(int|num)\[(-?[\d_]+(?:\.\d+)?)?\.\.(-?[\d_]+(?:\.\d+)?)?\]$"
MAX_TEXT = 10_000  # characters in one text value
MAX_DICE_RESULTS = 10_000  # totals a dice field may have (its results are listed and tabulated)
# C0 and C1 control characters but tab and newline: a table's text is printed on
# terminals, where an escape sequence would recolour or rewrite the screen
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _plain_text(value: Any) -> bool:
    """A non-empty text of at most MAX_TEXT characters, without control characters."""
    return (
        isinstance(value, str)
        and bool(value.strip())
        and len(value) <= MAX_TEXT
        and not _CONTROL.search(value)
    )


_PLAIN_TYPES = ("str", "text", "table", "int", "num", "bool", "dice", "locale", "any")


def type_fault(kind: str) -> str:
    """What is wrong with a spec's field type ("": nothing), found before any table is
    read (a plugin's spec "int[1..1000" is its declaration's fault, not a value's)."""
    whole = kind
    kind = kind[:-1] if kind.endswith("!") else kind
    if kind.startswith("re:"):
        try:
            re.compile(kind[3:])
        except re.error as exc:
            return f"'{whole}': its pattern does not compile ({exc})"
        return ""
    keys = re.search(_KEYS, kind)
    if keys:
        kind = kind[: keys.start()]
        if not kind.rstrip("+").startswith("dict["):
            return f"'{whole}': {{keys}} follow a dict[T] only"
    kind = kind[:-1] if kind.endswith("+") else kind
    if kind.startswith(("list[", "dict[")):
        if not kind.endswith("]"):
            return f"'{whole}': {kind[:4]}[T] lacks its closing ]"
        inner = type_fault(kind[5:-1]) if not kind[5:-1].endswith("!") else "a ! inside"
        return f"'{whole}': {inner}" if inner else ""
    if kind in _PLAIN_TYPES or re.match(_RANGED, kind) or re.match(_DICE_RANGED, kind):
        return ""
    for prefix in ("id:", "table:", "one:"):
        if kind.startswith(prefix) and len(kind) > len(prefix):
            return ""
    return (
        f"'{whole}' is no field type (types: {', '.join(_PLAIN_TYPES)}, int[LO..HI], "
        "num[LO..HI], dice[LO..HI], id:TABLE, table:KIND, one:a|b, re:PATTERN, list[T], "
        "dict[T]; then + {a,b} !)"
    )


def _type_error(value: Any, kind: str) -> str | None:
    """None when `value` is of spec type `kind`, else what it should be (a noun phrase).

    Types: str (non-empty text) int num (finite) bool dice table id:TABLE locale any,
    table:KIND (a roll, definitions or settings table) or table:PATTERN (a table so named),
    int[LO..HI] / num[LO..HI] (either bound may be left out), one:a|b|c (one of these
    words), list[T], dict[T]; a trailing "+" asks for a non-empty list or dict.
    """
    if kind.startswith("re:"):
        ok = isinstance(value, str) and len(value) <= MAX_TEXT and re.fullmatch(kind[3:], value)
        return None if ok else _noun(kind)
    keys = re.search(_KEYS, kind)
    if keys:
        wanted = _type_error(value, kind[: keys.start()])
        if wanted or not set(keys.group(1).split(",")) <= set(value):
            return wanted or _noun(kind)
        return None
    nonempty = kind.endswith("+")
    kind = kind.rstrip("+")
    for shape, cls, noun in (("list[", list, "a list"), ("dict[", dict, "a table")):
        if kind.startswith(shape) and kind.endswith("]"):
            inner = kind[5:-1]
            what = f"{'a non-empty' + noun[1:] if nonempty else noun} of {_noun(inner)}"
            if not isinstance(value, cls) or (nonempty and not value):
                return what
            items = value if cls is list else value.values()
            if any(_type_error(v, inner) is not None for v in items):
                return what
            return None
    ranged = re.match(_RANGED, kind)
    if ranged:
        base, low, high = ranged.groups()
        if isinstance(value, bool) or not isinstance(value, int | float):
            return _noun(kind)
        if base == "int" and not isinstance(value, int):
            return _noun(kind)
        if isinstance(value, float) and not math.isfinite(value):
            return _noun(kind)
        if (low is not None and value < float(low)) or (high is not None and value > float(high)):
            return _noun(kind)
        return None
    if kind == "str":
        return None if _plain_text(value) else _noun(kind)
    if kind == "text":  # non-empty text, or { male = "...", female = "..." } of it
        sides = list(value.values()) if conditions.is_gendered(value) else [value]
        return None if all(_plain_text(v) for v in sides) else _noun(kind)
    if kind == "table" or kind.startswith(("id:", "table:")):
        return None if isinstance(value, str) and value else _noun(kind)
    if kind.startswith("one:"):
        return None if isinstance(value, str) and value in kind[4:].split("|") else _noun(kind)
    if kind == "int":
        return None if isinstance(value, int) and not isinstance(value, bool) else _noun(kind)
    if kind == "num":
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return None if ok and math.isfinite(value) else _noun(kind)
    if kind == "bool":
        return None if isinstance(value, bool) else _noun(kind)
    bounded = re.match(_DICE_RANGED, kind)
    if bounded:
        wanted = _type_error(value, "dice")
        if wanted:
            return wanted
        dice, (low, high) = parse(value), bounded.groups()
        if (low is not None and dice.minimum < int(low)) or (
            high is not None and (dice.aces or dice.maximum > int(high))
        ):
            return _noun(kind)
        return None
    if kind == "dice":
        if not isinstance(value, str):
            return _noun(kind)
        try:
            dice = parse(value)
        except DiceError as exc:
            return f"{_noun(kind)} ({exc})"
        if dice.results > MAX_DICE_RESULTS:
            return f"{_noun(kind)} with at most {MAX_DICE_RESULTS:,} possible results"
        return None
    if kind == "locale":
        return None if names.is_locale(value) else _noun(kind)
    if kind == "any":
        return None
    raise ValueError(f"unknown field type '{kind}' in a table spec")


def _noun(kind: str) -> str:
    """What a value of spec type `kind` is, for a message."""
    if kind.startswith("re:"):
        return f"a text of the form {kind[3:]}"
    keys = re.search(_KEYS, kind)
    if keys:
        return f"{_noun(kind[: keys.start()])} with the keys {keys.group(1).replace(',', ', ')}"
    nonempty = kind.endswith("+")
    kind = kind.rstrip("+")
    if kind.startswith(("list[", "dict[")):
        noun = "a list" if kind.startswith("list[") else "a table"
        return f"{'a non-empty' + noun[1:] if nonempty else noun} of {_noun(kind[5:-1])}"
    ranged = re.match(_RANGED, kind)
    if ranged:
        base, low, high = ranged.groups()
        noun = "a whole number" if base == "int" else "a number"
        if low is not None and high is not None:
            return f"{noun} from {low} to {high}"
        if low is not None:
            return f"{noun} of at least {low}"
        return f"{noun} of at most {high}" if high is not None else noun
    bounded = re.match(_DICE_RANGED, kind)
    if bounded:
        low, high = bounded.groups()
        if low is not None and high is not None:
            return f"a dice expression whose totals lie from {low} to {high} (no aces)"
        if low is not None:
            return f"a dice expression whose totals are at least {low}"
        return f"a dice expression whose totals are at most {high} (no aces)"
    if kind.startswith("id:"):
        return f"an id in {kind[3:]}"
    if kind.startswith("table:"):
        return f"the name of a {kind[6:]} table"
    if kind.startswith("one:"):
        return "one of " + ", ".join(kind[4:].split("|"))
    return {
        "str": f"a non-empty text (at most {MAX_TEXT:,} characters, no control characters)",
        "text": 'a non-empty text, or { male = "...", female = "..." } of it '
        f"(at most {MAX_TEXT:,} characters, no control characters)",
        "table": "the name of a table",
        "int": "a whole number",
        "num": "a finite number",
        "bool": "true or false",
        "dice": "a dice expression such as 2d6",
        "locale": "a Faker locale with person names (as --locale takes)",
    }.get(kind, kind)


def _shown(value: Any) -> str:
    """A value for a message, cut short when long."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def bare_kind(kind: str) -> str:
    """A spec type without its marks: "!" (required), "{a,b}" (keys) and "+" (non-empty);
    "dict[dice]{h,k}!" is "dict[dice]"."""
    return re.sub(_KEYS, "", kind.rstrip("!")).rstrip("+")


def _references(kind: str, value: Any) -> list[tuple[str, str]]:
    """(kind, name) pairs that a typed value refers to: ('table', n) or ('id:T', id)."""
    kind = bare_kind(kind)
    if kind.startswith("re:"):
        return []
    if kind.startswith("list[") and isinstance(value, list):
        return [r for v in value for r in _references(kind[5:-1], v)]
    if kind.startswith("dict[") and isinstance(value, dict):
        return [r for v in value.values() for r in _references(kind[5:-1], v)]
    if kind == "table" or kind.startswith(("id:", "table:")):
        return [(kind, value)]
    return []


def _check_references(table: Table, pack: Tables, tables: dict[str, Table]) -> list[Problem]:
    out: list[Problem] = []
    where = str(table.path)
    if table.kind == "settings":
        items = [
            (None, key, value, table.spec.fields.get(key, "any"))
            for key, value in table.settings.items()
        ]
    else:
        items = []
        for i, entry in enumerate(table.entries):
            for key, value in entry.items():
                kind = (
                    "table:roll"
                    if key == "ref"
                    else table.spec.fields.get(key, COMMON_KEYS.get(key, "any"))
                )
                if key == "ref" and isinstance(value, list):
                    kind = "list[table:roll]"
                items.append((i, key, value, kind))
    for index, key, value, kind in items:
        for ref_kind, target in _references(kind.rstrip("!"), value):
            if ref_kind == "table" or ref_kind.startswith("table:"):
                want = ref_kind[6:]
                spec = pack.spec_for(target) if target in pack else None
                if target not in pack:
                    text = f"'{key}' names unknown table '{target}'"
                elif spec is not None and want in KINDS and spec.kind != want:
                    text = f"'{key}' names {target}, a {spec.kind} table, not a {want} table"
                elif want and want not in KINDS and not fnmatch.fnmatchcase(target, want):
                    text = f"'{key}' names {target}, not a table named like {want}"
                else:
                    continue
                out.append(Problem(where, key_line(table.text, key, index), text))
                continue
            other = ref_kind[3:]
            if other not in pack:
                out.append(
                    Problem(
                        where,
                        key_line(table.text, key, index),
                        f"'{key}' refers to table '{other}', which does not exist",
                    )
                )
            elif other in tables and target not in tables[other]:
                valid = ", ".join(tables[other].ids)
                out.append(
                    Problem(
                        where,
                        key_line(table.text, key, index),
                        f"'{key}': '{target}' is not an id in {other} (valid: {valid})",
                    )
                )
    return out


MAX_ROLL_ROWS = 1_000  # rows one roll on a table may reach through its references


def _refs_of(entry: dict) -> list[str]:
    ref = entry.get("ref")
    return [ref] if isinstance(ref, str) else [r for r in ref or () if isinstance(r, str)]


def _check_name_tables(tables: dict[str, Table]) -> list[Problem]:
    """Authored name tables (NAME_SPEC): what their types cannot say."""
    out = []
    for table in tables.values():
        if table.spec == NAME_SPEC:
            for key, message in names.check_name_table(table):
                out.append(Problem(str(table.path), key_line(table.text, key), message))
    return out


def _check_cycles(tables: dict[str, Table]) -> list[Problem]:
    """Reference cycles, and chains that reach too many rows from one roll.

    Worked out without recursion, so a chain of any length is checked, not a
    RecursionError. One roll on a table rolls one row and every table its `ref`s
    name, so the rows one roll may reach are 1 + the most any of its entries adds.
    """
    graph = {
        name: sorted({r for e in t.entries for r in _refs_of(e)}) for name, t in tables.items()
    }
    out: list[Problem] = []

    def where(node: str, target: str) -> tuple[str, int]:
        table = tables[node]
        index = next(i for i, e in enumerate(table.entries) if target in _refs_of(e))
        return str(table.path), key_line(table.text, "ref", index)

    state: dict[str, int] = {}  # 1: on the current path, 2: done
    reach: dict[str, int] = {}
    for start in sorted(graph):
        if start in state:
            continue
        path = [start]
        stack = [iter(graph[start])]
        state[start] = 1
        while stack:
            node = path[-1]
            nxt = next(stack[-1], None)
            if nxt is None:
                stack.pop()
                path.pop()
                state[node] = 2
                reach[node] = 1 + max(
                    (sum(reach.get(r, 1) for r in _refs_of(e)) for e in tables[node].entries),
                    default=0,
                )
                reach[node] = min(reach[node], MAX_ROLL_ROWS + 1)
                continue
            if nxt not in graph:
                continue
            if state.get(nxt) == 1:
                cycle = path[path.index(nxt) :] + [nxt]
                file, line = where(node, nxt)
                out.append(Problem(file, line, f"reference cycle: {' -> '.join(cycle)}"))
            elif nxt not in state:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(graph[nxt]))
    if out:
        return out
    for name in sorted(reach):
        if reach[name] > MAX_ROLL_ROWS and not any(
            reach.get(r, 0) > MAX_ROLL_ROWS for r in graph[name]
        ):
            table = tables[name]
            index = next((i for i, e in enumerate(table.entries) if _refs_of(e)), 0)
            out.append(
                Problem(
                    str(table.path),
                    key_line(table.text, "ref", index),
                    f"one roll on {name} may reach more than {MAX_ROLL_ROWS:,} rows "
                    "through its references",
                )
            )
    return out


READ_KEYS = ("name", "result")  # the texts a game reads from every entry (a spec's "!"
# marks the others a game needs, such as a description)


def _check_builtin_keys(pack: Tables, tables: dict[str, Table]) -> list[Problem]:
    """A user's table in place of a built-in one gives every entry the texts that every
    built-in entry has (a name, a result): the game's code reads them."""
    out = []
    for name, table in tables.items():
        builtin = pack.dirs[0] / f"{name}.toml"
        if table.path == builtin or table.kind not in ("roll", "definitions"):
            continue
        text, fault = read_text(builtin)
        try:
            entries = tomlfile.loads(text).get("entries") if not fault else None
        except tomlfile.TOMLError:
            entries = None
        if not isinstance(entries, list) or not entries:
            continue
        needed = [k for k in READ_KEYS if all(isinstance(e, dict) and k in e for e in entries)]
        known = {k for e in entries if isinstance(e, dict) for k in e}
        for i, entry in enumerate(table.entries):
            if not known.issuperset(entry):
                continue  # an entry of a shape the built-in rows do not use (a print
                # table's `section` override): the spec's own fields hold it
            for key in needed:
                if key not in entry:
                    out.append(
                        Problem(
                            str(table.path),
                            table.entry_line(i),
                            f"entry {i + 1} lacks '{key}' (every entry of the built-in "
                            f"{name} has one: the game reads it)",
                        )
                    )
    return out


def _check_required_tables(pack: Tables) -> list[Problem]:
    """Exact (non-pattern) spec names are tables the system needs: each must exist."""
    out = []
    for name in sorted(pack.specs):
        if not any(ch in name for ch in "*?[") and name not in pack:
            out.append(Problem(str(pack.dirs[-1]), 0, f"missing table '{name}' ({name}.toml)"))
    return out


def match_choice(table: Table, value: str) -> str | None:
    """The id of the entry a user's value names: its id or its display name (any gendered
    form), case, diacritics and word breaks aside (`--personlighed militant` for
    "Militant", `--tough nagyonszivos` for "nagyon szívós"), or None."""
    slug = normalize(value)
    if slug in table:
        return slug
    joined = unbroken(value)
    close = set()  # the entries it names written without its word breaks
    for entry in table.entries:
        name = entry.get("name")
        forms = name.values() if isinstance(name, dict) else (name,) if name else ()
        if "id" not in entry:
            continue
        if any(normalize(form) == slug for form in forms):
            return entry["id"]
        if any(unbroken(w) == joined for w in (entry["id"], *forms)):
            close.add(entry["id"])
    return close.pop() if len(close) == 1 else None
