"""A table entry as a reader sees it, for no one character: its description and
rules text, its effects and typed fields in the game's words, ids by their names.
`--list`, `tables show` (chargen.output) and the questions of `--interactive`
(chargen.prompts) show entries this way."""

from __future__ import annotations

import re
from typing import Any


def table_text(value: Any, pack: Any = None) -> str:
    """A text value as written in a table, for no one character: a gendered pair reads
    'male / female', pronoun placeholders "han/hon" (chargen.conditions.listed_text)."""
    from chargen.conditions import is_gendered, listed_text

    if isinstance(value, dict) and not is_gendered(value):
        return " / ".join(str(v) for v in value.values())
    return listed_text(value, getattr(pack, "pronouns", None))


def field_value(kind: str, key: str, value: Any, labels, pack) -> str:
    """A table entry's typed field as a reader sees it: ids by their names."""
    from chargen.tables import bare_kind

    kind = re.sub(r"\[[-\d.]*\.\.[-\d.]*\]", "", bare_kind(kind))  # int[1..9] -> int
    if kind.startswith("list[list[") and isinstance(value, list):
        # alternatives by row: "a / b; c / d" (one of each row)
        rows = (
            " / ".join(field_value(kind[10:-2].rstrip("+]"), key, v, labels, pack) for v in row)
            for row in value
        )
        return "; ".join(rows) or labels.word("none")
    if kind.startswith("list[") and isinstance(value, list):
        shown = ", ".join(field_value(kind[5:-1], key, v, labels, pack) for v in value)
        return shown or labels.word("none")  # "Avståndsvapen: inga", not "Avståndsvapen: "
    if kind.startswith("dict[") and isinstance(value, dict):
        inner = kind[5:-1]
        return ", ".join(
            f"{labels.key(k, pack)} {field_value(inner, k, v, labels, pack)}"
            for k, v in value.items()
        )
    if kind.startswith("id:") and isinstance(value, str):
        return labels.name(kind[3:], value, pack)
    if kind == "table" and isinstance(value, str):
        return labels.get(value) or _table_title(pack, value, labels)
    if kind == "dice" and isinstance(value, str):
        return labels.dice(value)
    if isinstance(value, dict):
        return labels.effects(value, pack)
    if isinstance(value, str) and "{" in value:  # "{namn} {last} men {han} {dygd}"
        return table_text(value, pack)
    return labels.value(key, value, pack)


def _table_title(pack, name: str, labels) -> str:
    if name in labels:
        return labels(name)
    try:
        return table_title(pack[name], labels)
    except Exception:  # noqa: BLE001 - an unknown table reads as its label
        return labels(name)


def entry_details(entry: dict, table, labels, pack) -> str:
    """An entry's description and rules text, then its effects and own fields, labelled
    ("Skada: Grund-2; Typ: Stick")."""
    prose = [table_text(entry[k], pack).strip() for k in ("description", "rules") if entry.get(k)]
    facts = []
    if entry.get("effects"):
        facts.append(labels.effects(entry["effects"], pack))
    said = " ".join(prose)
    parts = {p.strip().rstrip(".") for text in prose for p in re.split(r"[,;]|\.\s", text)}
    for key, kind in table.spec.fields.items():
        if key in entry and labels.get(key) != "":  # a field labelled "" is not for readers
            value = field_value(kind, key, entry[key], labels, pack)
            value = value[:-1] if value.endswith(".") else value
            # a description that prints the row ("Skada Grund-2, Typ Stick, L 0, Enhands")
            # already says it: not again as "Skada: Grund-2"
            names = (labels(key), *labels.short(key))  # "Eldhastighet" printed as "Eh"
            if any(f"{n} {value}" in said for n in names) or value in parts:
                continue
            facts.append(f"{labels(key)}: {value}")
    if entry.get("ref"):
        refs = [entry["ref"]] if isinstance(entry["ref"], str) else list(entry["ref"])
        facts.append("→ " + ", ".join(_table_title(pack, r, labels) for r in refs))
    text = " ".join(p if p[-1:] in ".!?" else p + "." for p in prose if p)
    if facts:
        text = (text + " " if text else "") + "; ".join(facts)
    return text


def table_title(table, labels) -> str:
    """A table's title: its label, else its description's first sentence when short."""
    found = labels.get(table.name)
    if found:
        return found
    # a whole first sentence only: "Vem rollpersonen är i grunden: tärningar ..." cut at
    # its colon would leave a title and a lower-case fragment under it
    first = re.split(r"(?<=[.])\s", table.description or "", maxsplit=1)[0].rstrip(".")
    return first if first and len(first) <= 60 else labels(table.name)
