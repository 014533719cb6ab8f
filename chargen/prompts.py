"""`--interactive`: ask on the terminal (stderr and stdin), in the game's language.

Every kind of question a creation procedure has: one of a list, several of a list,
a number in a range, yes or no, free text with a suggestion, and accepting or
editing a drawn list. Each method returns the answer, or None for an empty answer
(the caller then draws at random and calls `drawn` to say what the dice gave). At a
choice from a list, the game's word for "again" (`[words] again`) rolls for the
player and shows the result, to keep (empty) or roll again.
Every word comes from the pack's labels file (`[prompts]`, `[words]`). A closed
stdin (Ctrl-D) is a ChargenError: exit 2 with one line.

Every line answered and taken is kept (`Prompter.heard`; a refused one changed
nothing): a character's recipe names them (`--answers`), and `replay` asks the same
questions again without a terminal and answers them so, which makes the same
character; there an answer a question refuses is an error, with no one to ask again.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

from chargen.conditions import entry_names
from chargen.details import entry_details
from chargen.errors import ChargenError
from chargen.labels import NAME_KEYS, Labels
from chargen.render import wrap
from chargen.slugs import normalize, unbroken

TRIES = 5
MAX_AGAIN = 1000  # "roll again" answers to one question at most


class PromptClosed(ChargenError):
    """stdin ended (Ctrl-D or a closed pipe) while a question was open."""


def entry_name(entry: dict, pack: Any = None) -> str:
    """An option's name; a roll table's row (a vice) reads as its result, its pronouns
    as "han/hon" (chargen.conditions.listed_text), never as its id."""
    for key in NAME_KEYS:
        value = entry.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, dict):
            return " / ".join(str(v) for v in value.values())
    if entry.get("result") is not None:
        from chargen.conditions import listed_text

        return listed_text(entry["result"], getattr(pack, "pronouns", None))
    return str(entry.get("id", ""))


def table_rows(table: Any) -> list[dict]:
    """A table's rows (none for what is not a table: a list a step made)."""
    return list(getattr(table, "entries", ()))


def _names(entry: dict) -> tuple:
    name = entry.get("name")
    if name is None and entry.get("result") is not None:  # a row of a roll table: its text
        name = entry["result"]
    return tuple(name.values()) if isinstance(name, dict) else (name,) if name else ()


def describe(entry: dict, table: Any = None, labels: Labels | None = None, pack: Any = None) -> str:
    """One option as a reader sees it: its name, then its description, rules text,
    effects and the table's own fields, labelled, ids shown by name."""
    name = entry_name(entry, pack if pack is not None else getattr(table, "pack", None))
    if table is None or labels is None:
        return name
    details = entry_details(entry, table, labels, pack)
    return f"{name}: {details}" if details else name


class Answers:
    """Answers given beforehand (a recipe's `--answers`), read as a terminal's lines:
    each in turn, then the terminal `then` (with --interactive), else empty answers
    (the dice decide, as an empty answer lets them)."""

    def __init__(self, answers: tuple[str, ...] | list[str], then: TextIO | None = None) -> None:
        self.left, self.then = list(answers), then
        self.total = len(self.left)
        self.given = False  # whether the last line read was one of `answers`

    def readline(self) -> str:
        self.given = bool(self.left)
        if self.left:
            return self.left.pop(0) + "\n"
        return self.then.readline() if self.then is not None else "\n"


class _Silent:
    """Where the questions of a replay go: nowhere."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def replay(
    answers: tuple[str, ...] | list[str],
    pack: Any,
    then: TextIO | None = None,
    stderr: TextIO | None = None,
    width: int = 80,
) -> Prompter:
    """A Prompter that answers with `answers` (a recipe's `--answers`), then asks the
    terminal `then` (with --interactive; its questions on `stderr`), else answers empty:
    the questions of the first run asked again and answered as they were."""
    quiet = then is None
    return Prompter(
        pack.labels,
        width,
        Answers(answers, then),
        _Silent() if quiet else stderr,
        pack,
        strict=quiet,  # no one to ask again: an answer refused is an error
    )


class Prompter:
    """Asks on stderr, reads stdin; `labels` give every word, `width` the line length.

    `heard` is every line answered and taken, in order (a refused one is left out, as
    it changed nothing): replayed through `Answers` (`--answers`, the recipe of a
    character made at the prompts), they make the same character again. A `strict`
    prompter (a replay with no terminal after its answers) refuses no answer quietly:
    it is a ChargenError saying why."""

    def __init__(
        self,
        labels: Labels | None = None,
        width: int = 80,
        stdin: Any = None,
        stderr: TextIO | None = None,
        pack: Any = None,
        strict: bool = False,
    ) -> None:
        self.labels = labels or Labels()
        self.width = max(width, 40)
        self.stdin = stdin
        self.stderr = stderr
        self.pack = pack
        self.heard: list[str] = []
        self.strict = strict
        self._question = ""  # the last question asked (for a strict refusal)

    def unused(self) -> tuple[int, list[str]]:
        """How many answers were given beforehand (`Answers`) and those no question
        read; none when only empty ones are left, which say no more than no answer."""
        left = getattr(self.stdin, "left", None) or []
        return getattr(self.stdin, "total", 0), list(left) if any(left) else []

    # -- terminal ------------------------------------------------------------------
    def say(self, text: str) -> None:
        err = self.stderr or sys.stderr
        err.write(text + "\n")
        err.flush()

    def ask(self, question: str) -> str:
        self._question = question
        err = self.stderr or sys.stderr
        lines = wrap(question, self.width - 1)
        for line in lines[:-1]:
            err.write(line + "\n")
        err.write(lines[-1] + " ")
        err.flush()
        stdin = self.stdin or sys.stdin
        line = stdin.readline()
        if getattr(stdin, "given", False):  # an answer given beforehand: shown as if typed
            err.write(line)
        if not line:
            err.write("\n")
            raise PromptClosed(self.labels.prompt("closed"), error_word=self.labels.word("error"))
        answer = line.strip()
        self.heard.append(answer)
        return answer

    def _retry(self, what: str) -> ChargenError:
        return ChargenError(
            self.labels.prompt("tries", what=what), error_word=self.labels.word("error")
        )

    def _invalid(self, answer: str, valid: str = "") -> None:
        """The answer is none of those the question takes: said in the pack's words
        (of the options shown above); in a replay, which shows none, `valid` says them."""
        if len(answer) > 60:  # a pasted page is not said back whole
            answer = answer[:57] + "..."
        if self.strict and valid:
            self.refused(f"'{answer}' is none of the answers the question takes ({valid})")
        else:
            self.refused(self.labels.prompt("invalid", answer=answer))

    @staticmethod
    def _choices(pool: list[dict]) -> str:
        ids = ", ".join(str(e.get("id", e.get("name"))) for e in pool)
        return f"1 to {len(pool)}, or one of {ids}"

    def show(self, what: str, lines: list[str]) -> None:
        self.say("")
        self.say(f"{what}:")
        for number, text in enumerate(lines, 1):
            lead = f"  {number:>2}) "
            for line in wrap(text, self.width, " " * len(lead), lead):
                self.say(line)

    def drawn(self, value: Any) -> None:
        """Say what the dice chose for an empty answer."""
        text = self.labels.prompt("drawn", value=self._shown(value))
        for line in wrap(text, self.width - 2):
            self.say("  " + line)

    def _shown(self, value: Any) -> str:
        if isinstance(value, dict):
            return entry_name(value, self.pack)
        if isinstance(value, list | tuple):
            return ", ".join(self._shown(v) for v in value)
        if isinstance(value, bool):
            return self.labels.word("yes" if value else "no")
        return str(value)

    # -- the kinds of question -------------------------------------------------------
    def _options(self, option: str, table: Any, pool: list[dict]) -> str:
        what = self.labels(option)
        pack = self.pack if self.pack is not None else getattr(table, "pack", None)
        self.show(what, [describe(e, table, self.labels, pack) for e in pool])
        return what

    @staticmethod
    def _resolve(answer: str, pool: list[dict]) -> dict | None:
        answer = answer.strip()
        if _whole(answer) and 1 <= int(answer) <= len(pool):
            return pool[int(answer) - 1]
        slug = normalize(answer)
        for entry in pool:
            if entry.get("id") == slug:
                return entry
        for entry in pool:
            if any(normalize(n) == slug for n in _names(entry)):
                return entry
        # word breaks aside ("gruv-arbetare"), as options take them, when one entry fits
        joined = unbroken(answer)
        close = [
            e for e in pool if any(unbroken(n) == joined for n in (e.get("id", ""), *_names(e)))
        ]
        return close[0] if len(close) == 1 and joined else None

    def again(self, answer: str) -> bool:
        """Whether the answer is the game's word for "roll again" (`[words] again`)."""
        word = self.labels.words.get("again")
        return bool(word) and answer.strip().casefold() == word.casefold()

    @staticmethod
    def _stream(rng: Any, n: int) -> Any:
        """The n-th "roll again" stream of a question: beside the step's own stream,
        which it leaves as it is (what the step draws after the question does not move)."""
        from chargen.seeds import Stream, salt

        base = rng.getstate() if isinstance(rng, Stream) else 0
        return Stream(base ^ salt(f"again {n}"))

    def choose(self, option: str, table: Any, pool: list[dict], rng: Any = None) -> dict | None:
        """One of a list: a number, an id or a name; empty for the dice. The word for
        "again" draws one and shows it; asked again, empty then keeps it (a choice like
        any other, so the recipe names it) and "again" draws once more."""
        from chargen.tables import Pool

        what = self._options(option, table, pool)
        drawn, rolls, invalid = None, 0, 0
        while invalid < TRIES and rolls < MAX_AGAIN:
            answer = self.ask(self.labels.prompt("one", what=what))
            if not answer:
                return drawn
            if self.again(answer):
                rolls += 1
                drawn = Pool(pool).pick(self._stream(rng, rolls))
                self.drawn(drawn)
                continue
            entry = self._resolve(answer, pool)
            if entry is not None:
                return entry
            # a row of the table by its id or name (not a number: those count the list
            # shown), ruled out for this character by its conditions
            ruled_out = None if _whole(answer.strip()) else self._resolve(answer, table_rows(table))
            if ruled_out is not None:
                shown = entry_name(ruled_out, getattr(table, "pack", None)) or answer
                self.refuse("unavailable", answer=shown)
            else:
                self._invalid(answer, self._choices(pool))
            invalid += 1
        raise self._retry(what)

    def choose_many(
        self,
        option: str,
        table: Any,
        pool: list[dict],
        count: int,
        rng: Any = None,
        span: tuple[int, int] | None = None,
    ) -> list[dict] | None:
        """Several of a list, comma-separated; how many is said; empty for the dice."""
        low, high = span or (count, count)
        how_many = (
            self.labels.prompt("count_exact", count=low)
            if low == high
            else self.labels.prompt("count_range", low=low, high=high)
        )
        what = self._options(option, table, pool)
        if option in self.labels.plurals:  # "Välj 1 till 2 Bakgrunder", not "2 Bakgrund"
            what = self.labels.plural(high, option)
        drawn, rolls, invalid = None, 0, 0
        while invalid < TRIES and rolls < MAX_AGAIN:
            answer = self.ask(self.labels.prompt("many", what=what, count=how_many))
            if not answer:
                return drawn
            if self.again(answer):  # as in `choose`: `count` drawn, shown, kept on empty
                from chargen.tables import Pool

                rolls += 1
                stream, whole = self._stream(rng, rolls), Pool(pool)
                drawn = []
                for _ in range(min(count, len(pool))):
                    drawn.append(whole.pick_without(stream, drawn))
                self.drawn(drawn)
                continue
            parts = [p.strip() for p in answer.replace(";", ",").split(",") if p.strip()]
            chosen = [self._resolve(p, pool) for p in parts]
            unknown = [p for p, e in zip(parts, chosen, strict=True) if e is None]
            if unknown:
                self._invalid(", ".join(unknown), self._choices(pool))
            elif len({id(e) for e in chosen}) != len(chosen):
                self.refuse("twice", answer=answer)
            elif not low <= len(chosen) <= high:  # "three Bakgrunder when two is the limit"
                self.refuse("count_wrong", count=how_many, given=len(chosen), what=what)
            else:
                pair = _clashing(chosen)  # type: ignore[arg-type]
                if pair is None:
                    return chosen  # type: ignore[return-value]
                self.refused(self.labels.prompt("clash", first=pair[0], second=pair[1]))
            invalid += 1  # a refused answer (said above why) counts as a try
        raise self._retry(what)

    def refused(self, reason: str) -> None:
        """Why the answer just heard cannot be taken, said before the question is asked
        again (a game's own reasons too). It is not the character's (see `heard`); with
        no one to ask again (`strict`), it is an error naming the question and why."""
        if self.heard:
            self.heard.pop()
        if self.strict:
            question = " ".join(self._question.split())
            raise ChargenError(
                f"--answers: {reason} (the answer to: {question})",
                error_word=self.labels.word("error"),
            )
        for line in wrap(reason, self.width - 2):
            self.say("  " + line)

    def refuse(self, key: str, **fill: Any) -> None:
        """A reason an answer is refused, in the pack's words (a pack without the key
        says the answer is none of the options)."""
        if key in self.labels.prompts:
            self.refused(self.labels.prompt(key, **fill))
        else:
            self._invalid(fill.get("answer", str(fill.get("given", ""))))

    def number(self, what: str, low: int, high: int) -> int | None:
        for _ in range(TRIES):
            answer = self.ask(self.labels.prompt("number", what=what, low=low, high=high))
            if not answer:
                return None
            text = answer.lstrip("+").replace("−", "-")
            if _whole(text.lstrip("-")) and low <= int(text) <= high:
                return int(text)
            self._invalid(answer, f"a whole number from {low} to {high}")
        raise self._retry(what)

    def yes_no(self, what: str, default: bool | None = None) -> bool | None:
        """Yes or no; `default` (when the empty answer is a fixed one, not the dice) is
        said in the question where the pack has `yes_no_default`."""
        yes, no = self.labels.word("yes").lower(), self.labels.word("no").lower()
        key = (
            "yes_no_default"
            if default is not None and "yes_no_default" in self.labels.prompts
            else "yes_no"
        )
        fill = {"what": what, "yes": yes, "no": no, "default": yes if default else no}
        for _ in range(TRIES):
            answer = self.ask(self.labels.prompt(key, **fill)).lower()
            if not answer:
                return None
            if yes.startswith(answer) and not no.startswith(answer):
                return True
            if no.startswith(answer) and not yes.startswith(answer):
                return False
            self._invalid(answer, f"{yes} or {no}")
        raise self._retry(what)

    def text(self, what: str, suggestion: Any) -> str | None:
        answer = self.ask(self.labels.prompt("text", what=what, suggestion=suggestion))
        return answer or None

    def edit_list(
        self,
        what: str,
        drawn: list,
        pool: list,
        show: Callable[[Any], str],
        check: Callable[[list], str] | None = None,
    ) -> list | None:
        """A drawn list: empty keeps it; else the numbers to keep, and +N to add
        option N of the pool (shown after the drawn items). `check(kept)` says why a
        list cannot be taken ('' when it can): the question is asked again."""
        self.show(what, [show(v) for v in drawn])
        if pool:
            self.say("  " + self.labels.prompt("edit_add"))
            for number, item in enumerate(pool, 1):
                lead = f"  +{number:<2}) "
                for line in wrap(show(item), self.width, " " * len(lead), lead):
                    self.say(line)
        for _ in range(TRIES):
            answer = self.ask(self.labels.prompt("edit_list", what=what))
            if not answer:
                return None
            kept: list = []
            ok = True
            for part in answer.replace(";", ",").replace(" ", ",").split(","):
                part = part.strip()
                if not part:
                    continue
                source = pool if part.startswith("+") else drawn
                digits = part.lstrip("+")
                if _whole(digits) and 1 <= int(digits) <= len(source):
                    item = source[int(digits) - 1]
                    if item not in kept:
                        kept.append(item)
                else:
                    ok = False
            if ok:
                reason = check(kept) if check is not None else ""
                if not reason:
                    return kept
                self.refused(reason)
                continue
            valid = f"the numbers 1 to {len(drawn)} of those to keep"
            self._invalid(answer, valid + (f", +1 to +{len(pool)} to add" if pool else ""))
        raise self._retry(what)


def _clashing(chosen: list[dict]) -> tuple[str, str] | None:
    """The names of two answers one of which excludes the other (ids or tags), if any."""
    for n, entry in enumerate(chosen):
        banned = set(entry.get("excludes") or ())
        for other in chosen[n + 1 :]:
            if banned & entry_names(other):
                return entry_name(entry), entry_name(other)
            if set(other.get("excludes") or ()) & entry_names(entry):
                return entry_name(other), entry_name(entry)
    return None


def _whole(text: str) -> bool:
    """A number the player typed in ASCII digits ("²" or "٣" is not one, and int() of
    "²" fails), at most nine of them."""
    return text.isascii() and text.isdigit() and len(text) <= 9
