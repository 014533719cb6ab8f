"""Every word a person reads: one labels file per system (`tables/SYSTEM/etiketter.toml`).

The file is a table of kind ``labels``, so a user's pack can replace it to rename
or translate the sheets, rosters, `--list` and the prompts of `--interactive`.
Its sections:

* ``dice``: the game's die letter ("T", "d" or "k");
* ``[labels]``: any key (a field, a heading, a value slug) -> its display text;
* ``[short]``: roster header short forms, longest first (a string or a list);
* ``[plurals]``: word -> [singular, plural] ("karmatärning", "karmatärningar");
* ``[values]``: character field -> the table whose entry names its value;
* ``[words]``: the engine's own words (yes, no, none, step, seed, ...);
* ``[prompts]``: the prompt templates of `--interactive`.

A label that is looked up and missing falls back to a readable form of the key
and is recorded in `Labels.missing`, which the presentation tests check is empty.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

SECTIONS = ("labels", "short", "plurals", "values", "words", "prompts")
TOP = ("dice",)
DIE_LETTERS = ("T", "d", "k")
# The engine's own words and prompts: every labels file gives them all.
WORDS = (
    "yes",
    "no",
    "none",
    "step",
    "seed",
    "recipe",
    "remake",
    "again",
    "name",
    "roll",
    "weight",
    "chance",
    "result",
    "setting",
    "value",
    "entries",
)
PROMPTS = (
    "one",
    "many",
    "count_exact",
    "count_range",
    "number",
    "yes_no",
    "text",
    "edit_list",
    "edit_add",
    "drawn",
    "invalid",
    "closed",
    "tries",
)
# Where an entry keeps its display name, in the order looked for.
NAME_KEYS = ("name", "namn", "navn", "nev")
_DICE = re.compile(r"(?<![A-Za-z])(\d*)[dDTk](\d+|%)(?![A-Za-z])")
MINUS = "−"
_SLUG = re.compile(r"^[a-z0-9][a-z0-9_]*$")


class Labels:
    """The display words of one pack, looked up by key."""

    def __init__(self, data: dict | None = None) -> None:
        data = data or {}
        self.die_letter: str = data.get("dice", "d")
        self.labels: dict[str, str] = dict(data.get("labels", {}))
        self.shorts: dict[str, list[str]] = {
            k: [v] if isinstance(v, str) else list(v) for k, v in data.get("short", {}).items()
        }
        self.plurals: dict[str, list[str]] = {
            k: [v] if isinstance(v, str) else list(v) for k, v in data.get("plurals", {}).items()
        }
        self.values: dict[str, str] = dict(data.get("values", {}))
        self.words: dict[str, str] = dict(data.get("words", {}))
        self.prompts: dict[str, str] = dict(data.get("prompts", {}))
        self.missing: set[str] = set()

    # -- labels --------------------------------------------------------------
    def __call__(self, key: str) -> str:
        return self.label(key)

    def label(self, key: str) -> str:
        """The display text of `key`; a missing one is recorded and made readable."""
        found = self.labels.get(key)
        if found is None:
            self.missing.add(key)
            return str(key).replace("_", " ").capitalize()
        return found

    def get(self, key: str, default: Any = None) -> Any:
        return self.labels.get(key, default)

    def __contains__(self, key: str) -> bool:
        return key in self.labels

    def short(self, key: str) -> list[str]:
        """The roster short forms of `key`, longest first."""
        return list(self.shorts.get(key, ()))

    def forms(self, key: str) -> list[str]:
        """The label then each short form: what a roster header may shrink through."""
        return [self.label(key), *self.short(key)]

    # -- words ---------------------------------------------------------------
    def word(self, key: str) -> str:
        found = self.words.get(key)
        if found is None:
            self.missing.add(f"words.{key}")
            return key
        return found

    def prompt(self, key: str, **fill: Any) -> str:
        template = self.prompts.get(key)
        if template is None:
            self.missing.add(f"prompts.{key}")
            template = key + " {what}"
        try:
            return template.format(**fill)
        except (KeyError, IndexError, ValueError):
            return template

    def decimal(self, number: float | int | str) -> str:
        """A number as the game's language writes it: its decimal mark from `[words]
        decimal` ("," unless the file says otherwise: 7,5 in the Scandinavian games)."""
        return str(number).replace(".", self.words.get("decimal", ","))

    def percent(self, number: float) -> str:
        """A share in percent with one decimal, as `[words] percent` lays it out
        ("{value} %" unless the file says otherwise)."""
        layout = self.words.get("percent", "{value} %")
        return layout.replace("{value}", self.decimal(f"{number:.1f}"))

    def plural(self, n: int, word: str) -> str:
        forms = self.plurals.get(word)
        if not forms:
            self.missing.add(f"plurals.{word}")
            return word
        return forms[0] if n == 1 or len(forms) == 1 else forms[1]

    def count(self, n: int, word: str) -> str:
        """'1 karmatärning', '3 karmatärningar'."""
        return f"{n} {self.plural(n, word)}"

    # -- dice ----------------------------------------------------------------
    def dice(self, expr: Any, sides: int | None = None) -> str:
        """Dice in the game's notation: dice('2d6+1') -> '2T6+1'; dice(3, 6) -> '3T6'."""
        if sides is not None:
            return f"{expr}{self.die_letter}{sides}"
        return _DICE.sub(lambda m: f"{m.group(1)}{self.die_letter}{m.group(2)}", str(expr))

    # -- values --------------------------------------------------------------
    def name(self, table: str, entry_id: Any, tables: Any) -> str:
        """The display name of an entry of `table` (its label, or the id, when unknown)."""
        try:
            tab = tables[table]
        except Exception:  # noqa: BLE001 - an unknown table reads as a label
            tab = None
        if tab is not None and isinstance(entry_id, str) and entry_id in tab:
            shown = _shown_name(tab.get(entry_id))
            if shown is not None:
                return shown
        if isinstance(entry_id, str) and entry_id in self.labels:
            return self.labels[entry_id]
        if isinstance(entry_id, str) and not _SLUG.match(entry_id):
            return entry_id  # already a display text (a name, not an id)
        self.missing.add(f"{table}:{entry_id}")
        return str(entry_id)

    def key(self, key: str, tables: Any = None) -> str:
        """A key as a reader sees it: its label, else the name of the pack's entry with
        that id (a skill's key in a dict of skills), else the fallback (recorded)."""
        found = self.labels.get(key)
        if found is None and tables is not None:
            found = self.lookup(key, tables)
        return found if found is not None else self.label(key)

    def value(self, field: str, value: Any, tables: Any = None) -> str:
        """How a value of a character field reads on a sheet."""
        if value is None:
            return self.word("none")
        if isinstance(value, bool):
            return self.word("yes" if value else "no")
        if isinstance(value, int | float):
            return str(value)
        if isinstance(value, list | tuple):
            return ", ".join(self.value(field, v, tables) for v in value) or self.word("none")
        if isinstance(value, dict):
            return self.effects(value, tables) if value else self.word("none")
        if field in self.values and tables is not None:
            return self.name(self.values[field], value, tables)
        if isinstance(value, str) and value in self.labels:
            return self.labels[value]
        if tables is not None and isinstance(value, str):
            if value in tables:
                described = tables[value].description  # a table's name reads as its title
                if described:
                    return described
            found = self.lookup(value, tables)
            if found is not None:
                return found
        return str(value)

    def lookup(self, entry_id: str, tables: Any) -> str | None:
        """The name of the entry with this id in any table of the pack (the first
        table by name that has it), or None: a value never shows as its id."""
        if not _SLUG.match(entry_id):
            return None
        index = getattr(tables, "_name_index", None)
        if index is None:

            def every_table() -> Iterator[Any]:
                for name in tables.names():
                    try:
                        yield tables[name]
                    except Exception:  # noqa: BLE001 - a broken table names nothing
                        continue

            index = tables._name_index = _names_by_id(every_table())
        return index.get(entry_id)

    def loaded_name(self, entry_id: str, tables: Any) -> str | None:
        """Like `lookup`, over the tables already loaded only (the ones a character was
        drawn from): the cheap safety net for a sheet cell that is a bare id."""
        loaded = getattr(tables, "_loaded", None)
        if not loaded or not _SLUG.match(entry_id):
            return None
        cached = getattr(tables, "_loaded_index", None)
        if cached is None or cached[0] != len(loaded):
            index = _names_by_id(loaded[name] for name in sorted(loaded))
            cached = tables._loaded_index = (len(loaded), index)
        return cached[1].get(entry_id)

    def effects(self, effects: dict, tables: Any = None) -> str:
        """{'fysik': 1, 'tillgangar': -1} -> 'Fysik +1, Tillgångar −1'."""
        parts = []
        for key, amount in effects.items():
            shown = signed(amount) if _number(amount) else self.value(key, amount, tables)
            parts.append(f"{self.key(key, tables)} {shown}")
        return ", ".join(parts)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def signed(value: int | float) -> str:
    """+2, −1 (a real minus sign), 0."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"{MINUS}{-value}"
    return "0"


def check(data: dict) -> list[tuple[str, str]]:
    """Faults of a labels file: (key, message) pairs, the key for the line lookup."""
    out: list[tuple[str, str]] = []
    for key, value in data.items():
        if key in ("description", "source"):
            continue
        if key == "dice":
            if value not in DIE_LETTERS:
                out.append((key, f"dice must be one of {', '.join(DIE_LETTERS)}, not {value!r}"))
        elif key not in SECTIONS:
            out.append(
                (key, f"unknown key '{key}' in a labels file (known: dice, {', '.join(SECTIONS)})")
            )
        elif not isinstance(value, dict):
            out.append((key, f"[{key}] must be a table of key = text"))
        else:
            for sub, text in value.items():
                if key in ("short", "plurals"):
                    ok = isinstance(text, str) or (
                        isinstance(text, list) and text and all(isinstance(t, str) for t in text)
                    )
                else:
                    ok = isinstance(text, str)
                if not ok:
                    out.append((sub, f"[{key}] {sub} must be text, not {text!r}"))
    for section, required in (("words", WORDS), ("prompts", PROMPTS)):
        given = data.get(section, {})
        if isinstance(given, dict):
            lacking = [k for k in required if k not in given]
            if lacking:
                out.append((section, f"[{section}] lacks {', '.join(lacking)}"))
    return out


def _names_by_id(tables: Iterable[Any]) -> dict[str, str]:
    """id -> shown name over tables in order (the first table that has an id names it)."""
    index: dict[str, str] = {}
    for table in tables:
        for entry in table.entries:
            ident = entry.get("id")
            if isinstance(ident, str) and ident not in index:
                shown = _shown_name(entry)
                if shown is not None:
                    index[ident] = shown
    return index


def _shown_name(entry: dict) -> str | None:
    """An entry's name as a reader sees it (a gendered name as "Hovman / Hovdam")."""
    for key in NAME_KEYS:
        value = entry.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, dict) and set(value) == {"male", "female"}:
            return " / ".join(value[g] for g in ("male", "female"))
    return None
