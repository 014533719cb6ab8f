"""Printable output: `-f html` (one self-contained page) and `-f pdf` (typst).

Both are a third consumer of the `Section`s a system's sheet is made of, beside
the terminal sheet and Markdown: nothing of a system's sheet is written twice.
A player character is one A4 page (two at most) with the game's trackers (Skada,
KP, tilstande, Sebek, karma dice, ...) as boxes to fill in during play; NPCs
print as cards, several to a page, and a Savage squad as one card naming its
members. The trackers are data: each system's `print.toml` lists them.

The PDF is made by typst (the `pdf` extra: `pip install '.[pdf]'`), from a template shipped
with the package (`sheet.typ`) and the sheet as JSON, with typst's embedded fonts
only, so the same seed gives the same bytes on every machine.
"""

from __future__ import annotations

import html as _html
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from chargen.errors import ChargenError
from chargen.sheet import PRINT_TABLE

MAX_BOXES = 40  # a tracker row longer than this prints its number instead of boxes

TEMPLATE = Path(__file__).with_name("sheet.typ")


def _label(tables, key: str) -> str:
    return tables.labels.key(key, tables)


def _cell(value: Any) -> str:
    from chargen.output import _cell as cell

    value = cell(value)
    return "" if value is None else str(value)


def _section(section) -> dict:
    rows = [[_cell(c) for c in row] for row in (section.rows or [])]
    rows += [[_cell(name), _cell(text)] for name, text in getattr(section, "items", None) or ()]
    headers = [str(h) for h in (section.headers or [])]
    if headers and rows:
        width = max(len(headers), *(len(r) for r in rows))
        headers += [""] * (width - len(headers))
        rows = [r + [""] * (width - len(r)) for r in rows]
    return {
        "title": str(section.title),
        "text": section.text or None,
        "headers": headers,
        "rows": rows,
    }


def _groups(sections: list[dict]) -> list[list[dict]]:
    """Small key-value sections side by side (up to three); tables and text alone."""
    groups: list[list[dict]] = []
    run: list[dict] = []

    def small(sec: dict) -> bool:
        return not sec["headers"] and not sec["text"] and 0 < len(sec["rows"]) <= 12

    for sec in sections:
        if small(sec) and all(len(r) <= 3 and sum(map(len, r)) <= 60 for r in sec["rows"]):
            run.append(sec)
            if len(run) == 3:
                groups.append(run)
                run = []
            continue
        if run:
            groups.append(run)
            run = []
        groups.append([sec])
    if run:
        groups.append(run)
    return groups


def _value(char: dict, path: str) -> Any:
    value: Any = char
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def trackers(system, tables, char: dict) -> list[dict]:
    """The rows of boxes a printed sheet of `char` carries, from the system's print table."""
    if PRINT_TABLE not in tables:
        return []
    out = []
    for entry in tables[PRINT_TABLE].entries:
        if char.get("kind") not in entry.get("kinds", ["pc", "npc"]):
            continue
        label = str(entry.get("name", entry["id"]))
        note = entry.get("description")
        if "boxes" in entry:
            out.append(_row(label, entry["boxes"], entry, note))
            continue
        value = _value(char, entry.get("field", entry["id"]))
        if isinstance(value, dict):
            for key, item in value.items():
                if isinstance(item, dict):
                    item = item.get(entry.get("subfield", ""))
                if isinstance(item, int) and not isinstance(item, bool) and item > 0:
                    out.append(_row(f"{label}: {_label(tables, key)}", item, entry, None))
            if note and out:
                out[-1]["note"] = note
        elif isinstance(value, int) and not isinstance(value, bool) and value > 0:
            out.append(_row(label, value, entry, note))
    return out


def _row(label: str, count: int, entry: dict, note: str | None) -> dict:
    count = max(int(count), 0)
    if count > MAX_BOXES:
        label, count = f"{label} ({count})", 0
    return {"label": label, "boxes": count, "numbered": bool(entry.get("numbered")), "note": note}


def document(system, tables, items: Iterable[dict], count: int, step=None) -> dict:
    """Everything a printed batch shows, as plain data: sheets (PCs) and cards (NPCs)."""
    from chargen.output import step_sheet

    sheets: list[dict] = []
    cards: list[dict] = []
    items = list(items)
    batch = None
    if step is None and count > 1 and system.batch_sheet is not None and items:
        batch = system.batch_sheet(items, tables)
    if batch is not None:  # a squad: one card for all its members
        first = items[0]
        cards.append(_doc(system, tables, first, batch, title=batch[0].title if batch else ""))
    else:
        for char in items:
            sections = (
                step_sheet(system, char, tables, step)
                if step is not None
                else system.sheet_sections(char, tables)
            )
            target = cards if char.get("kind") == "npc" and step is None else sheets
            target.append(_doc(system, tables, char, sections))
    first_name = items[0].get("name") if items else ""
    return {
        "title": first_name if len(items) == 1 else f"{system.name}: {len(items)}",
        "lang": system.language,
        "footer": f"{system.name} · chargen",
        "words": {
            "trackers": tables.labels("print_trackers"),
            "notes": tables.labels("print_notes"),
        },
        "sheets": sheets,
        "cards": cards,
    }


def _doc(system, tables, char: dict, sections: list, title: str | None = None) -> dict:
    secs = [_section(s) for s in sections]
    return {
        "title": title or char.get("name") or system.name,
        "subtitle": system.name,
        "groups": _groups(secs),
        "trackers": trackers(system, tables, char),
    }


def pdf(system, tables, items: Iterable[dict], count: int, step=None) -> bytes:
    """The batch as one PDF: a page (two at most) per PC, NPC cards two across."""
    try:
        import typst
    except ImportError:
        raise ChargenError(
            "-f pdf needs typst, which is not installed: pip install typst "
            "(in a checkout of chargen: pip install '.[pdf]', which pins it)"
        ) from None
    data = json.dumps(document(system, tables, items, count, step), ensure_ascii=False)
    try:
        return typst.compile(
            TEMPLATE.read_bytes(), sys_inputs={"data": data}, ignore_system_fonts=True
        )
    except RuntimeError as exc:  # typst reports layout errors this way
        raise ChargenError(f"the PDF could not be laid out: {exc}") from None


STYLE = """
*{box-sizing:border-box}
body{font:10pt/1.35 Georgia,'Libertinus Serif','DejaVu Serif',serif;color:#222;margin:0;background:#eee}
.page{background:#fff;width:210mm;min-height:297mm;margin:8mm auto;padding:12mm 13mm;
 box-shadow:0 1px 4px #0003}
h1{font-size:20pt;margin:0 0 2pt}
.sub{color:#777;font-size:9pt;margin-bottom:8pt}
h2{font-size:9.5pt;text-transform:uppercase;letter-spacing:.04em;border-bottom:1px solid #222;
 margin:9pt 0 3pt;padding-bottom:1pt}
.group{display:flex;gap:10pt}.group>section{flex:1}
table{border-collapse:collapse;width:100%;font-size:9pt}
th{text-align:left;border-bottom:1px solid #999;font-size:8.5pt}
td,th{padding:1.5pt 3pt;vertical-align:top}
tbody tr+tr td{border-top:1px solid #e4e4e4}
.kv td:first-child{font-weight:bold;white-space:nowrap;width:1%}
p{margin:2pt 0;white-space:pre-line}
.track td:first-child{font-weight:bold;white-space:nowrap;width:1%}
.box{display:inline-block;width:10pt;height:10pt;border:1px solid #222;margin-right:2pt;
 font-size:5.5pt;color:#777;text-align:center;line-height:10pt;vertical-align:middle}
.note{color:#777;font-size:8pt}
.notes{border:1px solid #999;border-radius:2pt;min-height:35mm}
.cards{display:grid;grid-template-columns:1fr 1fr;gap:8pt}
.card{border:1px solid #222;border-radius:3pt;padding:6pt;font-size:8.5pt;break-inside:avoid}
.card h1{font-size:12pt}.card table{font-size:8pt}
@page{size:A4;margin:12mm}
@media print{
 body{background:#fff}
 .page{margin:0;padding:0;width:auto;min-height:0;box-shadow:none;break-after:page}
 .page:last-child{break-after:auto}
}
"""


def html(system, tables, items: Iterable[dict], count: int, step=None) -> str:
    """The batch as one self-contained HTML page that also prints cleanly."""
    doc = document(system, tables, items, count, step)
    esc = _html.escape
    out = [
        "<!DOCTYPE html>",
        f'<html lang="{esc(doc["lang"])}"><head><meta charset="utf-8">',
        f"<title>{esc(doc['title'])}</title>",
        '<meta name="generator" content="chargen">',
        f"<style>{STYLE}</style></head><body>",
    ]
    for sheet in doc["sheets"]:
        out.append('<div class="page sheet">')
        out.append(_html_doc(sheet, doc["words"], esc))
        out.append(f'<h2>{esc(doc["words"]["notes"])}</h2><div class="notes"></div></div>')
    if doc["cards"]:
        out.append('<div class="page"><div class="cards">')
        for card in doc["cards"]:
            out.append(f'<div class="card">{_html_doc(card, doc["words"], esc)}</div>')
        out.append("</div></div>")
    out.append("</body></html>\n")
    return "\n".join(out)


def _html_doc(doc: dict, words: dict, esc) -> str:
    parts = [f"<h1>{esc(doc['title'])}</h1>"]
    if doc["subtitle"]:
        parts.append(f'<div class="sub">{esc(doc["subtitle"])}</div>')
    for group in doc["groups"]:
        inner = "".join(_html_section(s, esc) for s in group)
        parts.append(f'<div class="group">{inner}</div>' if len(group) > 1 else inner)
    if doc["trackers"]:
        rows = []
        for t in doc["trackers"]:
            boxes = "".join(
                f'<span class="box">{i + 1 if t["numbered"] else ""}</span>'
                for i in range(t["boxes"])
            )
            note = f'<div class="note">{esc(t["note"])}</div>' if t["note"] else ""
            rows.append(f"<tr><td>{esc(t['label'])}</td><td>{boxes}{note}</td></tr>")
        parts.append(
            f'<h2>{esc(words["trackers"])}</h2><table class="track">{"".join(rows)}</table>'
        )
    return "\n".join(parts)


def _html_section(sec: dict, esc) -> str:
    parts = [f"<section><h2>{esc(sec['title'])}</h2>"]
    if sec["text"]:
        parts.append(f"<p>{esc(sec['text'])}</p>")
    if sec["rows"]:
        if sec["headers"]:
            head = "".join(f"<th>{esc(h)}</th>" for h in sec["headers"])
            body = "".join(
                "<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in sec["rows"]
            )
            parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        else:
            body = "".join(
                f"<tr><td>{esc(row[0])}</td><td>{esc('  '.join(row[1:]))}</td></tr>"
                for row in sec["rows"]
            )
            parts.append(f'<table class="kv"><tbody>{body}</tbody></table>')
    parts.append("</section>")
    return "".join(parts)
