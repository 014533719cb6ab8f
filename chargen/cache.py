"""chargen's cache folder: small JSON files that spare a second run work it did once.

A cache is a convenience: a file that cannot be read, parsed or written is ignored
(and rebuilt), never an error. `CHARGEN_NO_CACHE=1` turns the table cache off.

A cache entry is sealed (`write_sealed`): it holds the key of what it was built from
(a source file's stamp) and a digest of that key and its data, so an entry that was
edited, cut short or swapped is rebuilt, never trusted. Only a regular file of
bounded size is read: a FIFO or a device in its place is passed over, not waited on.
The digest finds edits, not a forger: whoever may write the cache folder may write
chargen's own code as well.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def cache_dir() -> Path:
    """$XDG_CACHE_HOME/chargen, else ~/.cache/chargen."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "chargen"


MAX_CACHE_BYTES = 20_000_000  # one cache file (the largest names list is under 1 MB)


def _read_text(path: Path) -> str | None:
    """The file's text, or None when it is missing, unreadable, not UTF-8, or not a
    regular file of at most MAX_CACHE_BYTES (a FIFO is not waited on)."""
    import stat

    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_CACHE_BYTES:
            return None
        with os.fdopen(fd, "rb") as handle:
            fd = -1
            raw = handle.read(info.st_size + 1)  # (a bigger hint allocates that much)
        return raw.decode("utf-8") if len(raw) <= MAX_CACHE_BYTES else None
    except (OSError, ValueError):
        return None
    finally:
        if fd >= 0:
            os.close(fd)


def read_json(path: Path) -> Any:
    """The file's JSON, or None when it is missing, unreadable, not a regular file of
    at most MAX_CACHE_BYTES, or not JSON (NaN and infinities are not JSON here)."""
    text = _read_text(path)
    try:
        return None if text is None else json.loads(text, parse_constant=_no_constant)
    except ValueError:
        return None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def digest(key: str, text: str) -> str:
    """A digest of a cache entry's key and the JSON text of its data (zlib's: hashlib's
    import alone costs a few milliseconds of every start-up)."""
    import zlib

    raw = (key + "\0" + text).encode("utf-8")
    return f"{len(raw):x}-{zlib.crc32(raw):08x}-{zlib.adler32(raw):08x}"


def _head(key: str, sealed: str) -> str:
    """What a sealed entry's file holds before its data's JSON text."""
    return f'{{"key": {json.dumps(key, ensure_ascii=False)}, "digest": "{sealed}", "data": '


def read_sealed(path: Path, key: str) -> Any:
    """The data of a sealed cache entry built from `key`, or None when there is none,
    or it was built from something else, or its digest does not match its data's
    text (the digest is of the text as written: checking it costs no second encoding)."""
    text = _read_text(path)
    if text is None or not text.endswith("}"):
        return None
    try:
        entry = json.loads(text, parse_constant=_no_constant)
    except ValueError:
        return None
    if not isinstance(entry, dict) or entry.get("key") != key:
        return None
    sealed = entry.get("digest")
    head = _head(key, sealed) if isinstance(sealed, str) else ""
    if not head or not text.startswith(head) or sealed != digest(key, text[len(head) : -1]):
        return None
    return entry.get("data")


def write_sealed(path: Path, key: str, data: Any) -> None:
    """Write `data` as the cache entry built from `key`, sealed with a digest of the
    key and the data's JSON text; data JSON cannot hold is not cached."""
    try:
        text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return
    sealed = digest(key, text)
    _write_text(path, _head(key, sealed) + text + "}")


def write_json(path: Path, data: Any) -> None:
    """Write `data` as JSON atomically; data JSON cannot hold leaves no file."""
    try:
        text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return
    _write_text(path, text)


def _write_text(path: Path, text: str) -> None:
    """Write `text` atomically (a temporary file renamed over the old one); a failure
    leaves no file and raises nothing."""
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        pass
