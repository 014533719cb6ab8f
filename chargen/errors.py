"""The one error family the CLI turns into a message and exit status 2.

Library code raises these and never prints or exits; anything else that escapes
is a bug and exits 1.
"""

from __future__ import annotations

import os
from typing import NamedTuple

# Whether errors show their Python traceback (--debug, CHARGEN_DEBUG=1): set by
# chargen.cli before a command runs, read where an error is reported.
DEBUG = {"on": os.environ.get("CHARGEN_DEBUG") == "1"}


class ChargenError(Exception):
    """Bad usage or bad input: the message names what is wrong and where.

    `error_word` starts the printed line (`chargen: error: ...`); a message written
    in a game's language gives that language's word (its labels' `words.error`).
    """

    error_word = "error"

    def __init__(self, *args: object, error_word: str | None = None) -> None:
        super().__init__(*args)
        if error_word:
            self.error_word = error_word


class DiceError(ChargenError):
    """A dice expression that cannot be parsed or is over the limits."""


def did_you_mean(value: object, valid: list[str]) -> str:
    """ " (did you mean 'munk'?)" for the valid name nearest a mistyped one, else "".

    A name in `valid` may be qualified ("karma/bakgrunder"): its last part counts too.
    """
    if not isinstance(value, str) or not value or len(value) > 100:
        return ""
    import difflib  # only when a name is wrong

    wanted = value.strip().lower().replace("-", "_").replace(" ", "_")
    forms: dict[str, str] = {}
    for name in valid:
        forms.setdefault(name.lower(), name)
        forms.setdefault(name.rsplit("/", 1)[-1].lower(), name)
    near = difflib.get_close_matches(wanted, list(forms), n=1, cutoff=0.6)
    return f" (did you mean '{forms[near[0]]}'?)" if near else ""


class ChoiceError(ChargenError):
    """An unknown or forbidden choice; the message lists the valid ones."""

    def __init__(self, what: str, value: str, valid: list[str], why: str = "") -> None:
        self.what, self.value, self.valid = what, value, list(valid)
        if why:
            text = f"{what} '{value}' is not allowed here: {why}"
        else:
            text = f"unknown {what} '{value}'" + did_you_mean(value, self.valid)
        if self.valid:
            text += f". Valid: {', '.join(self.valid)}"
        super().__init__(text)


class Problem(NamedTuple):
    """One fault in a table file, with the line it stands on (1-based; 0 when unknown).

    (A NamedTuple, not a dataclass: `chargen --help` imports this module, and the
    dataclasses module costs it a few milliseconds.)"""

    file: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.text}" if self.line else f"{self.file}: {self.text}"


class TableError(ChargenError):
    """One or more faults in table files."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        lines = "\n".join(f"  {p}" for p in self.problems)
        super().__init__(f"bad tables ({len(self.problems)} problem(s)):\n{lines}")


class UnknownTable(TableError):
    """A table asked for by name that the system's pack does not have (a step's or a
    sheet's misspelling: a user's pack cannot lack a table of the built-in ones)."""

    def __init__(self, problems: list[Problem], name: str) -> None:
        super().__init__(problems)
        self.name = name


class PipeClosed(Exception):
    """The reader of stdout went away (`chargen ... | head -1`): stop quietly."""


class OutputError(ChargenError):
    """The place output goes to cannot take it (full disk, closed stdout, no such folder)."""

    def __init__(self, text: str, stdout: bool = False) -> None:
        super().__init__(text)
        self.stdout = stdout  # the failing stream was stdout: silence it before exiting


class Terminated(BaseException):
    """SIGTERM or SIGHUP while a file was written: cleaned up, then exit 128 + signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.code = 128 + signum
