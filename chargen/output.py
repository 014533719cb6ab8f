"""Renderers and the places they write to.

Every renderer is a generator of text chunks, so a batch of a million characters
streams with flat memory: JSON arrays are written one element at a time, JSON
Lines one line each, rosters in chunks. Files are written atomically.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from chargen.errors import ChargenError, OutputError, PipeClosed, Terminated

FORMATS = ("table", "json", "jsonl", "markdown")
ROSTER_CHUNK = 1000  # rows per tabulated block of a roster (tabulate cannot stream)
BATCH_SHEET_LIMIT = 10_000  # a batch sheet (a squad's stat block) collects its members first

# Characters are trees of plain dicts and lists, so the circular-reference check is skipped.
_compact = json.JSONEncoder(ensure_ascii=False, check_circular=False, separators=(",", ":")).encode
_pretty = json.JSONEncoder(ensure_ascii=False, check_circular=False, indent=2).encode


def jsonl(items: Iterable[Any]) -> Iterator[str]:
    for item in items:
        yield _compact(item) + "\n"


def json_array(items: Iterable[Any]) -> Iterator[str]:
    """A JSON array streamed one element at a time (always an array, even of one)."""
    first = True
    for item in items:
        body = _pretty(item).replace("\n", "\n  ")
        yield ("[\n  " if first else ",\n  ") + body
        first = False
    yield "[]\n" if first else "\n]\n"


def section_text(sections: list, markdown: bool, title: str = "") -> str:
    """A sheet (a list of Sections) as plain text or Markdown."""
    from tabulate import tabulate

    out = []
    if title:
        out.append(f"# {title}\n" if markdown else f"{title}\n{'=' * len(title)}\n")
    for section in sections:
        if markdown:
            out.append(f"## {section.title}\n")
        else:
            out.append(f"{section.title}\n{'-' * len(section.title)}")
        if section.text:
            out.append(section.text + ("\n" if markdown else ""))
        if section.rows:
            if markdown:
                headers = section.headers or [""] * len(section.rows[0])
                out.append(tabulate(section.rows, headers=headers, tablefmt="github") + "\n")
            else:
                out.append(
                    tabulate(
                        section.rows,
                        headers=section.headers or (),
                        tablefmt="simple" if section.headers else "plain",
                    )
                )
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def roster(columns: list, items: Iterable[dict], markdown: bool) -> Iterator[str]:
    """One row per character, tabulated in chunks of ROSTER_CHUNK rows.

    `columns` are (label, key or function of the character) pairs.
    """
    from tabulate import tabulate

    headers = [label for label, _ in columns]
    getters = [(lambda c, k=key: c.get(k)) if isinstance(key, str) else key for _, key in columns]
    rows: list[list] = []
    first = True

    def flush() -> str:
        fmt = "github" if markdown else "simple"
        text = tabulate(rows, headers=headers, tablefmt=fmt)
        return text + "\n" if first else "\n" + text + "\n"

    for item in items:
        rows.append([_cell(get(item)) for get in getters])
        if len(rows) == ROSTER_CHUNK:
            yield flush()
            rows, first = [], False
    if rows:
        yield flush()


def _cell(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    return "" if value is None else value


ENVELOPE = ("system", "kind", "template", "seed", "name", "step", "historik")


def step_sheet(system, char: dict) -> list:
    """A sheet for one step's part of a character: each field under its label."""
    from chargen.procedure import Section

    head = [["Steg", char["step"]], ["Seed", char["seed"]]]
    sections = []
    for key, value in char.items():
        if key in ENVELOPE:
            continue
        label = system.label(key)
        if isinstance(value, dict):
            rows = [[system.label(k), _cell(v)] for k, v in value.items()]
            sections.append(Section(label, rows=rows))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            keys = list(dict.fromkeys(k for v in value for k in v))
            rows = [[_cell(v.get(k)) for k in keys] for v in value]
            sections.append(Section(label, rows=rows, headers=[system.label(k) for k in keys]))
        else:
            head.append([label, _cell(value)])
    return [Section(system.name, rows=head), *sections]


def render(system, tables, items: Iterable[dict], fmt: str, count: int, step=None) -> Iterator[str]:
    """The chunks of text for `items` in format `fmt` (`step`: one step's part only).

    Sheets get the pack (`tables`) to look display names up in the tables in use.
    """
    if fmt == "json":
        return json_array(items)
    if fmt == "jsonl":
        return jsonl(items)
    if fmt == "html":
        from chargen import printable

        return iter([printable.html(system, tables, items, count, step)])
    markdown = fmt == "markdown"
    if step is not None:
        if count == 1:
            return (
                section_text(step_sheet(system, c), markdown, c.get("name") or "") for c in items
            )
        columns = [("Namn", "name"), *((system.label(f), f) for f in step.fields if f != "name")]
        return roster(columns, items, markdown)
    if count == 1:
        return (section_text(system.sheet(c, tables), markdown, c.get("name") or "") for c in items)
    if system.batch_sheet is not None and count <= BATCH_SHEET_LIMIT:
        return _batch_or_roster(system, tables, list(items), markdown)
    return roster(system.roster, items, markdown)


def _batch_or_roster(system, tables, items: list[dict], markdown: bool) -> Iterator[str]:
    sections = system.batch_sheet(items, tables)
    if sections is None:
        yield from roster(system.roster, items, markdown)
    else:
        yield section_text(sections, markdown)


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
    if path.endswith("/") or os.path.isdir(path):
        raise OutputError(f"cannot write {shown}: it is a folder")
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


def write(chunks: Iterable[str], out: TextIO) -> None:
    """Write every chunk; flush at the end so a closed pipe or a full disk shows up
    here (as PipeClosed or OutputError), not at exit."""
    write_chunk = out.write
    try:
        for chunk in chunks:
            write_chunk(chunk)
        out.flush()
    except BrokenPipeError:
        raise PipeClosed() from None
    except OSError as exc:
        where = "standard output" if out is sys.stdout else getattr(out, "chargen_name", out.name)
        raise OutputError(
            f"cannot write {where}: {exc.strerror or exc}", out is sys.stdout
        ) from None


@contextmanager
def new_folder(path: str):
    """A folder written whole or not at all: files go into a temporary folder beside
    it, renamed to `path` at the end and removed on any error or interrupt. `path`
    must not exist yet, or be an empty folder."""
    import shutil

    target = Path(path)
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise ChargenError(f"cannot write {path}: folder {parent} does not exist")
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ChargenError(
            f"cannot write the folder {path}: it exists (name a new or empty folder)"
        )
    try:
        tmp = Path(tempfile.mkdtemp(dir=parent, prefix=f".{target.name}.", suffix=".tmp"))
    except OSError as exc:
        raise ChargenError(f"cannot write {path}: {exc.strerror}") from None
    try:
        yield tmp
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o777 & ~umask)
        if target.is_dir():
            target.rmdir()
        os.replace(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def export(fmt, system, tables, items: Iterable[dict], count: int, values: dict, path) -> None:
    """Write a registered format (chargen.formats): text to stdout or `-o FILE`, or
    with -n 2 or more and `-o DIR` the folder its module writes, when it has one."""
    module = fmt.load()
    if path not in (None, "-") and count > 1 and hasattr(module, "write_folder"):
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
