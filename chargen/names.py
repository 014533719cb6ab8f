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
import importlib.util
import json
import os
from collections import OrderedDict
from functools import lru_cache
from itertools import accumulate
from pathlib import Path

from chargen.errors import ChargenError

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

    def pick(self, rng, gender: str | None = None, family_first: bool = False) -> tuple[str, str]:
        """(full name, gender). Gender is drawn evenly when not given."""
        if gender not in ("male", "female"):
            gender = "female" if rng.random() < 0.5 else "male"
        given = self.given[gender].pick(rng)
        family = self.family[gender].pick(rng)
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


def locales() -> list[str]:
    """The locales the installed Faker has person names for."""
    folder = faker_root() / "providers" / "person"
    return sorted(p.name for p in folder.iterdir() if (p / "__init__.py").is_file())


_NAME_KEYS = (
    "first_names",
    "last_names",
    "first_romanized_names",
    "last_romanized_names",
    "unisex_last_names",
)
_CACHE_VERSION = 2  # bump when what is cached changes


@lru_cache(maxsize=32)
def _provider_data(locale: str) -> dict:
    """Faker's name lists for `locale`, from a small cache file when one is current.

    Reading Faker's source costs 5-40 ms a locale; the cache, keyed by the source
    file's size and time, brings a second run down to about one.
    """
    path = faker_root() / "providers" / "person" / locale / "__init__.py"
    if not path.is_file():
        raise ChargenError(f"unknown locale '{locale}'. Valid: {', '.join(locales())}")
    stat = path.stat()
    cache_dir = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "chargen"
    cache = cache_dir / f"names{_CACHE_VERSION}-{locale}-{stat.st_size}-{int(stat.st_mtime)}.json"
    try:
        return json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    data = {k: v for k, v in _read_provider(locale, path).items() if k.startswith(_NAME_KEYS)}
    data = {k: v if isinstance(v, dict) else list(v) for k, v in data.items()}
    import tempfile

    try:  # a cache is a convenience: any failure to write it is ignored
        cache_dir.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=cache_dir, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False)
        os.replace(tmp, cache)
    except OSError:
        pass
    return data


def _read_provider(locale: str, path: Path) -> dict:
    """The class attributes of Faker's person Provider for `locale`, base locales merged."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    namespace: dict = {"OrderedDict": OrderedDict}
    inherited: dict = {}
    for node in tree.body:
        # `from ..en import Provider as EnProvider`: another locale's names to start from.
        if isinstance(node, ast.ImportFrom) and node.level == 2 and node.module:
            for alias in node.names:
                if alias.name == "Provider":
                    base = path.parent.parent / node.module / "__init__.py"
                    inherited = _read_provider(node.module, base)
        if isinstance(node, ast.ImportFrom) and node.module in (
            "collections",
            "operator",
            "typing",
        ):
            module = __import__(node.module)
            for alias in node.names:
                namespace[alias.asname or alias.name] = getattr(module, alias.name)
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Provider":
            attrs = dict(inherited)
            scope = {**namespace, **attrs}
            for stmt in node.body:
                targets = _assigned_names(stmt)
                if not targets:
                    continue
                try:
                    value = eval(compile(ast.Expression(stmt.value), str(path), "eval"), scope)
                except Exception:  # an attribute built from something we do not load
                    continue
                for target in targets:
                    scope[target] = attrs[target] = value
            return attrs
    raise ChargenError(f"Faker locale '{locale}' has no person Provider")


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


def _name_spec():
    from chargen.tables import Spec

    return Spec(
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
            "byname_chance": "num",
            "family_first": "bool",
        },
        "Authored names: given names per gender, family names, a patronym or a byname rule.",
    )


NAME_SPEC = _name_spec()  # register it for a pattern: SPECS["namn_*"] = names.NAME_SPEC


class TablePicker:
    """Names from an authored name table (a settings file of `NAME_SPEC`).

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
        shared = tuple(settings.get("byname") or ())
        self.byname = {g: tuple(settings.get(f"byname_{g}") or shared) for g in ("male", "female")}
        self.byname_chance = float(settings.get("byname_chance", 1.0))
        self.family_first = bool(settings.get("family_first", False))

    def pick(self, rng, gender: str | None = None) -> tuple[str, str]:
        """(full name, gender); the gender is drawn evenly when not given."""
        if gender not in ("male", "female"):
            gender = "female" if rng.random() < 0.5 else "male"
        given = _one(rng, self.given[gender])
        parts = [given]
        if self.patronym.get(gender):
            parts.append(_patronym(self.patronym[gender], _one(rng, self.given["male"])))
        elif self.family[gender]:
            parts.append(_one(rng, self.family[gender]))
        if self.family_first and len(parts) == 2:
            parts.reverse()
        bynames = self.byname[gender]
        if bynames and (self.byname_chance >= 1.0 or rng.random() < self.byname_chance):
            parts.append(_one(rng, bynames))
        return " ".join(parts), gender


def _one(rng, items: tuple[str, ...]) -> str:
    return items[int(rng.random() * len(items))]


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
