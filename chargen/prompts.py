"""`--interactive`: ask on the terminal (stderr and stdin), one choice step at a time."""

from __future__ import annotations

import click

from chargen.errors import ChargenError
from chargen.procedure import normalize
from chargen.tables import Table


def describe(entry: dict, fields: dict | None = None) -> str:
    """One line for an option: its name, id, description, effects and the
    table's own `fields` (an arketyp's dice, a template's ranges)."""
    text = _plain(entry.get("name", entry.get("id", "")))
    if "id" in entry and entry["id"] != text:
        text += f" [{entry['id']}]"
    if entry.get("description"):
        text += f": {_plain(entry['description'])}"
    if entry.get("effects"):
        text += " (" + ", ".join(f"{k} {_signed(v)}" for k, v in entry["effects"].items()) + ")"
    details = [f"{k}: {compact(entry[k])}" for k in fields or () if k in entry]
    if details:
        text += "\n        " + "; ".join(details)
    return text


def _names(entry: dict) -> tuple:
    name = entry.get("name")
    return tuple(name.values()) if isinstance(name, dict) else (name,) if name else ()


def _plain(value) -> str:
    """A text as a list shows it: a gendered pair as "male / female"."""
    if isinstance(value, dict) and set(value) == {"male", "female"}:
        return f"{value['male']} / {value['female']}"
    return str(value)


def compact(value) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {compact(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(compact(v) for v in value)
    return str(value)


def _signed(value) -> str:
    return f"{value:+d}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


class Prompter:
    """Shows the options of a choice step with their effects and reads the answer.

    An empty answer leaves the choice to the dice (the character's own stream).
    """

    def _show(self, option: str, table: Table, pool: list[dict]) -> None:
        click.echo(f"\n{option}:", err=True)
        for number, entry in enumerate(pool, 1):
            click.echo(f"  {number:>2}) {describe(entry, table.spec.fields)}", err=True)

    def _resolve(self, answer: str, pool: list[dict]) -> dict | None:
        answer = answer.strip()
        if answer.isdigit() and 1 <= int(answer) <= len(pool):
            return pool[int(answer) - 1]
        return next((e for e in pool if e.get("id") == normalize(answer)), None) or next(
            (e for e in pool if any(normalize(n) == normalize(answer) for n in _names(e))), None
        )

    def choose(self, option: str, table: Table, pool: list[dict], rng) -> dict:
        self._show(option, table, pool)
        for _ in range(5):
            answer = click.prompt(
                f"Choose {option} (number or id, empty for random)",
                default="",
                show_default=False,
                err=True,
            )
            if not answer.strip():
                return table.pick(rng, pool)
            entry = self._resolve(answer, pool)
            if entry is not None:
                return entry
            click.echo(f"  '{answer}' is not one of the options above", err=True)
        raise ChargenError(f"no valid {option} given")

    def choose_many(
        self,
        option: str,
        table: Table,
        pool: list[dict],
        count: int,
        rng,
        span: tuple[int, int] | None = None,
    ) -> list[dict]:
        low, high = span or (count, count)
        how_many = str(low) if low == high else f"{low} to {high}"
        self._show(option, table, pool)
        for _ in range(5):
            answer = click.prompt(
                f"Choose {how_many} {option} (numbers or ids, comma-separated; empty for random)",
                default="",
                show_default=False,
                err=True,
            )
            if not answer.strip():
                return table.draw(rng, count, among=pool)
            chosen = [self._resolve(part, pool) for part in answer.split(",") if part.strip()]
            if (
                all(chosen)
                and len({id(e) for e in chosen}) == len(chosen)
                and low <= len(chosen) <= high
            ):
                return chosen
            click.echo(f"  give {how_many} different options from the list above", err=True)
        raise ChargenError(f"no valid {option} given")
