"""Systems, their creation procedures, and the context a step works in.

A game system is a `System`: an ordered list of `Step`s for a player character,
an NPC generator, the options its commands take, its table specs and its sheet.
A step is a function ``(character, ctx) -> None`` that reads tables through
`ctx`, rolls with `ctx.rng` and writes its part of the character (a plain dict in
its final JSON shape). The CLI, `--list`, `--interactive` and `chargen systems`
are all built from these objects, so nothing is written twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chargen import names
from chargen.conditions import (
    GENDERS,
    MISSING,
    PRONOUNS,
    Rule,
    entry_names,
    is_gendered,
    resolve_text,
)
from chargen.dice import Roll, parse
from chargen.errors import ChargenError, ChoiceError, Problem
from chargen.seeds import Stream, character_seed, renamed, step_state
from chargen.seeds import salt as _salt
from chargen.sheet import PRINT_SPEC, PRINT_TABLE, Column, Part, Section
from chargen.slugs import normalize
from chargen.tables import MAX_ROLL_ROWS, Pool, Spec, Table, Tables, builtin_root, pack_dir

StepFunction = Callable[[dict, "Context"], None]


class _Salts(dict):
    """A stream's salt by step id, for one kind of character (worked out on first use)."""

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def __missing__(self, step_id: str) -> int:
        found = self[step_id] = _salt(f"{self.kind}:{step_id}")
        return found


@dataclass(frozen=True)
class Step:
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
    # the fact this choice decides (see System.facts); "" means the option's key
    # when that is a declared fact
    fact: str = ""
    # the option makes the batch one whole (a squad, a band): its members share what
    # the batch drew, so a member made alone from its seed is not the same
    batch: bool = False

    @property
    def key(self) -> str:
        return self.name.replace("-", "_")


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
    sheet: Callable[[dict, Tables], list[Section]] | None
    roster: list[Column | tuple[str, str | Callable[[dict], Any]]]
    labels: dict[str, str] = field(default_factory=dict)  # legacy: use the labels file
    pc_options: list[Option] = field(default_factory=list)
    npc_options: list[Option] = field(default_factory=list)
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
    facts: dict[str, Any] = field(default_factory=dict)
    # Pronouns for text placeholders, key (male form) -> (male, female); None: by language.
    pronouns: dict[str, tuple[str, str]] | None = None
    # Extra {word} placeholders that steps fill through ctx.text(value, word=...).
    placeholders: tuple[str, ...] = ()

    # The labels file (chargen.labels): every word a reader sees, a table like any other.
    labels_table: str = "etiketter"
    # Optional: the sheet as parts (a step alone shows its own); `sheet` may then be None.
    parts: list[Part] = field(default_factory=list)
    # Where the system's built-in tables are (a plugin's own folder); None: the folder
    # named after the system among chargen's built-in tables.
    tables_root: Path | None = None
    # Names a batch remembers to keep them unique (then it starts afresh: flat memory).
    unique_names: int = 50_000

    def pronoun_set(self) -> dict[str, tuple[str, str]]:
        return self.pronouns if self.pronouns is not None else PRONOUNS.get(self.language, {})

    def __post_init__(self) -> None:
        if self.labels_table not in self.specs:
            self.specs = {**self.specs, self.labels_table: Spec("labels")}

    def sheet_sections(self, char: dict, tables: Tables) -> list[Section]:
        """The whole sheet: `sheet(char, tables)`, or every part in order."""
        if self.sheet is not None:
            return self.sheet(char, tables)
        return [s for part in self.parts for s in part.build(char, tables)]

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

    def steps(self, kind: str) -> list[Step]:
        """The procedure of a kind of character: the PC's steps or the NPC's."""
        return self.npc_steps() if kind == "npc" else list(self.pc)

    def options(self, kind: str) -> list[Option]:
        return self.npc_options if kind == "npc" else self.pc_options

    def tables(self, overlays: list[Path] | None = None, known: tuple[str, ...] = ()) -> Tables:
        """The system's pack: built-in tables, then each overlay folder that has some
        (`known`: the ids of every system installed, for the layout check of a pack)."""
        dirs = [self.tables_root or builtin_root() / self.id]
        for root in overlays or []:
            folder = pack_dir(root, self.id, known)
            if folder is not None:
                dirs.append(folder)
        return Tables(
            self.id,
            {PRINT_TABLE: PRINT_SPEC, **self.specs},
            self.effect_keys,
            dirs,
            self._check_pack,
            facts=self.facts,
            pronouns=self.pronoun_set(),
            placeholders=self.placeholders,
        )

    def _check_pack(self, tables: Tables) -> list[Problem]:
        """The system's own checks, then a trial: a user's pack that passes them must
        make characters, so a few are made (`TRIAL_SEEDS`) and any fault is a problem."""
        problems = self.check(tables) if self.check is not None else []
        if problems or len(tables.dirs) < 2:
            return problems
        return trial(self, tables)


TRIAL_SEEDS = (1, 2, 3)  # characters of each kind `trial` makes from a user's pack


def trial(system: System, tables: Tables) -> list[Problem]:
    """Make a few PCs and NPCs from the pack; a fault is a problem naming the user's
    files (a TableError keeps its own file and line)."""
    from chargen.errors import TableError

    for kind in ("pc", "npc"):
        for seed in TRIAL_SEEDS:
            try:
                for _ in generate(system, tables, kind, {}, 1, seed):
                    pass
            except TableError as exc:
                return exc.problems
            except ChoiceError:
                continue  # a choice is the user's, not the pack's
            except ChargenError as exc:
                return [_pack_fault(tables, kind, seed, str(exc))]
            except Exception as exc:  # noqa: BLE001 - a pack must not crash generation
                return [_pack_fault(tables, kind, seed, f"{type(exc).__name__}: {exc}")]
    return []


def _pack_fault(tables: Tables, kind: str, seed: int, why: str) -> Problem:
    user = [p for p in tables.files.values() if p.parent != tables.dirs[0]]
    names = ", ".join(sorted(p.name for p in user)[:5]) + (", ..." if len(user) > 5 else "")
    return Problem(
        str(tables.dirs[-1]),
        0,
        f"these tables ({names}) cannot make a {tables.system} {kind} (--seed {seed}): {why}",
    )


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        for key in ("name", "namn", "navn", "nev", "id"):
            if isinstance(value.get(key), str):
                return value[key]
    return str(value)


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

    One Context serves a whole batch; `start` readies it for each character and
    `begin` for each step, whose draws come from `rng`, the step's own stream. Per
    character it keeps the facts decided so far (`facts`), the names (ids and tags)
    of the rows drawn (`drawn`), what they exclude (`banned`) and the rows themselves
    (`drawn_rows`, `(table name, entry)` pairs), so that every draw through the
    context takes only rows whose conditions hold (see chargen/conditions.py).

    What a batch works out once from its tables and options (a template's plan, the
    rows that fit a set of facts) is kept by `memo`; `shared` is state the members
    of a batch share on purpose (a squad's stat block), which a member made alone
    does not have. `variants` maps step ids to the stream variant they draw from
    (0, the usual, when absent): what rerolling one part of a character asks for.
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
        self.cache: dict[Any, Any] = {}  # what `memo` keeps for the batch
        self.constants: dict[int, list] = {}  # the memo's dicts and lists, for the encoder
        self.variants: dict[str, int] = {}
        # each step's stream is salted by the kind of character and the step's id
        self._salts = _Salts(kind)
        self.rng = Stream()
        self.seed, self.index, self.step = batch_seed, 0, ""
        self.historik: list[dict] = []
        self.facts: dict[str, Any] = {}
        self.drawn: set[str] = set()
        self.banned: set[str] = set()
        self.drawn_rows: list[tuple[str, dict]] = []
        self._pronouns = system.pronoun_set()
        self._pools: dict[Any, Pool] = {}
        self._idsets: dict[Any, set[int]] = {}
        self._texts: tuple[dict, dict] = ({}, {})  # resolved text memo: male, female
        self._rules: dict[int, tuple[dict, Rule]] = {}
        self._option_facts: dict[tuple[str, str], str | None] = {}
        self._steering: Steering | None = None
        self._reserved: frozenset = frozenset()  # names of pinned entries (set by steering())
        self._pinban: frozenset | None = None  # what pinned entries exclude (None: not built)

    def start(self, seed: int, index: int) -> None:
        """Ready the context for the character of this seed (and place in the batch)."""
        self.seed, self.index = seed, index
        self.rng.state = step_state(seed, 0)
        self.historik = []
        self.facts = {}
        self.drawn = set()
        self.banned = set()
        self.drawn_rows = []

    def begin(self, step: Step) -> None:
        """Ready the context for a step: its id in the historik, its stream in `rng`."""
        self.step = step.id
        self.rng.state = step_state(
            self.seed, self._salts[step.id], self.variants.get(step.id, 0), step.naming
        )

    def memo(self, key: Any, build: Callable[[], Any]) -> Any:
        """What `build()` gives, worked out once per batch under `key`.

        It must depend only on the tables, the options and the key, never on a member,
        so that a member made alone gets what the batch gave it (tests/test_batch.py).
        A dict or list it gives, and each dict or list value of a dict it gives (a
        template's plan: its gear, its skill names), is shared by every member that
        takes it into its character, and encoded once (chargen.encode.Lines): never
        change it."""
        cache = self.cache
        try:
            return cache[key]
        except KeyError:
            found = cache[key] = build()
            kind = type(found)
            if kind is dict or kind is list:
                constants = self.constants
                constants[id(found)] = [found, None]
                if kind is dict:
                    for value in found.values():
                        if type(value) is dict or type(value) is list:
                            constants[id(value)] = [value, None]
            return found

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

    # -- facts -------------------------------------------------------------
    def set_fact(self, name: str, value: Any) -> None:
        """Decide a fact of this character (one the system declares, or `gender`)."""
        if name != "gender" and name not in self.system.facts:
            declared = ", ".join(["gender", *sorted(self.system.facts)])
            raise ChargenError(f"{self.system.id} declares no fact '{name}' (facts: {declared})")
        if name == "gender" and value not in GENDERS:
            raise ChargenError(f"gender must be male or female, not {value!r}")
        self.facts[name] = value

    def fact(self, name: str, default: Any = None) -> Any:
        return self.facts.get(name, default)

    def gender(self) -> str:
        """The character's gender: decided on first need (evenly, or as pinned choices
        need), from a stream of its own, so whichever step asks first gets the same."""
        gender = self.facts.get("gender")
        if gender is None:
            open_ = self.open_values("gender", GENDERS)
            if len(open_) == 1:
                gender = open_[0]
            else:  # both open (or neither: the draw that cannot be made reports it)
                draw = Stream(step_state(self.seed, self._salts["gender"])).random()
                gender = "female" if draw < 0.5 else "male"
            self.facts["gender"] = gender
        return gender

    def steering(self) -> Steering:
        """The pinned choices of this batch (built once; exit 2 when they cannot hold)."""
        if self._steering is None:
            self._steering = Steering(self)
            self._reserved, self._pinban = self._steering.reserved, self._steering.banned
        return self._steering

    @property
    def pinned(self) -> list[Pin]:
        """The entries the options pin, for a system's own steering of numbers."""
        return self.steering().pins

    def open_values(self, fact: str, values) -> list:
        """Of these candidate values of `fact`, those under which every pinned choice can hold."""
        steering = self.steering()
        if not steering.pins or fact not in steering.relevant:
            return list(values)
        return [v for v in values if steering.satisfiable({**self.facts, fact: v})]

    # -- conditions --------------------------------------------------------
    def _rule(self, entry: dict) -> Rule | None:
        if not any(k in entry for k in _CONDITION_KEYS):
            return None
        cached = self._rules.get(id(entry))
        if cached is None or cached[0] is not entry:  # memo holds the entry: ids stay unique
            cached = self._rules[id(entry)] = (entry, Rule(entry))
        return cached[1]

    def fits(self, entry: dict) -> bool:
        """Whether this entry may be drawn now: its conditions hold, nothing excludes it."""
        rule = self._rule(entry)
        if rule is not None and "gender" in rule.facts:
            self.gender()
        bans = self.banned or self._pin_bans()
        return self._fits(rule, entry_names(entry) if bans else None)

    def _pin_bans(self) -> frozenset:
        if self._pinban is None:
            self.steering()
        return self._pinban

    def _fits(self, rule: Rule | None, names: frozenset | None, pinned: bool = False) -> bool:
        if rule is not None:
            facts = self.facts
            for key, values in rule.when:
                if facts.get(key, MISSING) not in values:
                    return False
            for key, values in rule.unless:
                if facts.get(key, MISSING) in values:
                    return False
            if rule.requires and not rule.requires <= self.drawn:
                return False
            if rule.excludes:
                if not rule.excludes.isdisjoint(self.drawn):
                    return False
                if not pinned and not rule.excludes.isdisjoint(self._reserved):
                    return False
        if names:
            if self.banned and not names.isdisjoint(self.banned):
                return False
            if not pinned and not names.isdisjoint(self._pinban):
                return False
        return True

    def _fitting(self, tab: Table, among: list[dict] | None = None) -> list[dict]:
        compiled = tab.compiled
        if "gender" in compiled.facts and "gender" not in self.facts:
            self.gender()
        bans = self.banned or self._pin_bans()  # (builds the steering: _fits reads it)
        if among is None:
            return [
                e
                for e, r, n in zip(tab.entries, compiled.rules, compiled.names, strict=True)
                if self._fits(r, n if bans else None)
            ]
        out = []
        for entry in among:
            index = compiled.index.get(id(entry))
            if index is None:
                rule, names = self._rule(entry), entry_names(entry)
                if rule is not None and "gender" in rule.facts:
                    self.gender()
            else:
                rule, names = compiled.rules[index], compiled.names[index]
            if self._fits(rule, names if bans else None):
                out.append(entry)
        return out

    def pool(self, table: str | Table, among: list[dict] | None = None) -> Pool:
        """The rows of a table that may be drawn now, as a `Pool` for weighted picks.

        Free tables give their own pool; otherwise the pool is memoised per batch by
        what decides it: the values of the facts the table mentions, and which of the
        names its rows require, exclude or answer to are drawn or banned.
        """
        tab = table if isinstance(table, Table) else self.tables[table]
        if among is not None:
            return Pool(self._fitting(tab, among))
        return self._memo_pool(tab)[1]

    def _memo_pool(self, tab: Table) -> tuple[Any, Pool]:
        compiled = tab.compiled
        if not compiled.conditioned and not self.banned and not self._pin_bans():
            return None, tab._pool
        if "gender" in compiled.facts and "gender" not in self.facts:
            self.gender()
        facts = self.facts
        key: tuple = (tab.name, *[facts.get(f, MISSING) for f in compiled.facts])
        if not compiled.plain:
            key += (frozenset(self.drawn & compiled.watch),)
        if self.banned:
            key += (frozenset(self.banned & compiled.answers),)
        pool = self._pools.get(key)
        if pool is None:
            pool = Pool(self._fitting(tab))
            if len(self._pools) < _POOL_MEMO:
                self._pools[key] = pool
        return key, pool

    def _none_fit(self, tab: Table, what: str = "") -> ChargenError:
        facts = ", ".join(f"{k}={v}" for k, v in self.facts.items()) or "no facts set"
        return ChargenError(
            f"no {what or 'row'} of {tab.name} ({tab.path}) fits this character ({facts})"
        )

    def note(self, entry: dict, table: str | Table | None = None) -> None:
        """Record an entry drawn for this character: its id and tags count for
        `requires`/`excludes`, and the sweep tests check its conditions."""
        tab = self.tables[table] if isinstance(table, str) and table else table
        index = tab.compiled.index.get(id(entry)) if isinstance(tab, Table) else None
        if index is not None:
            rule, names = tab.compiled.rules[index], tab.compiled.names[index]
        else:
            rule, names = self._rule(entry), entry_names(entry)
        self.drawn.update(names)
        if rule is not None and rule.excludes:
            self.banned.update(rule.excludes)
        self.drawn_rows.append((tab.name if isinstance(tab, Table) else "", entry))

    def pick(self, table: str, among: list[dict] | None = None) -> dict:
        """One weighted random row that fits (noted)."""
        tab = self.tables[table]
        pool = self.pool(tab, among)
        if not pool:
            raise self._none_fit(tab)
        entry = pool.pick(self.rng)
        self.note(entry, tab)
        return entry

    def draw(
        self, table: str, count: int, among: list[dict] | None = None, exclude: tuple = ()
    ) -> list[dict]:
        """`count` different rows that fit, by weight; each is checked beside the ones
        drawn before it (noted)."""
        tab = self.tables[table]
        return self._draw(tab, count, list(tab.entries if among is None else among), exclude)

    def _draw(self, tab: Table, count: int, pool: list[dict], exclude: tuple = ()) -> list[dict]:
        if exclude:
            pool = [e for e in pool if e.get("id") not in exclude and e not in exclude]
        drawn: list[dict] = []
        # Without requires/excludes in the table, one draw cannot change what fits:
        # filter once and take each drawn row out; otherwise filter before each pick.
        steady = tab.compiled.plain
        fitting = self._fitting(tab, pool)
        for _ in range(count):
            if drawn and not steady:
                fitting = self._fitting(tab, [e for e in pool if not any(e is d for d in drawn)])
            if not fitting:
                raise ChargenError(
                    f"table {tab.name} ({tab.path}) has {len(drawn)} entries that fit "
                    f"this character to draw from, not the {count} asked for"
                )
            entry = Pool(fitting).pick(self.rng)
            self.note(entry, tab)
            drawn.append(entry)
            if steady:
                fitting = [e for e in fitting if e is not entry]
        return drawn

    # -- text --------------------------------------------------------------
    def text(self, value: Any, **extra: Any) -> Any:
        """Text for the reader: {male, female} by the character's gender, placeholders
        ({han/hon}, {han}, declared words from `extra`) filled."""
        if isinstance(value, str):
            if "{" not in value and "}" not in value:
                return value
            key: Any = value
        elif is_gendered(value):
            key = (value["male"], value["female"])
        else:
            return value
        gender = self.gender()
        if extra:
            return resolve_text(value, gender, self._pronouns, extra)
        texts = self._texts[gender == "female"]
        text = texts.get(key)
        if text is None:
            text = resolve_text(value, gender, self._pronouns)
            if len(texts) < _POOL_MEMO:
                texts[key] = text
        return text

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
        """Roll on a table and on every table its row refers to; each row is recorded.

        Only rows that fit are taken: on a die table a row that does not fit is
        rolled again (the historik shows it, `rerolled`)."""
        rows = []
        pending = [name]
        while pending and len(rows) <= MAX_ROLL_ROWS:  # the check keeps chains shorter
            table = self.tables[pending.pop(0)]
            value, entry = self._roll_fitting(table, why)
            if self.kind == "pc":  # the historik: player characters only (see log)
                event: dict[str, Any] = {"table": table.name}
                if value is not None:
                    event["roll"] = value
                event["result"] = self._label(entry)
                if "effects" in entry:
                    event["effects"] = entry["effects"]
                if why:
                    event["for"] = why
                self.log(**event)
            self.note(entry, table)
            rows.append(self.resolved(entry, table) if id(entry) in table.varying else entry)
            ref = entry.get("ref")
            pending += [ref] if isinstance(ref, str) else list(ref or [])
        return rows

    def resolved(self, entry: dict, table: str | Table) -> dict:
        """A copy of the entry with its text keys resolved for this character (the entry
        itself when none varies): what `roll_table` returns."""
        tab = table if isinstance(table, Table) else self.tables[table]
        if id(entry) not in tab.varying:
            return entry
        out = dict(entry)
        for key in tab.text_keys:
            if key in out:
                out[key] = self.text(out[key])
        return out

    def _label(self, entry: dict) -> Any:
        return self.text(entry.get("result") or entry.get("name") or entry.get("id"))

    def _roll_fitting(self, table: Table, why: str) -> tuple[int | None, dict]:
        if not table.compiled.conditioned and not self.banned and not self._pin_bans():
            return table.roll(self.rng)
        if table.die is None:
            pool = self.pool(table)
            if not pool:
                raise self._none_fit(table)
            return None, pool.pick(self.rng)
        key, pool = self._memo_pool(table)
        fitting = self._idsets.get(key) if key is not None else None
        if fitting is None:
            fitting = {id(e) for e in pool.entries}
            if key is not None and len(self._idsets) < _POOL_MEMO:
                self._idsets[key] = fitting
        if not fitting:
            raise self._none_fit(table)
        for _ in range(10_000):
            value, entry = table.roll(self.rng)
            if id(entry) in fitting:
                return value, entry
            event: dict[str, Any] = {"table": table.name, "roll": value}
            event.update(result=self._label(entry), rerolled=True)
            if why:
                event["for"] = why
            self.log(**event)
        raise self._none_fit(table)  # pragma: no cover - a fitting row is never that rare

    def log(self, **event: Any) -> None:
        """Add one event to the character's historik (player characters only: NPCs
        come from a template and stay lean for large batches)."""
        if self.kind == "pc":
            self.historik.append({"step": self.step, **event})

    # -- choices -----------------------------------------------------------
    def _fact_for(self, option: str, table: str) -> str | None:
        cached = self._option_facts.get((option, table), MISSING)
        if cached is not MISSING:
            return cached
        key = option.replace("-", "_")
        fact = None
        for opt in self.system.options(self.kind):
            if opt.key == key and opt.fact:
                fact = opt.fact
        multiple = any(o.key == key and o.multiple for o in self.system.options(self.kind))
        if fact is None and key in self.system.facts and not multiple:
            fact = key
        if fact is None and not multiple:
            by_table = [f for f, d in self.system.facts.items() if d == table]
            fact = by_table[0] if len(by_table) == 1 else None
        self._option_facts[(option, table)] = fact
        return fact

    def _unfit(self, tab: Table, entry: dict) -> str:
        """Why a chosen entry cannot be taken beside what this character already is ('' if it can)."""
        rule = self._rule(entry)
        if rule is not None and "gender" in rule.facts:
            self.gender()
        if self._fits(rule, entry_names(entry), pinned=True):
            return ""
        if rule is not None:
            for key, values in rule.when:
                have = self.facts.get(key, MISSING)
                if have not in values:
                    shown = "not yet decided" if have is MISSING else f"is {have}"
                    return f"it needs {key} {_either(values)}, and {key} {shown}"
            for key, values in rule.unless:
                if self.facts.get(key, MISSING) in values:
                    return f"it cannot be taken with {key} {self.facts[key]}"
            missing = rule.requires - self.drawn
            if missing:
                return f"it requires {', '.join(sorted(missing))}"
            clash = rule.excludes & self.drawn
            if clash:
                return f"it excludes {', '.join(sorted(clash))}, which this character has"
        clash = entry_names(entry) & self.banned
        return f"something this character has excludes {', '.join(sorted(clash))}"

    def choose(
        self,
        option: str,
        table: str,
        allowed: list[dict] | None = None,
        why: str | Callable[[dict], str] = "",
        fact: str | None = None,
    ) -> dict:
        """The player's choice from a definitions table.

        The option's value when given (an unknown id, or one outside `allowed`,
        is a ChoiceError naming the valid ones and `why`; one whose conditions do
        not hold names the reason), else the interactive prompt's answer, else a
        weighted random pick among the rows of `allowed` that fit, steered so that
        the choices pinned by options can still hold. The entry's id becomes the
        fact the choice decides (`fact`, else the option's declared fact).
        """
        tab = self.tables[table]
        fact = fact or self._fact_for(option, table)
        wanted = self.options.get(option.replace("-", "_"))
        if isinstance(wanted, list | tuple):
            wanted = wanted[0] if wanted else None
        if wanted is not None:
            pool = list(tab.entries) if allowed is None else list(allowed)
            entry = self._validated(option, tab, wanted, pool, why)
            reason = self._unfit(tab, entry)
            if reason:
                valid = [e["id"] for e in self._fitting(tab, pool)]
                raise ChoiceError(option, wanted, valid, f"{self._name(entry)}: {reason}")
            how = "option"
        else:
            steer = fact is not None and self._steers(fact)
            chooser = None
            if allowed is None and not steer and tab.die is None:
                chooser = self._memo_pool(tab)[1]  # the table's own pool, or a memoised one
                fitting = chooser.entries
            else:
                fitting = self._fitting(tab, None if allowed is None else list(allowed))
                if steer:
                    ids = set(self.open_values(fact, [e["id"] for e in fitting]))
                    fitting = [e for e in fitting if e["id"] in ids]
            entry = None
            if self.prompter is not None and len(fitting) > 1:
                entry = self.prompter.choose(option, tab, list(fitting), self.rng)
            if entry is not None:
                self.options[option.replace("-", "_")] = entry["id"]  # the batch takes it
                how = "prompt"
            else:
                if not fitting:
                    some = tab.entries if allowed is None else allowed
                    if some and self.steering().pins:
                        raise ChargenError(
                            f"no {option} fits this character beside "
                            f"{self.steering().given()} ({table} has none that fit)"
                        )
                    raise ChargenError(f"no {option} is open here ({table} has none that fit)")
                entry = chooser.pick(self.rng) if chooser is not None else _pick(self.rng, fitting)
                how = "random"
                if self.prompter is not None and len(fitting) > 1:
                    self.prompter.drawn(entry)  # an empty answer: say what the dice chose
        if fact:
            self.facts[fact] = entry["id"]
        self.note(entry, tab)
        if self.kind == "pc":
            self.log(choice=option, id=entry["id"], name=self._name(entry), by=how)
        return entry

    def _steers(self, fact: str) -> bool:
        steering = self._steering if self._steering is not None else self.steering()
        return bool(steering.pins) and fact in steering.relevant

    def _name(self, entry: dict) -> Any:
        return self.text(entry.get("name", entry["id"]))

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
        an empty answer takes `count` random ones). Random ones fit, each beside the
        others.
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
            for entry, value in zip(chosen, wanted, strict=True):
                reason = self._unfit(tab, entry)
                if reason:
                    valid = [e["id"] for e in self._fitting(tab, pool)]
                    raise ChoiceError(option, value, valid, f"{self._name(entry)}: {reason}")
                self.note(entry, tab)
            how = "option"
        elif self.prompter is not None:
            chosen = self.prompter.choose_many(
                option, tab, self._fitting(tab, pool), count, self.rng, span
            )
            if chosen is None:  # an empty answer: the dice decide, and the prompter says what
                chosen = self._draw(tab, count, pool)
                self.prompter.drawn(chosen)
                how = "random"
            else:
                self.options[option.replace("-", "_")] = [e["id"] for e in chosen]
                for entry in chosen:
                    self.note(entry, tab)
                how = "prompt"
        else:
            chosen = self._draw(tab, count, pool)
            how = "random"
        for entry in chosen:
            if self.kind == "pc":
                self.log(choice=option, id=entry["id"], name=self._name(entry), by=how)
        return chosen

    # -- other kinds of question (a number, yes/no, free text, a drawn list) --------
    @property
    def labels(self) -> Any:
        """The pack's Labels (chargen.labels): every word a reader sees."""
        return self.tables.labels

    def _answer(
        self, option: str, ask: Callable[[], Any], draw: Any, asks: bool = True
    ) -> tuple[Any, str]:
        """The option's value, else the prompt's answer, else the draw: (value, how).
        `asks=False` (a question with one possible answer) draws without prompting."""
        given = self.options.get(option.replace("-", "_"))
        if given is not None and given != ():
            return given, "option"
        if self.prompter is not None and asks:
            value = ask()
            if value is not None:
                self.options[option.replace("-", "_")] = value  # the whole batch takes it
                return value, "prompt"
            value = draw() if callable(draw) else draw
            if not callable(draw) and "default" in self.labels.prompts:
                # a fixed default, not a roll: "Utan svar: 5", not "Slumpen gav: 5"
                self.prompter.say("  " + self.labels.prompt("default", value=value))
            else:
                self.prompter.drawn(value)
            return value, "random"
        return (draw() if callable(draw) else draw), "random"

    def _asked(self, option: str, value: Any, how: str) -> None:
        self.log(ask=option, value=value, by=how)

    def ask_number(self, option: str, low: int, high: int, draw: Any) -> int:
        """A number from `low` to `high`: the option, the prompt, or `draw` (a value or a
        callable of no argument that rolls with ctx.rng)."""
        value, how = self._answer(
            option, lambda: self.prompter.number(self.labels(option), low, high), draw, low < high
        )
        value = int(value)
        if not low <= value <= high:
            raise ChargenError(f"--{option} must be from {low} to {high}, not {value}")
        self._asked(option, value, how)
        return value

    def ask_yes_no(self, option: str, draw: Any) -> bool:
        """Yes or no: the option (a flag), the prompt, or `draw`."""
        value, how = self._answer(option, lambda: self.prompter.yes_no(self.labels(option)), draw)
        value = bool(value)
        self._asked(option, value, how)
        return value

    def ask_text(self, option: str, suggestion: Any) -> str:
        """Free text: the option, the prompt (empty takes the suggestion), or the suggestion."""
        suggested = suggestion() if callable(suggestion) else suggestion
        value, how = self._answer(
            option, lambda: self.prompter.text(self.labels(option), suggested), suggested
        )
        self._asked(option, value, how)
        return str(value)

    def ask_list(
        self,
        option: str,
        drawn: list,
        pool: list | None = None,
        show: Callable[[Any], str] | None = None,
    ) -> list:
        """Accept or edit a drawn list (keep some of it, add from `pool`) at the prompt;
        without a prompter the drawn list as it is."""
        show = show or _shown
        if self.prompter is None:
            self._asked(option, [show(v) for v in drawn], "random")
            return list(drawn)
        kept = self.prompter.edit_list(self.labels(option), drawn, pool or [], show)
        how = "random" if kept is None else "prompt"
        result = list(drawn) if kept is None else kept
        self._asked(option, [show(v) for v in result], how)
        return result

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
        """(name, gender) from Faker's data for the locale (`--locale` overrides it).

        The gender is the character's (`gender()`) unless one is given."""
        chosen = self.locale or locale or self.system.locale
        if gender not in GENDERS:
            gender = self.gender()
        return names.picker(chosen, latin).pick(self.rng, gender, family_first)

    def authored_name(self, table: str, gender: str | None = None) -> tuple[str, str]:
        """(name, gender) from an authored name table (`NAME_SPEC`)."""
        if gender not in GENDERS:
            gender = self.gender()
        key = ("authored_name", table)
        picker = self.cache.get(key)
        if picker is None:
            picker = self.cache[key] = names.table_picker(self.tables[table])
        return picker.pick(self.rng, gender)


_CONDITION_KEYS = ("when", "unless", "requires", "excludes")
_POOL_MEMO = 20_000  # memoised pools per batch, at most


def _either(values) -> str:
    items = sorted(map(str, values))
    return items[0] if len(items) == 1 else "to be " + " or ".join(items)


def _pick(rng, entries: list[dict]) -> dict:
    return Pool(entries).pick(rng)


@dataclass(frozen=True)
class Pin:
    """An entry a command-line option fixes before the procedure runs."""

    option: Option
    table: Table
    entry: dict
    rule: Rule | None
    fact: str | None

    def label(self) -> str:
        return f"--{self.option.name} {self.entry['id']}"


class Steering:
    """The choices pinned by options, and the search that keeps them possible.

    A fact draw keeps a value only if some assignment of the facts still unset
    satisfies the `when`/`unless` of every pinned entry together with those of the
    domain entries of the facts involved (an arketyp open to one corporation).
    Exclusions of pinned entries are kept out of every random draw.
    """

    def __init__(self, ctx: Context, pins: list[Pin] | None = None, check: bool = True) -> None:
        self.ctx = ctx
        self.pins = self._collect(ctx) if pins is None else pins
        self.fixed: dict[str, Any] = {p.fact: p.entry["id"] for p in self.pins if p.fact}
        self.reserved = frozenset().union(*(entry_names(p.entry) for p in self.pins))
        self.banned = frozenset().union(*(p.rule.excludes for p in self.pins if p.rule))
        self.rules = [p.rule for p in self.pins if p.rule and (p.rule.when or p.rule.unless)]
        self.domains: dict[str, tuple | None] = {}
        self.domain_rules: dict[str, dict[Any, Rule]] = {}
        frontier = [f for r in self.rules for f in r.facts] + list(self.fixed)
        self.relevant: list[str] = []
        while frontier:
            fact = frontier.pop(0)
            if fact in self.relevant:
                continue
            self.relevant.append(fact)
            self.domains[fact], self.domain_rules[fact] = self._domain(fact)
            for rule in self.domain_rules[fact].values():
                frontier += rule.facts
        self._memo: dict[tuple, bool] = {}
        if check and self.pins:
            self._check()

    def _collect(self, ctx: Context) -> list[Pin]:
        pins = []
        for opt in ctx.system.options(ctx.kind):
            value = ctx.options.get(opt.key)
            if not opt.table or value is None or value == () or value == []:
                continue
            tab = ctx.tables[opt.table]
            for item in value if isinstance(value, list | tuple) else [value]:
                slug = match_choice(tab, item) if isinstance(item, str) else None
                if slug is None:
                    raise ChoiceError(opt.name, item, list(tab.ids))
                entry = tab.get(slug)
                fact = ctx._fact_for(opt.name, opt.table)
                pins.append(
                    Pin(opt, tab, entry, tab.compiled.rules[tab.compiled.index[id(entry)]], fact)
                )
        return pins

    def _domain(self, fact: str) -> tuple[tuple | None, dict[Any, Rule]]:
        if fact == "gender":
            return GENDERS, {}
        domain = self.ctx.system.facts.get(fact)
        if isinstance(domain, str):
            tab = self.ctx.tables[domain]
            rules = {
                e["id"]: r
                for e, r in zip(tab.entries, tab.compiled.rules, strict=True)
                if r is not None and (r.when or r.unless)
            }
            return tuple(tab.ids), rules
        return (tuple(domain) if domain is not None else None), {}

    def given(self) -> str:
        return ", ".join(p.label() for p in self.pins)

    def satisfiable(self, facts: dict) -> bool:
        assigned = {f: facts[f] for f in self.relevant if f in facts}
        for fact, value in self.fixed.items():
            if assigned.setdefault(fact, value) != value:
                return False
        return self._search(assigned)

    def _search(self, assigned: dict) -> bool:
        key = tuple(sorted(assigned.items(), key=lambda kv: kv[0]))
        known = self._memo.get(key)
        if known is None:
            known = self._memo[key] = self._extend(assigned)
        return known

    def _extend(self, assigned: dict) -> bool:
        for rule in self.rules:
            if not rule.possible(assigned):
                return False
        for fact, value in assigned.items():
            rule = self.domain_rules.get(fact, {}).get(value)
            if rule is not None and not rule.possible(assigned):
                return False
        for fact in self.relevant:
            if fact not in assigned and self.domains.get(fact) is not None:
                return any(self._search({**assigned, fact: value}) for value in self.domains[fact])
        return True

    def _check(self) -> None:
        """Exit 2 before the first character when the pinned choices cannot hold together."""
        for i, p in enumerate(self.pins):
            for q in self.pins[i + 1 :]:
                for a, b in ((p, q), (q, p)):
                    if a.rule and a.rule.excludes & entry_names(b.entry):
                        clash = ", ".join(sorted(a.rule.excludes & entry_names(b.entry)))
                        raise ChargenError(
                            f"{a.label()} rules out {b.label()} ({a.entry['id']} excludes {clash})"
                        )
        if self.satisfiable({}):
            return
        for p in self.pins:
            if not Steering(self.ctx, [p], check=False).satisfiable({}):
                raise ChargenError(f"{p.label()}: no character can have it ({self._why(p)})")
        for i, p in enumerate(self.pins):
            for q in self.pins[i + 1 :]:
                if not Steering(self.ctx, [p, q], check=False).satisfiable({}):
                    if q.rule and p.fact and p.fact in q.rule.facts:
                        p, q = q, p
                    reasons = "; ".join(x for x in (self._why(p), self._why(q)) if x)
                    raise ChargenError(f"{p.label()} rules out {q.label()} ({reasons})")
        raise ChargenError(f"the choices {self.given()} cannot all hold for one character")

    def _why(self, pin: Pin) -> str:
        text = pin.rule.describe() if pin.rule else ""
        if pin.fact:
            rule = self.domain_rules.get(pin.fact, {}).get(pin.entry["id"])
            if rule is not None and rule is not pin.rule:
                text = ", ".join(t for t in (text, rule.describe()) if t)
        return f"{pin.option.name} {pin.entry['id']}: {text}" if text else ""


ENVELOPE = ("system", "kind", "template", "seed", "name")


class Character(dict):
    """A character: a plain dict in its final JSON shape, which also knows the values
    its batch shares (`constants`, see Context.memo), for the encoder."""

    __slots__ = ("constants",)


def new_character(ctx: Context) -> Character:
    """The envelope every character starts with."""
    char = Character(system=ctx.system.id, kind=ctx.kind, template=None, seed=ctx.seed, name=None)
    char.constants = ctx.constants
    return char


def make_character(ctx: Context, steps: list[Step], fields: tuple[str, ...] | None = None) -> dict:
    """Run `steps` for the character ctx is started on; keep only `fields` when given."""
    char = new_character(ctx)
    for step in steps:
        ctx.begin(step)
        step.run(char, ctx)
    if fields is not None:
        head = {k: char[k] for k in ENVELOPE}
        head["step"] = ctx.step
        head.update((k, char[k]) for k in fields if k in char)
        char = head
    if ctx.historik:
        char["historik"] = [e for e in ctx.historik if fields is None or e["step"] == ctx.step]
    return char


RENAME_TRIES = 12  # new name seeds tried for a name that is taken (then a number is added)


class UniqueNames:
    """No two characters of a batch share a name (a person's full name, a creature's
    epithet), while each member's recorded seed still regenerates it alone.

    A member whose name is taken is made again under `seeds.renamed(seed, attempt)`:
    its steps but the naming one draw from the seed's body bits, so only the name and
    what follows from it change, and the new seed is recorded. An NPC is redone from
    its naming step alone (from the state before it: steps before it cannot depend on
    the name), the steps after it once the name is free; a PC whole. When RENAME_TRIES seeds all give taken names, the name space is
    spent (an NPC template's epithets): the member keeps its first name with the first
    free number ("Ulv 2"), as do the later members of that template, once said through
    `warn`. The batch remembers `System.unique_names` names, then starts afresh, so a
    million stay in flat memory.
    """

    def __init__(self, ctx: Context, steps: list[Step], warn: Callable[[str], None] | None):
        self.ctx, self.steps, self.warn = ctx, steps, warn
        self.at = next(i for i, s in enumerate(steps) if s.naming)
        self.seen: set[str] = set()
        self.spent: set[Any] = set()
        self.numbers: dict[str, int] = {}
        self.limit = ctx.system.unique_names
        # an NPC is redone from its naming step; a PC (with its historik) whole
        self.partial = ctx.kind == "npc"

    def make(self, seed: int, index: int) -> dict:
        ctx = self.ctx
        ctx.start(seed, index)
        if not self.partial:
            char = make_character(ctx, self.steps)
            return self._settle(char, seed, index)
        char = new_character(ctx)
        steps = self.steps
        for step in steps[: self.at]:
            ctx.begin(step)
            step.run(char, ctx)
        naming = steps[self.at]
        ctx.begin(naming)
        before = self._state(char, ctx)
        naming.run(char, ctx)
        if char["name"] in self.seen:
            self._rename(char, ctx, seed, naming, before)
        for step in steps[self.at + 1 :]:
            ctx.begin(step)
            step.run(char, ctx)
        self._remember(char["name"])
        return char

    def _rename(self, char: Character, ctx: Context, seed: int, naming: Step, before) -> None:
        """Draw the naming step under new seeds until its name is free (recorded as the
        member's seed), else keep the first name with a number."""
        space = char.get("template")
        if space not in self.spent:
            for attempt in range(1, RENAME_TRIES + 1):
                ctx.seed = renamed(seed, attempt)
                self._restore(char, ctx, before)
                char["seed"] = ctx.seed
                ctx.begin(naming)
                naming.run(char, ctx)
                if char["name"] not in self.seen:
                    return
            self.spent.add(space)
            self._spent_warning(space)
            ctx.seed = seed
            self._restore(char, ctx, before)
            char["seed"] = seed
            ctx.begin(naming)
            naming.run(char, ctx)
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
        if char["name"] in self.seen:
            space = char.get("template")
            found = None
            if space not in self.spent:
                for attempt in range(1, RENAME_TRIES + 1):
                    ctx.start(renamed(seed, attempt), index)
                    again = make_character(ctx, self.steps)
                    if again["name"] not in self.seen:
                        found = again
                        break
                if found is None:
                    self.spent.add(space)
                    self._spent_warning(space)
                    ctx.start(seed, index)
                    char = make_character(ctx, self.steps)
            if found is None:
                char["name"] = self._numbered(char["name"])
            else:
                char = found
        self._remember(char["name"])
        return char

    def _remember(self, name: Any) -> None:
        if len(self.seen) >= self.limit:
            self.seen.clear()
            self.spent.clear()
            self.numbers.clear()
        self.seen.add(name)

    def _numbered(self, name: str) -> str:
        n = self.numbers.get(name, 1) + 1
        while f"{name} {n}" in self.seen:
            n += 1
        self.numbers[name] = n
        return f"{name} {n}"

    def _spent_warning(self, space: Any) -> None:
        if self.warn is not None:
            what = f"template '{space}'" if space else "this batch"
            self.warn(
                f"the names of {what} ran out after {len(self.seen):,} in this batch: "
                "the rest of them are numbered"
            )


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
) -> Iterator[dict]:
    """Characters one at a time: a PC, an NPC, or (with `step`) one step's part of a PC.

    Choices that no character can satisfy together are a ChargenError before the
    first one. `variants` draws the steps it names from other streams (step id ->
    variant, 0 the usual). In a batch of whole characters no two share a name (see
    `UniqueNames`; `warn` hears when a template's names run out). `trace(character,
    ctx)` (for tests) sees each character with the context that made it, before the
    next one starts.
    """
    ctx = Context(system, tables, kind, options, count, batch_seed, locale, prompter)
    ctx.variants = dict(variants or {})
    ctx.steering()
    if system.check_options is not None:
        system.check_options(ctx)
    if step is not None:
        target = system.step(step)
        steps = system.pc[: system.pc.index(target) + 1]
        fields: tuple[str, ...] | None = target.fields
    else:
        steps = system.steps(kind)
        fields = None
    unique = None
    if fields is None and count > 1 and prompter is None and any(s.naming for s in steps):
        unique = UniqueNames(ctx, steps, warn)
    for index in range(count):
        seed = character_seed(batch_seed, index)
        if unique is None:
            ctx.start(seed, index)
            char = make_character(ctx, steps, fields)
        else:
            char = unique.make(seed, index)
        if trace is not None:
            trace(char, ctx)
        yield char
