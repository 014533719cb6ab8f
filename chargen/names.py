"""Person names from Faker's locale data, picked fast and reproducibly.

Importing Faker costs about 100 ms a process and its weighted picks are slow, so
this module reads the name lists straight out of the installed Faker's
``providers/person/<locale>`` source (the class body is executed alone, without
the Faker package) and picks from them with precomputed cumulative weights and
the character's own random stream. Weighted lists keep Faker's weights, so the
distribution is Faker's; the pinned Faker version keeps a seed's names stable.
"""

from __future__ import annotations

import bisect
import copy
import importlib.util
import os
import re
import zlib
from collections import Counter, OrderedDict
from functools import lru_cache
from itertools import accumulate
from pathlib import Path

from chargen.cache import cache_dir, read_sealed, write_sealed
from chargen.errors import ChargenError, did_you_mean

# Latin letters for Cyrillic names (a plain scholarly-style romanisation).
_CYRILLIC = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюяієґ",
        [
            "a",
            "b",
            "v",
            "g",
            "d",
            "e",
            "yo",
            "zh",
            "z",
            "i",
            "y",
            "k",
            "l",
            "m",
            "n",
            "o",
            "p",
            "r",
            "s",
            "t",
            "u",
            "f",
            "kh",
            "ts",
            "ch",
            "sh",
            "shch",
            "",
            "y",
            "",
            "e",
            "yu",
            "ya",
            "i",
            "ye",
            "g",
        ],
        strict=True,
    )
)


def romanize(text: str) -> str:
    """Cyrillic to Latin letters; other text is returned as it is."""
    out = []
    for ch in text:
        low = ch.lower()
        if low in _CYRILLIC:
            latin = _CYRILLIC[low]
            out.append(latin.capitalize() if ch != low else latin)
        else:
            out.append(ch)
    return "".join(out)


class _Weighted:
    """A list of names with optional weights; `pick(rng)` is one bisect."""

    __slots__ = ("names", "cumulative", "total")

    def __init__(self, data) -> None:
        if isinstance(data, dict):
            self.names = tuple(data)
            self.cumulative = list(accumulate(float(w) for w in data.values()))
        else:
            self.names = tuple(data)
            self.cumulative = []
        self.total = self.cumulative[-1] if self.cumulative else float(len(self.names))

    def pick(self, rng) -> str:
        if self.cumulative:
            return self.names[bisect.bisect(self.cumulative, rng.random() * self.total)]
        return self.names[int(rng.random() * len(self.names))]

    def __len__(self) -> int:
        return len(self.names)


class NamePicker:
    """Given and family names of one Faker locale.

    `latin=True` takes Faker's romanised lists where the locale has them (ja_JP)
    and romanises Cyrillic otherwise.
    """

    def __init__(self, locale: str, latin: bool = False) -> None:
        data = _provider_data(locale)
        self.locale, self.latin = locale, latin
        prefix = (
            "first_romanized_names" if latin and "first_romanized_names" in data else "first_names"
        )
        last = "last_romanized_names" if latin and "last_romanized_names" in data else "last_names"
        both = data.get(prefix) or _merge(data.get(f"{prefix}_male"), data.get(f"{prefix}_female"))
        family = (
            data.get(last)
            or _merge(data.get(f"{last}_male"), data.get(f"{last}_female"))
            or data.get("unisex_last_names")
        )
        if not both or not family:
            raise ChargenError(f"Faker locale '{locale}' has no person names to use")
        male, female = gender_sorted(
            data.get(f"{prefix}_male") or both, data.get(f"{prefix}_female") or both
        )
        self.given = {"male": _Weighted(male), "female": _Weighted(female)}
        self.family = {
            "male": _Weighted(data.get(f"{last}_male") or family),
            "female": _Weighted(data.get(f"{last}_female") or family),
        }
        self._romanize = latin and prefix == "first_names"

    def only_given(self, allowed: dict[str, list[str]]) -> NamePicker:
        """A copy whose given names of each gender in `allowed` are only those listed
        (Faker's weights kept; a gender left out keeps all): an era's names."""
        other = copy.copy(self)
        other.given = dict(self.given)
        for gender, keep in allowed.items():
            old = self.given[gender]
            wanted = set(keep)
            weights = (
                [b - a for a, b in zip([0.0, *old.cumulative], old.cumulative, strict=False)]
                if old.cumulative
                else [1.0] * len(old.names)
            )
            kept = {n: w for n, w in zip(old.names, weights, strict=True) if n in wanted}
            if not kept:
                raise ChargenError(f"none of the {gender} given names asked for is in Faker's list")
            other.given[gender] = _Weighted(kept)
        return other

    def pick(self, rng, gender: str | None = None, family_first: bool = False) -> tuple[str, str]:
        """(full name, gender). Gender is drawn evenly when not given."""
        if gender not in ("male", "female"):
            gender = "female" if rng.random() < 0.5 else "male"
        # _Weighted.pick of each, inline (a name of every member of a batch, and its redraws)
        lists = self.given[gender]
        if lists.cumulative:
            given = lists.names[bisect.bisect(lists.cumulative, rng.random() * lists.total)]
        else:
            given = lists.names[int(rng.random() * len(lists.names))]
        lists = self.family[gender]
        if lists.cumulative:
            family = lists.names[bisect.bisect(lists.cumulative, rng.random() * lists.total)]
        else:
            family = lists.names[int(rng.random() * len(lists.names))]
        if self._romanize:
            given, family = romanize(given), romanize(family)
        name = f"{family} {given}" if family_first else f"{given} {family}"
        return name, gender


def _merge(a, b):
    if not a and not b:
        return None
    if isinstance(a, dict) or isinstance(b, dict):
        merged = dict(a if isinstance(a, dict) else dict.fromkeys(a or (), 1.0))
        for key, weight in (b if isinstance(b, dict) else dict.fromkeys(b or (), 1.0)).items():
            merged[key] = merged.get(key, 0.0) + weight
        return merged
    return tuple(a or ()) + tuple(b or ())


@lru_cache(maxsize=32)
def picker(locale: str, latin: bool = False) -> NamePicker:
    return NamePicker(locale, latin)


def faker_root() -> Path:
    spec = importlib.util.find_spec("faker")
    if spec is None or not spec.submodule_search_locations:
        raise ChargenError("Faker is not installed: pip install chargen's dependencies")
    return Path(next(iter(spec.submodule_search_locations)))


_LOCALE = re.compile(r"^[a-z]{2,3}(_[A-Z]{2})?$")


@lru_cache(maxsize=1)
def _folders() -> dict[str, str]:
    """Faker's person-provider source files by locale, as the installed Faker lists them.

    Paths come only from this listing: no path is ever built from a locale a user
    or a table pack names.
    """
    folder = os.path.join(faker_root(), "providers", "person")
    found = {}
    with os.scandir(folder) as listing:  # strings, not Paths: this runs in every start-up
        for entry in listing:
            source = os.path.join(entry.path, "__init__.py")
            if _LOCALE.match(entry.name) and entry.is_dir() and os.path.isfile(source):
                found[entry.name] = source
    return dict(sorted(found.items()))


def locales() -> list[str]:
    """The locales the installed Faker has person names for (given and family names)."""
    return list(_usable())


def is_locale(value: object) -> bool:
    """Whether `value` is a locale `locales()` lists (cheap for a valid one)."""
    return isinstance(value, str) and value in _usable()


@lru_cache(maxsize=1)
def _usable() -> dict[str, None]:
    """The locales with person names, from a small index cached beside the name lists."""
    folders = _folders()
    stamps = []
    for name, path in folders.items():
        info = os.stat(path)
        stamps.append(f"{name}:{info.st_size}:{int(info.st_mtime)}")
    key = zlib.crc32("|".join(stamps).encode())
    cache = cache_dir() / f"locales{_CACHE_VERSION}-{key:08x}.json"
    listed = read_sealed(cache, f"{key:08x}")
    if (
        isinstance(listed, list)
        and listed
        and all(isinstance(n, str) and n in folders for n in listed)
    ):
        return dict.fromkeys(listed)
    listed = [n for n in folders if _has_names(n)]
    write_sealed(cache, f"{key:08x}", listed)
    return dict.fromkeys(listed)


def _has_names(locale: str) -> bool:
    try:
        NamePicker(locale)
    except ChargenError:
        return False
    return True


_NAME_KEYS = (
    "first_names",
    "last_names",
    "first_romanized_names",
    "last_romanized_names",
    "unisex_last_names",
)
_CACHE_VERSION = 4  # bump when what is cached changes (4: sealed with a digest)
MAX_LOCALE_SHOWN = 40  # characters of an unknown locale repeated in a message


def _cached_ok(data) -> bool:
    """A cache file's content has the shape this module writes: name lists by key."""
    if not isinstance(data, dict):
        return False
    for key, value in data.items():
        if not isinstance(key, str) or not key.startswith(_NAME_KEYS):
            return False
        if isinstance(value, dict):
            if not all(
                isinstance(k, str)
                and isinstance(w, int | float)
                and not isinstance(w, bool)
                and 0 < w < float("inf")
                for k, w in value.items()
            ):
                return False
        elif not (isinstance(value, list) and all(isinstance(n, str) for n in value)):
            return False
    return True


def unknown_locale(locale: object) -> ChargenError:
    """The error for a locale Faker has no person names for, listing the valid ones."""
    shown = repr(locale) if not isinstance(locale, str) else f"'{locale[:MAX_LOCALE_SHOWN]}'"
    if isinstance(locale, str) and len(locale) > MAX_LOCALE_SHOWN:
        shown = shown[:-1] + "...'"
    near = did_you_mean(locale, locales())
    return ChargenError(f"unknown locale {shown}{near}. Valid: {', '.join(locales())}")


@lru_cache(maxsize=32)
def _provider_data(locale: str) -> dict:
    """Faker's name lists for `locale`, from a small cache file when one is current.

    Reading Faker's source costs 5-40 ms a locale; the cache, keyed by the source
    file's size and time, brings a second run down to about one. A cache file that
    is unreadable or of the wrong shape is rebuilt.
    """
    path = _folders().get(locale) if isinstance(locale, str) else None
    if path is None:
        raise unknown_locale(locale)
    stat = os.stat(path)
    key = f"{locale}-{stat.st_size}-{stat.st_mtime_ns}"
    cache = cache_dir() / f"names{_CACHE_VERSION}-{locale}-{stat.st_size}-{int(stat.st_mtime)}.json"
    cached = read_sealed(cache, key)
    # sealed: the very data written below, checked then (the digest finds an edit)
    if cached and isinstance(cached, dict):
        return cached
    data = {k: v for k, v in _read_provider(locale, path).items() if k.startswith(_NAME_KEYS)}
    data = {k: dict(v) if isinstance(v, dict) else list(v) for k, v in data.items()}
    data = {k: v for k, v in data.items() if _cached_ok({k: v})}
    write_sealed(cache, key, data)
    return data


def _read_provider(locale: str, path: str, depth: int = 0) -> dict:
    """The class attributes of Faker's person Provider for `locale`, base locales merged.

    Nothing in the file is executed: each assignment's value is read by `_Literal`,
    which knows literals and the few pure operations Faker's name lists are built
    with (OrderedDict(...), tuple/list/set/sorted, Counter sums, itemgetter maps,
    `+` of sequences, `.copy()`). An attribute built any other way is skipped.
    """
    import ast

    with open(path, encoding="utf-8") as source:
        tree = ast.parse(source.read(), path)
    imported: set[str] = set()
    inherited: dict = {}
    for node in tree.body:
        # `from ..en import Provider as EnProvider`: another locale's names to start from.
        if isinstance(node, ast.ImportFrom) and node.level == 2 and node.module:
            base = _folders().get(node.module)
            if base is not None and depth < 5 and any(a.name == "Provider" for a in node.names):
                inherited = _read_provider(node.module, base, depth + 1)
        if isinstance(node, ast.ImportFrom) and node.module in ("collections", "operator"):
            imported.update(alias.name for alias in node.names if alias.asname is None)
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Provider":
            attrs = dict(inherited)
            reader = _Literal(attrs, imported)
            for stmt in node.body:
                targets = _assigned_names(stmt)
                if not targets:
                    continue
                try:
                    value = reader.value(stmt.value)
                except _NotLiteral:  # an attribute built from something we do not read
                    continue
                for target in targets:
                    attrs[target] = value
            return attrs
    raise ChargenError(f"Faker locale '{locale}' has no person Provider")


class _NotLiteral(Exception):
    """An expression `_Literal` does not read."""


class _Literal:
    """Reads the value of a data expression from a parsed Faker source, executing nothing."""

    _CALLS = {"OrderedDict", "tuple", "list", "set", "sorted", "dict", "Counter", "map"}

    def __init__(self, scope: dict, imported: set[str]) -> None:
        self.scope, self.imported = scope, imported

    def value(self, node):
        import ast

        if isinstance(node, ast.Constant):
            if isinstance(node.value, str | int | float | bool) or node.value is None:
                return node.value
            raise _NotLiteral
        if isinstance(node, ast.Tuple):
            return tuple(self.value(e) for e in node.elts)
        if isinstance(node, ast.List):
            return [self.value(e) for e in node.elts]
        if isinstance(node, ast.Set):
            return {self._hashable(self.value(e)) for e in node.elts}
        if isinstance(node, ast.Dict):
            out = {}
            for k, v in zip(node.keys, node.values, strict=True):
                if k is None:
                    raise _NotLiteral
                out[self._hashable(self.value(k))] = self.value(v)
            return out
        if isinstance(node, ast.Name):
            if node.id in self.scope:
                return self.scope[node.id]
            raise _NotLiteral
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.value(node.left), self.value(node.right)
            if type(left) is type(right) and isinstance(left, tuple | list | str | Counter):
                return left + right
            raise _NotLiteral
        if isinstance(node, ast.Call) and not node.keywords:
            return self._call(node)
        raise _NotLiteral

    @staticmethod
    def _hashable(value):
        if isinstance(value, str | int | float | bool | tuple) or value is None:
            return value
        raise _NotLiteral

    def _call(self, node):
        import ast

        func = node.func
        if isinstance(func, ast.Attribute) and not node.args:
            owner = self.value(func.value)
            if isinstance(owner, dict) and func.attr in ("copy", "items", "keys", "values"):
                result = getattr(owner, func.attr)()
                return result if func.attr == "copy" else list(result)
            raise _NotLiteral
        if not isinstance(func, ast.Name):
            raise _NotLiteral
        name = func.id
        if name == "itemgetter" and name in self.imported and len(node.args) == 1:
            index = self.value(node.args[0])
            if isinstance(index, int) and not isinstance(index, bool):
                return _ItemGetter(index)
            raise _NotLiteral
        if name not in self._CALLS or (name == "Counter" and name not in self.imported):
            raise _NotLiteral
        if name == "map":
            if len(node.args) != 2:
                raise _NotLiteral
            getter, items = self.value(node.args[0]), self.value(node.args[1])
            if not isinstance(getter, _ItemGetter) or not isinstance(items, tuple | list | dict):
                raise _NotLiteral
            return [getter(item) for item in items]
        args = [self.value(a) for a in node.args]
        if len(args) > 1:
            raise _NotLiteral
        for arg in args:
            if not isinstance(arg, tuple | list | set | dict):
                raise _NotLiteral
        try:
            if name == "set":
                return set(map(self._hashable, *args)) if args else set()
            return {
                "OrderedDict": OrderedDict,
                "tuple": tuple,
                "list": list,
                "sorted": sorted,
                "dict": dict,
                "Counter": Counter,
            }[name](*args)
        except (TypeError, ValueError):
            raise _NotLiteral from None


class _ItemGetter:
    """`operator.itemgetter(i)` for data: the i-th item of a tuple or list."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index

    def __call__(self, item):
        if not isinstance(item, tuple | list) or not -len(item) <= self.index < len(item):
            raise _NotLiteral
        return item[self.index]


def _assigned_names(stmt) -> list[str]:
    import ast

    if isinstance(stmt, ast.Assign) and stmt.value is not None:
        return [t.id for t in stmt.targets if isinstance(t, ast.Name)]
    if (
        isinstance(stmt, ast.AnnAssign)
        and stmt.value is not None
        and isinstance(stmt.target, ast.Name)
    ):
        return [stmt.target.id]
    return []


# -- names that agree with gender -------------------------------------------------


def gender_sorted(male, female):
    """Faker's male and female given names, each name on the side where it belongs.

    Some locales list a name on both sides (sv_SE has Ali, Ahmed, Mohamed and Ibrahim
    among its women). The rule: a name on both sides of a weighted list stays only
    on the side where Faker weights it more (equal weights: both sides); in an
    unweighted list both sides keep it (the locale lists it as a name of either
    gender). When the two lists are the same object (a locale without gendered
    lists), nothing changes.
    """
    if male is female or not isinstance(male, dict) or not isinstance(female, dict):
        return male, female
    shared = set(male) & set(female)
    if not shared:
        return male, female
    to_male = {n for n in shared if male[n] > female[n]}
    to_female = {n for n in shared if female[n] > male[n]}
    return (
        {n: w for n, w in male.items() if n not in to_female},
        {n: w for n, w in female.items() if n not in to_male},
    )


# -- authored name tables ------------------------------------------------------------


class TablePicker:
    """Names from an authored name table (a settings file of `tables.NAME_SPEC`).

    given name + (family name | patronym) + (byname, with `byname_chance`), or
    family first. A patronym is built from a father's name drawn from `male`:
    `{ male = "{far}sson", female = "{far}sdotter" }`; an `s` right after `{far}`
    is dropped when the father's name already ends in s (Lars -> Larsson).
    """

    def __init__(self, settings: dict) -> None:
        self.given = {g: tuple(settings[g]) for g in ("male", "female")}
        shared = tuple(settings.get("family") or ())
        self.family = {g: tuple(settings.get(f"family_{g}") or shared) for g in ("male", "female")}
        self.patronym = dict(settings.get("patronym") or {})
        self._patronyms: dict[tuple[str, str], str] = {}  # (gender, father) -> patronym
        shared = tuple(settings.get("byname") or ())
        self.byname = {g: tuple(settings.get(f"byname_{g}") or shared) for g in ("male", "female")}
        self.byname_chance = float(settings.get("byname_chance", 1.0))
        self.family_first = bool(settings.get("family_first", False))

    def pick(self, rng, gender: str | None = None) -> tuple[str, str]:
        """(full name, gender); the gender is drawn evenly when not given."""
        rand = rng.random  # each name: items[int(rand() * len(items))]
        if gender not in ("male", "female"):
            gender = "female" if rand() < 0.5 else "male"
        given = self.given[gender]
        parts = [given[int(rand() * len(given))]]
        pattern = self.patronym.get(gender)
        if pattern:
            fathers = self.given["male"]
            father = fathers[int(rand() * len(fathers))]
            made = self._patronyms.get((gender, father))
            if made is None:
                made = self._patronyms[(gender, father)] = _patronym(pattern, father)
            parts.append(made)
        else:
            family = self.family[gender]
            if family:
                parts.append(family[int(rand() * len(family))])
        if self.family_first and len(parts) == 2:
            parts.reverse()
        bynames = self.byname[gender]
        if bynames and (self.byname_chance >= 1.0 or rand() < self.byname_chance):
            parts.append(bynames[int(rand() * len(bynames))])
        return " ".join(parts), gender


def _patronym(pattern: str, father: str) -> str:
    if father.endswith("s"):
        pattern = pattern.replace("{far}s", "{far}")
    return pattern.replace("{far}", father)


def table_picker(table) -> TablePicker:
    """A picker for a loaded name table (build it once per batch)."""
    return TablePicker(table.settings)


def check_name_table(table) -> list[tuple[str, str]]:
    """(key, message) faults the spec's types cannot see in a name table."""
    out = []
    s = table.settings
    for key in ("male", "female", "family", "family_male", "family_female", "byname"):
        if key in s and (not s[key] or not all(n.strip() for n in s[key])):
            out.append((key, f"'{key}' must list at least one name, none of them empty"))
    patronym = s.get("patronym")
    if patronym is not None:
        if set(patronym) != {"male", "female"}:
            out.append(("patronym", 'patronym must be { male = "...", female = "..." }'))
        elif not all("{far}" in v for v in patronym.values()):
            out.append(("patronym", "each patronym pattern must contain {far}"))
    chance = s.get("byname_chance")
    if chance is not None and not 0 <= chance <= 1:
        out.append(("byname_chance", f"byname_chance must be between 0 and 1, not {chance}"))
    return out
