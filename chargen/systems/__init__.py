"""The registry: system id -> its module and a one-line description.

Modules are imported only when a command needs them, so `chargen --help` stays
fast. A system is available as soon as its module exists; adding a sixth is one
line here, one module, one table folder and its tests.
"""

from __future__ import annotations

import importlib
import importlib.util

from chargen.errors import ChoiceError

REGISTRY: dict[str, tuple[str, str]] = {
    "matinee": (
        "chargen.systems.matinee",
        "Matinee Chronicles (svenska): Mutant Chronicles, Luna City",
    ),
    "spelsystemet": ("chargen.systems.spelsystemet", "Spelsystemet (svenska): 3T6, T20 slag under"),
    "karma": ("chargen.systems.karma", "Karmasystemet (svenska): T6-pölar, Kontroll och karma"),
    "lef": ("chargen.systems.lef", "LEF, Terminus Alfa (dansk): 2T6 + evne"),
    "savage": ("chargen.systems.savage", "Savage (magyar): Főszereplő és Mellékszereplő"),
}


def available() -> list[str]:
    """The systems whose module is present, in registry order."""
    return [sid for sid, (module, _) in REGISTRY.items() if importlib.util.find_spec(module)]


def load(system_id: str):
    """The `System` object of a registered, available system."""
    if system_id not in available():
        raise ChoiceError("system", system_id, available())
    return importlib.import_module(REGISTRY[system_id][0]).SYSTEM
