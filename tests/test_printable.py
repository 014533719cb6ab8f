"""Printable sheets and NPC cards: `-f pdf` (typst) and `-f html` (issue 16).

The PDF's own text is read back (pypdf) and must hold the character's name and
every title, header and cell of its sheet, diacritics intact; a PC is one A4
page (two at most), NPCs are cards several to a page, a squad is one card. The
HTML page is self-contained and, where Chromium is installed, printed by it.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from conftest import assert_usage_error, run

from chargen import printable
from chargen.procedure import generate
from chargen.systems import load

pypdf = pytest.importorskip("pypdf")
pytest.importorskip("typst")

SYSTEMS = ("matinee", "spelsystemet", "karma", "lef", "savage")
A4 = (595, 842)  # points, as typst writes the media box


def _squash(text: str) -> str:
    """Text without whitespace, ligatures (ﬀ, ﬁ) spelled out, to compare wrapped lines."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def _pack(system_id: str):
    system = load(system_id)
    return system, system.tables()


def _chars(system_id: str, kind: str, count: int, seed: int, **options) -> list[dict]:
    system, tables = _pack(system_id)
    return list(generate(system, tables, kind, options, count, seed))


def _pdf_text(data: bytes) -> tuple[int, str, list]:
    reader = pypdf.PdfReader(io.BytesIO(data))
    return len(reader.pages), "".join(p.extract_text() for p in reader.pages), reader.pages


def _words(doc: dict) -> list[str]:
    """Every string a printed sheet or card must show."""
    out = [doc["title"]]
    for sec in doc["sections"]:
        out.append(sec["title"].upper())  # headings print in capitals
        if sec["text"]:
            out.append(sec["text"])
        out += sec["headers"] + [cell for row in sec["rows"] for cell in row]
    out += [t["label"] for t in doc["trackers"]]
    return [w for w in out if _squash(w)]


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_pc_pdf_shows_every_word_of_its_sheet_on_one_or_two_a4_pages(system_id):
    system, tables = _pack(system_id)
    for seed in range(25):
        chars = list(generate(system, tables, "pc", {}, 1, seed))
        pages, text, page_objs = _pdf_text(printable.pdf(system, tables, chars, 1))
        assert 1 <= pages <= 2, (system_id, seed, pages)
        box = page_objs[0].mediabox
        assert (round(box.width), round(box.height)) == A4
        text = _squash(text)
        doc = printable.document(system, tables, chars, 1)
        assert chars[0]["name"] and _squash(chars[0]["name"]) in text
        missing = [w for w in _words(doc["sheets"][0]) if _squash(w) not in text]
        assert not missing, (system_id, seed, missing[:5])


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_same_seed_gives_the_same_pdf_bytes(system_id):
    system, tables = _pack(system_id)
    first = printable.pdf(system, tables, _chars(system_id, "pc", 1, 11), 1)
    again = printable.pdf(system, tables, _chars(system_id, "pc", 1, 11), 1)
    other = printable.pdf(system, tables, _chars(system_id, "pc", 1, 12), 1)
    assert first == again
    assert first != other
    assert first.startswith(b"%PDF-")


def test_diacritics_of_all_three_languages_survive_in_the_pdf_text():
    seen = ""
    for system_id in ("matinee", "lef", "savage"):
        system, tables = _pack(system_id)
        for seed in range(6):
            chars = _chars(system_id, "pc", 1, seed)
            seen += _pdf_text(printable.pdf(system, tables, chars, 1))[1]
    for letter in "åäöøæőű":
        assert letter in seen.lower(), letter


@pytest.mark.parametrize(
    ("system_id", "trackers"),
    [
        ("matinee", {"Skada": 25, "Utslagen": 1}),
        ("savage", {"Sebek": 3, "Kimerültség": 2, "Sorspont": 3}),
    ],
)
def test_a_pc_sheet_has_boxes_for_what_the_game_tracks(system_id, trackers):
    system, tables = _pack(system_id)
    char = _chars(system_id, "pc", 1, 4)[0]
    rows = {t["label"]: t["boxes"] for t in printable.trackers(system, tables, char)}
    for label, boxes in trackers.items():
        assert rows[label] == boxes, (label, rows)


def test_trackers_follow_the_characters_own_numbers():
    for system_id, field in (("karma", "karma"), ("matinee", "k_marker")):
        system, tables = _pack(system_id)
        for char in _chars(system_id, "pc", 40, 7):
            rows = printable.trackers(system, tables, char)
            assert any(t["boxes"] == char[field] for t in rows), (system_id, rows)
    system, tables = _pack("spelsystemet")
    for char in _chars("spelsystemet", "pc", 40, 7):
        rows = printable.trackers(system, tables, char)
        assert sum(t["boxes"] for t in rows if t["label"].startswith("KP")) == sum(
            char["kp"].values()
        )
        assert [t["boxes"] for t in rows if t["label"] == "LP"] == [char["lp"]]
    system, tables = _pack("lef")
    for char in _chars("lef", "pc", 40, 7):
        rows = printable.trackers(system, tables, char)
        assert [t["boxes"] for t in rows] == [v["loft"] for v in char["tilstande"].values()]


def test_npcs_print_as_cards_several_to_a_page():
    system, tables = _pack("matinee")
    chars = _chars("matinee", "npc", 24, 5, template="namnlos")
    doc = printable.document(system, tables, chars, 24)
    assert len(doc["cards"]) == 24 and not doc["sheets"]
    pages, text, _ = _pdf_text(printable.pdf(system, tables, chars, 24))
    assert pages <= 6, pages
    text = _squash(text)
    assert all(_squash(c["name"]) in text for c in chars)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_systems_npc_cards_show_their_names(system_id):
    system, tables = _pack(system_id)
    chars = _chars(system_id, "npc", 8, 21)
    pages, text, _ = _pdf_text(printable.pdf(system, tables, chars, 8))
    assert pages <= 4
    text = _squash(text)
    for char in chars:
        assert _squash(char["name"]) in text, char["name"]


def test_a_savage_squad_is_one_card_naming_its_members():
    system, tables = _pack("savage")
    chars = _chars("savage", "npc", 6, 3, squad=True)
    doc = printable.document(system, tables, chars, 6)
    assert len(doc["cards"]) == 1
    pages, text, _ = _pdf_text(printable.pdf(system, tables, chars, 6))
    assert pages == 1
    text = _squash(text)
    for char in chars:
        assert _squash(char["name"]) in text


def test_a_batch_of_pcs_is_one_sheet_each():
    system, tables = _pack("karma")
    chars = _chars("karma", "pc", 3, 9)
    pages, text, _ = _pdf_text(printable.pdf(system, tables, chars, 3))
    assert pages == 3
    assert all(_squash(c["name"]) in _squash(text) for c in chars)


def test_pdf_through_the_cli_goes_to_a_file_atomically_and_to_a_pipe(tmp_path):
    target = tmp_path / "sheet.pdf"
    result = run("lef", "pc", "--seed", "3", "-f", "pdf", "-o", str(target))
    assert result.exit_code == 0, result.stderr
    assert target.read_bytes().startswith(b"%PDF-")
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.pdf"]
    piped = subprocess.run(
        [sys.executable, "-m", "chargen", "lef", "pc", "--seed", "3", "-f", "pdf"],
        capture_output=True,
        check=True,
    )
    assert piped.stdout == target.read_bytes()


def test_a_pdf_is_not_written_to_a_terminal():
    import os
    import pty

    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "chargen", "karma", "pc", "-f", "pdf"],
            stdout=follower,
            stderr=subprocess.PIPE,
            timeout=60,
        )
    finally:
        os.close(follower)
        os.close(leader)
    assert done.returncode == 2
    assert b"-o FILE" in done.stderr


def test_without_typst_pdf_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "typst", None)
    assert_usage_error(
        run("karma", "pc", "-f", "pdf", "-o", "x.pdf"), "pip install typst", "'.[pdf]'"
    )


def test_roll_refuses_printable_formats():
    assert_usage_error(run("roll", "2T10", "-f", "pdf"), "-f pdf prints characters")


def test_a_pack_may_replace_the_print_table_and_it_is_checked(tmp_path):
    pack = tmp_path / "karma"
    pack.mkdir()
    (pack / "print.toml").write_text(
        '[[entries]]\nid = "karma"\nname = "Ödestärningar"\nfield = "karma"\n'
        '\n[[entries]]\nid = "sar"\nname = "Sår"\nboxes = 4\n',
        encoding="utf-8",
    )
    result = run("karma", "pc", "--seed", "2", "-f", "html", "--tables", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert "Ödestärningar" in result.stdout and "Sår" in result.stdout
    (pack / "print.toml").write_text(
        '[[entries]]\nid = "karma"\nname = "Karma"\n\nboxes = "many"\n', encoding="utf-8"
    )
    assert_usage_error(run("karma", "pc", "--tables", str(tmp_path)), "print.toml:5", "boxes")


# -- HTML ------------------------------------------------------------------


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_html_is_one_self_contained_page_with_every_word(system_id):
    system, tables = _pack(system_id)
    for seed in range(10):
        chars = _chars(system_id, "pc", 1, seed)
        page = printable.html(system, tables, chars, 1)
        assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
        for forbidden in ("<script", "http://", "https://", "<link", "@import", "src="):
            assert forbidden not in page
        assert f'lang="{system.language}"' in page
        text = _squash(re.sub(r"<[^>]+>", " ", page).replace("&amp;", "&"))
        import html as html_module

        text = html_module.unescape(text)
        doc = printable.document(system, tables, chars, 1)
        words = [w for w in _words(doc["sheets"][0])]
        # headings are capitalised by the style sheet, not in the text
        words = [w for w in words if not w.isupper()]
        missing = [w for w in words if _squash(w) not in text]
        assert not missing, (system_id, seed, missing[:5])


def test_html_has_a_print_stylesheet_one_character_a_page_and_cards_whole_and_packed():
    system, tables = _pack("matinee")
    page = printable.html(system, tables, _chars("matinee", "npc", 6, 1), 6)
    assert "@media print" in page and "break-after:page" in page
    assert page.count('class="card"') == 6
    card_rule = re.search(r"\.card\{([^}]*)\}", page).group(1)
    assert "break-inside:avoid" in card_rule
    assert ".cards{column-count:2" in page  # packed like the PDF's columns, not grid rows
    assert "h2{" in page and "break-after:avoid" in page  # a heading stays with its block


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def chromium():
    found = _chromium()
    if found is None:
        pytest.skip("Chromium is not installed (.ci/run installs Debian's chromium package)")
    return found


def _chromium_run(browser: str, args: list[str], tmp: Path) -> None:
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-pdf-header-footer",
            f"--user-data-dir={tmp / 'profile'}",
            *args,
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_chromium_prints_the_html_one_character_a_page(chromium, tmp_path, system_id):
    system, tables = _pack(system_id)
    chars = _chars(system_id, "pc", 2, 31)
    source = tmp_path / "sheet.html"
    source.write_text(printable.html(system, tables, chars, 2), encoding="utf-8")
    printed = tmp_path / "sheet.pdf"
    _chromium_run(chromium, [f"--print-to-pdf={printed}", source.as_uri()], tmp_path)
    pages, text, _ = _pdf_text(printed.read_bytes())
    squashed = _squash(text)
    assert all(_squash(c["name"]) in squashed for c in chars)
    assert 2 <= pages <= 4, pages
    shot = tmp_path / "sheet.png"
    _chromium_run(
        chromium, [f"--screenshot={shot}", "--window-size=900,1200", source.as_uri()], tmp_path
    )
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_chromium_prints_npc_cards_several_to_a_page(chromium, tmp_path):
    system, tables = _pack("matinee")
    chars = _chars("matinee", "npc", 24, 5, template="namnlos")
    source = tmp_path / "cards.html"
    source.write_text(printable.html(system, tables, chars, 24), encoding="utf-8")
    printed = tmp_path / "cards.pdf"
    _chromium_run(chromium, [f"--print-to-pdf={printed}", source.as_uri()], tmp_path)
    pages, text, _ = _pdf_text(printed.read_bytes())
    assert pages <= 8, pages
    assert all(_squash(c["name"]) in _squash(text) for c in chars)


def test_document_is_plain_json_data():
    system, tables = _pack("savage")
    doc = printable.document(system, tables, _chars("savage", "pc", 1, 2), 1)
    assert json.loads(json.dumps(doc)) == doc


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_printed_words_come_from_the_labels_file_in_the_games_language(system_id):
    system, tables = _pack(system_id)
    tables.labels.missing.clear()
    for seed in range(5):
        for kind in ("pc", "npc"):
            doc = printable.document(system, tables, _chars(system_id, kind, 1, seed), 1)
            shown = [doc["words"]["trackers"], doc["words"]["notes"]]
            shown += [t["label"] for d in doc["sheets"] + doc["cards"] for t in d["trackers"]]
            for text in shown:
                assert not re.search(r"True|False|None|\{'|\['|_", text), text
    assert not {k for k in tables.labels.missing if k.startswith("print") or ":" not in k}, (
        tables.labels.missing
    )
    words = {"sv": "Under spel", "da": "Under spillet", "hu": "Játék közben"}
    assert doc["words"]["trackers"] == words[system.language]


def test_a_long_batch_is_set_in_chunks_and_joined_into_one_pdf(monkeypatch):
    monkeypatch.setattr(printable, "CHUNK", 5)
    system, tables = _pack("karma")
    chars = _chars("karma", "npc", 12, 8)
    data = printable.pdf(system, tables, chars, 12)
    assert data == printable.pdf(system, tables, chars, 12)  # workers and all
    pages, text, page_objs = _pdf_text(data)
    pieces = [
        printable.pdf(system, tables, chars[i : i + 5], len(chars[i : i + 5]))
        for i in range(0, 12, 5)
    ]
    assert pages == sum(_pdf_text(p)[0] for p in pieces) >= 3
    squashed = _squash(text)
    assert all(_squash(c["name"]) in squashed for c in chars)
    assert _squash("1–5 / 12") in squashed and _squash("11–12 / 12") in squashed
    assert all((round(p.mediabox.width), round(p.mediabox.height)) == A4 for p in page_objs)


def test_every_play_track_gets_its_boxes_power_points_and_shaken_too():
    system, tables = _pack("savage")
    arcane = 0
    for char in _chars("savage", "pc", 200, 13):
        rows = {t["label"]: t for t in printable.trackers(system, tables, char)}
        assert rows["Megzavart"]["boxes"] == 1
        power = (char.get("arkan_hatter") or {}).get("hatalompont")
        assert (rows["Hatalompont"]["boxes"] if "Hatalompont" in rows else None) == power
        arcane += power is not None
    assert 10 < arcane < 190  # both kinds were seen
    for char in _chars("savage", "npc", 50, 13):  # Extras too
        labels = [t["label"] for t in printable.trackers(system, tables, char)]
        assert "Megzavart" in labels
    squad = _chars("savage", "npc", 5, 3, squad=True)
    card = printable.document(system, tables, squad, 5)["cards"][0]
    assert [t["label"] for t in card["trackers"]] == [c["name"] for c in squad]
    for row in card["trackers"]:
        assert "Megzavart" in [g["caption"] for g in row["groups"]]


def test_a_damage_track_is_grouped_by_its_penalty_bands():
    system, tables = _pack("matinee")
    char = _chars("matinee", "pc", 1, 4)[0]
    skada = next(t for t in printable.trackers(system, tables, char) if t["label"] == "Skada")
    assert [g["count"] for g in skada["groups"]] == [4, 5, 5, 5, 5, 1]
    assert [g["first"] for g in skada["groups"]] == [1, 5, 10, 15, 20, 25]
    assert [g["caption"] for g in skada["groups"]][:2] == ["±0", "−1"]


def test_rules_texts_the_cards_share_are_printed_once():
    system, tables = _pack("lef")
    chars = _chars("lef", "npc", 30, 6)
    doc = printable.document(system, tables, chars, 30)
    listed = [text for group in doc["rules"] for entry in group["entries"] for text in entry]
    assert "En tilstand kan aldrig stige over sit loft" in listed
    for card in doc["cards"]:  # no long text left on two cards
        assert all(t["note"] is None for t in card["trackers"])
    seen: dict[str, int] = {}
    for card in doc["cards"]:
        for sec in card["sections"]:
            for cell in [c for r in sec["rows"] for c in r[1:]] + [sec["text"] or ""]:
                if len(cell) >= printable.RULES_MIN:
                    seen[cell] = seen.get(cell, 0) + 1
    assert all(n == 1 for n in seen.values()), [t for t, n in seen.items() if n > 1][:3]
    pages, text, _ = _pdf_text(printable.pdf(system, tables, chars, 30))
    assert _squash(text).count(_squash("En tilstand kan aldrig stige over sit loft")) == 1


def test_chromium_prints_every_card_whole(chromium, tmp_path):
    """Each printed page of cards begins with a card's name: none runs on from the last."""
    system, tables = _pack("lef")
    chars = _chars("lef", "npc", 12, 3)
    source = tmp_path / "cards.html"
    source.write_text(printable.html(system, tables, chars, 12), encoding="utf-8")
    printed = tmp_path / "cards.pdf"
    _chromium_run(chromium, [f"--print-to-pdf={printed}", source.as_uri()], tmp_path)
    reader = pypdf.PdfReader(printed)
    names = {_squash(c["name"]) for c in chars}
    rules = _squash(tables.labels("print_rules").upper())
    for number, page in enumerate(reader.pages[1:], 2):
        first = _squash(page.extract_text().strip().splitlines()[0])
        assert first in names or first.upper().startswith(rules), (number, first)
    assert len(reader.pages) <= 8


def test_a_games_print_table_may_choose_a_sections_component(tmp_path):
    result = run("karma", "pc", "--seed", "2", "-f", "html")
    assert result.exit_code == 0, result.stderr
    assert 'class="attrs"' in result.stdout  # Egenskaper: a few dice, in boxes
    pack = tmp_path / "karma"
    pack.mkdir()
    (pack / "print.toml").write_text(
        '[[entries]]\nid = "egenskaper"\nsection = "Egenskaper"\ncomponent = "fields"\n',
        encoding="utf-8",
    )
    result = run("karma", "pc", "--seed", "2", "-f", "html", "--tables", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert 'class="attrs"' not in result.stdout and "Egenskaper" in result.stdout
