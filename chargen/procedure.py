"""Systems and their creation procedures, and the loop that makes characters.

A game system is a `System`: an ordered list of `Step`s for a player character and
one for an NPC, the options its commands take, its table specs and its sheet. A step
is a function ``(character, ctx) -> None`` that reads tables through `ctx` (a
chargen.context.Context), draws from `ctx.rng`, its own stream, and writes its part
of the character (a plain dict in its final JSON shape). `generate` walks a procedure
once per character of a batch; the CLI, `--list`, `--interactive` and `chargen
systems` are all built from these objects, so nothing is written twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from chargen import recipe
from chargen.conditions import PRONOUNS
from chargen.context import Context
from chargen.errors import ChargenError, ChoiceError, Problem, UnknownTable
from chargen.seeds import character_seed, renamed
from chargen.sheet import PRINT_SPEC, PRINT_TABLE, Column, Part, Section
from chargen.tables import Spec, Tables, builtin_root, pack_dir, type_fault

__all__ = ["Context", "Option", "Step", "System", "generate", "make_character"]

StepFunction = Callable[[dict, Context], None]


class Step(NamedTuple):
    """One step of a creation procedure.

    `fields` are the character keys the step writes (what `chargen SYSTEM STEP`
    prints); `lists` the tables (glob patterns allowed) that `--list` shows;
    `command=False` keeps a step (such as the name) out of the subcommands;
    `roster` the Columns of a batch of this step alone (`chargen SYSTEM STEP -n 5`),
    when its fields do not read well one per column.

    Each step draws from a random stream of its own (chargen.seeds). `reads` are the
    fields of earlier steps that it reads, directly or through the facts and exclusions
    of the rows it draws: drawing an earlier step again changes this step only when it
    reads what that step wrote (tests/test_streams.py holds every system to it).
    `naming` marks the step that gives the character its name: its stream comes from
    the whole seed, so a batch whose member drew a name already taken makes it again
    under a new seed with the same body and another name (see `generate`).
    """

    id: str
    run: StepFunction
    fields: tuple[str, ...] = ()
    lists: tuple[str, ...] = ()
    label: str = ""
    help: str = ""
    command: bool = True
    roster: tuple[Any, ...] = ()
    reads: tuple[str, ...] = ()
    naming: bool = False


class Option(NamedTuple):
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
    # the fact this choice decides (see System.facts); "" means the option's key
    # when that is a declared fact
    fact: str = ""
    # the option makes the batch one whole (a squad, a band): its members share what
    # the batch drew, so a member made alone from its seed is not the same
    batch: bool = False

    @property
    def key(self) -> str:
        return self.name.replace("-", "_")


class System(NamedTuple):
    """Everything the engine needs to know about one game.

    (Step, Option and System are NamedTuples rather than dataclasses: every command
    that makes a character imports them, and a dataclass costs its import several
    times a NamedTuple's. Build a changed one with `_replace`.)"""

    id: str
    name: str
    language: str
    locale: str
    specs: dict[str, Spec]
    effect_keys: frozenset[str] | set[str]
    pc: list[Step]
    npc: StepFunction | list[Step]
    sheet: Callable[[dict, Tables], list[Section]] | None
    roster: list[Column]
    pc_options: list[Option] = []  # (a NamedTuple's defaults are shared: never changed)
    npc_options: list[Option] = []
    description: str = ""
    # Optional: a sheet for a whole batch (a squad's one stat block), or None to use the roster.
    batch_sheet: Callable[[list[dict], Tables], list[Section] | None] | None = None
    # Optional: what a batch's options ask of the tables beyond each choice alone (a
    # template without karma given --karma), checked once before the first character.
    check_options: Callable[[Context], None] | None = None
    # Optional: checks across fields and files that the specs cannot express, run by
    # `chargen tables check` and before a user's pack is used; returns the problems found.
    check: Callable[[Tables], list[Problem]] | None = None
    # What table conditions (`when`/`unless`) may test, fact -> domain: a table name
    # (its ids), a tuple of values, or None (open). `gender` is always a fact.
    facts: dict[str, Any] = {}
    # Pronouns for text placeholders, key (male form) -> (male, female); None: by language.
    pronouns: dict[str, tuple[str, str]] | None = None
    # Extra {word} placeholders that steps fill through ctx.text(value, word=...).
    placeholders: tuple[str, ...] = ()

    # The labels file (chargen.labels): every word a reader sees, a table like any other.
    labels_table: str = "etiketter"
    # Optional: the sheet as parts (a step alone shows its own); `sheet` may then be None.
    parts: list[Part] = []
    # Where the system's built-in tables are (a plugin's own folder); None: the folder
    # named after the system among chargen's built-in tables.
    tables_root: Path | None = None
    # Names a batch remembers to keep them unique (then it starts afresh: flat memory).
    unique_names: int = 50_000
    # New name seeds a member whose name is taken tries before its name space is spent
    # (None: RENAME_TRIES); a game whose names or epithets crowd in a big batch may need more.
    rename_tries: int | None = None
    # Fields a one-step view keeps beside the step's own where set: what its text needs
    # (Savage's era names the currency its prices are in).
    step_context: tuple[str, ...] = ()
    # The Foundry VTT game system its characters export to with `-f foundry`: the target
    # module chargen.export.<foundry> ("swade", "worldbuilding", "brp"); "": none.
    foundry: str = ""
    # An example of `--where EXPR` for its help, on fields its PCs and NPCs both have
    # (tests/test_where.py holds that random ones match it); "": the help shows none.
    where_example: str = ""

    def pronoun_set(self) -> dict[str, tuple[str, str]]:
        return self.pronouns if self.pronouns is not None else PRONOUNS.get(self.language, {})

    def faults(self) -> list[str]:
        """What is wrong with the declaration itself ([]: nothing): a step id twice in a
        procedure, or one taken by the engine (a command of every game, the gender's
        stream), a `reads` naming no field an earlier step writes (the streams and a
        reroll go by it), more than one naming step, a spec's field type that is none. A plugin with faults is not loaded
        (chargen.systems.load); the built-in games have none (tests/test_plugin.py)."""
        out = [
            f"the spec of {name}.toml, field {field}: {fault}"
            for name, spec in self.specs.items()
            for field, kind in spec.fields.items()
            if (fault := type_fault(kind))
        ]
        for kind in ("pc", "npc"):
            steps = self.steps(kind)
            have = set(ENVELOPE)
            seen: set[str] = set()
            for step in steps:
                if step.id in seen:
                    out.append(f"the {kind} procedure has two steps '{step.id}'")
                if step.id in RESERVED_STEP_IDS and not (kind == "npc" and callable(self.npc)):
                    out.append(
                        f"the {kind} step id '{step.id}' is taken by the engine "
                        f"(reserved: {', '.join(RESERVED_STEP_IDS)})"
                    )
                seen.add(step.id)
                unread = [r for r in step.reads if r not in have]
                if unread:
                    out.append(
                        f"the {kind} step '{step.id}' reads {', '.join(unread)}, which no "
                        f"earlier step writes (its fields, or the envelope's)"
                    )
                have.update(step.fields)
            naming = [s.id for s in steps if s.naming]
            if len(naming) > 1:
                out.append(f"the {kind} procedure has {len(naming)} naming steps: {naming}")
        return out

    def sheet_sections(self, char: dict, tables: Tables) -> list[Section]:
        """The whole sheet: `sheet(char, tables)`, or every part in order. A bug in it
        (a plugin's, say) is reported as the sheet's, with the game and the seed."""
        try:
            if self.sheet is not None:
                return self.sheet(char, tables)
            return [s for part in self.parts for s in part.build(char, tables)]
        except UnknownTable as exc:
            raise tables._unknown(exc.name, ", which the sheet asks for") from None
        except ChargenError:
            raise
        except Exception as exc:
            if not hasattr(exc, "chargen_where"):
                exc.chargen_where = (self.id, None, char.get("seed"))  # (None: the sheet)
            raise

    def step(self, step_id: str) -> Step:
        for step in self.pc:
            if step.id == step_id:
                return step
        raise ChoiceError("step", step_id, [s.id for s in self.pc if s.command])

    def npc_steps(self) -> list[Step]:
        if callable(self.npc):
            return [Step("npc", self.npc, command=False)]
        return list(self.npc)

    def steps(self, kind: str) -> list[Step]:
        """The procedure of a kind of character: the PC's steps or the NPC's."""
        return self.npc_steps() if kind == "npc" else list(self.pc)

    def options(self, kind: str) -> list[Option]:
        return self.npc_options if kind == "npc" else self.pc_options

    def tables(self, overlays: list[Path] | None = None, known: tuple[str, ...] = ()) -> Tables:
        """The system's pack: built-in tables, then each overlay folder that has some
        (`known`: the ids of every system installed, for the layout check of a pack)."""
        home = self.tables_root or builtin_root() / self.id
        if self.tables_root is None and not home.is_dir():  # (a plugin's declaration)
            raise ChargenError(
                f"the game '{self.id}' has no tables: a plugin's System names the folder "
                "of its TOML tables as tables_root (Path(__file__).resolve().parent / "
                '"tables")'
            )
        dirs = [home]
        roots = {}  # each overlay folder's pack: what its symlinks may lead to
        for root in overlays or []:
            folder = pack_dir(root, self.id, known)
            if folder is not None:
                dirs.append(folder)
                roots[folder] = root
        specs = {PRINT_TABLE: PRINT_SPEC, **self.specs}
        specs.setdefault(self.labels_table, Spec("labels"))  # every game has its words
        return Tables(
            self.id,
            specs,
            self.effect_keys,
            dirs,
            self._check_pack,
            facts=self.facts,
            pronouns=self.pronoun_set(),
            placeholders=self.placeholders,
            roots=roots,
        )

    def _check_pack(self, tables: Tables) -> list[Problem]:
        """The system's own checks, then a trial: a user's pack that passes them must
        make characters, so a few are made (`TRIAL_SEEDS`) and any fault is a problem."""
        problems = self.check(tables) if self.check is not None else []
        # the built-in games' own tables make characters in every sweep of the tests; a
        # plugin's are tried too: its code and tables are checked nowhere else
        if problems or (len(tables.dirs) < 2 and self.tables_root is None):
            return problems
        problems = trial(self, tables)
        if not problems and tables.thorough and self.tables_root is not None:
            where = str(Path(self.tables_root).parent)
            problems = [Problem(where, 0, f) for f in declaration_trial(self, tables)]
            problems = problems or label_trial(self, tables)
        if not problems and tables.thorough:
            problems = trial_entries(self, tables)
        return problems


# Step ids a game cannot use: its commands beside the steps', and the gender's stream.
RESERVED_STEP_IDS = ("pc", "npc", "reroll", "gender")
TRIAL_SEEDS = (1, 2, 3)  # characters of each kind `trial` makes from a user's pack
MAX_TRIAL_ENTRIES = 1_000  # entries `trial_entries` tries (a bigger pack: spread evenly)


def trial(system: System, tables: Tables) -> list[Problem]:
    """Make a few PCs and NPCs from the pack; a fault is a problem naming the user's
    files (a TableError keeps its own file and line)."""
    from chargen.errors import TableError

    for kind in ("pc", "npc"):
        for seed in TRIAL_SEEDS:
            try:
                for char in generate(system, tables, kind, {}, 1, seed):
                    system.sheet_sections(char, tables)  # the sheet reads the pack too
            except TableError as exc:
                return exc.problems
            except ChoiceError:
                continue  # a choice is the user's, not the pack's
            except ChargenError as exc:
                return [_pack_fault(tables, kind, seed, str(exc))]
            except Exception as exc:  # noqa: BLE001 - a pack must not crash generation
                step = getattr(exc, "chargen_where", ("", ""))[1]
                why = f"{type(exc).__name__}: {exc}"
                why += (
                    f" (in its step '{step}')"
                    if step
                    else " (in its sheet)"
                    if step is None
                    else ""
                )
                return [_pack_fault(tables, kind, seed, why)]
    return []


DECLARATION_SEEDS = 20  # characters of each kind `declaration_trial` makes, twice a step


def dependents(steps: list[Step], target: str) -> tuple[set[str], set[str]]:
    """(the ids of the steps that depend on `target`, itself included: those reading what
    it or another dependent writes; the fields they write)."""
    ids: set[str] = set()
    fields: set[str] = set()
    found = False
    for step in steps:
        found = found or step.id == target
        if found and (step.id == target or set(step.reads) & fields):
            ids.add(step.id)
            fields |= set(step.fields)
    return ids, fields


def declaration_trial(system: System, tables: Tables, seeds: int = DECLARATION_SEEDS) -> list[str]:
    """What characters show of a declaration that does not hold ([]: nothing), as
    `tables check` tries a plugin's (tests/test_streams.py holds the built-in games to
    the same with more seeds): a key of a character that no step's `fields` declares,
    and a field that changes when a step it does not depend on is drawn from another
    stream, so a step reads it without saying so in `reads` (a reroll would break it),
    and an option that no step reads (`_unread_options`)."""
    out = []
    for kind in ("pc", "npc"):
        steps = system.steps(kind)
        declared = {f for s in steps for f in s.fields} | set(ENVELOPE) | {"historik"}
        writers: dict[str, str] = {}  # a key -> the step that first wrote it
        watched = system._replace(**{kind: [_watching(s, writers) for s in steps]})
        usual = [next(generate(watched, tables, kind, {}, 1, n)) for n in range(1, seeds + 1)]
        stray = sorted({k for char in usual for k in char} - declared)
        if stray:
            said = [f"{k} (written by '{writers[k]}')" if k in writers else k for k in stray]
            out.append(
                f"a {kind} has {', '.join(said)}, which no step declares in its fields: "
                "add each to the fields of the step that writes it"
            )
        for step in steps:
            ids, touched = dependents(steps, step.id)
            kept = {f for s in steps if s.id not in ids for f in s.fields} - touched
            for n, char in enumerate(usual, start=1):
                again = next(generate(system, tables, kind, {}, 1, n, variants={step.id: 1}))
                moved = sorted(f for f in kept if char.get(f) != again.get(f))
                if moved:
                    writers = ", ".join(f"'{s.id}'" for s in steps if set(s.fields) & set(moved))
                    out.append(
                        f"a {kind} (--seed {n}) drawn with its step '{step.id}' again changes "
                        f"{', '.join(moved)}, written by {writers}, which does not declare "
                        f"that it reads what '{step.id}' writes: add it to Step.reads"
                    )
                    break
        out += _unread_options(system, tables, kind, seeds)
    return out


def _watching(step: Step, writers: dict[str, str]) -> Step:
    """The step, noting in `writers` each key of a character it is the first to write
    (the same draws: a step's stream is its id's)."""

    def run_watched(char: dict, ctx: Context) -> None:
        before = set(char)
        step.run(char, ctx)
        for key in char.keys() - before:
            writers.setdefault(key, step.id)

    return step._replace(run=run_watched)


class _Heard(dict):
    """A context's options that remember which of them a step looked up."""

    def __init__(self, options: dict, heard: set[str]) -> None:
        super().__init__(options)
        self.heard, self.listening = heard, False

    def get(self, key: str, default: Any = None) -> Any:
        if self.listening:
            self.heard.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> Any:
        if self.listening:
            self.heard.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        if self.listening and isinstance(key, str):
            self.heard.add(key)
        return super().__contains__(key)


def _unread_options(system: System, tables: Tables, kind: str, seeds: int) -> list[str]:
    """The options of a table that no step looks up while `seeds` characters are made
    (a step misspelling the option's name in ctx.choose): what the engine reads of
    them before the steps (the choices they pin) does not count."""
    wanted = [o for o in system.options(kind) if o.table is not None and not o.flag]
    if not wanted:
        return []
    heard: set[str] = set()

    def listening(run: Callable[[dict, Context], None]) -> Callable[[dict, Context], None]:
        def run_heard(char: dict, ctx: Context) -> None:
            if type(ctx.options) is not _Heard:
                ctx.options = _Heard(ctx.options, heard)
            ctx.options.listening = True
            try:
                run(char, ctx)
            finally:
                ctx.options.listening = False

        return run_heard

    steps = [s._replace(run=listening(s.run)) for s in system.steps(kind)]
    heard_system = system._replace(**{kind: steps})
    try:
        for _ in generate(heard_system, tables, kind, {}, seeds, 1):
            pass
    except ChargenError:  # (a step that fails is the trial's to say)
        return []
    return [
        f"no {kind} step looks up the option --{o.name} (in {seeds} characters): a step "
        f"reads it as ctx.choose({o.key!r}, {o.table!r}), under the option's name"
        for o in wanted
        if o.key not in heard
    ]


def label_trial(system: System, tables: Tables, seeds: int = DECLARATION_SEEDS) -> list[Problem]:
    """The labels a plugin's sheets ask for and its labels file lacks (a reader would
    see the key, capitalised), and its roster's columns without a label: made from a few PCs
    and NPCs, as `tables check` tries a plugin."""
    labels = tables.labels  # (its misses so far count too: `trial` drew sheets before)
    for kind in ("pc", "npc"):
        for char in generate(system, tables, kind, {}, seeds, 1):
            system.sheet_sections(char, tables)
    missing = labels.missing | {c.key for c in system.roster if c.key not in labels}
    if not missing:
        return []
    path = tables.files.get(system.labels_table)
    return [
        Problem(
            str(path or system.labels_table),
            0,
            f"no label for {', '.join(sorted(missing))}, which the sheets or the roster "
            "show (as the key, capitalised, until the labels file has it)",
        )
    ]


def trial_entries(system: System, tables: Tables) -> list[Problem]:
    """`tables check`'s trial of every entry: for each entry of each of the user's roll
    and definitions tables, a PC and an NPC made with that entry all but certain to
    come up (`Table.favouring`), their sheets rendered. A ChargenError is not the
    entry's fault (a favoured row leaves the others rare, and a choice may then find
    none open); a crash is, and names the entry's file and line. A pack of more than
    MAX_TRIAL_ENTRIES entries has that many tried, spread evenly over it."""
    from chargen.errors import TableError

    user = sorted(n for n, p in tables.files.items() if p.parent != tables.dirs[0])
    originals = {n: tables[n] for n in tables.names()}  # loaded whole, put back at the end
    tried = [
        (name, index)
        for name in user
        if originals[name].kind in ("roll", "definitions")
        for index in range(len(originals[name].entries))
    ]
    if len(tried) > MAX_TRIAL_ENTRIES:  # a huge pack: a fixed, even spread of its entries
        step = -(-len(tried) // MAX_TRIAL_ENTRIES)
        tried = tried[::step]
    try:
        for name, index in tried:
            table = originals[name]
            favoured = _favouring(tables, table, index)
            tables._loaded.update(favoured)
            for kind in ("pc", "npc"):
                try:
                    for char in generate(system, tables, kind, {}, 1, TRIAL_SEEDS[0]):
                        system.sheet_sections(char, tables)
                except TableError as exc:
                    return exc.problems
                except ChargenError:
                    continue
                except Exception as exc:  # noqa: BLE001 - a pack must not crash generation
                    why = f"{type(exc).__name__}: {exc}"[:300]
                    return [
                        Problem(
                            str(table.path),
                            table.entry_line(index),
                            f"entry {index + 1} cannot make a {tables.system} {kind}: {why}",
                        )
                    ]
            for other in favoured:
                tables._loaded[other] = originals[other]
    finally:
        tables._loaded.update(originals)
    return []


def _favouring(tables: Tables, table, index: int) -> dict:
    """Table name -> its favouring version: the table favouring entry `index`, and for
    each fact the entry's `when` names whose values are a table's ids (a sablon), that
    table favouring a value the entry is open to, and so on for that value's own
    `when` (the era a sablon belongs to)."""
    out = {table.name: table.favouring(index)}
    work = [(table, index)]
    while work:
        source, at = work.pop()
        rule = source.compiled.rules[at]
        for fact, values in rule.when if rule is not None else ():
            domain = (tables.facts or {}).get(fact)
            if not isinstance(domain, str) or domain not in tables or domain in out:
                continue
            other = tables[domain]
            match = next((i for i, e in enumerate(other.entries) if e.get("id") in values), None)
            if match is not None:
                out[domain] = other.favouring(match)
                work.append((other, match))
    return out


def _pack_fault(tables: Tables, kind: str, seed: int, why: str) -> Problem:
    user = [p for p in tables.files.values() if p.parent != tables.dirs[0]]
    if not user:  # a plugin's own tables, or its code
        return Problem(
            str(tables.dirs[0]),
            0,
            f"the game '{tables.system}' cannot make a {kind} (--seed {seed}): {why}",
        )
    names = ", ".join(sorted(p.name for p in user)[:5]) + (", ..." if len(user) > 5 else "")
    return Problem(
        str(tables.dirs[-1]),
        0,
        f"these tables ({names}) cannot make a {tables.system} {kind} (--seed {seed}): {why}",
    )


ENVELOPE = ("system", "kind", "template", "seed", "name", "recipe", "version")


class Character(dict):
    """A character: a plain dict in its final JSON shape, which also knows the values
    its batch shares (`constants`, see Context.memo), for the encoder."""

    __slots__ = ("constants",)


def new_character(ctx: Context) -> Character:
    """The envelope every character starts with."""
    char = Character(ctx.envelope)
    char["seed"] = ctx.seed
    char.constants = ctx.constants
    return char


def make_character(
    ctx: Context,
    steps: list[Step] | tuple,
    fields: tuple[str, ...] | None = None,
    step: str | None = None,
) -> dict:
    """Run `steps` (or what `ctx.compile` made of them) for the character ctx is started
    on; keep only `fields` (and the historik) of `step` when given (`step_walk`)."""
    char = new_character(ctx)
    ctx.walk(char, steps if type(steps) is tuple else ctx.compile(steps))
    if fields is not None:
        head = {k: char[k] for k in ENVELOPE}
        head["step"] = step or ctx.step  # (the recipe is set by generate, after the step)
        head.update((k, char[k]) for k in ctx.system.step_context if k in char)
        head.update((k, char[k]) for k in fields if k in char)
        char = head
    if ctx.historik:
        mine = step or ctx.step
        char["historik"] = [e for e in ctx.historik if fields is None or e["step"] == mine]
    return char


def step_walk(system: System, step: Step) -> list[Step]:
    """The steps a step run alone walks: those up to it, then (for the name its envelope
    shows) the naming step if it comes later, after the later steps it reads from, their
    questions left to the dice. Each step has its own stream, so what the step writes is
    what the whole character has."""
    pc = system.pc
    steps = pc[: pc.index(step) + 1]
    naming = next((s for s in pc if s.naming), None)
    if naming is None or naming in steps:
        return steps
    needed, have = [naming], {f for s in steps for f in s.fields} | set(ENVELOPE)
    wanted = set(naming.reads) - have
    for earlier in reversed(pc[len(steps) : pc.index(naming)]):
        if wanted & set(earlier.fields):
            needed.insert(0, earlier)
            wanted = (wanted - set(earlier.fields)) | (set(earlier.reads) - have)
    return steps + [s._replace(run=_unasked(s.run)) for s in needed]


def _unasked(run: StepFunction) -> StepFunction:
    """A step's function with no prompter: the dice answer (a step alone asks its own)."""

    def unasked(char: dict, ctx: Context) -> None:
        prompter, ctx.prompter = ctx.prompter, None
        try:
            run(char, ctx)
        finally:
            ctx.prompter = prompter

    return unasked


def numbered(name: str, taken: Callable[[str], bool], after: int = 1) -> tuple[str, int]:
    """The name with the first number above `after` that is not taken ("Ulv 2"), and
    that number: what a member whose names ran out is called."""
    n = after + 1
    while taken(f"{name} {n}"):
        n += 1
    return f"{name} {n}", n


RENAME_TRIES = 12  # new name seeds tried for a name that is taken (then a number is added)


class NameRegistry(Protocol):
    """Names taken outside the batch, which UniqueNames treats as taken too: a
    campaign's (chargen.campaign), across runs and processes. The engine only asks;
    the registry's owner stores what the batch makes."""

    def taken(self, name: str) -> bool: ...


class UniqueNames:
    """No two characters of a batch share a name (a person's full name, a creature's
    epithet), while each member's recorded seed still regenerates it alone.

    A member whose name is taken is made again under `seeds.renamed(seed, attempt)`:
    its steps but the naming one draw from the seed's body bits, so only the name and
    what follows from it change, and the new seed is recorded. An NPC is redone from
    its naming step alone (from the state before it: steps before it cannot depend on
    the name), the steps after it once the name is free; a PC whole.

    When RENAME_TRIES seeds (the system's `rename_tries`, if it says) all give taken
    names, the name space is spent: the member keeps its first name with the first free
    number ("Ulv 2"), as do the later members of that space, said once through `warn`.
    With a `registry` (a campaign's names), a name it holds is taken as well.
    The naming step names its space
    (`ctx.name_space`: a creature's template, say); people share one. The batch
    remembers `System.unique_names` names, then starts afresh, so a million stay in
    flat memory.
    """

    def __init__(
        self,
        ctx: Context,
        steps: list[Step],
        warn: Callable[[str], None] | None,
        registry: NameRegistry | None = None,
    ):
        self.ctx, self.warn = ctx, warn
        seen = self.seen = set()
        if registry is None:
            self.taken: Callable[[str], bool] = seen.__contains__
        else:
            outside = registry.taken
            self.taken = lambda name: name in seen or outside(name)
        self.at = next(i for i, s in enumerate(steps) if s.naming)
        self.whole = ctx.compile(steps)
        self.before, self.after = self.whole[: self.at], self.whole[self.at + 1 :]
        self.named = self.whole[self.at : self.at + 1]
        self.spent: set[Any] = set()
        # a naming step that reads nothing names every member in one space: once it has
        # run out, the next member's is known to have run out before it is named
        self.one_space = not steps[self.at].reads
        self.last_spent = False
        # the spaces that ran out, and after how many characters: said once, at the end
        self.warned: dict[Any, int] = {}
        self.made = 0
        self.numbers: dict[str, int] = {}
        self.limit = ctx.system.unique_names
        self.tries = ctx.system.rename_tries or RENAME_TRIES
        # an NPC is redone from its naming step; a PC (with its historik) whole
        self.partial = ctx.kind == "npc"

    def make(self, seed: int, index: int) -> dict:
        ctx = self.ctx
        if not self.partial:
            ctx.start(seed, index)
            char = make_character(ctx, self.whole)
            return self._settle(char, seed, index)
        char = self._before_naming(seed, index)
        walk = ctx.walk
        # the state before the naming step, for a rename: a few small copies, which cost
        # less than making the member's earlier steps again where names crowd; none when
        # the one name space has run out (its members are numbered, not renamed)
        before = None if self.last_spent else self._state(char, ctx)
        walk(char, self.named)
        if self.taken(char["name"]):
            self._rename(char, ctx, seed, index, before)
        walk(char, self.after)
        self._remember(char["name"])
        self.last_spent = self.one_space and ctx.name_space in self.spent
        return char

    def _before_naming(self, seed: int, index: int) -> Character:
        """The member of this seed made up to its naming step."""
        ctx = self.ctx
        ctx.start(seed, index)
        char = new_character(ctx)
        ctx.walk(char, self.before)
        return char

    def _rename(self, char: Character, ctx: Context, seed: int, index: int, before) -> None:
        """Draw the naming step under new seeds until its name is free (recorded as the
        member's seed), else keep the first name with a number. `before` is the state
        before the naming step (None: made again from the seed, as it was)."""
        space = ctx.name_space
        if space in self.spent:
            char["name"] = self._numbered(char["name"])
            return
        if before is None:  # (a naming step that names its space from what it does not read)
            before = self._state(self._before_naming(seed, index), ctx)
        for attempt in range(1, self.tries + 1):
            ctx.reseed(renamed(seed, attempt))
            self._restore(char, ctx, before)
            char["seed"] = ctx.seed
            ctx.walk(char, self.named)
            if not self.taken(char["name"]):
                return
        self.spent.add(space)
        self._spent_warning(space)
        ctx.reseed(seed)
        self._restore(char, ctx, before)
        char["seed"] = seed
        ctx.walk(char, self.named)
        char["name"] = self._numbered(char["name"])

    @staticmethod
    def _state(char: Character, ctx: Context) -> tuple:
        return dict(char), dict(ctx.facts), set(ctx.drawn), set(ctx.banned), len(ctx.drawn_rows)

    @staticmethod
    def _restore(char: Character, ctx: Context, before: tuple) -> None:
        fields, facts, drawn, banned, rows = before
        char.clear()
        char.update(fields)
        ctx.facts, ctx.drawn, ctx.banned = dict(facts), set(drawn), set(banned)
        del ctx.drawn_rows[rows:]

    def _settle(self, char: dict, seed: int, index: int) -> dict:
        """A PC: made again whole under new seeds while its name is taken."""
        ctx = self.ctx
        if self.taken(char["name"]):
            space = ctx.name_space
            found = None
            if space not in self.spent:
                for attempt in range(1, self.tries + 1):
                    ctx.start(renamed(seed, attempt), index)
                    again = make_character(ctx, self.whole)
                    if not self.taken(again["name"]):
                        found = again
                        break
                if found is None:
                    self.spent.add(space)
                    self._spent_warning(space)
                    ctx.start(seed, index)
                    char = make_character(ctx, self.whole)
            if found is None:
                char["name"] = self._numbered(char["name"])
            else:
                char = found
        self._remember(char["name"])
        return char

    def _remember(self, name: Any) -> None:
        self.made += 1
        if len(self.seen) >= self.limit:
            self.seen.clear()
            self.spent.clear()
            self.numbers.clear()
        self.seen.add(name)

    def _numbered(self, name: str) -> str:
        found, self.numbers[name] = numbered(name, self.taken, self.numbers.get(name, 1))
        return found

    def _spent_warning(self, space: Any) -> None:
        if space not in self.warned:
            self.warned[space] = self.made

    def finish(self) -> None:
        """Say once, at the end of the batch, which name spaces ran out (and after how
        many characters), so a big batch of many kinds of creature says it in one line."""
        if self.warn is None or not self.warned:
            return
        spaces = [f"{space or 'people'} after {made:,}" for space, made in self.warned.items()]
        spaces[0] += " characters of the batch"  # (each count is the batch's, not the space's)
        self.warn(f"the names ran out: {', '.join(spaces)}; the rest are numbered")


def _recipe(ctx: Context, command: str, locale, tables_given, batch_seed: int) -> tuple:
    """(the words before a member's seed, those after it, whether the batch is one
    whole and every member's recipe is the batch's)."""
    made = recipe.build(
        ctx.system, ctx.kind, command, ctx.options, locale, tables_given, ctx.variants
    )
    whole = ctx.count > 1 and recipe.whole_batch(ctx.system, ctx.kind, ctx.options)
    if whole:
        made = made._replace(count=ctx.count, seed=batch_seed)
    return made.head(), made.tail(), whole


def _asked_recipe(
    ctx: Context, command: str, locale, tables_given, given: dict, heard: list[str]
) -> tuple:
    """`_recipe` of a member made at the prompts: the options given, every answer heard
    so far, and for a member after the first the batch up to it (the batch's seed)."""
    made = recipe.build(ctx.system, ctx.kind, command, given, locale, tables_given, ctx.variants)
    made = made._replace(answers=recipe.join_answers(heard))
    whole = ctx.count > 1 and recipe.whole_batch(ctx.system, ctx.kind, given)
    if whole:
        made = made._replace(count=ctx.count)
    elif ctx.index > 0:
        made = made._replace(count=ctx.index + 1)
    return made.head(), made.tail(), whole or ctx.index > 0


def recipe_of(char: dict) -> str:
    """A character's recipe (the command that makes it again)."""
    return char["recipe"]


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
    trace: Callable[[dict, Context], None] | None = None,
    variants: dict[str, int] | None = None,
    warn: Callable[[str], None] | None = None,
    tables_given: tuple[str, ...] = (),
    unique_names: bool = True,
    names: NameRegistry | None = None,
    answers: tuple[str, ...] | None = None,
) -> Iterator[dict]:
    """Characters one at a time: a PC, an NPC, or (with `step`) one step's part of a PC.

    Choices that no character can satisfy together are a ChargenError before the
    first one. `unique_names=False` leaves names as each member's seed gives them (for
    `--where`, which keeps names unique among the characters it keeps). `variants` draws the steps it names from other streams (step id ->
    variant, 0 the usual). In a batch of whole characters no two share a name (see
    `UniqueNames`; `warn` hears when a template's names run out), nor shares one with
    what `names` holds (a campaign's, even for a batch of one). `trace(character,
    ctx)` (for tests) sees each character with the context that made it, before the
    next one starts.

    Each character's `recipe` (chargen.recipe) is the command that makes it again: its
    own seed (a renamed member's new one), the options, `locale`, the `tables_given`
    folders as the user gave them, the variants; for a batch that its options make one
    whole, the batch's command. Made at the prompts (`prompter`), it names the options
    given and every answer (`--answers`, chargen.recipe.join_answers): for a member
    after the first, the batch up to it (`-n`), since the first members' answers hold
    for the rest. `answers` (without a prompter) replays such answers: the questions
    are asked again, silently, and answered as they were.
    """
    given = dict(options)  # before the prompts add their answers to the options
    if answers is not None and prompter is None:
        from chargen.prompts import replay

        prompter = replay(answers, tables)
    ctx = Context(system, tables, kind, options, count, batch_seed, locale, prompter)
    ctx.variants = dict(variants or {})
    ctx.keep_rows = trace is not None  # the rows drawn, for a trace to check
    ctx.steering()
    if system.check_options is not None:
        system.check_options(ctx)
    if step is not None:
        target = system.step(step)
        steps = step_walk(system, target)
        fields: tuple[str, ...] | None = target.fields
    else:
        steps = system.steps(kind)
        fields = None
    unique = None
    several = count > 1 or names is not None
    if (
        unique_names
        and fields is None
        and several
        and prompter is None
        and any(s.naming for s in steps)
    ):
        unique = UniqueNames(ctx, steps, warn, names)
    compiled = unique.whole if unique is not None else ctx.compile(steps)
    command = step if step is not None else kind
    made = _recipe(ctx, command, locale, tables_given, batch_seed)
    try:
        for index in range(count):
            seed = character_seed(batch_seed, index)
            if unique is None:
                ctx.start(seed, index)
                char = make_character(ctx, compiled, fields, step)
            else:
                char = unique.make(seed, index)
            if prompter is not None:
                made = _asked_recipe(ctx, command, locale, tables_given, given, prompter.heard)
            char["recipe"] = made[0] + str(batch_seed if made[2] else char["seed"]) + made[1]
            if trace is not None:
                trace(char, ctx)
            yield char
    except UnknownTable as exc:  # a step's misspelling: say which step
        step_id = getattr(ctx, "step", "")
        if not step_id:
            raise
        raise tables._unknown(exc.name, f", which the {kind} step '{step_id}' asks for") from None
    except ChargenError:
        raise
    except Exception as exc:  # a bug (a plugin's, say): the report names where it happened
        exc.chargen_where = (system.id, ctx.step, getattr(ctx, "seed", batch_seed))
        raise
    if unique is not None:
        unique.finish()
