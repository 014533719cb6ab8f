"""Text layout for people: wrapping, tables that fit a width, rosters, Markdown.

chargen lays out its own tables instead of calling tabulate: a sheet needs cells
that wrap to fit 80 columns, rosters that shrink their headers and drop columns,
and Markdown cells escaped; and importing tabulate 0.10 costs about 40 ms (it
imports importlib.metadata), a third of a whole sheet's run.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

GAP = "  "
MIN_WIDTH = 20
HANG = "  "  # the hanging indent of a wrapped paragraph


# -- words and lines -------------------------------------------------------------


NBSP = "\u00a0"  # joins words that must stay on one line ("Tung pistol +1": the +1)
_BREAKS = re.compile(r"[^\S\u00a0]+")


def whole(item: str) -> str:
    """An item of a list in a wrapping column ("Språk Standard 15"), kept on one line
    while it fits one: the list wraps between its items, not inside one."""
    return item.replace(" ", NBSP)


# Text below U+0300 (Latin with its diacritics: å ö ő ű æ) is one column a character,
# the common case, checked at C speed; anything else is counted character by character.
def _one_column(text: str) -> bool:
    return not text or max(text) < "\u0300"  # at C speed, and no pattern to compile


def display_width(text: str) -> int:
    """The columns `text` takes on a terminal: East Asian wide and fullwidth characters
    two, combining marks and other zero-width characters none, the rest one."""
    if text.isascii() or _one_column(text):  # isascii is a flag CPython keeps
        return len(text)
    return sum(_char_width(ch) for ch in text)


def _char_width(ch: str) -> int:
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def ljust(text: str, width: int) -> str:
    """`text` padded with spaces to `width` columns (str.ljust counts characters)."""
    if text.isascii():
        return text.ljust(width)
    return text + " " * (width - display_width(text))


def rjust(text: str, width: int) -> str:
    if text.isascii():
        return text.rjust(width)
    return " " * (width - display_width(text)) + text


def fit_prefix(text: str, columns: int) -> int:
    """How many characters of `text` fit in `columns` (at least one)."""
    if _one_column(text):
        return max(1, min(columns, len(text)))
    used = 0
    for n, ch in enumerate(text):
        used += _char_width(ch)
        if used > columns:
            return max(1, n)
    return len(text)


def words(text: str) -> list[str]:
    """The words of a line where it may break: at white space, but not at a no-break
    space."""
    return [w for w in _BREAKS.split(text) if w]


def cell_text(value: Any) -> str:
    """A cell as text (lists joined; None empty). Systems give display values."""
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ", ".join(cell_text(v) for v in value)
    return str(value)


def wrap(text: str, width: int, indent: str = "", first: str = "") -> list[str]:
    """Lines of at most `width`: words kept whole where they fit, a longer word broken
    with a '-' at each break; `first` starts line one, `indent` every later line.
    Words joined by a no-break space stay on one line while they fit on one (and are
    printed with a plain space). Explicit line breaks in `text` are kept."""
    text = str(text)
    # one column a character (nearly always): plain len, as fast as before
    dw = len if _one_column(text) and indent.isascii() and first.isascii() else display_width
    width = max(width, dw(indent) + 2, dw(first) + 2)
    out: list[str] = []
    for n, paragraph in enumerate(str(text).split("\n")):
        lead = first if n == 0 else indent
        line = lead
        fresh = True  # nothing but the lead on this line yet
        queue = words(paragraph)[::-1]
        while queue:
            word = queue.pop()
            if NBSP in word and dw(indent) + dw(word) > width and "-" not in word:
                queue += word.split(NBSP)[::-1]  # too long for any line: its parts
                continue
            room = width - dw(line) - (0 if fresh else 1)
            if dw(word) <= room:
                line = line + word if fresh else f"{line} {word}"
                fresh = False
                continue
            if not fresh:
                out.append(line)
                line, fresh = indent, True
            left = dw(word)  # (kept as the word is cut: a long word costs its length once)
            while dw(line) + left > width:
                cut = width - dw(line) - 1
                # a compound breaks at its own hyphen
                own = word.rfind("-", 0, cut + 1 if dw is len else fit_prefix(word, cut + 1))
                keep = own + 1 if own > 0 else cut if dw is len else fit_prefix(word, cut)
                piece, word = word[:keep], word[keep:]
                out.append(line + piece + ("" if own > 0 else "-"))
                left -= dw(piece)
                line = indent
            line, fresh = line + word, False
        out.append(line.rstrip() if not fresh else lead.rstrip())
    return [line.replace(NBSP, " ") for line in out] if NBSP in str(text) else out


def _is_number(text: str) -> bool:
    t = text.replace("−", "-").replace("+", "").replace("%", "").replace(",", ".")
    try:
        float(t)
    except ValueError:
        return False
    return True


def _longest_word(lines: Sequence[str]) -> int:
    return max((display_width(w) for line in lines for w in words(line)), default=0)


# -- tables ----------------------------------------------------------------------


def fit_widths(natural: list[int], floors: list[int], width: int) -> list[int]:
    """Shrink the widest columns (never below their floor) until the row fits `width`;
    if the floors themselves do not fit, shrink below them down to 3."""
    widths = list(natural)
    room = width - len(GAP) * (len(widths) - 1)
    for lows in (floors, [min(3, f) for f in floors]):
        while sum(widths) > room:
            candidates = [i for i, w in enumerate(widths) if w > lows[i]]
            if not candidates:
                break
            widest = max(candidates, key=lambda i: (widths[i], i))
            widths[widest] -= 1
        if sum(widths) <= room:
            break
    return widths


def table_lines(
    rows: Sequence[Sequence[Any]],
    headers: Sequence[str] | None,
    width: int,
    wrap_from: int = 0,
    folds: int = 1,
) -> list[str]:
    """A plain-text table that fits `width`: headers underlined with dashes (or none),
    cells wrapped within their column, numbers right-aligned.

    `folds` > 1: each row holds that many records side by side (a sheet's skills two to
    a row); where they do not fit beside each other without breaking a word, they are
    printed one record a row, in reading order (the first fold's column, then the next's)."""
    body = [[cell_text(c) for c in row] for row in rows]
    ncols = max([len(r) for r in body] + [len(headers or ())])
    if ncols == 0:
        return []
    body = [r + [""] * (ncols - len(r)) for r in body]
    head = list(headers or ()) + [""] * (ncols - len(headers or ()))
    numeric = [
        all(_is_number(r[i]) for r in body if r[i]) and any(r[i] for r in body)
        for i in range(ncols)
    ]
    natural, floors = [], []
    for i in range(ncols):
        cells = [line for r in body for line in r[i].split("\n")]
        if headers:
            cells += head[i].split("\n")
        longest = max((display_width(c) for c in cells), default=0)
        natural.append(longest)
        short = longest <= 10 or numeric[i] or i < wrap_from
        floors.append(longest if short else min(max(_longest_word(cells), 8), longest))
    widths = fit_widths(natural, floors, width)
    if folds > 1 and ncols % folds == 0 and any(w < f for w, f in zip(widths, floors, strict=True)):
        return table_lines(*_unfolded(body, head, folds), width, wrap_from)
    if headers and sum(widths) + len(GAP) * (ncols - 1) > width:
        if len(body) == 1 and ncols > 2:  # one row under headers (a track): turned on its side
            turned = [[h, c] for h, c in zip(head[1:], body[0][1:], strict=True)]
            return table_lines(turned, [head[0], body[0][0]], width)
        return _records(body, head, width)  # too many columns for the width, even squeezed
    out: list[str] = []

    def emit(cells: list[str]) -> None:
        wrapped = [wrap(c, widths[i]) if c else [""] for i, c in enumerate(cells)]
        for n in range(max(len(w) for w in wrapped)):
            parts = []
            for i, w in enumerate(wrapped):
                text = w[n] if n < len(w) else ""
                parts.append(rjust(text, widths[i]) if numeric[i] else ljust(text, widths[i]))
            out.append(GAP.join(parts).rstrip())

    if headers:
        emit(head)
        out.append(GAP.join("-" * w for w in widths))
    for row in body:
        emit(row)
    return out


def _unfolded(body: list[list[str]], head: list[str], folds: int) -> tuple[list, list | None]:
    """A folded table's rows (see table_lines) one record a row: each fold's records in
    turn, the empty cells that filled a last row left out, and one fold's headers."""
    size = len(head) // folds
    records = [row[n * size : (n + 1) * size] for n in range(folds) for row in body]
    headers = head[:size] if any(head) else None
    return [r for r in records if any(r)], headers


def _records(body: list[list[str]], head: list[str], width: int) -> list[str]:
    """A table too wide for `width` as one record a row: its first cell, then each
    other column's header beside its cell (a blank line between records)."""
    out: list[str] = []
    for row in body:
        if out:
            out.append("")
        out += wrap(" ".join(row[0].split("\n")), width, HANG)
        pairs = [(" ".join(h.split("\n")), c) for h, c in zip(head[1:], row[1:], strict=True)]
        out += [HANG + line for line in items_lines(pairs, width - len(HANG), False)]
    return out


def md_escape(value: Any) -> str:
    """A Markdown table cell: pipes escaped, line breaks as <br>."""
    text = cell_text(value).replace(NBSP, " ").replace("\\", "\\\\").replace("|", "\\|")
    return "<br>".join(part.strip() for part in text.split("\n"))


def md_table(rows: Sequence[Sequence[Any]], headers: Sequence[str] | None) -> list[str]:
    ncols = max([len(r) for r in rows] + [len(headers or ())])
    if ncols == 0:
        return []
    head = [md_escape(h) for h in headers or ()] + [""] * (ncols - len(headers or ()))
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join([" --- "] * ncols) + "|"]
    for row in rows:
        cells = [md_escape(c) for c in row] + [""] * (ncols - len(row))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


# -- sheets ----------------------------------------------------------------------


def section_text(sections: Iterable, markdown: bool, title: str = "", width: int = 80) -> str:
    """A sheet (Sections) as plain text fitting `width`, or as Markdown."""
    width = max(width, MIN_WIDTH)
    out: list[str] = []
    if title:
        if markdown:
            out += [f"# {md_inline(title)}", ""]
        else:
            lines = wrap(title, width)
            out += [*lines, "=" * min(max(display_width(x) for x in lines), width), ""]
    for section in sections:
        if markdown:
            out += [f"## {md_inline(section.title)}", ""]
        else:
            lines = wrap(section.title, width)
            out += [*lines, "-" * min(max(display_width(x) for x in lines), width)]
        if section.text:
            for paragraph in str(section.text).split("\n"):
                if markdown:
                    out.append(md_inline(paragraph) + "  ")
                else:
                    out += wrap(paragraph, width, HANG)
            if markdown:
                out[-1] = out[-1].rstrip()
                out.append("")
        if section.items:
            out += items_lines(section.items, width, markdown)
            if markdown:
                out.append("")
        if section.rows:
            if markdown:
                out += md_table(section.rows, section.headers)
                out.append("")
            else:
                out += table_lines(section.rows, section.headers, width, folds=section.folds)
        if not markdown:
            out.append("")
    return "\n".join(out).rstrip() + "\n"


_MD_START = re.compile(r"^(\s*)([#>*+-]|\d+[.)])(?=\s|$)")


def md_inline(text: Any) -> str:
    """Text outside a table, one line: pipes escaped, and what would start a heading,
    a quote or a list at the line's start (`- 5`, `# 1`, `1.`) escaped too."""
    text = " ".join(cell_text(text).split("\n")).replace("|", "\\|")

    def escape(m: re.Match) -> str:
        mark = m.group(2)
        return m.group(1) + (mark[:-1] + "\\" + mark[-1] if mark[0].isdigit() else "\\" + mark)

    return _MD_START.sub(escape, text)


def items_lines(items: Sequence[tuple[Any, Any]], width: int, markdown: bool) -> list[str]:
    """(name, rules text) pairs: the text wrapped beside the name (a hanging indent)."""
    if markdown:
        out = []
        for name, text in items:
            line = f"- **{md_inline(name)}**"
            out.append(line + (f": {md_inline(text)}" if text else ""))
        return out
    names = [cell_text(n) for n, _ in items]
    col = min(max((display_width(n) for n in names), default=0), max(width // 3, 10))
    out = []
    for name, (_, text) in zip(names, items, strict=True):
        text = cell_text(text)
        if display_width(name) > col:  # a long name stands on its own line, the text under it
            out += wrap(name, width, HANG)
            if text:
                out += wrap(text, width, " " * (col + len(GAP)), " " * (col + len(GAP)))
            continue
        lead = ljust(name, col) + GAP
        out += wrap(text, width, " " * len(lead), lead) if text else [name]
    return out


# -- rosters -----------------------------------------------------------------------


def choose_columns(
    columns: Sequence[Any],
    forms: list[list[str]],
    cells: list[list[str]],
    width: int,
) -> tuple[list[int], list[str], list[int]]:
    """Which columns a roster keeps, the header each shows and each column's width.

    `forms[i]` are column i's header forms, longest first; `cells[r][i]` the texts.
    Headers shrink through their short forms (lowest priority first), wrap columns
    wrap down to 12 (or their longest word, up to 16; a priority-9 column to 22), and
    the lowest-priority columns are dropped until the row fits.
    """
    n = len(columns)
    body_width = [max((display_width(r[i]) for r in cells), default=0) for i in range(n)]
    # a wrap column narrows to 12, or to its longest word (up to 16) so that words such
    # as "Kulsprutepistol" are not broken; the most important (priority 9: the name) to
    # 22, so that a person's name stays on one line while other columns give way
    narrow = [
        min(
            max(12, max((display_width(w) for r in cells for w in _BREAKS.split(r[i])), default=0)),
            16,
        )
        if columns[i].priority < 9
        else 22
        for i in range(n)
    ]

    def attempt(keep: list[int]) -> tuple[list[str], list[int]] | None:
        level = {i: 0 for i in keep}
        room = width - len(GAP) * (len(keep) - 1)

        def widths(wrapped: bool) -> list[int]:
            out = []
            for i in keep:
                head = display_width(forms[i][level[i]])
                body = body_width[i]
                if wrapped and columns[i].wrap:
                    body = min(body, narrow[i])
                out.append(max(head, body))
            return out

        # columns of one priority shrink together, a form at a time, so a row of seven
        # like columns never mixes full and short headers ("Stark Tålig Uppm Öve")
        order = sorted(keep, key=lambda i: (columns[i].priority, -i))
        while sum(widths(False)) > room:
            grown = next((i for i in order if level[i] < len(forms[i]) - 1), None)
            if grown is None:
                break
            for i in order:
                if columns[i].priority == columns[grown].priority and level[i] < len(forms[i]) - 1:
                    level[i] += 1
        if sum(widths(False)) > room and sum(widths(True)) > room:
            return None
        natural = widths(False)
        heads = [forms[i][level[i]] for i in keep]
        if sum(natural) <= room:
            return heads, natural
        # shrink only the wrap columns
        floors = [
            w if not columns[i].wrap else max(display_width(heads[k]), min(w, narrow[i]))
            for k, (i, w) in enumerate(zip(keep, natural, strict=True))
        ]
        return heads, fit_widths(natural, floors, width)

    # a column empty in every row (an NPC batch's personality) gives its room to the others
    keep = [i for i in range(n) if body_width[i] or columns[i].priority >= 9] or list(range(n))
    while True:
        found = attempt(keep)
        if found is not None or len(keep) == 1:
            break
        drop = min(keep, key=lambda i: (columns[i].priority, -i))
        keep.remove(drop)
    if found is None:  # one column that still does not fit: it wraps
        found = ([forms[keep[0]][-1]], [width])
    return keep, found[0], found[1]


def roster_lines(
    headers: list[str],
    widths: list[int],
    rows: list[list[str]],
    numeric: list[bool],
    notes: list[str] | None = None,
) -> Iterator[str]:
    """A roster's lines: headers, a rule, each row (and its line of `notes`, if any)."""

    def emit(cells: list[str]) -> Iterator[str]:
        wrapped = [wrap(c, widths[i]) if c else [""] for i, c in enumerate(cells)]
        for n in range(max(len(w) for w in wrapped)):
            parts = []
            for i, w in enumerate(wrapped):
                text = w[n] if n < len(w) else ""
                parts.append(rjust(text, widths[i]) if numeric[i] else ljust(text, widths[i]))
            yield GAP.join(parts).rstrip()

    yield from emit(headers)
    yield GAP.join("-" * w for w in widths)
    for n, row in enumerate(rows):
        yield from emit(row)
        if notes is not None:
            yield notes[n]
