"""Characters saved as JSON, read back: `chargen SYSTEM reroll STEP FILE`.

A saved character carries its system, its version of chargen and its recipe
(chargen.recipe). Before anything is drawn again it is checked: it must be of the
system named, made by this version (another version's seed makes another character),
and its recipe must make it again exactly (a hand-edited one no longer does). Each
failure is a ChargenError naming the reason.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

from chargen import __version__
from chargen.encode import compact
from chargen.errors import ChargenError
from chargen.recipe import parse
from chargen.systems import remake

MAX_FILE = 200_000_000  # bytes of JSON read at most


def read(path: str) -> list[dict]:
    """The characters in a JSON file (`-`: standard input): an array, one object, or
    JSON Lines."""
    shown = "standard input" if path == "-" else path
    try:
        if path == "-":
            text = sys.stdin.read(MAX_FILE)
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read(MAX_FILE)
    except (OSError, UnicodeDecodeError) as exc:
        raise ChargenError(
            f"cannot read {shown}: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise ChargenError(f"{shown} is not chargen's JSON (nested too deep)") from None
    except json.JSONDecodeError:
        try:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        except RecursionError:
            raise ChargenError(f"{shown} is not chargen's JSON (nested too deep)") from None
        except json.JSONDecodeError as exc:
            raise ChargenError(
                f"{shown} is not chargen's JSON (line {exc.lineno}: {exc.msg})"
            ) from None
    items = data if isinstance(data, list) else [data]
    if not items or not all(isinstance(c, dict) for c in items):
        raise ChargenError(f"{shown} holds no characters (a JSON object or an array of them)")
    return items


def check(char: dict, system_id: str, where: str, tables: Any = None) -> None:
    """A saved character that its recipe makes again, of this system and version."""
    if char.get("system") != system_id:
        raise ChargenError(
            f"{where} is a {char.get('system') or 'non-chargen'} character, not {system_id}"
        )
    if char.get("version") != __version__:
        made = char.get("version") or "an older chargen (no version in it)"
        raise ChargenError(
            f"{where} was made by chargen {made}; this is {__version__}, whose seeds make "
            "other characters"
        )
    if not isinstance(char.get("recipe"), str):
        raise ChargenError(f"{where} has no recipe")
    again = member(char, remake(char["recipe"], tables))
    if again is None or compact(_unnumbered(char, again)) != compact(char):
        changed = _changed(char, again or {})
        raise ChargenError(
            f"{where} does not match its recipe ({char['recipe']}): "
            f"{', '.join(changed) or 'its fields'} differ from what the recipe makes "
            "(edited by hand?)"
        )


def member(char: dict, batch: Iterator[dict]) -> dict | None:
    """The character of `batch` that is `char` (by seed: one, or a squad's member)."""
    for other in batch:
        if other.get("seed") == char.get("seed"):
            return other
    return None


def _unnumbered(char: dict, again: dict) -> dict:
    """`again` with `char`'s name when that is its name with a number ("Ulv 2": the
    batch's names ran out)."""
    name, made = char.get("name"), again.get("name")
    numbered = (
        isinstance(name, str)
        and isinstance(made, str)
        and name.startswith(made + " ")
        and name[len(made) + 1 :].isdigit()
    )
    return {**again, "name": name} if numbered else again


def _changed(char: dict, again: dict) -> list[str]:
    keys = list(dict.fromkeys([*char, *again]))
    return [k for k in keys if compact(char.get(k)) != compact(again.get(k))][:5]


def rerolled(char: dict, variants: dict[str, int], tables: Any = None) -> dict:
    """The saved character with the steps of `variants` drawn again (their K added to
    those its recipe already has)."""
    made = parse(char["recipe"])
    both = made.variants()
    for step, k in variants.items():
        both[step] = both.get(step, 0) + k
    text = made._replace(rerolls=tuple(both.items())).text()
    if made.count == 1:
        return next(iter(remake(text, tables)))
    # a member of a batch made one whole: the same place in the batch drawn again
    place = next(i for i, c in enumerate(remake(made.text(), tables)) if c["seed"] == char["seed"])
    return list(remake(text, tables))[place]
