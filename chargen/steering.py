"""The choices pinned by command-line options, and the search that keeps them possible.

`--arketyp mystiker` pins an entry before the procedure runs; every earlier random
draw of a fact it depends on then takes only values under which it can still hold
(the megakorporation becomes Brödraskapet), and choices that no character can have
together are refused before the first one, naming which rules out which.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from chargen.conditions import GENDERS, Rule, entry_names
from chargen.errors import ChargenError, ChoiceError
from chargen.tables import Table, match_choice


class Pin(NamedTuple):
    """An entry a command-line option fixes before the procedure runs."""

    option: Any  # chargen.procedure.Option
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

    def __init__(self, ctx: Any, pins: list[Pin] | None = None, check: bool = True) -> None:
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

    def _collect(self, ctx: Any) -> list[Pin]:
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
