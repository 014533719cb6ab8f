"""Conditions on table entries: compiled once, checked by the linter, and text by gender.

Any entry of a roll or definitions table may carry

* ``when = { fact = value | [values] }``: drawn only if every key matches;
* ``unless = { fact = value | [values] }``: never drawn if any key matches;
* ``requires = [names]``: drawn only beside all of these (ids or tags drawn before);
* ``excludes = [names]``: never beside these (symmetric);
* ``tags = [names]``;

and any text key (``result``, ``name``, ``description`` and spec fields of type
``text``) may be ``{ male = "...", female = "..." }``. Text may hold placeholders:
``{han/hon}`` (male form / female form), ``{han}`` (a pronoun of the system's set,
keyed by its male form; ``{Han}`` capitalises) and the system's declared words
(``{namn}``); ``{{`` and ``}}`` are literal braces.

A table compiles to one `Rule` per conditioned entry (None for a free one): frozen
sets and tuples, so a draw tests membership and never reads TOML again. A fact not
yet set matches nothing (``when`` fails, ``unless`` does not fire).
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from itertools import product
from typing import Any

from chargen.errors import Problem
from chargen.tomlfile import key_line

GENDERS = ("male", "female")
CONDITION_KEYS = ("when", "unless", "requires", "excludes")
TEXT_KEYS = ("result", "name", "description")
MISSING = object()  # the value of a fact not yet set: in no set of values

# Pronoun sets by language: key (the male form) -> (male, female).
PRONOUNS: dict[str, dict[str, tuple[str, str]]] = {
    "sv": {"han": ("han", "hon"), "honom": ("honom", "henne"), "hans": ("hans", "hennes")},
    "da": {"han": ("han", "hun"), "ham": ("ham", "hende"), "hans": ("hans", "hendes")},
    "hu": {},
}

_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")
_SLUG = re.compile(r"^[a-z0-9][a-z0-9_]*$")


class Rule:
    """One entry's conditions, compiled: (fact, frozenset of values) pairs and name sets."""

    __slots__ = ("when", "unless", "requires", "excludes", "names", "facts")

    def __init__(self, entry: dict) -> None:
        self.when = _pairs(entry.get("when"))
        self.unless = _pairs(entry.get("unless"))
        self.requires = frozenset(entry.get("requires") or ())
        self.excludes = frozenset(entry.get("excludes") or ())
        self.names = entry_names(entry)
        self.facts = tuple(dict.fromkeys([k for k, _ in self.when] + [k for k, _ in self.unless]))

    def holds(self, facts: dict) -> bool:
        """`when` and `unless` against these facts (a missing fact matches nothing)."""
        for key, values in self.when:
            if facts.get(key, MISSING) not in values:
                return False
        return all(facts.get(key, MISSING) not in values for key, values in self.unless)

    def possible(self, facts: dict) -> bool:
        """Whether `when`/`unless` can still hold once the facts not in `facts` are set."""
        for key, values in self.when:
            if key in facts and facts[key] not in values:
                return False
        return not any(key in facts and facts[key] in values for key, values in self.unless)

    def describe(self) -> str:
        parts = [f"when {k} = {_values_text(v)}" for k, v in self.when]
        parts += [f"unless {k} = {_values_text(v)}" for k, v in self.unless]
        return ", ".join(parts)


def _values_text(values: frozenset) -> str:
    items = sorted(map(str, values))
    return items[0] if len(items) == 1 else " or ".join(items)


def _pairs(spec: Any) -> tuple[tuple[str, frozenset], ...]:
    if not isinstance(spec, dict):
        return ()
    return tuple(
        (key, frozenset(value if isinstance(value, list) else [value]))
        for key, value in spec.items()
    )


def entry_names(entry: dict) -> frozenset[str]:
    """The names an entry answers to in requires/excludes: its id and its tags."""
    names = list(entry.get("tags") or ())
    if isinstance(entry.get("id"), str):
        names.append(entry["id"])
    return frozenset(n for n in names if isinstance(n, str))


class Compiled:
    """What a table's entries say about conditions, computed once when it loads."""

    __slots__ = (
        "rules",
        "conditioned",
        "facts",
        "gendered",
        "missing",
        "plain",
        "names",
        "index",
        "marks",
        "watch",
        "answers",
    )

    def __init__(self, entries: tuple[dict, ...]) -> None:
        rules = []
        for entry in entries:
            if any(key in entry for key in CONDITION_KEYS):
                rules.append(Rule(entry))
            else:
                rules.append(None)
        self.rules: tuple[Rule | None, ...] = tuple(rules)
        self.conditioned = any(r is not None for r in rules)
        self.facts = tuple(dict.fromkeys(f for r in rules if r is not None for f in r.facts))
        self.gendered = "gender" in self.facts
        self.missing = (MISSING,) * len(self.facts)  # the default of each fact, for map()
        # plain: no requires/excludes, so which rows fit depends on the facts alone
        self.plain = not any(r is not None and (r.requires or r.excludes) for r in rules)
        self.names: tuple[frozenset[str], ...] = tuple(entry_names(e) for e in entries)
        self.index = {id(e): i for i, e in enumerate(entries)}  # entry -> its position
        # entry -> (the names it answers to, what it excludes): what noting it records
        self.marks = {
            id(e): (n, r.excludes if r is not None else frozenset())
            for e, n, r in zip(entries, self.names, self.rules, strict=True)
        }
        # the drawn names that can change which rows fit, and the names rows answer to
        self.watch = frozenset().union(*(r.requires | r.excludes for r in rules if r is not None))
        self.answers = frozenset().union(*self.names)


# -- gendered text ------------------------------------------------------------


def is_gendered(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and set(value) == set(GENDERS)
        and all(isinstance(v, str) for v in value.values())
    )


def varies(value: Any) -> bool:
    """Whether a text value depends on gender or holds placeholders."""
    if isinstance(value, str):
        return "{" in value or "}" in value
    return is_gendered(value)


def resolve_text(
    value: Any,
    gender: str | None,
    pronouns: dict[str, tuple[str, str]] | None = None,
    extra: dict[str, Any] | None = None,
) -> Any:
    """The text for a reader: a {male, female} value by gender, then placeholders filled.

    A value that is not text (None, a number) is returned as it is. A text is read
    into its pieces once (`_pieces`), resolved (`filler`) and joined with the words of
    `extra` (`fill`): placeholders are only `{male/female}`, a pronoun of the set and
    the words in `extra`; anything else between braces is kept as written.
    """
    if isinstance(value, dict) and is_gendered(value):
        value = value["female" if gender == "female" else "male"]
    if not isinstance(value, str) or "{" not in value and "}" not in value:
        return value
    words = extra or {}
    return fill(filler(value, gender, pronouns, words), words)


def filler(
    value: Any, gender: str | None, pronouns: dict[str, tuple[str, str]] | None, words
) -> tuple | None:
    """`value` resolved for `gender` (see resolve_text) but for the placeholders that
    name one of `words`: a tuple of literal runs and ``(word,)`` places, which `fill`
    fills, so that a text with words, once worked out, costs one join a character
    (Context.text). None for a value that is not text."""
    if isinstance(value, dict) and is_gendered(value):
        value = value["female" if gender == "female" else "male"]
    if not isinstance(value, str):
        return None
    side = 1 if gender == "female" else 0
    table = pronouns or {}
    out: list = []
    for piece in _pieces(value):
        if type(piece) is str:
            out.append(piece)
            continue
        kind, inner, forms = piece
        if kind == "either":
            out.append(forms[side])
        elif inner in words:
            out.append((inner,))
            continue
        else:
            key = inner[:1].lower() + inner[1:]
            if key in table:
                word = table[key][side]
                out.append(word[:1].upper() + word[1:] if inner[:1].isupper() else word)
            else:
                out.append("{" + inner + "}")
        if len(out) > 1 and type(out[-2]) is str:  # literal runs side by side are one
            out[-2:] = [out[-2] + out[-1]]
    return tuple(out)


def fill(pieces: tuple, extra: dict[str, Any]) -> str:
    """A `filler` tuple with the words of `extra` in their places, as str() writes them."""
    return "".join([p if type(p) is str else str(extra[p[0]]) for p in pieces])


def listed_text(
    value: Any, pronouns: dict[str, tuple[str, str]] | None = None, words: Any = None
) -> str:
    """A text as `--list` shows it, for no one character: a gendered pair reads
    'male / female', ``{han}`` and ``{han/hon}`` read "han/hon", and a declared word
    (``{namn}``) reads as `words` names it (default ‹namn›), never as raw braces."""
    if isinstance(value, dict) and is_gendered(value):
        return " / ".join(str(value[g]) for g in GENDERS)
    if not isinstance(value, str) or "{" not in value and "}" not in value:
        return "" if value is None else str(value)
    table = pronouns or {}
    out = []
    for piece in _pieces(value):
        if type(piece) is str:
            out.append(piece)
            continue
        kind, inner, forms = piece
        key = inner[:1].lower() + inner[1:]
        if kind == "either":
            out.append("/".join(forms))
        elif key in table:
            both = "/".join(table[key])
            out.append(both[:1].upper() + both[1:] if inner[:1].isupper() else both)
        else:
            out.append(words(inner) if callable(words) else f"‹{inner}›")
    return "".join(out)


@lru_cache(maxsize=4096)
def _pieces(text: str) -> tuple:
    """A text's literal runs and placeholders: ("either", inner, (male, female)) for
    {male/female}, ("word", inner, None) for any other {inner}; {{ and }} are braces."""
    pieces: list = []
    at = 0
    for match in _PLACEHOLDER.finditer(text):
        if match.start() > at:
            pieces.append(text[at : match.start()])
        whole = match.group(0)
        if whole in ("{{", "}}"):
            pieces.append(whole[0])
        else:
            inner = match.group(1)
            if "/" in inner:
                pieces.append(("either", inner, tuple(inner.split("/", 1))))
            else:
                pieces.append(("word", inner, None))
        at = match.end()
    if at < len(text):
        pieces.append(text[at:])
    merged: list = []
    for piece in pieces:  # literal runs side by side are one
        if type(piece) is str and merged and type(merged[-1]) is str:
            merged[-1] += piece
        else:
            merged.append(piece)
    return tuple(merged)


def placeholder_faults(
    text: str, pronouns: dict[str, tuple[str, str]], words: tuple[str, ...] | frozenset
) -> list[str]:
    """What is wrong with the placeholders of one string (empty when all is well)."""
    out = []
    if "{" not in text and "}" not in text:
        return out
    rest = _PLACEHOLDER.sub("", text)
    if "{" in rest or "}" in rest:
        out.append(f"unbalanced brace in {text!r} (write {{{{ and }}}} for a literal brace)")
    for match in _PLACEHOLDER.finditer(text):
        inner = match.group(1)
        if inner is None:
            continue
        if "/" in inner:
            if inner.count("/") != 1 or not all(p.strip() for p in inner.split("/")):
                out.append(f"placeholder {{{inner}}} must be {{male form/female form}}")
            continue
        key = inner[:1].lower() + inner[1:]
        if key not in pronouns and inner not in words:
            known = sorted(pronouns) + sorted(words)
            out.append(
                f"unknown placeholder {{{inner}}} (known: {', '.join(known) or 'none'}; "
                "or write {male form/female form})"
            )
    return out


# -- the linter ---------------------------------------------------------------


def entry_faults(entry: dict, text_keys: set[str], pack) -> list[tuple[str, str]]:
    """(key, message) faults of one entry's condition keys and text values."""
    out: list[tuple[str, str]] = []
    facts = known_facts(pack)
    for key in ("when", "unless"):
        if key not in entry:
            continue
        spec = entry[key]
        if not isinstance(spec, dict) or not spec:
            out.append((key, f'{key} must be a table such as {{ gender = "female" }}'))
            continue
        for fact, value in spec.items():
            values = value if isinstance(value, list) else [value]
            if not values or not all(
                isinstance(v, str | int | bool) and not isinstance(v, list) for v in values
            ):
                out.append((key, f"{key}: {fact} must be a value or a list of values"))
            if facts is not None and fact not in facts:
                out.append(
                    (
                        key,
                        f"{key}: '{fact}' is not a fact of {pack.system} "
                        f"(facts: {', '.join(sorted(facts))})",
                    )
                )
    for key in ("requires", "excludes", "tags"):
        if key not in entry:
            continue
        value = entry[key]
        if not isinstance(value, list) or not all(
            isinstance(v, str) and _SLUG.match(v) for v in value
        ):
            out.append((key, f"{key} must be a list of ids or tags (ASCII slugs), not {value!r}"))
    pronouns = getattr(pack, "pronouns", None) or {}
    words = tuple(getattr(pack, "placeholders", ()) or ())
    for key in text_keys:
        if key not in entry:
            continue
        value = entry[key]
        texts = list(value.values()) if is_gendered(value) else [value]
        for text in texts:
            if isinstance(text, str):
                out += [(key, f"'{key}': {m}") for m in placeholder_faults(text, pronouns, words)]
    return out


def known_facts(pack) -> dict[str, Any] | None:
    """Fact -> domain for a pack (gender included), or None when the pack declares none."""
    declared = getattr(pack, "facts", None)
    if declared is None:
        return None
    return {"gender": GENDERS, **declared}


def domain_values(pack, fact: str, tables: dict) -> tuple | None:
    """The values a fact can take, or None for an open domain (or an unloadable table)."""
    facts = known_facts(pack) or {"gender": GENDERS}
    domain = facts.get(fact)
    if domain is None:
        return None
    if isinstance(domain, str):
        table = tables.get(domain)
        return tuple(table.ids) if table is not None else None
    return tuple(domain)


def check_pack(pack, tables: dict) -> list[Problem]:
    """Across files: fact values, names in requires/excludes, and coverage."""
    out: list[Problem] = []
    facts = known_facts(pack)
    for fact, domain in (facts or {}).items():
        if isinstance(domain, str) and domain not in pack:
            out.append(
                Problem(
                    str(pack.dirs[0]),
                    0,
                    f"fact '{fact}' takes the ids of table '{domain}', which {pack.system} lacks",
                )
            )
    overlaid = len(pack.dirs) > 1
    known_names: set[str] = set()
    for table in tables.values():
        for names in table.compiled.names:
            known_names |= names
    for table in tables.values():
        compiled = table.compiled
        if not compiled.conditioned:
            continue
        where = str(table.path)
        builtin = table.path.parent == pack.dirs[0]
        before = len(out)
        for i, rule in enumerate(compiled.rules):
            if rule is None:
                continue
            for key, pairs in (("when", rule.when), ("unless", rule.unless)):
                for fact, values in pairs:
                    if facts is not None and fact not in facts:
                        continue  # reported when the file loaded
                    domain = domain_values(pack, fact, tables)
                    if domain is None:
                        continue
                    for value in sorted(values, key=str):
                        if value not in domain:
                            out.append(
                                Problem(
                                    where,
                                    key_line(table.text, key, i),
                                    f"{key}: '{value}' is not a value of {fact} "
                                    f"(values: {', '.join(map(str, domain))})",
                                )
                            )
            for key, names in (("requires", rule.requires), ("excludes", rule.excludes)):
                if builtin and overlaid:
                    # checked in the built-in pack alone: a name only a table the user
                    # replaced had can no longer be drawn, so it excludes (or lets
                    # through) nothing, and the user's table need not keep it
                    break
                for name in sorted(names - known_names):
                    out.append(
                        Problem(
                            where,
                            key_line(table.text, key, i),
                            f"{key}: '{name}' is no id and no tag in the {pack.system} tables",
                        )
                    )
        if len(out) == before:
            try:
                gap = uncovered(pack, table, tables)
            except TooManyCombinations as exc:
                out.append(
                    Problem(
                        where,
                        table.entry_line(0),
                        f"its rows condition on facts with {exc.args[0]:,} combinations to "
                        f"check: at most {MAX_COMBINATIONS:,} (condition on fewer values)",
                    )
                )
                continue
            if gap is not None:
                index = next(i for i, r in enumerate(compiled.rules) if r is not None and r.facts)
                combo = ", ".join(f"{k}={v}" for k, v in gap.items())
                out.append(
                    Problem(where, table.entry_line(index), f"no row fits a character with {combo}")
                )
    return out


def uncovered(pack, table, tables: dict) -> dict | None:
    """The first combination of the facts a table conditions on that no row fits, if any.

    The product of the domains of those facts; a combination that a domain entry's
    own when/unless rules out (an arketyp open to one corporation only) is skipped.
    """
    compiled = table.compiled
    facts = compiled.facts
    if not facts:
        return None
    domains = []
    for fact in facts:
        domain = domain_values(pack, fact, tables)
        if domain is None:  # open: the values named, and one more
            named = {
                v
                for r in compiled.rules
                if r
                for k, vs in r.when + r.unless
                if k == fact
                for v in vs
            }
            domain = tuple(sorted(named, key=str)) + (MISSING,)
        domains.append(domain)
    entry_rules = _domain_rules(pack, facts, tables)
    domains = [
        _classes(fact, domain, compiled.rules, entry_rules, facts)
        for fact, domain in zip(facts, domains, strict=True)
    ]
    combinations = math.prod(len(d) for d in domains)
    if combinations > MAX_COMBINATIONS:
        raise TooManyCombinations(combinations)
    for combo in product(*domains):
        assigned = dict(zip(facts, combo, strict=True))
        assigned = {k: v for k, v in assigned.items() if v is not MISSING}
        if not all(rule.possible(assigned) for rule in _rules_of(entry_rules, assigned)):
            continue
        if not any(r is None or r.holds(assigned) for r in compiled.rules):
            return {
                k: ("(other)" if v is MISSING else v) for k, v in zip(facts, combo, strict=True)
            }
    return None


MAX_COMBINATIONS = 100_000  # fact combinations one table's coverage check may try


class TooManyCombinations(Exception):
    """The coverage check of a table would try more than MAX_COMBINATIONS."""


def _classes(fact: str, domain: tuple, rules, entry_rules: dict, facts: tuple) -> tuple:
    """The values of `fact` that the coverage check must try: every value some rule
    names, and one value of each kind the rules treat alike (the values no rule
    names, told apart only by their own domain entry's conditions). The rows of a
    table over 4,000 mallar then cost a few values, not a product of 4,000s."""
    named = set()
    for rule in list(rules) + [r for values in entry_rules.values() for r in values.values()]:
        if rule is not None:
            for key, values in rule.when + rule.unless:
                if key == fact:
                    named |= values
    own = entry_rules.get(fact, {})
    kept, kinds = [], set()
    for value in domain:
        if value in named or value is MISSING:
            kept.append(value)
            continue
        rule = own.get(value)
        kind = (
            None
            if rule is None
            else tuple((k, v) for k, v in rule.when + rule.unless if k in facts)
        )
        if kind not in kinds:
            kinds.add(kind)
            kept.append(value)
    return tuple(kept)


def _domain_rules(pack, facts, tables: dict) -> dict[str, dict[Any, Rule]]:
    """fact -> {value: the Rule of that value's entry} for facts whose domain is a table."""
    declared = known_facts(pack) or {}
    out: dict[str, dict[Any, Rule]] = {}
    for fact in facts:
        domain = declared.get(fact)
        if isinstance(domain, str) and domain in tables:
            table = tables[domain]
            out[fact] = {
                e["id"]: r
                for e, r in zip(table.entries, table.compiled.rules, strict=True)
                if r is not None and "id" in e
            }
    return out


def _rules_of(entry_rules: dict[str, dict[Any, Rule]], assigned: dict) -> list[Rule]:
    return [
        entry_rules[f][v] for f, v in assigned.items() if f in entry_rules and v in entry_rules[f]
    ]
