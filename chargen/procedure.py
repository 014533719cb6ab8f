"""Systems, their creation procedures, and the context a step works in.

A game system is a `System`: an ordered list of `Step`s for a player character,
an NPC generator, the options its commands take, its table specs and its sheet.
A step is a function ``(character, ctx) -> None`` that reads tables through
`ctx`, rolls with `ctx.rng` and writes its part of the character (a plain dict in
its final JSON shape). The CLI, `--list`, `--interactive` and `chargen systems`
are all built from these objects, so nothing is written twice.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chargen import names
from chargen.dice import Roll, parse
from chargen.errors import ChargenError, ChoiceError, Problem
from chargen.seeds import character_seed
from chargen.tables import Spec, Table, Tables, builtin_root, pack_dir

StepFunction = Callable[[dict, "Context"], None]


@dataclass(frozen=True)
class Step:
    """One step of a creation procedure.

    `fields` are the character keys the step writes (what `chargen SYSTEM STEP`
    prints); `lists` the tables (glob patterns allowed) that `--list` shows;
    `command=False` keeps a step (such as the name) out of the subcommands.
    """

    id: str
    run: StepFunction
    fields: tuple[str, ...] = ()
    lists: tuple[str, ...] = ()
    label: str = ""
    help: str = ""
    command: bool = True


@dataclass(frozen=True)
class Option:
    """A per-system command-line option: `--NAME`, stored in ctx.options as NAME_WITH_UNDERSCORES.

    `table` validates values against that table's ids (and completes them);
    `choices` is a fixed list instead; `multiple` makes it repeatable; `flag`
    makes it a switch; `type=int` with `minimum`/`maximum` a bounded number.
    """

    name: str
    table: str | None = None
    choices: tuple[str, ...] = ()
    multiple: bool = False
    flag: bool = False
    type: type = str
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""

    @property
    def key(self) -> str:
        return self.name.replace("-", "_")


@dataclass(frozen=True)
class Section:
    """A block of a character sheet: a title and either rows (a table) or text."""

    title: str
    rows: list[list[Any]] | None = None
    headers: list[str] | None = None
    text: str | None = None


@dataclass
class System:
    """Everything the engine needs to know about one game."""

    id: str
    name: str
    language: str
    locale: str
    specs: dict[str, Spec]
    effect_keys: frozenset[str] | set[str]
    pc: list[Step]
    npc: StepFunction | list[Step]
    sheet: Callable[[dict, Tables], list[Section]]
    roster: list[tuple[str, str | Callable[[dict], Any]]]
    labels: dict[str, str] = field(default_factory=dict)
    pc_options: list[Option] = field(default_factory=list)
    npc_options: list[Option] = field(default_factory=list)
    description: str = ""
    # Optional: a sheet for a whole batch (a squad's one stat block), or None to use the roster.
    batch_sheet: Callable[[list[dict], Tables], list[Section] | None] | None = None
    # Optional: checks across fields and files that the specs cannot express, run by
    # `chargen tables check` and before a user's pack is used; returns the problems found.
    check: Callable[[Tables], list[Problem]] | None = None

    def label(self, key: str) -> str:
        return self.labels.get(key, key.replace("_", " ").capitalize())

    def step(self, step_id: str) -> Step:
        for step in self.pc:
            if step.id == step_id:
                return step
        raise ChoiceError("step", step_id, [s.id for s in self.pc if s.command])

    def npc_steps(self) -> list[Step]:
        if callable(self.npc):
            return [Step("npc", self.npc, command=False)]
        return list(self.npc)

    def options(self, kind: str) -> list[Option]:
        return self.npc_options if kind == "npc" else self.pc_options

    def tables(self, overlays: list[Path] | None = None) -> Tables:
        """The system's pack: built-in tables, then each overlay folder that has some."""
        dirs = [builtin_root() / self.id]
        for root in overlays or []:
            folder = pack_dir(root, self.id)
            if folder is not None:
                dirs.append(folder)
        return Tables(self.id, self.specs, self.effect_keys, dirs, self.check)


_FOLD = str.maketrans({"æ": "ae", "ø": "o", "œ": "oe", "ß": "ss", "ð": "d", "þ": "th", "ł": "l"})


def normalize(value: str) -> str:
    """A user's choice as a slug, as the contract makes keys: case folded, diacritics
    dropped (æ -> ae, ø ö ő -> o, é -> e), every run of other characters one underscore
    ("Vanaætlinge" -> "vanaaetlinge", "nagyon-szívós" -> "nagyon_szivos")."""
    text = unicodedata.normalize("NFKD", str(value).strip().lower().translate(_FOLD))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return re.sub(r"[^0-9a-z]+", "_", text).strip("_")


def match_choice(table: Table, value: str) -> str | None:
    """The id of the entry a user's value names: its id or its display name (any gendered
    form), case and diacritics aside (`--personlighed militant` for "Militant"), or None."""
    slug = normalize(value)
    if slug in table:
        return slug
    for entry in table.entries:
        name = entry.get("name")
        forms = name.values() if isinstance(name, dict) else (name,) if name else ()
        if "id" in entry and any(normalize(form) == slug for form in forms):
            return entry["id"]
    return None


class Context:
    """What a step works with: the character's random stream, the tables, the options.

    One Context serves a whole batch; `start` readies it for each character.
    """

    def __init__(
        self,
        system: System,
        tables: Tables,
        kind: str = "pc",
        options: dict[str, Any] | None = None,
        count: int = 1,
        batch_seed: int = 0,
        locale: str | None = None,
        prompter: Any = None,
    ) -> None:
        self.system, self.tables, self.kind = system, tables, kind
        self.options: dict[str, Any] = dict(options or {})
        self.count, self.batch_seed, self.locale = count, batch_seed, locale
        self.prompter = prompter
        self.shared: dict[
            str, Any
        ] = {}  # batch-wide state a system may keep (a squad's stat block)
        self.cache: dict[Any, Any] = {}  # per-batch memo for precomputed table data
        self.rng = random.Random(batch_seed)
        self.seed, self.index, self.step = batch_seed, 0, ""
        self.historik: list[dict] = []

    def start(self, seed: int, index: int) -> None:
        self.rng.seed(seed)
        self.seed, self.index = seed, index
        self.historik = []

    # -- tables ------------------------------------------------------------
    def table(self, name: str) -> Table:
        return self.tables[name]

    def settings(self, name: str) -> dict:
        return self.tables[name].settings

    def setting(self, table: str, key: str) -> Any:
        """A game number from a settings table; a missing one names the file."""
        return self.tables[table].setting(key)

    def option(self, name: str, default: Any = None) -> Any:
        value = self.options.get(name.replace("-", "_"))
        return default if value is None or value == () else value

    # -- randomness --------------------------------------------------------
    def roll(self, expression: str, why: str = "") -> Roll:
        """Roll a dice expression and record it in the historik."""
        result = parse(expression).roll(self.rng)
        self.log(
            roll=expression,
            dice=list(result.dice),
            total=result.total,
            **({"for": why} if why else {}),
        )
        return result

    def roll_table(self, name: str, why: str = "") -> list[dict]:
        """Roll on a table and on every table its row refers to; each row is recorded."""
        rows = []
        pending = [name]
        while pending and len(rows) < 50:
            table = self.tables[pending.pop(0)]
            value, entry = table.roll(self.rng)
            event: dict[str, Any] = {"table": table.name}
            if value is not None:
                event["roll"] = value
            event["result"] = entry.get("result") or entry.get("name") or entry.get("id")
            if "effects" in entry:
                event["effects"] = entry["effects"]
            if why:
                event["for"] = why
            self.log(**event)
            rows.append(entry)
            ref = entry.get("ref")
            pending += [ref] if isinstance(ref, str) else list(ref or [])
        return rows

    def log(self, **event: Any) -> None:
        """Add one event to the character's historik (player characters only: NPCs
        come from a template and stay lean for large batches)."""
        if self.kind == "pc":
            self.historik.append({"step": self.step, **event})

    # -- choices -----------------------------------------------------------
    def choose(
        self,
        option: str,
        table: str,
        allowed: list[dict] | None = None,
        why: str | Callable[[dict], str] = "",
    ) -> dict:
        """The player's choice from a definitions table.

        The option's value when given (an unknown id, or one outside `allowed`,
        is a ChoiceError naming the valid ones and `why`), else the interactive
        prompt's answer, else a weighted random pick among `allowed`.
        """
        tab = self.tables[table]
        pool = list(tab.entries) if allowed is None else list(allowed)
        wanted = self.options.get(option.replace("-", "_"))
        if isinstance(wanted, list | tuple):
            wanted = wanted[0] if wanted else None
        if wanted is not None:
            entry = self._validated(option, tab, wanted, pool, why)
            how = "option"
        elif self.prompter is not None and len(pool) > 1:
            entry = self.prompter.choose(option, tab, pool, self.rng)
            self.options[option.replace("-", "_")] = entry["id"]  # the whole batch takes the answer
            how = "prompt"
        else:
            if not pool:
                raise ChargenError(f"no {option} is open here ({table} has none that fit)")
            entry = tab.pick(self.rng, None if allowed is None else pool)
            how = "random"
        self.log(choice=option, id=entry["id"], name=entry.get("name", entry["id"]), by=how)
        return entry

    def choose_many(
        self,
        option: str,
        table: str,
        count: int,
        allowed: list[dict] | None = None,
        why: str | Callable[[dict], str] = "",
        span: tuple[int, int] | None = None,
    ) -> list[dict]:
        """Several different choices (a repeatable option), or `count` random ones.

        `span` is how many a player may choose at the prompt (default exactly `count`;
        an empty answer takes `count` random ones).
        """
        tab = self.tables[table]
        pool = list(tab.entries) if allowed is None else list(allowed)
        wanted = self.options.get(option.replace("-", "_")) or ()
        if isinstance(wanted, str):
            wanted = [wanted]
        if wanted:
            chosen = [self._validated(option, tab, w, pool, why) for w in wanted]
            ids = [e["id"] for e in chosen]
            if len(set(ids)) != len(ids):
                raise ChargenError(f"--{option} names the same {option} twice: {', '.join(ids)}")
            how = "option"
        elif self.prompter is not None:
            chosen = self.prompter.choose_many(option, tab, pool, count, self.rng, span)
            self.options[option.replace("-", "_")] = [e["id"] for e in chosen]
            how = "prompt"
        else:
            chosen = tab.draw(self.rng, count, among=pool)
            how = "random"
        for entry in chosen:
            self.log(choice=option, id=entry["id"], name=entry.get("name", entry["id"]), by=how)
        return chosen

    def _validated(self, option: str, tab: Table, wanted: str, pool: list[dict], why) -> dict:
        slug = match_choice(tab, wanted)
        if slug is None:
            raise ChoiceError(option, wanted, list(tab.ids))
        entry = tab.get(slug)
        if entry not in pool:
            reason = why(entry) if callable(why) else why
            raise ChoiceError(
                option, wanted, [e["id"] for e in pool], reason or "not open to this character"
            )
        return entry

    # -- names ---------------------------------------------------------------
    def person_name(
        self,
        locale: str | None = None,
        gender: str | None = None,
        family_first: bool = False,
        latin: bool = False,
    ) -> tuple[str, str]:
        """(name, gender) from Faker's data for the locale (`--locale` overrides it)."""
        chosen = self.locale or locale or self.system.locale
        return names.picker(chosen, latin).pick(self.rng, gender, family_first)


def make_character(ctx: Context, steps: list[Step], fields: tuple[str, ...] | None = None) -> dict:
    """Run `steps` for the character ctx is started on; keep only `fields` when given."""
    char: dict[str, Any] = {
        "system": ctx.system.id,
        "kind": ctx.kind,
        "template": None,
        "seed": ctx.seed,
        "name": None,
    }
    for step in steps:
        ctx.step = step.id
        step.run(char, ctx)
    if fields is not None:
        head = {k: char[k] for k in ("system", "kind", "template", "seed", "name")}
        head["step"] = ctx.step
        head.update((k, char[k]) for k in fields if k in char)
        char = head
    if ctx.historik:
        char["historik"] = [e for e in ctx.historik if fields is None or e["step"] == ctx.step]
    return char


def generate(
    system: System,
    tables: Tables,
    kind: str,
    options: dict[str, Any],
    count: int,
    batch_seed: int,
    locale: str | None = None,
    prompter: Any = None,
    step: str | None = None,
) -> Iterator[dict]:
    """Characters one at a time: a PC, an NPC, or (with `step`) one step's part of a PC."""
    ctx = Context(system, tables, kind, options, count, batch_seed, locale, prompter)
    if step is not None:
        target = system.step(step)
        steps = system.pc[: system.pc.index(target) + 1]
        fields: tuple[str, ...] | None = target.fields
    else:
        steps = system.npc_steps() if kind == "npc" else list(system.pc)
        fields = None
    for index in range(count):
        ctx.start(character_seed(batch_seed, index), index)
        yield make_character(ctx, steps, fields)
