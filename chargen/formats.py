"""Output formats beyond the built-in four, and which systems have them.

A format is an `Export`: the module that renders it, the systems that support it
(None: every system), and the options it adds to those systems' generating
commands. The CLI offers every registered format on `-f`; asked for one on a
system that lacks it, it exits 2 naming the systems that have it. Modules are
imported only when their format is used, so start-up stays light.

An export module provides

    render(system, tables, items, count, values) -> Iterator[str]
        the text for stdout or `-o FILE` (values: the format's own options);

and may provide

    write_folder(system, tables, items, count, values, path) -> None
        for `-n N` (N > 1) with `-o DIR`: a folder, written whole or not at all.

Adding a format is one entry in FORMATS and one module.
"""

from __future__ import annotations

import importlib
from typing import Any, NamedTuple

from chargen.errors import ChargenError


class Export(NamedTuple):
    """A system-specific (or universal) output format (a NamedTuple: this module is
    imported by `chargen --help`, and dataclasses would cost it start-up time)."""

    id: str
    module: str
    help: str
    systems: tuple[str, ...] | None = None  # None: every system
    # Or: the System attribute that names the format's target for a system (a system
    # whose attribute is empty lacks the format); it overrides `systems`.
    declared_by: str = ""
    # Options the format adds to the commands of its systems: keyword arguments of
    # procedure.Option (built when a command is built, so importing this stays light).
    options: tuple[dict[str, Any], ...] = ()
    whole_characters: bool = True  # False: a single step's part may be exported too

    def supports(self, system_id: str) -> bool:
        if self.declared_by:
            from chargen.systems import load

            return bool(getattr(load(system_id), self.declared_by, ""))
        return self.systems is None or system_id in self.systems

    def load(self) -> Any:
        return importlib.import_module(self.module)


FORMATS: dict[str, Export] = {
    "foundry": Export(
        "foundry",
        "chargen.export.foundry",
        "Foundry VTT Actors: SWADE for savage, BRP for spelsystemet, Simple "
        "Worldbuilding for matinee, karma and lef",
        declared_by="foundry",
    ),
    "statblock": Export(
        "statblock",
        "chargen.export.statblock",
        "Savage Worlds stat blocks",
        systems=("savage",),
        options=(
            {
                "name": "latin1",
                "flag": True,
                "help": "-f statblock: write ő ű as õ û (Latin-1), since swade-npc-importer "
                "reads only Latin-1 letters in the names of Edges, Hindrances and Gear.",
            },
            {
                "name": "importer",
                "flag": True,
                "help": "-f statblock: the block swade-npc-importer reads with its default "
                "settings (Latin-1 letters; special abilities as lines of the description, "
                "since its default bullet setting splits bullets into letters).",
            },
        ),
    ),
}


def names() -> tuple[str, ...]:
    return tuple(FORMATS)


def systems_with(fmt: str) -> list[str]:
    """The available systems that have format `fmt`."""
    from chargen.systems import available

    export = FORMATS[fmt]
    return [sid for sid in available() if export.supports(sid)]


def lookup(fmt: str, system_id: str | None, step: Any = None) -> Export | None:
    """The Export for `fmt` on `system_id`; None for a built-in format.

    A system (or `roll`, system None) without it is a ChargenError (exit 2) that
    names the systems that have it.
    """
    export = FORMATS.get(fmt)
    if export is None:
        return None
    if system_id is None or not export.supports(system_id):
        where = f"'{system_id}'" if system_id else "this command"
        have = ", ".join(systems_with(fmt)) or "none"
        raise ChargenError(
            f"-f {fmt} is not available for {where}; systems that have it: {have} "
            f"(their pc and npc commands)"
        )
    if step is not None and export.whole_characters:
        raise ChargenError(
            f"-f {fmt} exports whole characters: use `chargen {system_id} pc` or "
            f"`chargen {system_id} npc`, not the step '{step.id}' alone"
        )
    return export


def options_for(system_id: str) -> list:
    """The options (procedure.Option) the formats of a system add to its generating commands."""
    from chargen.procedure import Option

    out: dict[str, Option] = {}
    for export in FORMATS.values():
        if export.supports(system_id):
            for kwargs in export.options:
                out.setdefault(kwargs["name"], Option(**kwargs))
    return list(out.values())


def values_for(export: Export | None, system_id: str, chosen: dict) -> dict[str, Any]:
    """The format's own option values; a format option given with another format is exit 2."""
    values: dict[str, Any] = {}
    own = {o["name"] for o in export.options} if export else set()
    for option in options_for(system_id):
        value = chosen.pop(option.key, None)
        if option.name in own:
            values[option.key] = value
        elif value not in (None, False, (), []):
            users = [
                e.id for e in FORMATS.values() if option.name in {o["name"] for o in e.options}
            ]
            raise ChargenError(f"--{option.name} is an option of -f {' / -f '.join(users)}")
    return values
