"""The registry: system id -> the package that declares it, built in or installed.

The five built-in games are listed here; another installed package adds a game
through the entry-point group `chargen.systems` (`lantern = "chargen_lantern"`, or
`module:ATTRIBUTE` when the `System` is not called `SYSTEM`). A built-in id cannot
be taken over by a plugin. Nothing is imported until a command needs the game, so
`chargen --help` stays fast: the installed entry points are read straight from the
`entry_points.txt` files on `sys.path` (the files `importlib.metadata` reads,
without its 20 ms of imports; tests/test_plugin.py checks that both agree).
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable
from functools import cache

from chargen.errors import ChargenError, ChoiceError

GROUP = "chargen.systems"

# id -> (module, a line for `chargen --help`)
BUILTIN: dict[str, tuple[str, str]] = {
    "matinee": (
        "chargen.systems.matinee",
        "Matinee Chronicles (svenska): Mutant Chronicles, Luna City",
    ),
    "spelsystemet": ("chargen.systems.spelsystemet", "Spelsystemet (svenska): 3T6, T20 slag under"),
    "karma": ("chargen.systems.karma", "Karmasystemet (svenska): T6-pölar, Kontroll och karma"),
    "lef": ("chargen.systems.lef", "LEF, Terminus Alfa (dansk): 2T6 + evne"),
    "savage": ("chargen.systems.savage", "Savage (magyar): Főszereplő és Mellékszereplő"),
}


@cache
def installed() -> dict[str, str]:
    """The games other packages add: id -> "module" or "module:ATTRIBUTE", the first
    distribution on sys.path that names an id winning, as importlib.metadata has it."""
    found: dict[str, str] = {}
    seen: set[str] = set()
    for folder in sys.path:
        try:
            listing = sorted(os.listdir(folder or "."))
        except OSError:
            continue
        for entry in listing:
            if not entry.endswith((".dist-info", ".egg-info")):
                continue
            dist = entry.rsplit("-", 1)[0].lower().replace("_", "-")
            if dist in seen:
                continue
            seen.add(dist)
            try:
                with open(
                    os.path.join(folder or ".", entry, "entry_points.txt"), encoding="utf-8"
                ) as f:
                    text = f.read(100_000)
            except OSError:
                continue
            for name, value in _group(text):
                found.setdefault(name, value)
    return found


def _group(text: str) -> list[tuple[str, str]]:
    """The `name = value` lines of the [chargen.systems] section of an entry_points.txt."""
    out, inside = [], False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            inside = line == f"[{GROUP}]"
            continue
        if inside and "=" in line:
            name, value = (part.strip() for part in line.split("=", 1))
            out.append((name, value))
    return out


class Unloadable(ChargenError):
    """A plugin whose module cannot be imported; `reason` is what went wrong."""

    def __init__(self, system_id: str, target: str, reason: str) -> None:
        super().__init__(
            f"the game '{system_id}' installed as {target!r} (entry point group {GROUP}) "
            f"cannot be loaded: {reason}"
        )
        self.reason = reason


def registry() -> dict[str, str]:
    """Every game: id -> the module (and attribute) that declares it, built-ins first."""
    games = {sid: module for sid, (module, _) in BUILTIN.items()}
    for sid, target in installed().items():
        games.setdefault(sid, target)
    return games


def available() -> list[str]:
    """The ids of the games that can be used, built-ins first, then plugins by id."""
    plugins = sorted(sid for sid in installed() if sid not in BUILTIN)
    return list(BUILTIN) + plugins


def describe(system_id: str) -> str:
    """A line about the game for `chargen --help` (a plugin's own description; for a
    plugin that cannot be loaded, why, so that the help of every other game still
    shows)."""
    if system_id in BUILTIN:
        return BUILTIN[system_id][1]
    try:
        system = load(system_id)
    except ChargenError as exc:
        return f"cannot be loaded: {exc.reason if isinstance(exc, Unloadable) else exc}"
    return f"{system.name} ({system.language}): {system.description}".strip().rstrip(":")


def loadable(system_ids: list[str], warn: Callable[[str], object]) -> list:
    """The `System` of each of these games that can be loaded, in their order; a plugin
    that cannot be is said through `warn` (its message) and left out."""
    out = []
    for system_id in system_ids:
        try:
            out.append(load(system_id))
        except ChargenError as exc:
            if system_id in BUILTIN:
                raise
            warn(str(exc))
    return out


def load(system_id: str):
    """The `System` object of a game (an unknown id is a ChoiceError listing the others)."""
    games = registry()
    if system_id not in games:
        raise ChoiceError("system", system_id, available())
    module, _, attribute = games[system_id].partition(":")
    try:
        system = getattr(importlib.import_module(module.strip()), attribute.strip() or "SYSTEM")
    except Exception as exc:
        if system_id in BUILTIN:
            raise
        raise Unloadable(system_id, games[system_id], f"{type(exc).__name__}: {exc}") from None
    if getattr(system, "id", None) != system_id:
        raise ChargenError(
            f"the game installed as '{system_id}' ({games[system_id]}) declares the id "
            f"{getattr(system, 'id', None)!r}: the entry point's name must be the System's id"
        )
    if system_id not in BUILTIN:
        if not callable(getattr(system, "faults", None)):
            raise Unloadable(system_id, games[system_id], "it is not a chargen.procedure.System")
        faults = system.faults()
        if faults:
            raise Unloadable(system_id, games[system_id], "; ".join(faults))
    return system


def remake(text: str, tables=None):
    """The characters a recipe makes (chargen.recipe), as `generate` yields them: one,
    or a whole batch for the recipe of a batch made one whole (a squad, a band).

    `tables` is the pack to use (default: the built-in tables with the recipe's
    `--tables` folders laid over them, checked as the command line checks them)."""
    from pathlib import Path

    from chargen.errors import TableError
    from chargen.procedure import generate
    from chargen.recipe import parse, split_answers

    made = parse(text)
    system = load(made.system)
    if made.command in ("pc", "npc"):
        kind, step = made.command, None
    else:
        kind, step = "pc", system.step(made.command).id
    if tables is None:
        tables = system.tables([Path(t) for t in made.tables], tuple(available()))
        if len(tables.dirs) > 1:
            problems = tables.check()
            if problems:
                raise TableError(problems)
    return generate(
        system,
        tables,
        kind,
        made.options_for(system),
        made.count,
        made.seed,
        made.locale,
        step=step,
        variants=made.variants(),
        tables_given=made.tables,
        answers=None if made.answers is None else split_answers(made.answers),
    )
