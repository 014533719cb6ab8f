"""Renderers and the places they write to.

Every renderer is a generator of text chunks, so a batch of a million characters
streams with flat memory: JSON arrays are written one element at a time, JSON
Lines one line each, rosters in chunks. Files are written atomically.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from chargen.details import entry_details, field_value, table_text, table_title
from chargen.encode import json_array, jsonl, jsonl_utf8
from chargen.errors import ChargenError, OutputError, PipeClosed, Terminated

FORMATS = ("table", "json", "jsonl", "markdown")
ROSTER_CHUNK = 1000
GAP_WORD = "  "  # how far a roster's line under a row (its seed) is indented
RECIPE_LINES = 5  # a roster's different recipes (seed aside) spelled out under it, at most  # rows per laid-out block of a roster
BATCH_SHEET_LIMIT = 10_000  # a batch sheet (a squad's stat block) collects its members first


def section_text(sections: list, markdown: bool, title: str = "", width: int = 80) -> str:
    """A sheet (a list of Sections) as plain text fitting `width`, or as Markdown."""
    from chargen.render import section_text as layout

    return layout(sections, markdown, title, width)


def roster(
    columns: list,
    items: Iterable[dict],
    markdown: bool,
    labels=None,
    width: int = 80,
    tables=None,
    seeds: bool = False,
) -> Iterator[str]:
    """One row per character, in chunks of ROSTER_CHUNK rows; the columns (chosen and
    abbreviated on the first chunk to fit `width`) stay the same for the whole batch.

    `columns` are chargen.sheet.Columns.
    """
    from chargen.labels import Labels
    from chargen.render import md_table, roster_lines

    labels = labels or Labels()
    cols = list(columns)
    forms = [labels.forms(c.key) if c.key in labels else [c.key] for c in cols]
    recipes: dict[str, None] = {}
    if seeds:  # every member's own seed, the one its recipe names (see recipe_lines)
        from chargen.sheet import Column

        cols.append(Column("seed", priority=9))
        forms.append([labels.word("seed")])
    getters = [_getter(c, labels, tables) for c in cols]
    chosen: tuple | None = None
    rows: list[list[str]] = []
    first = True

    def flush() -> str:
        nonlocal chosen
        if markdown:
            text = "\n".join(md_table(rows, [f[0] for f in forms]))
        else:
            if chosen is None:
                chosen = _roster_columns(cols, forms, rows, max(width, 20), seeds)
            keep, heads, widths = chosen
            body = [[r[i] for i in keep] for r in rows]
            from chargen.render import display_width, fit_widths

            notes = None
            if seeds and len(cols) - 1 not in keep:  # each seed on a line under its row
                word = f"{GAP_WORD}{labels.word('seed')}"
                notes = [
                    f"{word} {r[-1]}"
                    if display_width(word) + 1 + len(r[-1]) <= max(width, 20)
                    else f"{word}\n{GAP_WORD}{r[-1]}"  # a seed is not broken: its own line
                    for r in rows
                ]
            numeric = [_numeric([r[k] for r in body]) for k in range(len(keep))]

            natural = [
                max([widths[k]] + [display_width(r[k]) for r in body]) for k in range(len(keep))
            ]
            final = fit_widths(natural, widths, max(width, 20))
            text = "\n".join(roster_lines(heads, final, body, numeric, notes))
        return text + "\n" if first else "\n" + text + "\n"

    filled: set[int] = set()  # columns with text in some row (an empty one is not left out)
    shown = len(cols) - 1 if seeds else len(cols)  # (the seed column is never "left out")
    placeholder = f"<{labels.word('seed')}>"
    for item in items:
        rows.append([get(item) for get in getters])
        if seeds and " --answers " in (item.get("recipe") or ""):
            # made at the prompts: a member's recipe is the batch up to it, so the last
            # one's makes them all again (each member's seed alone would ask anew)
            recipes = {item["recipe"]: None}
        elif seeds and len(recipes) < RECIPE_LINES:
            recipes[recipe_template(item, placeholder)] = None
        filled.update(i for i, c in enumerate(rows[-1][:shown]) if c)
        if len(rows) == ROSTER_CHUNK:
            yield flush()
            rows, first = [], False
    if rows:
        yield flush()
    if recipes:
        yield from recipe_lines(labels, list(recipes), markdown, max(width, 20))
    if chosen is not None:
        yield from legend(labels, forms, chosen, filled, max(width, 20), cols)
    elif markdown and filled:  # every column and its full header: only the cells' short forms
        every = (list(range(len(cols))), [f[0] for f in forms], None)
        yield from legend(labels, forms, every, filled, max(width, 20), cols)


def _roster_columns(cols: list, forms: list, rows: list, width: int, seeds: bool) -> tuple:
    """The roster's columns (chargen.render.choose_columns). The seed column (the last,
    with `seeds`) is kept when the others fit beside it as they would without it;
    else it is left out and each member's seed goes on a line under its row, so the
    seed never costs the roster a column."""
    from chargen.render import choose_columns

    found = choose_columns(cols, forms, rows, width)
    if not seeds:
        return found
    seed = len(cols) - 1
    without = choose_columns(cols[:-1], forms[:-1], [r[:-1] for r in rows], width)
    others = [(i, h) for i, h in zip(found[0], found[1], strict=True) if i != seed]
    if seed in found[0] and others == list(zip(without[0], without[1], strict=True)):
        return found
    return without


def recipe_template(char: dict, placeholder: str) -> str:
    """A member's recipe with its seed left as `placeholder` (a batch's members share
    everything else); a recipe without the member's own seed (a squad's, which is the
    batch's command) as it is."""
    seed = f" --seed {char['seed']}"
    text = char.get("recipe") or ""
    return text.replace(seed, f" --seed {placeholder}", 1) if seed + " " in text + " " else text


def recipe_lines(labels, recipes: list[str], markdown: bool, width: int) -> Iterator[str]:
    """The lines under a roster that tell how to make a member again."""
    from chargen.render import wrap

    word = labels.word("remake")
    if markdown:
        yield "\n" + "".join(f"{word}: `{r}`  \n" for r in recipes)
        return
    lines = [line for r in recipes for line in wrap(f"{word}: {r}", width, "  ")]
    yield "\n" + "\n".join(lines) + "\n"


def recipe_section(char: dict, labels) -> Any:
    """The sheet's last section: the character's seed and the command that makes it again."""
    from chargen.sheet import Section

    rows = [[labels.word("seed"), char["seed"]], [labels.word("remake"), char["recipe"]]]
    return Section(labels.word("recipe"), rows=rows)


def legend(
    labels,
    forms: list[list[str]],
    chosen: tuple,
    filled: set[int],
    width: int,
    columns: list | None = None,
) -> Iterator[str]:
    """The lines under a plain-text roster, for a labels file that opts in: the short
    headers spelled out (`[words] legend`, "Förkortningar: {items}."), and the short
    forms the cells of a shown column use (its `legend` keys), and the columns left out
    to fit the width (`[words] dropped`), which the JSON still holds."""
    from chargen.labels import substitute
    from chargen.render import NBSP, wrap  # NBSP: "Sta = Stark" stays on one line

    keep, heads, _widths = chosen
    lines: list[str] = []
    template = labels.words.get("legend")

    shortened = [
        f"{h}{NBSP}={NBSP}{forms[i][0]}"
        for i, h in zip(keep, heads, strict=True)
        if h != forms[i][0]
    ]
    for i in keep if columns else ():
        if i in filled:
            shortened += [
                f"{labels.short(k)[-1]}{NBSP}={NBSP}{labels(k)}"
                for k in columns[i].legend
                if labels.short(k)
            ]
    if template and shortened:
        lines += wrap(substitute(template, items=", ".join(shortened)), width, "  ")
    template = labels.words.get("dropped")
    left_out = [forms[i][0] for i in sorted(filled) if i not in keep]
    if template and left_out:
        lines += wrap(substitute(template, items=", ".join(left_out)), width, "  ")
    if lines:
        yield "\n" + "\n".join(lines) + "\n"


def _getter(col, labels, tables):
    """A column's cell text: a character key's value by its name (labels `[values]`),
    a function's result as it is (lists joined)."""
    if callable(col.get):
        get = col.get
        if col.tables:
            return lambda ch: _plain(labels, get(ch, tables))
        return lambda ch: _plain(labels, get(ch))
    key = col.get or col.key
    return lambda ch: labels.value(key, ch.get(key), tables) if ch.get(key) is not None else ""


def _cell(value: Any) -> Any:
    """A value as one cell (lists joined, None empty); kept for chargen.printable."""
    from chargen.render import cell_text

    return cell_text(value) if isinstance(value, list | tuple) or value is None else value


def _plain(labels, value) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return labels.value("", value)


def _numeric(cells: list[str]) -> bool:
    from chargen.render import _is_number

    return any(cells) and all(_is_number(c) for c in cells if c)


NAME_KEYS = ("name", "namn", "navn", "nev")
ENVELOPE = (
    "system",
    "kind",
    "template",
    "seed",
    "name",
    "recipe",
    "version",
    "step",
    "historik",
)
EFFECT_KEYS = ("effects", "effekter", "effekt", "virkning_effekter", "hatasok")


def step_sheet(system, char: dict, tables, step=None) -> list:
    """One step's part of a character, laid out like that part of the sheet.

    The system's Parts whose fields the character has come first; every other step
    field is laid out by its shape, each key under its label, values by name."""
    from chargen.sheet import Section

    labels = tables.labels
    head = [[labels.word("name"), char["name"]]] if char.get("name") else []  # not yet named
    head.append([labels.word("step"), labels(step.id) if step is not None else char["step"]])
    head.append([labels.word("seed"), char["seed"]])
    if char.get("recipe"):
        head.append([labels.word("remake"), char["recipe"]])
    sections = [Section(labels(system.id) if system.id in labels else system.name, rows=head)]
    shown: set[str] = set()
    fields = set(step.fields) if step is not None else set(char) - set(ENVELOPE)
    for part in system.parts:
        if all(f in char for f in part.fields) and fields & set(part.fields):
            sections += part.build(char, tables)
            shown |= set(part.fields)
    for key, value in char.items():
        if key in ENVELOPE or key in shown or value in (None, [], {}) or labels.get(key) == "":
            continue
        sections += _field_sections(key, value, labels, tables, head)
    return sections


def _field_sections(key: str, value: Any, labels, tables, head: list) -> list:
    """A step field by its shape: a scalar joins the head rows, a dict is label/value
    rows, a list of dicts a table with labelled columns."""
    from chargen.sheet import Section

    label = labels(key)
    if isinstance(value, dict):
        if all(isinstance(v, dict) for v in value.values()):
            subkeys = list(dict.fromkeys(k for v in value.values() for k in v))
            rows = [
                [
                    labels.value(key, k, tables),
                    *(_shown(labels, s, v.get(s), tables) for s in subkeys),
                ]
                for k, v in value.items()
            ]
            return [Section(label, rows=rows, headers=["", *(labels(s) for s in subkeys)])]
        rows = [[labels.key(k, tables), _shown(labels, k, v, tables)] for k, v in value.items()]
        return [Section(label, rows=rows)]
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        keys = [k for k in dict.fromkeys(k for v in value for k in v) if k != "id"]
        rows = [[_shown(labels, k, v.get(k), tables) for k in keys] for v in value]
        return [Section(label, rows=rows, headers=[labels(k) for k in keys])]
    head.append([label, _shown(labels, key, value, tables)])
    return []


def _shown(labels, key: str, value: Any, tables) -> str:
    if value is None:
        return ""
    if isinstance(value, dict) and any(isinstance(value.get(k), str) for k in NAME_KEYS):
        return next(value[k] for k in NAME_KEYS if isinstance(value.get(k), str))
    if isinstance(value, dict):
        value = {k: v for k, v in value.items() if k != "id"}
        if key in EFFECT_KEYS or all(isinstance(v, int | float) for v in value.values()):
            return labels.effects(value, tables)
        return "; ".join(
            f"{labels.key(k, tables)} {_shown(labels, k, v, tables)}" for k, v in value.items()
        )
    if isinstance(value, list):
        return ", ".join(_shown(labels, key, v, tables) for v in value)
    return labels.value(key, value, tables)


def render(
    system, tables, items: Iterable[dict], fmt: str, count: int, step=None, width: int = 80
) -> Iterator[str]:
    """The chunks of text for `items` in format `fmt` (`step`: one step's part only).

    Sheets get the pack (`tables`) to look display names up in the tables in use;
    text fits `width` columns.
    """
    if fmt == "json":
        return json_array(items)
    if fmt == "jsonl":
        return jsonl(items)
    markdown = fmt == "markdown"
    labels = tables.labels
    if step is not None:
        if count == 1:
            return (
                section_text(
                    step_sheet(system, c, tables, step), markdown, c.get("name") or "", width
                )
                for c in items
            )
        from chargen.sheet import Column

        columns = list(step.roster) or [
            Column("name", priority=9),
            *(
                Column(f, (lambda c, f=f: _shown(labels, f, c.get(f), tables)), wrap=True)
                for f in step.fields
                if f != "name"
            ),
        ]
        return roster(columns, items, markdown, labels, width, tables, seeds=True)
    if count == 1:
        return (
            section_text(
                [*named(system.sheet_sections(c, tables), tables), recipe_section(c, labels)],
                markdown,
                c.get("name") or "",
                width,
            )
            for c in items
        )
    if system.batch_sheet is not None and count <= BATCH_SHEET_LIMIT:
        return _batch_or_roster(system, tables, list(items), markdown, width)
    return roster(system.roster, items, markdown, labels, width, tables, seeds=True)


def _batch_or_roster(
    system, tables, items: list[dict], markdown: bool, width: int
) -> Iterator[str]:
    sections = system.batch_sheet(items, tables)
    if sections is not None:
        sections = named(sections, tables)
    if sections is None:
        yield from roster(system.roster, items, markdown, tables.labels, width, tables, True)
    else:
        sections.append(recipe_section(items[0], tables.labels))
        yield section_text(sections, markdown, width=width)


_BARE_ID = re.compile(r"^[a-z][a-z0-9_]*$")  # a letter first: an id, not a number
_DICE_WORD = re.compile(r"^\d*[dk]\d+$")


def named(sections: list, tables) -> list:
    """A sheet's sections with every cell that is a bare id (a whole cell such as
    "stadsvakt") shown by its entry's name, from the tables the character was drawn
    from: the engine's safety net, so a sheet never prints an id."""
    labels = tables.labels

    def fix(cell: Any) -> Any:
        if isinstance(cell, str) and _BARE_ID.match(cell) and not _DICE_WORD.match(cell):
            found = labels.get(cell) or labels.loaded_name(cell, tables)
            return found if found is not None else cell
        return cell

    out = []
    for section in sections:
        changes: dict[str, Any] = {}
        if section.rows:
            rows = [[fix(c) for c in row] for row in section.rows]
            if rows != section.rows:
                changes["rows"] = rows
        if section.items:
            items = [(fix(n), t) for n, t in section.items]
            if items != section.items:
                changes["items"] = items
        text = fix(section.text)
        if text != section.text:
            changes["text"] = text
        out.append(section._replace(**changes) if changes else section)
    return out


def terminal_width(stream: TextIO | None = None) -> int:
    """The width of human output: COLUMNS (or the terminal's) when stdout is a
    terminal, else 80."""
    stream = stream or sys.stdout
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not tty:
        return 80
    env = os.environ.get("COLUMNS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        return os.get_terminal_size(stream.fileno()).columns or 80
    except (OSError, ValueError):
        return 80


def progress(items: Iterable[Any], count: int, stream: TextIO | None = None) -> Iterator[Any]:
    """Pass items through, drawing a progress bar on stderr when it is a terminal."""
    stream = stream or sys.stderr
    if count < 2000 or not stream.isatty():
        yield from items
        return
    step = max(count // 100, 1)
    for done, item in enumerate(items, 1):
        yield item
        if done % step == 0 or done == count:
            filled = done * 30 // count
            stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done:,}/{count:,}")
            stream.flush()
    stream.write("\n")


@contextmanager
def destination(path: str | None):
    """stdout, or FILE as the shell's `>` would write it, but atomically.

    A regular file (or a new one) gets a temporary file beside it, renamed over it
    at the end and removed on any error, interrupt, SIGTERM or SIGHUP, so no partial
    file is ever left; the file keeps its mode and owner, and a symlink's target
    is replaced, not the link. Devices, FIFOs and /dev/stdout are written directly.
    What `>` refuses is refused: an empty name, a folder, a name ending in "/", a
    file this user may not write.
    """
    if path is None or path == "-":
        if sys.stdout is None or type(sys.stdout).__name__ == "_ClosedStdout":
            raise OutputError("standard output is closed: give -o FILE to write elsewhere")
        yield sys.stdout
        _flush(sys.stdout, "standard output")
        return
    shown = path if len(path) <= 200 else path[:197] + "..."
    if not path:
        raise OutputError("-o needs a file name ('-' is standard output)")
    if os.path.isdir(path):
        raise OutputError(f"cannot write {shown}: it is a folder")
    if path.endswith(("/", os.sep)):
        raise OutputError(
            f"cannot write {shown}: a name ending in '/' is a folder's; -o names a file"
        )
    try:
        info = os.stat(path)  # follows symlinks: what `>` would write to
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise OutputError(f"cannot write {shown}: {exc.strerror}") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        yield from _direct(path, shown)
        return
    target = Path(os.path.realpath(path))  # a symlink's target is what gets replaced
    folder = target.parent
    if not folder.is_dir():
        raise OutputError(f"cannot write {shown}: folder {Path(path).parent} does not exist")
    if info is not None and not os.access(target, os.W_OK):
        raise OutputError(f"cannot write {shown}: permission denied")
    import tempfile  # only when writing a file: it costs start-up time

    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name[:40]}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(f"cannot write {shown}: {exc.strerror}") from None
    previous = _trap_signals()
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.chargen_name = shown  # what a write error names
            yield handle
            _flush(handle, shown)
        if info is not None:
            os.chmod(tmp, stat.S_IMODE(info.st_mode))
            if (info.st_uid, info.st_gid) != (os.getuid(), os.getgid()):
                with contextlib.suppress(OSError):
                    os.chown(tmp, info.st_uid, info.st_gid)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(f"cannot write {shown}: {exc.strerror or exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    finally:
        _restore_signals(previous)


def _direct(path: str, shown: str):
    """A device, a FIFO or /dev/stdout: opened and written as `>` would, in place."""
    try:
        handle = open(path, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
    except OSError as exc:
        raise OutputError(f"cannot write {shown}: {exc.strerror}") from None
    handle.chargen_name = shown
    try:
        yield handle
        _flush(handle, shown)
    finally:
        with contextlib.suppress(OSError):
            handle.close()


def _flush(stream, shown: str) -> None:
    try:
        stream.flush()
    except BrokenPipeError:
        raise PipeClosed() from None
    except OSError as exc:
        raise OutputError(
            f"cannot write {shown}: {exc.strerror or exc}", stream is sys.stdout
        ) from None


def _trap_signals() -> dict:
    previous = {}

    def stop(signum, frame):
        raise Terminated(signum)

    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None:
            with contextlib.suppress(ValueError, OSError):  # not the main thread
                previous[number] = signal.signal(number, stop)
    return previous


def _restore_signals(previous: dict) -> None:
    for number, handler in previous.items():
        with contextlib.suppress(ValueError, OSError, TypeError):
            signal.signal(number, handler)


# Chunks joined into one write: a batch's lines cost a call of the text layer each
# otherwise. A terminal (line-buffered) gets each chunk as it is made.
WRITE_CHUNKS = 128


def write(chunks: Iterable[str], out: TextIO) -> None:
    """Write every chunk; flush at the end so a closed pipe or a full disk shows up
    here (as PipeClosed or OutputError), not at exit."""
    with _writing(out):
        together = 1 if getattr(out, "line_buffering", False) else WRITE_CHUNKS
        _put(chunks, out.write, together, "")
        out.flush()


def write_jsonl(items: Iterable[Any], out: TextIO) -> None:
    """`write(jsonl(items), out)`, byte for byte. A UTF-8 file or pipe (not a terminal)
    takes the lines as bytes on its buffer: orjson writes UTF-8, so no line is decoded
    into text to be encoded back again (a tenth of a big batch's time)."""
    buffer = getattr(out, "buffer", None)
    if (
        buffer is None
        or getattr(out, "line_buffering", False)
        or os.linesep != "\n"  # a text stream would write "\r\n"
        or _codec_name(getattr(out, "encoding", None)) != "utf-8"
    ):
        write(jsonl(items), out)
        return
    with _writing(out):
        out.flush()  # whatever was written as text goes first
        _put(jsonl_utf8(items), buffer.write, WRITE_CHUNKS, b"")
        buffer.flush()


def _codec_name(encoding: str | None) -> str | None:
    import codecs

    try:
        return codecs.lookup(encoding).name if encoding else None
    except LookupError:
        return None


def _put(
    chunks: Iterable[Any], write_chunk: Callable[[Any], Any], together: int, empty: Any
) -> None:
    """Write the chunks `together` in one call, joined by `empty` ("" for text, b""
    for bytes)."""
    pending: list = []
    try:
        for chunk in chunks:
            pending.append(chunk)
            if len(pending) == together:
                write_chunk(empty.join(pending))
                pending.clear()
    finally:  # what was made before an error is written too
        if pending:
            write_chunk(empty.join(pending))


@contextmanager
def _writing(out: TextIO) -> Iterator[None]:
    """A closed pipe is PipeClosed, a full disk or a lost device an OutputError."""
    try:
        yield
    except BrokenPipeError:
        raise PipeClosed() from None
    except OSError as exc:
        where = "standard output" if out is sys.stdout else getattr(out, "chargen_name", out.name)
        raise OutputError(
            f"cannot write {where}: {exc.strerror or exc}", out is sys.stdout
        ) from None


# -- `--list` and `tables show` ---------------------------------------------------


def listing(tables: list, fmt: str, pack, width: int = 80) -> Iterator[str]:
    """The rows of tables for `tables show` and `--list`, in the game's words:
    range or weight, chance, the result or name, rules text, effects and fields."""
    if fmt in ("json", "jsonl"):
        items = (
            {
                "table": t.name,
                "kind": t.kind,
                "die": t.die.text if t.die else None,
                "description": t.description,
                "entries": [
                    dict(e, chance=round(p * 100, 2))
                    for e, p in zip(t.entries, _chances(t), strict=True)
                ]
                if t.kind not in ("settings", "labels")
                else [],
                **({"settings": t.settings} if t.kind in ("settings", "labels") else {}),
            }
            for t in tables
        )
        yield from json_array(items) if fmt == "json" else jsonl(items)
        return
    from chargen.render import section_text as layout
    from chargen.sheet import Section

    labels = pack.labels
    markdown = fmt == "markdown"
    for table in tables:
        title = table_title(table, labels)
        text = (table.description or "").strip()
        # the title is the description's first sentence (not the start of a longer word:
        # "Blodarv" and "Blodarvene i Valhel.")
        if text.startswith(title) and text[len(title) : len(title) + 1] in ("", ".", ":", ";"):
            text = text[len(title) :].lstrip(".:; ")
            text = text[:1].upper() + text[1:]  # "Hátrányok: bármilyen ..." -> "Bármilyen ..."
        text = text or None
        if table.die:
            title += f" ({labels.dice(table.die.text)})"
        if table.kind == "labels":  # the labels file itself: every key as written
            rows = []
            for section, value in table.settings.items():
                if isinstance(value, dict):
                    rows += [[f"{section}.{k}", _text_list(v)] for k, v in value.items()]
                else:
                    rows.append([section, _text_list(value)])
            heads = [labels.word("setting"), labels.word("value")]
            yield layout([Section(title, rows=rows, headers=heads)], markdown, width=width)
            yield "\n"
            continue
        if table.kind in ("settings", "labels"):
            rows = [
                [labels(k), field_value(table.spec.fields.get(k, "any"), k, v, labels, pack)]
                for k, v in table.settings.items()
                if not isinstance(v, dict) or table.kind == "settings"
            ]
            heads = [labels.word("setting"), labels.word("value")]
            yield layout(
                [Section(title, rows=rows, headers=heads, text=text)], markdown, width=width
            )
            yield "\n"
            continue
        rows = []
        for entry, chance in zip(table.entries, _chances(table), strict=True):
            percent = labels.percent(chance * 100)
            if "result" in entry:
                first = table_text(entry["result"], pack)
                details = entry_details(entry, table, labels, pack)
                what = f"{first} ({details.rstrip('.')})" if details else first
            else:
                name = next(
                    (
                        table_text(entry[k], pack)
                        for k in ("name", "namn", "navn", "nev")
                        if k in entry
                    ),
                    labels.get(entry.get("id", ""), entry.get("id", "")),
                )
                details = entry_details(entry, table, labels, pack)
                what = f"{name}: {details}" if details else name
            where = (
                str(entry.get("roll", "")) if table.die else _weight(entry.get("weight", 1), labels)
            )
            rows.append([where.replace("-", "–") if table.die else where, percent, what])
        heads = [
            labels.word("roll") if table.die else labels.word("weight"),
            labels.word("chance"),
            labels.word("result"),
        ]
        yield layout([Section(title, rows=rows, headers=heads, text=text)], markdown, width=width)
        yield "\n"


def templates_listing(table, fmt: str, pack, width: int = 80) -> Iterator[str]:
    """`SYSTEM npc --list`: one row per NPC template, the id to give `--template`,
    its name and the first sentence of its description."""
    rows = []
    for entry in table.entries:
        text = " ".join(table_text(entry.get("description")).split())
        first = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]
        rows.append(
            {"template": entry["id"], "name": table_text(entry.get("name")), "description": first}
        )
    if fmt in ("json", "jsonl"):
        yield from json_array(rows) if fmt == "json" else jsonl(rows)
        return
    labels = pack.labels
    heads = ["--template", labels.word("name"), labels.word("description")]
    if not any(r["description"] for r in rows):  # templates without descriptions: no column
        heads.pop()
    yield grid([list(r.values())[: len(heads)] for r in rows], heads, fmt == "markdown", width)


def _text_list(value: Any) -> str:
    return " / ".join(map(str, value)) if isinstance(value, list) else str(value)


def _weight(value: Any, labels) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return labels.decimal(value)


def _chances(table) -> list[float]:
    return table.probabilities() if table.kind not in ("settings", "labels") else []


def grid(rows: list, headers: list[str], markdown: bool, width: int = 80) -> str:
    """A plain table of rows (for `roll`, `systems`, `tables list`), fitting `width`."""
    from chargen.render import md_table, table_lines

    lines = md_table(rows, headers) if markdown else table_lines(rows, headers, width)
    return "\n".join(lines) + "\n"


def render_cell(value: Any) -> str:
    """A cell as a Markdown reader gets it back: line breaks as <br>."""
    from chargen.render import cell_text

    return "<br>".join(part.strip() for part in cell_text(value).split("\n"))


@contextmanager
def new_folder(path: str):
    """A folder written whole or not at all: files go into a temporary folder beside
    it, renamed to `path` at the end and removed on any error or interrupt. `path`
    must not exist yet, or be an empty folder."""
    import shutil
    import tempfile

    if not path:
        raise ChargenError("-o needs a folder name here (a new or empty folder)")
    target = Path(path)
    if target.is_symlink():  # as `>` follows a symlink: its folder, when there is one
        if not target.is_dir():
            raise ChargenError(f"cannot write the folder {path}: it is a symlink to no folder")
        target = Path(os.path.realpath(target))
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise ChargenError(f"cannot write {path}: folder {parent} does not exist")
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ChargenError(
            f"cannot write the folder {path}: it exists (name a new or empty folder)"
        )
    try:
        tmp = Path(tempfile.mkdtemp(dir=parent, prefix=f".{target.name[:40]}.", suffix=".tmp"))
    except OSError as exc:
        raise ChargenError(f"cannot write {path}: {exc.strerror}") from None
    previous = _trap_signals()  # SIGTERM, SIGHUP: the temporary folder is removed too
    try:
        try:
            yield tmp
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o777 & ~umask)
        except OSError as exc:  # a full disk, a quota: the outside's fault, exit 2
            raise ChargenError(f"cannot write {path}: {exc.strerror or exc}") from None
        try:
            if target.is_dir():
                target.rmdir()
            os.replace(tmp, target)
        except OSError:  # another writer made it meanwhile (or filled it)
            raise ChargenError(
                f"cannot write the folder {path}: it was made meanwhile by someone else "
                "(name a new or empty folder)"
            ) from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    finally:
        _restore_signals(previous)


def export(fmt, system, tables, items: Iterable[dict], count: int, values: dict, path) -> None:
    """Write a registered format (chargen.formats): text to stdout or `-o FILE`, or
    with -n 2 or more and `-o DIR` (or `-o DIR/`, a folder's name, for one character)
    the folder its module writes, when it has one."""
    module = fmt.load()
    folder = path not in (None, "-") and (count > 1 or path.endswith(("/", os.sep)))
    if folder and hasattr(module, "write_folder"):
        with new_folder(path) as tmp:
            module.write_folder(system, tables, items, count, values, tmp)
        return
    with destination(path) as stream:
        write(module.render(system, tables, items, count, values), stream)


def write_bytes(data: bytes, out) -> None:
    """Write binary output (a PDF) to a text stream's buffer; a closed pipe as in `write`."""
    try:
        out.flush()
        buffer = getattr(out, "buffer", out)
        buffer.write(data)
        buffer.flush()
    except BrokenPipeError:
        raise PipeClosed() from None
    except OSError as exc:  # a full disk behind -o or `>`
        where = "standard output" if out is sys.stdout else getattr(out, "chargen_name", "output")
        raise OutputError(
            f"cannot write {where}: {exc.strerror or exc}", out is sys.stdout
        ) from None
