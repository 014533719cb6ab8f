"""Printed pages hold together (issue 24): nothing overflows, and they look as approved.

Overflow: for 500 random NPCs and 100 PCs of every game, the pages are set as SVG
with every card and section outlined in a colour of its own (sys.inputs.frames;
the outline changes no size), and every glyph typst placed is read back with its
position: each lies on the page inside its margins, each glyph on a card inside
its card, and no card or section runs past the page's foot.

Visual regression: one PC and one page of cards a game, rendered to PNG at a low
resolution, against the images in tests/printable_reference/ (made on purpose by
tests/update_printable_reference.py, never by a test) within a tolerance.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from chargen import printable
from chargen.procedure import generate
from chargen.systems import load

pytest.importorskip("typst")

from chargen.typeset import typeset  # noqa: E402

SYSTEMS = ("matinee", "spelsystemet", "karma", "lef", "savage")
MM = 72 / 25.4
MARGIN_X, MARGIN_TOP, MARGIN_BOTTOM = 12 * MM, 12 * MM, 13 * MM  # as sheet.typ sets them
SLACK = 1.0  # points: rounding, and a glyph's origin sits a hair left of its ink
REFERENCE = Path(__file__).with_name("printable_reference")
FRAMES = {"ff00ff": "card", "00ffff": "section"}  # sheet.typ's frame-card, frame-section
_TOKEN = re.compile(
    r"<g(?P<g>(?: [^>]*?)?)(?P<closed>/)?>"
    r"|(?P<end></g>)"
    r'|<use [^>]*?x="(?P<ux>[-\d.e]+)" y="(?P<uy>[-\d.e]+)"'
    r'|<path [^>]*?stroke="#(?P<colour>ff00ff|00ffff)"[^>]*? d="M 0 0v (?P<h>[\d.]+)h (?P<w>[\d.]+)'
)
_MATRIX = re.compile(r"(translate|matrix)\(([^)]*)\)")


def _chars(system_id: str, kind: str, count: int, seed: int, **options) -> tuple:
    system = load(system_id)
    tables = system.tables()
    return system, tables, list(generate(system, tables, kind, options, count, seed))


def _affine(attributes: str) -> tuple:
    out = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    transform = re.search(r'transform="([^"]*)"', attributes)
    for kind, args in _MATRIX.findall(transform.group(1) if transform else ""):
        v = [float(a) for a in re.split(r"[ ,]+", args.strip())]
        m = (1.0, 0.0, 0.0, 1.0, v[0], v[1] if len(v) > 1 else 0.0) if kind == "translate" else v
        out = _compose(out, m)
    return out


def _compose(a, b) -> tuple:
    return (
        a[0] * b[0] + a[2] * b[1],
        a[1] * b[0] + a[3] * b[1],
        a[0] * b[2] + a[2] * b[3],
        a[1] * b[2] + a[3] * b[3],
        a[0] * b[4] + a[2] * b[5] + a[4],
        a[1] * b[4] + a[3] * b[5] + a[5],
    )


def _page(svg: str) -> tuple[list, list]:
    """A page's frames (kind, left, top, right, bottom) and glyph origins (x, y)."""
    svg = svg.split("<defs", 1)[0]  # the glyphs' shapes, not their places
    stack = [(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)]
    frames, glyphs = [], []
    for m in _TOKEN.finditer(svg):
        here = stack[-1]
        if m.group("end"):
            stack.pop()
        elif m.group("ux") is not None:
            x, y = float(m.group("ux")), float(m.group("uy"))
            glyphs.append(
                (here[0] * x + here[2] * y + here[4], here[1] * x + here[3] * y + here[5])
            )
        elif m.group("colour"):
            w, h = float(m.group("w")), float(m.group("h"))
            frames.append((FRAMES[m.group("colour")], here[4], here[5], here[4] + w, here[5] + h))
        elif not m.group("closed"):
            stack.append(_compose(here, _affine(m.group("g"))))
    return frames, glyphs


def _check(doc: dict, what: str) -> None:
    pages = typeset(json.dumps(doc, ensure_ascii=False), "svg", frames=True)
    pages = [pages] if isinstance(pages, bytes) else pages
    for number, svg in enumerate(pages, 1):
        text = svg.decode()
        width, height = (
            float(v) for v in re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', text).groups()
        )
        foot = height - MARGIN_BOTTOM + SLACK
        frames, glyphs = _page(text)
        assert glyphs, (what, number, "an empty page")
        for x, y in glyphs:  # on the page, inside its margins (the footer below them)
            assert MARGIN_X - SLACK <= x <= width - MARGIN_X + SLACK, (what, number, x, y)
            assert MARGIN_TOP - SLACK <= y <= height - SLACK, (what, number, x, y)
        for kind, left, top, right, bottom in frames:
            assert MARGIN_TOP - SLACK <= top < bottom <= foot, (what, number, kind, top, bottom)
            assert MARGIN_X - SLACK <= left < right <= width - MARGIN_X + SLACK, (what, kind)
        cards = [f for f in frames if f[0] == "card"]
        if not cards:
            continue
        first, last = min(c[2] for c in cards), max(c[4] for c in cards)
        for x, y in glyphs:  # between the page's head and the rules: inside a card
            if first <= y <= last:
                assert any(
                    c[1] - SLACK <= x <= c[3] + SLACK and c[2] <= y <= c[4] for c in cards
                ), (what, number, "a glyph outside its card", x, y)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_500_random_npc_cards_stay_inside_their_frames_and_the_page(system_id):
    system, tables, chars = _chars(system_id, "npc", 500, 2024)
    _check(printable.document(system, tables, chars, len(chars)), f"{system_id} npc")


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_100_random_pcs_stay_inside_the_page_one_or_two_pages_each(system_id):
    system, tables, chars = _chars(system_id, "pc", 100, 2024)
    doc = printable.document(system, tables, chars, len(chars))
    _check(doc, f"{system_id} pc")


def test_the_check_finds_a_card_taller_than_its_page_and_a_word_wider_than_its_card():
    system, tables, chars = _chars("karma", "npc", 2, 5)
    doc = printable.document(system, tables, chars, 2)
    tall = json.loads(json.dumps(doc))
    tall["cards"][0]["sections"][0]["rows"] += [["Rad", str(i)] for i in range(150)]
    with pytest.raises(AssertionError):
        _check(tall, "a tall card")
    broad = json.loads(json.dumps(doc))
    broad["cards"][0]["sections"][0]["text"] = "Ord" * 80  # no place to break
    with pytest.raises(AssertionError):
        _check(broad, "a broad word")
    _check(doc, "the cards as made")


TOLERANCE = 0.004  # of a page's pixels may differ (by more than a faint grey)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_pc_page_and_a_card_page_look_as_the_approved_pictures(system_id):
    from printable_pictures import pictures, pixels

    for name, png in pictures(system_id).items():
        reference = REFERENCE / name
        assert reference.exists(), f"{name}: run tests/update_printable_reference.py"
        width, height, now = pixels(png)
        ref_width, ref_height, then = pixels(reference.read_bytes())
        assert (width, height) == (ref_width, ref_height), name
        changed = sum(1 for a, b in zip(now, then, strict=True) if abs(a - b) > 48) / len(now)
        assert changed <= TOLERANCE, (name, f"{changed:.2%} of the pixels changed")
