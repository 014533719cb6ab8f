"""A character's recipe: the command line that makes exactly that character again.

Every character carries one in its envelope (`"recipe"`, right after `name`), and
every human format shows it. It names the system, the command (`pc`, `npc` or the
step run alone), the character's own seed (the one a renamed member of a batch was
made under), the options that change what is made (the system's choices, `--locale`,
`--tables` as given, `--reroll`), and nothing that only changes how it is shown
(`-f`, `--width`, `-o`).

A character made at the `--interactive` prompts names, besides the options given,
every answer typed and taken (`--answers`, `join_answers`): an answer need not be an option,
and replayed in order the same questions take the same answers.

A batch whose options make it one whole (`Option.batch`: a savage `--squad`, a karma
`--band`) has members that are not themselves made alone: their recipe is the batch's
command, `--seed` the batch seed and `-n` its size, which makes the member again in
its place among the others.

`parse` reads a recipe back into a `Recipe`; `Recipe.options_for(system)` turns its
option words into the values `chargen.procedure.generate` takes.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from chargen.errors import ChargenError

PROGRAM = "chargen"
_SAFE = re.compile(r"^[A-Za-z0-9_./:=@%+,-]+$")


def quote(word: str) -> str:
    """A word as a POSIX shell reads it back (bare when it can be)."""
    if _SAFE.match(word):
        return word
    return "'" + word.replace("'", "'\"'\"'") + "'"


class Recipe(NamedTuple):
    """The parts of a recipe. `options` are (option name, value) pairs in the order the
    system declares them (a repeatable option's value is a list, a flag's True);
    `rerolls` (step id, variant) pairs; `count` is 1 but for a batch made one whole."""

    system: str
    command: str
    seed: int
    options: tuple[tuple[str, Any], ...] = ()
    locale: str | None = None
    tables: tuple[str, ...] = ()
    rerolls: tuple[tuple[str, int], ...] = ()
    count: int = 1
    answers: str | None = None  # the answers at --interactive (join_answers), else None

    def text(self) -> str:
        return self.head() + str(self.seed) + self.tail()

    def head(self) -> str:
        """The words before the seed's value (`chargen matinee pc --seed `)."""
        return f"{PROGRAM} {self.system} {quote(self.command)} --seed "

    def tail(self) -> str:
        """The words after the seed's value."""
        words: list[str] = []
        if self.count != 1:
            words += ["-n", str(self.count)]
        for name, value in self.options:
            if value is True:
                words.append(f"--{name}")
            elif isinstance(value, list | tuple):
                for item in value:
                    words += [f"--{name}", quote(str(item))]
            else:
                words += [f"--{name}", quote(str(value))]
        if self.locale:
            words += ["--locale", quote(self.locale)]
        for folder in self.tables:
            words += ["--tables", quote(folder)]
        for step, variant in self.rerolls:
            words += ["--reroll", quote(step if variant == 1 else f"{step}={variant}")]
        if self.answers is not None:
            words += ["--answers", quote(self.answers)]
        return "".join(" " + w for w in words)

    def variants(self) -> dict[str, int]:
        return dict(self.rerolls)

    def options_for(self, system: Any) -> dict[str, Any]:
        """The option values `generate` takes (keys with underscores), checked against
        what the system's command declares."""
        kind = "npc" if self.command == "npc" else "pc"
        declared = {o.name: o for o in system.options(kind)}
        values: dict[str, Any] = {}
        for name, value in self.options:
            option = declared.get(name)
            if option is None:
                raise ChargenError(
                    f"the recipe's --{name} is no option of {system.id} {self.command}"
                )
            if option.multiple and not isinstance(value, list):
                value = [value]
            if option.type is int and not option.flag:
                value = _number(f"--{name}", str(value))
            values[option.key] = value
        return values


def build(
    system: Any,
    kind: str,
    command: str,
    options: dict[str, Any],
    locale: str | None = None,
    tables: tuple[str, ...] = (),
    variants: dict[str, int] | None = None,
) -> Recipe:
    """The recipe of a batch's characters, seed 0 (`_replace(seed=...)` per member).

    Only the system's declared options that hold a value are kept, in their declared
    order; a value the interactive prompts chose is in `options` by then too."""
    kept = []
    for option in system.options(kind):
        value = options.get(option.key)
        if value is None or value is False or value == () or value == []:
            continue
        if option.multiple and not isinstance(value, list | tuple):
            value = [value]
        kept.append((option.name, list(value) if option.multiple else value))
    rerolls = tuple((step, k) for step, k in (variants or {}).items() if k)
    return Recipe(system.id, command, 0, tuple(kept), locale, tuple(tables), rerolls)


def whole_batch(system: Any, kind: str, options: dict[str, Any]) -> bool:
    """Whether the options make the batch one whole (its members not made alone)."""
    return any(o.batch and options.get(o.key) for o in system.options(kind))


def parse(text: str) -> Recipe:
    """A recipe read back (as `Recipe.text` writes it, or typed the same way).

    A repeated option is a list; `--reroll STEP[=K]` a variant (K 1 when left out). It
    is the command line's words, not its meaning: `Recipe.options_for` checks them
    against the system."""
    import shlex

    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise ChargenError(f"cannot read the recipe {text!r}: {exc}") from None
    if len(words) < 3 or words[0] != PROGRAM:
        raise ChargenError(f"a recipe starts 'chargen SYSTEM COMMAND', not {text!r}")
    system, command, rest = words[1], words[2], words[3:]
    seed: int | None = None
    count = 1
    options: dict[str, Any] = {}
    locale = None
    tables: list[str] = []
    rerolls: dict[str, int] = {}
    answers = None
    i = 0
    while i < len(rest):
        word = rest[i]
        if not word.startswith("-"):
            raise ChargenError(f"the recipe has a stray word {word!r}")
        if word == "--answers":  # its value may be empty or start with "-"
            if i + 1 >= len(rest):
                raise ChargenError("the recipe's --answers has no value")
            answers, i = rest[i + 1], i + 2
            continue
        value = rest[i + 1] if i + 1 < len(rest) and not rest[i + 1].startswith("-") else None
        if word in ("--seed", "-n", "--count", "--locale", "--tables", "--reroll"):
            if value is None:
                raise ChargenError(f"the recipe's {word} has no value")
            i += 2
            if word == "--seed":
                seed = _number(word, value)
            elif word in ("-n", "--count"):
                count = _number(word, value)
            elif word == "--locale":
                locale = value
            elif word == "--tables":
                tables.append(value)
            else:
                step, variant = reroll_word(value)
                rerolls[step] = variant
            continue
        name = word[2:]
        i += 1 if value is None else 2
        if value is None:
            options[name] = True
        elif name in options:
            previous = options[name]
            options[name] = [*previous, value] if isinstance(previous, list) else [previous, value]
        else:
            options[name] = value
    if seed is None:
        raise ChargenError(f"the recipe {text!r} has no --seed")
    return Recipe(
        system,
        command,
        seed,
        tuple(options.items()),
        locale,
        tuple(tables),
        tuple(rerolls.items()),
        count,
        answers,
    )


def join_answers(answers: list[str] | tuple[str, ...]) -> str:
    """Answers as one word of a recipe: '/' between them (`\\/` and `\\\\` for those
    characters in an answer), the empty ones at the end left out."""
    answers = list(answers)
    while answers and answers[-1] == "":
        answers.pop()
    return "/".join(a.replace("\\", "\\\\").replace("/", "\\/") for a in answers)


def split_answers(text: str) -> tuple[str, ...]:
    """`join_answers` read back."""
    if text == "":
        return ()
    answers, current, escaped = [], [], False
    for char in text:
        if escaped:
            current.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "/":
            answers.append("".join(current))
            current = []
        else:
            current.append(char)
    answers.append("".join(current))
    return tuple(answers)


def reroll_word(word: str) -> tuple[str, int]:
    """`STEP` or `STEP=K` -> (step, K); K is a whole number from 1."""
    step, _, k = word.partition("=")
    if not step:
        raise ChargenError(f"--reroll {word!r}: name a step (STEP or STEP=K)")
    if not k:
        return step, 1
    if not k.isdigit() or int(k) < 1:
        raise ChargenError(f"--reroll {word}: K is a whole number from 1, not {k!r}")
    return step, int(k)


def _number(word: str, value: str) -> int:
    if not value.isdigit():
        raise ChargenError(f"the recipe's {word} is a whole number, not {value!r}")
    return int(value)
