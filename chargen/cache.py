"""chargen's cache folder: small JSON files that spare a second run work it did once.

A cache is a convenience: a file that cannot be read, parsed or written is ignored
(and rebuilt), never an error. `CHARGEN_NO_CACHE=1` turns the table cache off.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def cache_dir() -> Path:
    """$XDG_CACHE_HOME/chargen, else ~/.cache/chargen."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "chargen"


def read_json(path: Path) -> Any:
    """The file's JSON, or None when it is missing, unreadable or not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


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
