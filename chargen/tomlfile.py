"""Table files as text: reading them safely, and finding the line a key stands on.

Every fault in a table pack names its file and line, so the linter, the conditions
and each system's own checks all look lines up here. Reading is bounded: only a
regular file of sane size is read, so a FIFO, a device or a huge file is refused
instead of being read forever.
"""

from __future__ import annotations

import functools
import re
import sys
from pathlib import Path


class TOMLError(ValueError):
    """A TOML text that does not parse (the message is tomllib's, with its line)."""


def loads(text: str) -> dict:
    """The data of a TOML text (tomllib's, or tomli's on Python 3.10); TOMLError when it
    does not parse. tomllib is imported here, on first use: a sheet made from the
    cached tables parses no TOML, and tomllib compiles its patterns when imported."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TOMLError(str(exc)) from None


MAX_FILE_BYTES = 1_000_000  # one table file (the largest built-in one is under 20 kB)
_ENTRY_HEADER = re.compile(r"^\s*\[\[\s*entries\s*\]\]")
_ANY_HEADER = re.compile(r"^\s*\[")


@functools.cache
def builtin_root() -> Path:
    """The built-in tables: inside the installed package, or tables/ in a source tree."""
    here = Path(__file__).resolve().parent
    installed = here / "builtin_tables"
    if installed.is_dir() and any(installed.iterdir()):
        return installed
    return here.parent / "tables"


def read_text(path) -> tuple[str, str]:
    """(text, "") of a table file, or ("", why not)."""
    import stat

    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            return "", "not a regular file (a table is a plain *.toml file)"
        if info.st_size > MAX_FILE_BYTES:
            return "", f"{info.st_size:,} bytes: a table file has at most {MAX_FILE_BYTES:,}"
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
        if len(raw) > MAX_FILE_BYTES:
            return "", f"over {MAX_FILE_BYTES:,} bytes: a table file has at most that"
        # utf-8-sig: a byte-order mark (what Notepad writes) is no part of the text
        return raw.decode("utf-8-sig"), ""
    except UnicodeDecodeError as exc:
        return "", f"cannot read: not UTF-8 text ({exc.reason} at byte {exc.start})"
    except OSError as exc:
        return "", f"cannot read: {exc.strerror or exc}"


def entry_lines(text: str) -> list[int]:
    """The 1-based line of each `[[entries]]` header, in order."""
    return [n for n, line in enumerate(text.splitlines(), 1) if _ENTRY_HEADER.match(line)]


def section_line(text: str, section: str, key: str) -> int:
    """The line where `key = ...` stands inside `[section]` (0 when it is not found)."""
    lines = text.splitlines()
    head = re.compile(rf"^\s*\[\s*\"?{re.escape(section)}\"?\s*\]")
    pattern = re.compile(rf"^\s*\"?{re.escape(key)}\"?\s*[=.]")
    inside = False
    for n, line in enumerate(lines, 1):
        if _ANY_HEADER.match(line):
            inside = bool(head.match(line))
        elif inside and pattern.match(line):
            return n
    return 0


def key_line(text: str, key: str, entry_index: int | None = None) -> int:
    """The line where `key = ...` stands (at top level, or inside one entry)."""
    lines = text.splitlines()
    if entry_index is None:
        start, stop = 0, len(lines)
        for n, line in enumerate(lines):
            if _ANY_HEADER.match(line):
                stop = n
                break
    else:
        headers = entry_lines(text)
        if entry_index >= len(headers):
            return 0
        start = headers[entry_index]
        stop = next(
            (n for n in range(start, len(lines)) if _ANY_HEADER.match(lines[n])), len(lines)
        )
    pattern = re.compile(rf"^\s*\"?{re.escape(key)}\"?\s*[=.]")
    for n in range(start, stop):
        if pattern.match(lines[n]):
            return n + 1
    if entry_index is not None:
        return entry_lines(text)[entry_index]
    return 0
