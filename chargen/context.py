"""The context a step works in: the character's random stream, the tables, the options.

One `Context` serves a whole batch (chargen.procedure.generate makes it): it draws
rows that fit what the character already is (chargen/conditions.py), makes choices
(an option, a prompt, or the dice, steered so that the options can still hold:
chargen/steering.py), fills gendered text, rolls dice, names people, and keeps the
historik and what the batch works out once (`memo`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chargen import __version__, names
from chargen.conditions import (
    GENDERS,
    MISSING,
    Rule,
    entry_names,
    fill,
    filler,
    resolve_text,
)
from chargen.dice import Roll, parse
from chargen.errors import ChargenError, ChoiceError
from chargen.seeds import _GOLDEN, _MASK64, _VARIANT, BODY_MASK, Stream
from chargen.seeds import salt as _salt
from chargen.steering import Pin, Steering
from chargen.tables import MAX_ROLL_ROWS, Pool, Table, Tables, match_choice


class _Salts(dict):
    """A stream's salt by step id, for one kind of character (worked out on first use)."""

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def __missing__(self, step_id: str) -> int:
        found = self[step_id] = _salt(f"{self.kind}:{step_id}")
        return found


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        for key in ("name", "namn", "navn", "nev", "id"):
            if isinstance(value.get(key), str):
                return value[key]
    return str(value)


_CONDITION_KEYS = ("when", "unless", "requires", "excludes")
_NOTHING = object()  # a memo not worked out yet
_POOL_MEMO = 20_000  # memoised pools per batch, at most


def _either(values) -> str:
    items = sorted(map(str, values))
    return items[0] if len(items) == 1 else "to be " + " or ".join(items)


def _clash(entries: list[dict], rule_of: Callable[[dict], Rule | None]) -> tuple | None:
    """The first two of `entries` that exclude each other, or None."""
    for i, a in enumerate(entries):
        for b in entries[i + 1 :]:
            for x, y in ((a, b), (b, a)):
                rule = rule_of(x)
                if rule is not None and rule.excludes & entry_names(y):
                    return a, b
    return None


def _pick(rng, entries: list[dict]) -> dict:
    return Pool(entries).pick(rng)


class Context:
    """What a step works with: the character's random stream, the tables, the options.

    One Context serves a whole batch; `start` readies it for each character and
    `begin` for each step, whose draws come from `rng`, the step's own stream. Per
    character it keeps the facts decided so far (`facts`), the names (ids and tags)
    of the rows drawn (`drawn`), what they exclude (`banned`) and the rows themselves
    (`drawn_rows`, `(table name, entry)` pairs, while `keep_rows`: generate keeps them
    for a trace), so that every draw through the context takes only rows whose
    conditions hold (see chargen/conditions.py).

    What a batch works out once from its tables and options (a template's plan, the
    rows that fit a set of facts) is kept by `memo`; `shared` is state the members
    of a batch share on purpose (a squad's stat block), which a member made alone
    does not have. `variants` maps step ids to the stream variant they draw from
    (0, the usual, when absent): what rerolling one part of a character asks for.
    """

    def __init__(
        self,
        system: Any,
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
        # what every character starts with, in this order (chargen.procedure.new_character)
        self.envelope = {"system": system.id, "kind": kind, "template": None, "seed": 0}
        self.envelope["name"] = None
        self.envelope["recipe"] = None  # chargen.recipe, set once the character is made
        self.envelope["version"] = __version__  # what the seed and recipe hold within
        self.variants: dict[str, int] = {}
        # each step's stream is salted by the kind of character and the step's id
        self._salts = _Salts(kind)
        self.rng = Stream()
        self._gender_stream = Stream()
        self.index, self.step = 0, ""
        self.name_space: Any = None
        self.reseed(batch_seed)
        self.historik: list[dict] = []
        self.facts: dict[str, Any] = {}
        self.drawn: set[str] = set()
        self.banned: set[str] = set()
        self.drawn_rows: list[tuple[str, dict]] = []
        self.keep_rows = True  # whether drawn_rows is kept (generate: for a trace only)
        self._pronouns = system.pronoun_set()
        self._pools: dict[Any, Pool] = {}
        self._amongs: dict[int, tuple] = {}  # the memo's lists drawn among (see _among)
        self._idsets: dict[Any, set[int]] = {}
        self._texts: tuple[dict, dict] = ({}, {})  # resolved text memo: male, female
        self._fills: dict[tuple, tuple | None] = {}  # texts with words, resolved but for them
        self._rules: dict[int, tuple[dict, Rule]] = {}
        self._option_facts: dict[tuple[str, str], str | None] = {}
        self._steering: Steering | None = None
        self._steered: frozenset = frozenset()  # (set by steering())
        self._loaded = tables._loaded  # the tables loaded so far, looked up on the hot path
        self._reserved: frozenset = frozenset()  # names of pinned entries (set by steering())
        self._pinban: frozenset | None = None  # what pinned entries exclude (None: not built)

    def start(self, seed: int, index: int) -> None:
        """Ready the context for the character of this seed (and place in the batch)."""
        self.index = index
        self.name_space = None  # a naming step may name its space (see UniqueNames)
        self.reseed(seed)
        self.historik = []
        self.facts = {}
        self.drawn = set()
        self.banned = set()
        self.drawn_rows = []

    def reseed(self, seed: int) -> None:
        """The character's seed, and what every step's stream starts from (see begin)."""
        self.seed = seed
        self._bases = ((seed & BODY_MASK) * _GOLDEN, seed * _GOLDEN)

    def begin(self, step: Any) -> None:
        """Ready the context for a step: its id in the historik, its stream in `rng`,
        `seeds.step_state(seed, salt of the step, variant, step.naming)` (inline: this
        runs once a step of every member of a batch)."""
        self.step = step.id
        self.rng.state = (self._bases[step.naming] + self._offset(step.id)) & _MASK64

    def _offset(self, step_id: str) -> int:
        """What a step's stream adds to the seed's base: its salt and its variant."""
        return self._salts[step_id] + self.variants.get(step_id, 0) * _VARIANT

    def compile(self, steps: Any) -> tuple:
        """`steps` ready for `walk`: each step's id, function, which seed bits its stream
        starts from and its `_offset` (what `begin` works out each time), once per
        batch. Build it after `variants` are set."""
        return tuple((s.id, s.run, 1 if s.naming else 0, self._offset(s.id)) for s in steps)

    def walk(self, char: dict, compiled: tuple) -> None:
        """Run compiled steps (`compile`) for the character: what `begin` then each
        step's function do, inline (this runs for every member of a batch)."""
        bases, rng = self._bases, self.rng
        for sid, run, whole, salt in compiled:
            self.step = sid
            rng.state = (bases[whole] + salt) & _MASK64
            run(char, self)

    def memo(self, key: Any, build: Callable[..., Any], *args: Any) -> Any:
        """What `build(*args)` gives, worked out once per batch under `key`.

        It must depend only on the tables, the options and the key, never on a member,
        so that a member made alone gets what the batch gave it (tests/test_batch.py).
        A dict or list it gives, each dict or list value of a dict it gives (a
        template's plan: its gear, its skill names) and each dict or list item of a
        tuple it gives is shared by every member that takes it into its character, and
        encoded once (chargen.encode.Lines): never change it. (Being known as shared
        also lets a list of rows be drawn among with a memoised pool, `_among_pool`.)"""
        found = self.cache.get(key, _NOTHING)
        if found is not _NOTHING:
            return found
        found = self.cache[key] = build(*args)
        kind = type(found)
        constants = self.constants
        if kind is dict or kind is list:
            constants[id(found)] = [found, None]
        if kind is dict or kind is tuple:
            for value in found.values() if kind is dict else found:
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
        tab = self._loaded.get(table) or self.tables[table]
        settings = tab.settings
        return settings[key] if key in settings else tab.setting(key)

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
            # both open unless a pinned choice bears on gender (steering() says which)
            pinned = self._steering is None or "gender" in self._steered
            open_ = self.open_values("gender", GENDERS) if pinned else GENDERS
            if len(open_) == 1:
                gender = open_[0]
            else:  # both open (or neither: the draw that cannot be made reports it)
                stream = self._gender_stream
                # step_state(self.seed, its salt), inline: once a member
                stream.state = (self._bases[0] + self._salts["gender"]) & _MASK64
                gender = "female" if stream.random() < 0.5 else "male"
            self.facts["gender"] = gender
        return gender

    def steering(self) -> Steering:
        """The pinned choices of this batch (built once; exit 2 when they cannot hold)."""
        if self._steering is None:
            self._steering = Steering(self)
            self._reserved, self._pinban = self._steering.reserved, self._steering.banned
            # the facts a draw must keep possible for the pins: none without pins
            self._steered = frozenset(self._steering.relevant if self._steering.pins else ())
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
            return self._among_pool(tab, among)
        return self._memo_pool(tab)[1]

    def _among_pool(self, tab: Table, among: list[dict]) -> Pool:
        """The rows of `among` that fit now, as a Pool. A list the batch's memo made
        (so it lives as long as the batch) whose rows are all the table's is memoised
        like the whole table's pool, by what decides which of its rows fit."""
        known = self._amongs.get(id(among))
        if known is None or known[0] is not among or known[1] is not tab:
            known = self._among(tab, among)
            if known is None:
                return Pool(self._fitting(tab, among))
        head = known[2]
        if head is None:  # a row of the list is not the table's
            return Pool(self._fitting(tab, among))
        key = self._fit_key(tab.compiled, head) or head  # (head alone: all fit)
        pool = self._pools.get(key)
        if pool is None:
            pool = Pool(self._fitting(tab, among))
            if len(self._pools) < _POOL_MEMO:
                self._pools[key] = pool
        return pool

    def _among(self, tab: Table, among: list[dict]) -> tuple | None:
        """For a list the memo made: (the list, the table, the head of its pools' keys,
        None when a row of it is not the table's), kept once per list and table; None
        for any other list (it may not live as long as the batch)."""
        ident = id(among)
        found = self.constants.get(ident)
        if found is None or found[0] is not among:
            return None
        index = tab.compiled.index
        head = (tab.name, ident) if all(id(e) in index for e in among) else None
        known = self._amongs[ident] = (among, tab, head)
        return known

    def _fit_key(self, compiled: Any, head: tuple) -> tuple | None:
        """`head` and what decides which rows of a table (its `Compiled`) fit now: the
        facts its rows are conditioned on, the drawn names they require or exclude,
        the bans on them; None when every row fits."""
        # (a frozenset & a set is a frozenset: the key's own, with no copy)
        banned = self.banned and compiled.answers & self.banned  # what bans one of its rows
        if not (compiled.conditioned or banned or self._pin_bans()):
            return None
        if compiled.gendered and "gender" not in self.facts:
            self.gender()
        facts = compiled.facts
        if not facts:
            key = head
        elif len(facts) == 1:
            key = (*head, self.facts.get(facts[0], MISSING))
        else:
            key = (*head, *map(self.facts.get, facts, compiled.missing))
        if not compiled.plain:  # (a table without conditions is plain)
            key += (compiled.watch & self.drawn,)
        if banned:
            key += (banned,)
        return key

    def _memo_pool(self, tab: Table) -> tuple[Any, Pool]:
        key = self._fit_key(tab.compiled, (tab.name,))
        if key is None:
            return None, tab._pool  # every row fits: the table's own pool
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
        if type(table) is str:
            tab = (self._loaded.get(table) or self.tables[table]) if table else None
        else:
            tab = table
        if tab is not None:
            marks = tab.compiled.marks.get(id(entry))
            name = tab.name
        else:
            marks, name = None, ""
        if marks is None:  # not a row of the table
            rule = self._rule(entry)
            marks = entry_names(entry), rule.excludes if rule is not None else None
        names, excludes = marks
        if names:
            self.drawn.update(names)
        if excludes:
            self.banned.update(excludes)
        if self.keep_rows:
            self.drawn_rows.append((name, entry))

    def pick(self, table: str, among: list[dict] | None = None) -> dict:
        """One weighted random row that fits (noted)."""
        tab = self._loaded.get(table) or self.tables[table]
        pool = self._memo_pool(tab)[1] if among is None else self._among_pool(tab, among)
        if not pool.entries:
            raise self._none_fit(tab)
        entry = pool.pick(self.rng)
        self.note(entry, tab)
        return entry

    def draw(
        self, table: str, count: int, among: list[dict] | None = None, exclude: tuple = ()
    ) -> list[dict]:
        """`count` different rows that fit, by weight; each is checked beside the ones
        drawn before it (noted)."""
        tab = self._loaded.get(table) or self.tables[table]
        if not exclude:
            return self._draw(tab, count, among)
        return self._draw(tab, count, list(tab.entries if among is None else among), exclude)

    def _draw(
        self, tab: Table, count: int, pool: list[dict] | None, exclude: tuple = ()
    ) -> list[dict]:
        """`count` rows of `pool` (None: the whole table, whose rows that fit are
        memoised as `pool(tab)` gives them) that fit, each beside the ones before it."""
        if exclude:
            pool = [e for e in pool if e.get("id") not in exclude and e not in exclude]
        drawn: list[dict] = []
        # Without requires/excludes in the table, one draw cannot change what fits:
        # filter once and take each drawn row out; otherwise filter before each pick.
        steady = tab.compiled.plain
        chooser = self._memo_pool(tab)[1] if pool is None else self._among_pool(tab, pool)
        if steady:
            picked = chooser.pick_many(self.rng, count)
            if picked is not None:
                for entry in picked:
                    self.note(entry, tab)
                return picked
        for _ in range(count):
            if drawn and not steady:
                chooser = self._memo_pool(tab)[1] if pool is None else self._among_pool(tab, pool)
            if len(chooser.entries) - (len(chooser.left(drawn)) if drawn else 0) <= 0:
                raise ChargenError(
                    f"table {tab.name} ({tab.path}) has {len(drawn)} entries that fit "
                    f"this character to draw from, not the {count} asked for"
                )
            # from the rows that fit, their weights summed, but those drawn already
            entry = chooser.pick_without(self.rng, drawn) if drawn else chooser.pick(self.rng)
            self.note(entry, tab)
            drawn.append(entry)
        return drawn

    # -- text --------------------------------------------------------------
    def text(self, value: Any, **extra: Any) -> Any:
        """Text for the reader: {male, female} by the character's gender, placeholders
        ({han/hon}, {han}, declared words from `extra`) filled."""
        kind = type(value)
        if kind is str:
            if "{" not in value and "}" not in value:
                return value
            key: Any = value
        elif kind is dict and len(value) == 2:  # a {male, female} pair (is_gendered)
            key = (value.get("male"), value.get("female"))
            if not (isinstance(key[0], str) and isinstance(key[1], str)):
                return value
        else:
            return value
        gender = self.facts.get("gender") or self.gender()
        if extra:
            return self._filled(value, key, gender, extra)
        texts = self._texts[gender == "female"]
        text = texts.get(key)
        if text is None:
            text = resolve_text(value, gender, self._pronouns)
            if len(texts) < _POOL_MEMO:
                texts[key] = text
        return text

    def _filled(self, value: Any, key: Any, gender: str, extra: dict) -> str:
        """`value` with `extra`'s words filled: the rest of it resolved once per text,
        gender and set of words (conditions.filler), the words joined in."""
        fills = self._fills
        key = (key, gender, *extra)
        pieces = fills.get(key, _NOTHING)
        if pieces is _NOTHING:
            pieces = filler(value, gender, self._pronouns, extra)
            if len(fills) < _POOL_MEMO:
                fills[key] = pieces
        if pieces is None:
            return resolve_text(value, gender, self._pronouns, extra)
        return fill(pieces, extra)

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
        tab = self._loaded.get(table) or self.tables[table]
        fact = fact or self._fact_for(option, table)
        wanted = self.options.get(option) if "-" not in option else self.option(option)
        if wanted is not None and isinstance(wanted, list | tuple):
            wanted = wanted[0] if wanted else None
        if (
            wanted is None
            and self.prompter is None
            and tab.die is None
            and (fact is None or fact not in self._steered)
        ):  # the usual case, at the cost of one pick: the dice choose among what fits
            pool = self._memo_pool(tab)[1] if allowed is None else self._among_pool(tab, allowed)
            if pool.entries:
                entry = pool.pick(self.rng)
                if fact:
                    self.facts[fact] = entry["id"]
                self.note(entry, tab)
                if self.kind == "pc":
                    self.log(choice=option, id=entry["id"], name=self._name(entry), by="random")
                return entry
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
            if not steer and tab.die is None:  # the table's own pool, or a memoised one
                chooser = (
                    self._memo_pool(tab)[1] if allowed is None else self._among_pool(tab, allowed)
                )
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
            chosen = self._asked_many(option, tab, self._fitting(tab, pool), count, span)
            if chosen is None:  # an empty answer: the dice decide, and the prompter says what
                chosen = self._draw(tab, count, None if allowed is None else pool)
                self.prompter.drawn(chosen)
                how = "random"
            else:
                self.options[option.replace("-", "_")] = [e["id"] for e in chosen]
                for entry in chosen:
                    self.note(entry, tab)
                how = "prompt"
        else:
            chosen = self._draw(tab, count, None if allowed is None else pool)
            how = "random"
        for entry in chosen:
            if self.kind == "pc":
                self.log(choice=option, id=entry["id"], name=self._name(entry), by=how)
        return chosen

    def _asked_many(
        self, option: str, tab: Table, pool: list[dict], count: int, span: Any
    ) -> list[dict] | None:
        """The prompt's several choices, asked again (with the reason) while two of them
        exclude each other (Jättelik beside Liten och spenslig)."""
        for _ in range(5):  # as many tries as the prompter's own (chargen.prompts.TRIES)
            chosen = self.prompter.choose_many(option, tab, pool, count, self.rng, span)
            clash = _clash(chosen or [], self._rule)
            if clash is None:
                return chosen
            a, b = (self._name(e) for e in clash)
            self.prompter.refuse("clash", first=a, second=b, answer=f"{a}, {b}")
        raise ChargenError(self.labels.prompt("tries", what=self.labels(option)))

    def roll_or_choose(self, option: str, table: str) -> dict:
        """A row of a roll table: at `--interactive` the player's choice among the rows
        that fit (an empty answer: the dice), else the roll (`roll_table`)."""
        if self.prompter is None:
            return self.roll_table(table)[0]
        entry = self.choose(option, table)
        tab = self.tables[table]
        return self.resolved(entry, tab) if id(entry) in tab.varying else entry

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
                shown = (
                    self.labels.word("yes" if value else "no")
                    if value is True or value is False
                    else value
                )
                self.prompter.say("  " + self.labels.prompt("default", value=shown))
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
        fixed = draw if isinstance(draw, bool) else None  # a default, not a roll
        value, how = self._answer(
            option, lambda: self.prompter.yes_no(self.labels(option), fixed), draw
        )
        value = bool(value)
        self._asked(option, value, how)
        return value

    def ask_spread(
        self, keep: str, drawn: dict[str, int], low: int, high: int, budget: int
    ) -> dict[str, int]:
        """Points spread over named values (each from `low` to `high`, `budget` above
        `low` in all): at `--interactive` the player sees the drawn spread and keeps it
        (the yes/no question `keep`), or gives each value in turn, within what leaves
        the rest of the budget spendable (an empty answer keeps the drawn value where
        it still fits). Without a prompter the draw is the spread."""
        if self.prompter is None:
            return drawn
        L = self.labels
        self.prompter.drawn(", ".join(f"{L(k)} {v}" for k, v in drawn.items()))
        if self.ask_yes_no(keep, True):
            return drawn
        room, left, keys = high - low, budget, list(drawn)
        values = {}
        for index, key in enumerate(keys):
            rest = len(keys) - index - 1
            least, most = low + max(0, left - room * rest), low + min(room, left)
            if least == most:  # the budget leaves this value no choice
                value = least
            else:
                value = self.ask_number(key, least, most, min(max(drawn[key], least), most))
            values[key] = value
            left -= value - low
        return values

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
        check: Callable[[list], str] | None = None,
    ) -> list:
        """Accept or edit a drawn list (keep some of it, add from `pool`) at the prompt;
        without a prompter the drawn list as it is. `check(kept)` says, in the game's
        language, why an edited list cannot be taken ('' when it can): asked again."""
        show = show or _shown
        if self.prompter is None:
            self._asked(option, [show(v) for v in drawn], "random")
            return list(drawn)
        kept = self.prompter.edit_list(self.labels(option), drawn, pool or [], show, check)
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
