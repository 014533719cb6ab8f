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


def read_json(path: Path) -> Any:
    """The file's JSON, or None when it is missing, unreadable, not a regular file of
    at most MAX_CACHE_BYTES, or not JSON (NaN and infinities are not JSON here)."""
    import stat

    try:
        fd = os.open(
            path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
        )
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_CACHE_BYTES:
            return None
        with os.fdopen(fd, "rb") as handle:
            fd = -1
            raw = handle.read(MAX_CACHE_BYTES + 1)
        if len(raw) > MAX_CACHE_BYTES:
            return None
        return json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except (OSError, ValueError):
        return None
    finally:
        if fd >= 0:
            os.close(fd)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def digest(key: str, data: Any) -> str:
    """A digest of a cache entry's key and data (zlib's: hashlib's import alone costs a
    few milliseconds of every start-up)."""
    import zlib

    raw = (key + "\0" + json.dumps(data, ensure_ascii=False, sort_keys=True)).encode("utf-8")
    return f"{len(raw):x}-{zlib.crc32(raw):08x}-{zlib.adler32(raw):08x}"


def read_sealed(path: Path, key: str) -> Any:
    """The data of a sealed cache entry built from `key`, or None when there is none,
    or it was built from something else, or its digest does not match its data."""
    entry = read_json(path)
    if not isinstance(entry, dict) or entry.get("key") != key or "data" not in entry:
        return None
    try:
        sealed = entry.get("digest") == digest(key, entry["data"])
    except (TypeError, ValueError):
        return None
    return entry["data"] if sealed else None


def write_sealed(path: Path, key: str, data: Any) -> None:
    """Write `data` as the cache entry built from `key`, sealed with its digest."""
    try:
        sealed = digest(key, data)
    except (TypeError, ValueError):
        return
    write_json(path, {"key": key, "digest": sealed, "data": data})


def write_json(path: Path, data: Any) -> None:
    """Write `data` as JSON atomically (a temporary file renamed over the old one);
    a failure, including data JSON cannot hold, leaves no file and raises nothing."""
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh, ensure_ascii=False, allow_nan=False)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except (OSError, TypeError, ValueError):
        pass
