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
import itertools
import json
from collections.abc import Iterable, Iterator
from typing import Any

from chargen.errors import ChargenError
from chargen.sheet import PRINT_TABLE

MAX_BOXES = 40  # a tracker row longer than this prints its number instead of boxes
CHUNK = 80  # characters typst lays out at a time in a long batch; the PDFs are joined
RULES_MIN = 30  # a card's text this long, shown on two cards or more, prints once per batch
ATTRIBUTE_MAX = 6  # the longest value an attribute box holds (d12+2, 3/3, 14)


def _label(tables, key: str) -> str:
    return tables.labels.key(key, tables)


def _cell(value: Any) -> str:
    from chargen.output import _cell as cell

    value = cell(value)
    return "" if value is None else str(value)


def _section(section, hints: dict[str, str]) -> dict:
    rows = [[_cell(c) for c in row] for row in (section.rows or [])]
    rows += [[_cell(name), _cell(text)] for name, text in getattr(section, "items", None) or ()]
    headers = [str(h) for h in (section.headers or [])]
    if headers and rows:
        width = max(len(headers), *(len(r) for r in rows))
        headers += [""] * (width - len(headers))
        rows = [r + [""] * (width - len(r)) for r in rows]
    sec = {
        "title": str(section.title),
        "text": section.text or None,
        "headers": headers,
        "rows": rows,
    }
    sec["component"] = hints.get(sec["title"]) or _component(sec)
    sec["wide"] = _wide(sec)
    return sec


def _component(sec: dict) -> str:
    """Which of the sheet's components shows a section, from its shape.

    attributes: a few short values (dice, numbers) in boxes; grid: a table with
    headers (skills with values and levels); fields: names and values; text.
    """
    rows = sec["rows"]
    if not rows:
        return "text"
    if sec["headers"]:
        return "grid"
    pairs = [r[i : i + 2] for r in rows for i in range(0, len(r), 2)]
    short = all(len(p) == 2 and 0 < len(p[1]) <= ATTRIBUTE_MAX for p in pairs)
    if short and 3 <= len(pairs) <= 10 and not sec["text"]:
        return "attributes"
    if short and len(pairs) > 10:
        return "values"  # many names with a number each: a skill list in columns
    return "fields"


def _layout_hints(tables) -> dict[str, str]:
    """A system's own placement: print-table entries naming a section and its component."""
    if PRINT_TABLE not in tables:
        return {}
    return {
        str(e["section"]): str(e["component"])
        for e in tables[PRINT_TABLE].entries
        if "section" in e and "component" in e
    }


def _value(char: dict, path: str) -> Any:
    value: Any = char
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def trackers(system, tables, char: dict) -> list[dict]:
    """The rows of boxes a printed sheet of `char` carries, from the system's print table."""
    if PRINT_TABLE not in tables:
        return []
    out = []
    for entry in tables[PRINT_TABLE].entries:
        if "section" in entry or char.get("kind") not in entry.get("kinds", ["pc", "npc"]):
            continue
        label = str(entry.get("name", entry["id"]))
        note = entry.get("description")
        if "boxes" in entry:
            out.append(_row(label, entry["boxes"], entry, note))
            continue
        value = _value(char, entry.get("field", entry["id"]))
        if isinstance(value, dict):
            rows = []
            for key, item in value.items():
                if isinstance(item, dict):
                    item = item.get(entry.get("subfield", ""))
                if _count(item):
                    rows.append(_row(f"{label}: {_label(tables, key)}", item, entry, None))
            if note and rows:
                rows[-1]["note"] = note
            out += rows
        elif _count(value):
            out.append(_row(label, value, entry, note))
    return out


def _row(label: str, count: int, entry: dict, note: str | None) -> dict:
    """A tracker: its boxes in groups (the penalty bands a damage track is read by)."""
    count = max(int(count), 0)
    if count > MAX_BOXES:
        label, count = f"{label} ({count})", 0
    shape = str(entry.get("shape", "box"))
    numbered = bool(entry.get("numbered"))
    sizes = list(entry.get("bands", [])) or [count]
    captions = list(entry.get("band_names", []))
    groups, first = [], 1
    for i, size in enumerate(sizes):
        size = min(int(size), count - first + 1)
        if size <= 0:
            break
        caption = captions[i] if i < len(captions) else ""
        groups.append(
            {
                "caption": caption,
                "count": size,
                "first": first,
                "shape": shape,
                "numbered": numbered,
            }
        )
        first += size
    if first <= count:  # bands shorter than the track: the rest in one group
        groups.append(
            {
                "caption": "",
                "count": count - first + 1,
                "first": first,
                "shape": shape,
                "numbered": numbered,
            }
        )
    return {"label": label, "boxes": count, "numbered": numbered, "note": note, "groups": groups}


def _squad_trackers(system, tables, members: list[dict]) -> list[dict]:
    """A squad card's boxes: each member's own row (Shaken, wounds), named."""
    out = []
    for member in members:
        rows = trackers(system, tables, member)
        groups = [dict(g, caption=g["caption"] or r["label"]) for r in rows for g in r["groups"]]
        if groups:
            out.append(
                {
                    "label": str(member.get("name") or ""),
                    "boxes": sum(g["count"] for g in groups),
                    "numbered": False,
                    "note": None,
                    "groups": groups,
                }
            )
    return out


def document(system, tables, items: Iterable[dict], count: int, step=None) -> dict:
    """Everything a printed batch shows, as plain data: sheets (PCs) and cards (NPCs),
    and the rules texts the cards share, given once (`rules`)."""
    from chargen.output import step_sheet

    sheets: list[dict] = []
    cards: list[dict] = []
    items = list(items)
    hints = _layout_hints(tables)
    batch = None
    if step is None and count > 1 and system.batch_sheet is not None and items:
        batch = system.batch_sheet(items, tables)
    if batch is not None:  # a squad: one card for all its members
        card = _doc(system, tables, items[0], batch, hints, title=batch[0].title if batch else "")
        card["trackers"] = _squad_trackers(system, tables, items)
        cards.append(card)
    else:
        for char in items:
            sections = (
                step_sheet(system, char, tables, step)
                if step is not None
                else system.sheet_sections(char, tables)
            )
            target = cards if char.get("kind") == "npc" and step is None else sheets
            target.append(_doc(system, tables, char, sections, hints))
    first_name = (items[0].get("name") if items else "") or system.name  # a step: no name
    return {
        "title": first_name if len(items) == 1 else f"{system.name}: {len(items)}",
        "lang": system.language,
        "game": system.name,
        "footer": f"{system.name} · chargen",
        "words": {
            "trackers": tables.labels("print_trackers"),
            "notes": tables.labels("print_notes"),
            "rules": tables.labels("print_rules"),
            "remake": tables.labels.word("remake"),
        },
        "sheets": sheets,
        "cards": cards,
        "rules": shared_rules(cards),
    }


def _doc(system, tables, char: dict, sections: list, hints: dict, title: str | None = None):
    recipe = char.get("recipe")
    return {
        "title": title or char.get("name") or system.name,
        "subtitle": system.name,
        "recipe": str(recipe) if recipe else None,
        "sections": [_section(s, hints) for s in sections],
        "trackers": trackers(system, tables, char),
    }


def shared_rules(cards: list[dict]) -> list[dict]:
    """Move the long rules texts two cards or more repeat off the cards, into one list.

    A table cell keeps its row's name and loses its text (a column left empty is
    dropped); a section's text and a tracker's note go. What moves is listed once,
    under its section and column: [{"title", "entries": [[name, text], ...]}].
    """
    if len(cards) < 2:
        return []
    seen: dict[str, int] = {}

    def texts(card: dict) -> set[str]:
        found = set()
        for sec in card["sections"]:
            found.update(c for r in sec["rows"] for c in r[1:] if len(c) >= RULES_MIN)
            found.update(p for p in _paragraphs(sec["text"]) if len(p) >= RULES_MIN)
        found.update(t["note"] for t in card["trackers"] if t["note"])
        return found

    for card in cards:
        for text in texts(card):
            seen[text] = seen.get(text, 0) + 1
    shared = {t for t, n in seen.items() if n >= 2}
    rules: dict[str, dict[str, str]] = {}
    for card in cards:
        for sec in card["sections"]:
            _strip(sec, shared, rules)
        card["sections"] = [s for s in card["sections"] if s["text"] or s["rows"]]
        for t in card["trackers"]:
            if t["note"] in shared:
                rules.setdefault(t["label"].split(":")[0], {})[t["note"]] = ""
                t["note"] = None
    return [
        {"title": title, "entries": [[k, v] if v else ["", k] for k, v in entries.items()]}
        for title, entries in rules.items()
    ]


def _paragraphs(text: str | None) -> list[str]:
    return [p for p in (text or "").split("\n") if p.strip()]


def _strip(sec: dict, shared: set[str], rules: dict[str, dict[str, str]]) -> None:
    kept = []
    for para in _paragraphs(sec["text"]):
        if para in shared:
            rules.setdefault(sec["title"], {})[para] = ""
        else:
            kept.append(para)
    sec["text"] = "\n".join(kept) or None
    if not any(c in shared for r in sec["rows"] for c in r[1:]):
        return
    width = max(len(r) for r in sec["rows"])
    for row in sec["rows"]:
        for i in range(1, len(row)):
            if row[i] in shared:
                column = sec["headers"][i] if sec["headers"] else ""
                title = f"{sec['title']}: {column}" if column else sec["title"]
                rules.setdefault(title, {})[row[0]] = row[i]
                row[i] = ""
    keep = [i for i in range(width) if i == 0 or any(i < len(r) and r[i] for r in sec["rows"])]
    sec["rows"] = [[r[i] for i in keep if i < len(r)] for r in sec["rows"]]
    if sec["headers"]:
        sec["headers"] = [sec["headers"][i] for i in keep]
    if all(len(r) == 1 for r in sec["rows"]):
        sec["component"], sec["headers"] = "names", []
    elif all(len(r) == 2 for r in sec["rows"]):  # a name and a value left: in a row
        sec["headers"] = []
        sec["component"] = _component(sec)


def pdf(system, tables, items: Iterable[dict], count: int, step=None) -> bytes:
    """The batch as one PDF: a page (two at most) per PC, NPC cards packed two across.

    A batch of more than CHUNK characters is set a chunk at a time by worker
    processes (chargen.typeset) and the chunks' PDFs are joined (chargen.pdfjoin): memory stays
    that of a few chunks, whatever the batch's size.
    """
    import importlib.util

    if importlib.util.find_spec("typst") is None:
        raise ChargenError(
            "-f pdf needs typst, which is not installed: pip install typst "
            "(in a checkout of chargen: pip install '.[pdf]', which pins it)"
        )
    from chargen.pdfjoin import join
    from chargen.typeset import typeset, typeset_many

    pieces = documents(system, tables, items, count, step)
    first = next(pieces)
    second = next(pieces, None)
    try:
        if second is None:
            return typeset(_json(first))
        return join(typeset_many(_json(d) for d in itertools.chain([first, second], pieces)))
    except RuntimeError as exc:  # typst reports layout errors this way
        raise ChargenError(f"the PDF could not be laid out: {exc}") from None


def documents(system, tables, items: Iterable[dict], count: int, step=None) -> Iterator[dict]:
    """The batch as printed documents of at most CHUNK characters each (one if it fits);
    a chunk's cards share their rules texts, printed after them."""
    items = iter(items)
    if count <= CHUNK:
        yield document(system, tables, items, count, step)
        return
    start = 1
    while chunk := list(itertools.islice(items, CHUNK)):
        doc = document(system, tables, chunk, len(chunk), step)
        end = start + len(chunk) - 1
        doc["footer"] += f" · {start}–{end} / {count}"
        doc["page_numbers"] = False  # a chunk's pages are numbered from 1: its range instead
        yield doc
        start = end + 1


def _json(doc: dict) -> str:
    return json.dumps(doc, ensure_ascii=False)


def png(system, tables, items: Iterable[dict], count: int, ppi: float = 50) -> list[bytes]:
    """The batch's pages as PNG images (the visual regression tests compare them)."""
    from chargen.typeset import typeset

    pages = typeset(_json(document(system, tables, items, count)), "png", ppi)
    return [pages] if isinstance(pages, bytes) else list(pages)


STYLE = """
*{box-sizing:border-box}
body{font:9pt/1.3 'Libertinus Serif',Georgia,'DejaVu Serif',serif;color:#1d232b;margin:0;
 background:#e6e8eb}
.page{background:#fff;width:210mm;min-height:297mm;margin:8mm auto;padding:12mm;
 box-shadow:0 1px 4px #0003}
.head{display:flex;align-items:baseline;border-bottom:1.4pt solid #1d232b;padding-bottom:3pt;
 margin-bottom:5pt;flex-wrap:wrap}
.head h1{font-size:20pt;margin:0;flex:1}
.game{font-weight:bold;color:#5f6670;letter-spacing:.04em;text-transform:uppercase}
.recipe{font:6.5pt 'DejaVu Sans Mono',monospace;color:#5f6670;width:100%}
h2{font-size:8.5pt;text-transform:uppercase;letter-spacing:.05em;background:#1d232b;color:#fff;
 margin:0 0 3pt;padding:2pt 4pt;border-radius:1.5pt;break-after:avoid}
section{break-inside:avoid;margin-top:7pt}
.cols{column-count:2;column-gap:9pt}
table{border-collapse:collapse;width:100%}
th{text-align:left;font-size:7.5pt;color:#5f6670;border-bottom:.6pt solid #9aa0a6}
td,th{padding:1.5pt 2.5pt;vertical-align:top}
.grid tbody tr:nth-child(even){background:#eceff3}
.kv td{border-bottom:.2pt solid #d4d8dd}.kv td:first-child{font-weight:bold;white-space:nowrap;width:1%}
p{margin:2pt 0;white-space:pre-line}
.attrs{display:grid;grid-template-columns:repeat(auto-fit,minmax(20mm,1fr));gap:4pt}
.attr{border:.8pt solid #1d232b;border-radius:2pt;text-align:center;padding:3pt 2pt}
.attr small{display:block;font-size:6.8pt;font-weight:bold;color:#5f6670}
.attr b{font-size:15pt}
.values{column-count:2;column-gap:9pt}.values div{display:flex;border-bottom:.2pt solid #d4d8dd}
.values span{flex:1}
.track{display:flex;align-items:flex-end;gap:4pt;margin:4pt 0;break-inside:avoid}
.track>b{width:22%;flex:none}.bands{display:flex;flex-wrap:wrap;gap:7pt}
.band small{display:block;font-size:7pt;font-weight:bold;color:#5f6670;min-height:8pt}
.box{display:inline-block;width:13pt;height:13pt;border:.8pt solid #1d232b;border-radius:1pt;
 margin-right:1.6pt;font-size:7pt;color:#5f6670;text-align:center;line-height:12pt}
.box.circle{border-radius:50%}
.note{color:#5f6670;font-size:7pt;width:100%}
.notes{border:.5pt solid #9aa0a6;min-height:24mm;
 background:repeating-linear-gradient(#fff 0 calc(7mm - .3pt),#9aa0a6 calc(7mm - .3pt) 7mm)}
.cards{column-count:2;column-gap:9pt}
.card{break-inside:avoid;page-break-inside:avoid;border:.8pt solid #1d232b;
 border-radius:3pt;margin:0 0 7pt;font-size:7.8pt;overflow:hidden}
.card h1{font-size:10.5pt;margin:0;background:#1d232b;color:#fff;padding:3pt 5pt}
.card .body{padding:1pt 5pt 5pt}.card section{margin-top:3pt}
.card h2{background:none;color:#1d232b;border-bottom:.6pt solid #1d232b;padding:0;font-size:7.5pt}
.card .box{width:8pt;height:8pt;line-height:7pt;font-size:4.5pt}.card .track{margin:2pt 0}
.card .recipe{font-size:5.5pt}.card .track>b{width:28%}
.card .attrs,.card .values{display:block;column-count:auto}
.card .attr,.card .values div{display:inline;border:0;padding:0;margin-right:.7em}
.card .attr small{display:inline;font-size:inherit;font-weight:normal;color:inherit}
.card .attr b{font-size:inherit}.card .values span{margin-right:.25em}
.rules{column-count:2;column-gap:9pt;font-size:7.8pt}
@page{size:A4;margin:12mm}
@media print{
 body{background:#fff}
 .page{margin:0;padding:0;width:auto;min-height:0;box-shadow:none;break-after:page}
 .page:last-child{break-after:auto}
}
"""


def html(system, tables, items: Iterable[dict], count: int, step=None) -> str:
    """The batch as one self-contained HTML page that prints like the PDF: the same
    components, sheets a page each, cards whole and packed two columns across."""
    doc = document(system, tables, items, count, step)
    esc = _html.escape
    words = doc["words"]
    out = [
        "<!DOCTYPE html>",
        f'<html lang="{esc(doc["lang"])}"><head><meta charset="utf-8">',
        f"<title>{esc(doc['title'])}</title>",
        '<meta name="generator" content="chargen">',
        f"<style>{STYLE}</style></head><body>",
    ]
    for sheet in doc["sheets"]:
        out.append('<div class="page sheet">')
        recipe = (
            f'<div class="recipe">{esc(words["remake"])}: {esc(sheet["recipe"])}</div>'
            if sheet["recipe"]
            else ""
        )
        out.append(
            f'<div class="head"><h1>{esc(sheet["title"])}</h1>'
            f'<span class="game">{esc(doc["game"])}</span>{recipe}</div>'
        )
        run: list[str] = []
        for sec in sheet["sections"]:
            if sec["wide"]:
                if run:
                    out.append(f'<div class="cols">{"".join(run)}</div>')
                    run = []
                out.append(_html_section(sec, esc))
            else:
                run.append(_html_section(sec, esc))
        if run:
            out.append(f'<div class="cols">{"".join(run)}</div>')
        out.append(_html_tracks(sheet["trackers"], words["trackers"], esc))
        out.append(f'<section><h2>{esc(words["notes"])}</h2><div class="notes"></div></section>')
        out.append("</div>")
    if doc["cards"] or doc["rules"]:
        out.append(f'<div class="page"><div class="head"><h1>{esc(doc["game"])}</h1></div>')
        out.append('<div class="cards">')
        for card in doc["cards"]:
            recipe = f'<div class="recipe">{esc(card["recipe"])}</div>' if card["recipe"] else ""
            body = "".join(_html_section(s, esc) for s in card["sections"])
            tracks = _html_tracks(card["trackers"], words["trackers"], esc)
            out.append(
                f'<div class="card"><h1>{esc(card["title"])}</h1>'
                f'<div class="body">{recipe}{body}{tracks}</div></div>'
            )
        out.append("</div>")
        if doc["rules"]:
            out.append(f'<section><h2>{esc(words["rules"])}</h2><div class="rules">')
            for group in doc["rules"]:
                entries = "".join(
                    f"<p><b>{esc(name)}:</b> {esc(text)}</p>" if name else f"<p>{esc(text)}</p>"
                    for name, text in group["entries"]
                )
                out.append(f"<section><h2>{esc(group['title'])}</h2>{entries}</section>")
            out.append("</div></section>")
        out.append("</div>")
    out.append("</body></html>\n")
    return "\n".join(out)


def _wide(sec: dict) -> bool:
    """Whether a sheet's section takes the page's width (boxes in a row, broad tables,
    long texts) rather than half of it."""
    return (
        sec["component"] == "attributes"
        or len(sec["headers"]) > 4
        or len(sec["text"] or "") > 400
        or any(len(c) > 60 for r in sec["rows"] for c in r[1:])
    )


def _html_tracks(rows: list[dict], title: str, esc) -> str:
    if not rows:
        return ""
    out = [f"<section><h2>{esc(title)}</h2>"]
    for t in rows:
        bands = []
        for g in t["groups"]:
            shape = " circle" if g["shape"] == "circle" else ""
            marks = "".join(
                f'<span class="box{shape}">{g["first"] + i if g["numbered"] else ""}</span>'
                for i in range(g["count"])
            )
            caption = f"<small>{esc(g['caption'])}</small>" if g["caption"] else "<small></small>"
            bands.append(f'<span class="band">{caption}{marks}</span>')
        note = f'<div class="note">{esc(t["note"])}</div>' if t["note"] else ""
        out.append(
            f'<div class="track"><b>{esc(t["label"])}</b>'
            f'<div class="bands">{"".join(bands)}{note}</div></div>'
        )
    out.append("</section>")
    return "".join(out)


def _pairs(sec: dict) -> list[list[str]]:
    return [
        r[i : i + 2] for r in sec["rows"] for i in range(0, len(r), 2) if len(r[i : i + 2]) == 2
    ]


def _html_section(sec: dict, esc) -> str:
    parts = [f"<section><h2>{esc(sec['title'])}</h2>"]
    if sec["text"]:
        parts.append(f"<p>{esc(sec['text'])}</p>")
    kind = sec["component"]
    if sec["rows"] and kind == "attributes":
        cells = "".join(
            f'<div class="attr"><small>{esc(n)}</small> <b>{esc(v)}</b></div>'
            for n, v in _pairs(sec)
        )
        parts.append(f'<div class="attrs">{cells}</div>')
    elif sec["rows"] and kind == "values":
        cells = "".join(f"<div><span>{esc(n)}</span> <b>{esc(v)}</b></div>" for n, v in _pairs(sec))
        parts.append(f'<div class="values">{cells}</div>')
    elif sec["rows"] and kind == "names":
        parts.append(f"<p>{esc(' · '.join(r[0] for r in sec['rows']))}</p>")
    elif sec["rows"] and sec["headers"]:
        head = "".join(f"<th>{esc(h)}</th>" for h in sec["headers"])
        body = "".join(
            "<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in sec["rows"]
        )
        parts.append(
            f'<table class="grid"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
        )
    elif sec["rows"]:
        body = "".join(
            f"<tr><td>{esc(row[0])}</td><td>{esc('  '.join(c for c in row[1:] if c))}</td></tr>"
            for row in sec["rows"]
        )
        parts.append(f'<table class="kv"><tbody>{body}</tbody></table>')
    parts.append("</section>")
    return "".join(parts)
