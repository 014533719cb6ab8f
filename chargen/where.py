"""`--where EXPR`: a condition on a character's JSON, parsed by hand, never evaluated
as Python.

The grammar (README, "Only some characters"), loosest first:

    expr       := and ("or" and)*
    and        := not ("and" not)*
    not        := "not" not | quantified
    quantified := ("any" | "all") comparison | comparison
    comparison := operand (("==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not" "in") operand)?
    operand    := path | number | string | dice | "true" | "false" | "null" | "(" expr ")"
    path       := name ("." (name | "*"))*        e.g. grundegenskaper.psyke, utrustning.namn

A path reads the character's JSON: a dict by its key, a list element by element (so
`utrustning.namn` is every item's name), `*` every value of a dict or list. A path
with several values is a list; `any` / `all` before a comparison ask whether some /
every value of its paths makes it hold (`any bakgrunder == "munk"`, `all
alaptulajdonsagok.* >= d6`). `X in Y` asks whether Y (a list, a dict's keys, a text)
holds X. A drawn row (a dict with an `id`) equals its id: `"munk" in bakgrunder`. Dice (`d4` ... `d12`, `d12+1`) compare by size with each other and with
die strings in the character. Numbers, texts and dice compare with their own kind;
an ordering across kinds, or with a missing value, is false. A comparison without an
operator holds when its value is true, a number not 0, a text or list not empty.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from chargen.errors import ChargenError

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<number>-?\d+(?![\w.]))
      | (?P<string>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
      | (?P<op>==|!=|<=|>=|<|>|\(|\)|=)
      | (?P<word>[A-Za-z_][\w+]*(?:\.(?:[A-Za-z_0-9][\w]*|\*))*)
    )""",
    re.VERBOSE,
)
_DIE = re.compile(r"^d(\d+)(?:\+(\d+))?$")
KEYWORDS = {"and", "or", "not", "in", "any", "all", "true", "false", "null"}
MISSING = object()  # a path the character does not have
MAX_LENGTH = 2_000


class Token(NamedTuple):
    kind: str  # number, string, op, word, end
    text: str
    at: int


class Die(NamedTuple):
    """A die by its size: d8 < d10 < d12 < d12+1."""

    sides: int
    plus: int = 0

    def __str__(self) -> str:
        return f"d{self.sides}" + (f"+{self.plus}" if self.plus else "")


def die(value: Any) -> Die | None:
    if isinstance(value, Die):
        return value
    if isinstance(value, str):
        found = _DIE.match(value)
        if found:
            return Die(int(found.group(1)), int(found.group(2) or 0))
    return None


def tokens(text: str) -> list[Token]:
    if len(text) > MAX_LENGTH:
        raise ChargenError(f"--where is longer than {MAX_LENGTH:,} characters")
    out, at = [], 0
    while at < len(text):
        if text[at:].strip() == "":
            break
        found = _TOKEN.match(text, at)
        if not found or found.end() == at:
            raise ChargenError(f"--where: cannot read {text[at:].strip()[:20]!r} (at {at + 1})")
        kind = found.lastgroup or "word"
        out.append(Token(kind, found.group(kind), found.start(kind)))
        at = found.end()
    out.append(Token("end", "", len(text)))
    return out


# A node is a function of the character: a value (operands) or a truth (conditions).
Node = Callable[[dict], Any]


class Condition(NamedTuple):
    """A parsed --where: `holds(char)`; `paths` the paths it reads."""

    text: str
    holds: Callable[[dict], bool]
    paths: tuple[tuple[str, ...], ...]
    # (path, text) of each `PATH == "text"`, `"text" in PATH` and their mirrors: what
    # `unmet` says of when no character matched
    literals: tuple[tuple[tuple[str, ...], str], ...] = ()


MAX_DEPTH = 50  # parentheses and nots within each other (a deeper one is no question)


def parse(text: str) -> Condition:
    parser = _Parser(text)
    if _depth(text) > MAX_DEPTH:
        parser.fail(f"more than {MAX_DEPTH} parentheses within each other")
    node = parser.expr()
    if parser.peek().kind != "end":
        parser.fail(f"unexpected {parser.peek().text!r}")
    return Condition(
        text, lambda char: _truth(node(char)), tuple(parser.paths), tuple(parser.literals)
    )


def _depth(text: str) -> int:
    """The deepest nesting of parentheses in `text` (quoted ones too: a bound, not a parse)."""
    depth = deepest = 0
    for char in text:
        if char == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif char == ")":
            depth -= 1
    return deepest


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.items = tokens(text)
        self.at = 0
        self.paths: list[tuple[str, ...]] = []
        self.literals: list[tuple[tuple[str, ...], str]] = []
        self.quantifier: list[list[Node]] | None = None  # the paths a quantifier spans

    def peek(self) -> Token:
        return self.items[self.at]

    def take(self) -> Token:
        token = self.items[self.at]
        self.at += 1
        return token

    def word(self, *words: str) -> bool:
        token = self.peek()
        if token.kind == "word" and token.text in words:
            self.at += 1
            return True
        return False

    def fail(self, why: str) -> None:
        token = self.peek()
        where = f"at {token.at + 1}" if token.kind != "end" else "at the end"
        raise ChargenError(f"--where {self.text!r}: {why} ({where})")

    def expr(self) -> Node:
        left = self.conjunction()
        while self.word("or"):
            right = self.conjunction()
            # both sides always read, so that a mistake in either is said (see _one_value)
            left = (lambda a, b: lambda c: _truth(a(c)) | _truth(b(c)))(left, right)
        return left

    def conjunction(self) -> Node:
        left = self.negation()
        while self.word("and"):
            right = self.negation()
            left = (lambda a, b: lambda c: _truth(a(c)) & _truth(b(c)))(left, right)
        return left

    def negation(self) -> Node:
        if self.word("not"):
            inner = self.negation()
            return lambda c: not _truth(inner(c))
        return self.quantified()

    def quantified(self) -> Node:
        token = self.peek()
        if token.kind == "word" and token.text in ("any", "all"):
            self.at += 1
            outer, self.quantifier = self.quantifier, []
            test = self.comparison(quantified=True)
            spans, self.quantifier = self.quantifier, outer
            if not spans:
                self.fail(f"'{token.text}' needs a path in the comparison after it")
            return _quantify(token.text == "all", test, spans)
        return self.comparison()

    def comparison(self, quantified: bool = False) -> Node:
        first = self.peek().at
        left_token = self.peek()
        left = self.operand(quantified)
        token = self.peek()
        if token.kind == "op" and token.text in ("==", "!=", "<", "<=", ">", ">="):
            self.at += 1
            right_token = self.peek()
            right = self.operand(quantified)
            if token.text == "==":
                self._note_literal(left_token, right_token)
            return _compare(token.text, left, right, None if quantified else self._written(first))
        if token.kind == "op" and token.text == "=":
            self.fail("'=' is no comparison: write '=='")
        if self.word("in") or (
            token.kind == "word" and token.text == "not" and self._next_is("in")
        ):
            negated = token.text == "not"
            self.at += 2 if negated else 0
            right_token = self.peek()
            right = self.operand(quantified)
            if not negated:
                self._note_literal(left_token, right_token)
            text = None if quantified else self._written(first)

            def member(c: dict) -> bool:
                item = left(c)
                if text is not None and isinstance(item, list):  # the item is several
                    _one_value(item, "in", text)
                return _contains(right(c), item) is not negated

            return member
        return left

    def _note_literal(self, one: Token, other: Token) -> None:
        """Note a path compared with a string, for `unmet` (a side that is more than
        one token, a parenthesis, is no plain path or string)."""
        for a, b in ((one, other), (other, one)):
            if a.kind == "string" and b.kind == "word" and self._plain_path(b):
                self.literals.append((tuple(b.text.split(".")), _unquoted(a.text)))

    @staticmethod
    def _plain_path(token: Token) -> bool:
        """A word `operand` reads as a path: no keyword or constant, no die."""
        return token.text not in KEYWORDS and die(token.text) is None

    def _written(self, start: int) -> str:
        """The condition's text from `start` to where the parser is (for a message)."""
        end = self.peek().at if self.peek().kind != "end" else len(self.text)
        return " ".join(self.text[start:end].split())

    def _next_is(self, word: str) -> bool:
        nxt = self.items[self.at + 1] if self.at + 1 < len(self.items) else None
        return nxt is not None and nxt.kind == "word" and nxt.text == word

    def operand(self, quantified: bool = False) -> Node:
        token = self.take()
        if token.kind == "number":
            value: Any = int(token.text)
            return lambda c: value
        if token.kind == "string":
            text = _unquoted(token.text)
            return lambda c: text
        if token.kind == "op" and token.text == "(":
            inner = self.expr()
            if not (self.peek().kind == "op" and self.peek().text == ")"):
                self.fail("a '(' is not closed")
            self.at += 1
            return inner
        if token.kind == "word":
            if token.text in ("true", "false", "null"):
                constant = {"true": True, "false": False, "null": None}[token.text]
                return lambda c: constant
            if die(token.text) is not None:
                sized = die(token.text)
                return lambda c: sized
            if token.text in KEYWORDS:
                self.at -= 1
                self.fail(f"'{token.text}' where a value or path belongs")
            return self.path(token)
        self.at -= 1
        self.fail("a value or path belongs here" if token.kind != "end" else "unfinished")
        raise AssertionError  # (fail raises)

    def path(self, token: Token) -> Node:
        parts = tuple(token.text.split("."))
        if any(p != "*" and not re.match(r"^[a-z0-9_]+$", p) for p in parts):
            self.at -= 1
            self.fail(f"'{token.text}' is no path (keys are lower-case slugs: a.b.c)")
        self.paths.append(parts)

        def read(char: dict) -> Any:
            return resolve(char, parts)

        if self.quantifier is not None:
            box: list[Any] = [MISSING]  # the value a quantifier puts in place
            slot = _Slot(read, box)
            self.quantifier.append(slot)  # type: ignore[arg-type]
            return slot.current
        return read


class _Slot:
    """A path under a quantifier: `values(char)` are its values, one at a time in `box`."""

    def __init__(self, read: Node, box: list[Any]) -> None:
        self.read, self.box = read, box

    def values(self, char: dict) -> list[Any]:
        value = self.read(char)
        if value is MISSING:
            return []
        if isinstance(value, dict):
            return list(value.values())
        return list(value) if isinstance(value, list) else [value]

    def current(self, char: dict) -> Any:
        return self.box[0]


def _quantify(every: bool, test: Node, slots: list) -> Node:
    def holds(char: dict) -> bool:
        choices = [slot.values(char) for slot in slots]
        return _each(0, choices, slots, test, char, every)

    return holds


def _each(i: int, choices: list, slots: list, test: Node, char: dict, every: bool) -> bool:
    if i == len(slots):
        return _truth(test(char))
    if not choices[i]:
        return every  # no values: all of none holds, any of none does not
    for value in choices[i]:
        slots[i].box[0] = value
        if _each(i + 1, choices, slots, test, char, every) != every:
            return not every
    return every


def resolve(char: Any, parts: tuple[str, ...]) -> Any:
    """The value at a path (a list where it goes through lists), or MISSING."""
    value = char
    for n, part in enumerate(parts):
        if isinstance(value, list):
            found = [resolve(v, parts[n:]) for v in value]
            flat = []
            for item in found:
                if item is MISSING:
                    continue
                flat += item if isinstance(item, list) and parts[n:] else [item]
            return flat if any(f is not MISSING for f in found) else MISSING
        if part == "*":
            if isinstance(value, dict):
                value = list(value.values())
                if n + 1 < len(parts):
                    return resolve(value, parts[n + 1 :])
                return value
            return MISSING
        if not isinstance(value, dict) or part not in value:
            return MISSING
        value = value[part]
    return value


def _truth(value: Any) -> bool:
    if value is MISSING or value is None:
        return False
    if isinstance(value, Die):
        return True
    return bool(value)


def _key(value: Any) -> tuple[int, Any] | None:
    """A value as something to order: (kind, value); None when it has no order."""
    if isinstance(value, bool) or value is None or value is MISSING:
        return None
    if isinstance(value, int | float):
        return (0, value)
    sized = die(value)
    if sized is not None:
        return (1, sized)
    if isinstance(value, str):
        return (2, value)
    return None


def _same(a: Any, b: Any) -> bool:
    if a is MISSING or b is MISSING:
        return False
    da, db = die(a), die(b)
    if da is not None and db is not None:
        return da == db
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, dict) and isinstance(b, str):  # a drawn row is its id
        return a.get("id") == b
    if isinstance(b, dict) and isinstance(a, str):
        return b.get("id") == a
    return a == b


def _compare(op: str, left: Node, right: Node, text: str | None = None) -> Node:
    """`left OP right`; `text` (the comparison as written, None under a quantifier)
    makes a side with several values an error that says how to ask, not a quiet false."""

    def holds(char: dict) -> bool:
        a, b = left(char), right(char)
        if text is not None:
            _one_value(a, op, text)
            _one_value(b, op, text)
        if op == "==":
            return _same(a, b)
        if op == "!=":
            return a is not MISSING and b is not MISSING and not _same(a, b)
        ka, kb = _key(a), _key(b)
        if ka is None or kb is None or ka[0] != kb[0]:
            return False
        if op == "<":
            return ka[1] < kb[1]
        if op == "<=":
            return ka[1] <= kb[1]
        if op == ">":
            return ka[1] > kb[1]
        return ka[1] >= kb[1]

    return holds


def _one_value(value: Any, op: str, text: str) -> None:
    """A side of a comparison that is no one value: exit 2 with how to ask instead."""
    if isinstance(value, list):
        raise ChargenError(
            f"--where: in '{text}' a side is several values (a list, here of {len(value)}, "
            f"or a path through one): ask 'any {text}' (one of them) or 'all {text}' (every one); "
            "'X in PATH' asks whether a list holds X"
        )
    if isinstance(value, dict) and op not in ("==", "!="):  # (a drawn row == its id)
        raise ChargenError(
            f"--where: in '{text}' a side is a group of values (a dict): name one of its "
            "keys (PATH.KEY) or ask any/all over PATH.*"
        )


def _contains(container: Any, item: Any) -> bool:
    if container is MISSING or item is MISSING:
        return False
    if isinstance(container, list):
        return any(_same(v, item) for v in container)
    if isinstance(container, dict):
        return isinstance(item, str) and item in container
    if isinstance(container, str) and isinstance(item, str):
        return item in container
    return False


def known(paths: tuple[tuple[str, ...], ...], fields: set[str]) -> None:
    """Every path starts with a field the characters have (else exit 2 naming them)."""
    for parts in paths:
        if parts[0] not in fields:
            raise ChargenError(
                f"--where: no character has '{parts[0]}'; the fields are: "
                + ", ".join(sorted(fields))
            )


def unreached(paths: tuple[tuple[str, ...], ...], seen: list[dict]) -> str | None:
    """A path no character of `seen` had, with the keys there are where it stops."""
    for parts in paths:
        if all(resolve(c, parts) is MISSING for c in seen):
            for n in range(1, len(parts)):
                keys: set[str] = set()
                plain: list[Any] = []  # what is there instead of fields to go into
                for char in seen:
                    for value in _as_list(resolve(char, parts[:n])):
                        if isinstance(value, dict):
                            keys |= set(value)
                        else:
                            plain.append(value)
                head = ".".join(parts[:n])
                if parts[n] != "*" and keys and parts[n] not in keys:
                    return (
                        f"--where: no character has '{'.'.join(parts)}'; {head} has: "
                        + ", ".join(sorted(keys))
                    )
                if not keys and plain:
                    import json  # (only for this message)

                    kinds = sorted({_KINDS.get(type(v), "a value") for v in plain})
                    shown = _some(dict.fromkeys(json.dumps(v, ensure_ascii=False) for v in plain))
                    return (
                        f"--where: '{'.'.join(parts)}' goes into {head}, which is "
                        f"{' or '.join(kinds)} ({shown}), not fields: "
                        f"compare {head} itself"
                    )
    return None


def held_without(why: str, tried: int) -> str:
    """`unreached`'s message as a note where the condition matched all the same (under
    `all` or `not` a path no character has holds: a typo, most likely)."""
    some = (
        f"none of the {tried:,} characters tried has"
        if tried > 1
        else "the one character tried has no"
    )
    return why.replace("no character has", some, 1) + "; the condition held without it"


# what a value at a path is, said to a user who went into it as if it had fields
_KINDS = {int: "a number", float: "a number", str: "a text", bool: "yes or no"}


def _some(texts: Iterable[str], limit: int = 60) -> str:
    """The first of `texts` that fit in about `limit` characters, then "..." if more."""
    kept: list[str] = []
    for text in texts:
        if kept and len(", ".join([*kept, text])) > limit:
            return ", ".join(kept) + ", ..."
        kept.append(text)
    return ", ".join(kept)


def _unquoted(token: str) -> str:
    """A string token's text, its quotes and backslashes taken off."""
    return re.sub(r"\\(.)", r"\1", token[1:-1])


SHOWN_VALUES = 12  # values `unmet` lists; a field with more is too varied to list


def unmet(literals: tuple[tuple[tuple[str, ...], str], ...], seen: list[dict]) -> str:
    """What the characters of `seen` had where the condition asks for a text none of
    them had ("kon was "kvinna" or "man", never "female""), when those are few; "" if
    there is nothing to say. It says what was tried, not what cannot be: a rare text
    may simply not have come up."""
    said = []
    for parts, text in literals:
        values: set[str] = set()
        texts_only = True  # numbers or groups there: no list of texts to show
        for char in seen:
            for value in _as_list(resolve(char, parts)):
                for one in value if isinstance(value, list) else [value]:
                    if isinstance(one, str):
                        values.add(one)
                    elif one is not None:
                        texts_only = False
        if not (texts_only and values) or text in values or len(values) > SHOWN_VALUES:
            continue
        shown = sorted(values)
        either = ", ".join(f'"{v}"' for v in shown[:-1])
        either = f'{either} or "{shown[-1]}"' if either else f'"{shown[-1]}"'
        said.append(f'{".".join(parts)} was {either}, never "{text}"')
    if not said:
        return ""
    return f"; in the first {len(seen):,} tried, " + "; ".join(dict.fromkeys(said))


def _as_list(value: Any) -> list:
    if value is MISSING:
        return []
    return value if isinstance(value, list) else [value]
