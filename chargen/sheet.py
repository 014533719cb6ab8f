"""The pieces a sheet is made of, shared by every system and every human format.

A system's sheet is a list of `Section`s (built by its `Part`s, so a step alone shows
its own piece), a batch's roster a list of `Column`s, and what a printed sheet tracks
during play a table `print.toml` of the `PRINT_SPEC` kind. The terminal sheet,
Markdown, HTML and PDF all read these, so nothing of a sheet is written twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from chargen.tables import Spec, Tables


class Section(NamedTuple):
    """A block of a character sheet: a title and rows (a table), text, or items.

    `text` is paragraphs separated by "\\n", wrapped with a hanging indent;
    `items` are (name, rules text) pairs, the text wrapped beside the name;
    `fields` the character fields the section shows (see Part); `folds` > 1 says each
    row holds that many records side by side, which a narrow terminal prints one a row
    (render.table_lines).
    """

    title: str
    rows: list[list[Any]] | None = None
    headers: list[str] | None = None
    text: str | None = None
    items: list[tuple[str, str]] | None = None
    fields: tuple[str, ...] = ()
    folds: int = 1


class Part(NamedTuple):
    """A piece of a sheet: the character `fields` it needs and shows, and its builder
    ``build(char, tables) -> list[Section]``. A step alone renders the parts whose
    fields its character has."""

    fields: tuple[str, ...]
    build: Callable[[dict, Tables], list[Section]]


class Column(NamedTuple):
    """A roster column: its header is the label `key` (shrinking through the label's
    short forms); `get` a character key (default `key`) or a function of the character.
    When the roster must fit, the lowest `priority` columns go first; a `wrap` column
    may wrap its text instead. `legend` names the label keys whose short forms the
    cells use ("Sni 10, Kar 4"): a roster that shows the column spells them out under
    itself, beside its short headers. With `tables`, a function `get` is called with the
    pack as well, ``get(char, tables)``, for a cell in the pack's own words (a skill's
    label from the labels file)."""

    key: str
    get: str | Callable[..., Any] | None = None
    priority: int = 5
    wrap: bool = False
    legend: tuple[str, ...] = ()
    tables: bool = False


PRINT_TABLE = "print"
PRINT_SPEC = Spec(
    "definitions",
    fields={
        "boxes": "int",  # a fixed number of boxes
        "field": "str",  # or as many as a character field says (an int, or a dict of them)
        "subfield": "str",  # for a dict of dicts: which number of each ({vaerdi, loft} -> loft)
        "numbered": "bool",  # print 1, 2, 3 ... in the boxes (a damage track)
        "kinds": "list[str]",  # pc, npc (default both)
        "shape": "str",  # box (default) or circle (a resource spent and regained)
        "bands": "list[int]",  # the boxes of each penalty band, in order (a damage track)
        "band_names": "list[str]",  # each band's caption (its penalty)
        # or, instead of a tracker, where the sheet shows a section: its title and
        # component (attributes, grid, fields, text)
        "section": "str",
        "component": "str",
    },
    description="What a printed sheet tracks during play: rows of boxes to fill in; "
    "and which component shows a section.",
)
