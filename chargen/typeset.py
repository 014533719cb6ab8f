"""typst run on a printed document's JSON (chargen/sheet.typ), here or in workers.

typst keeps what it has laid out in a cache that lives as long as the process and
grows with every new page, so a long batch is set in chunks by worker processes
that are replaced every few chunks: the memory of a batch of any size stays that
of a few chunks. Imports nothing of chargen, so that a worker starts light.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

TEMPLATE = Path(__file__).with_name("sheet.typ")
WORKERS = 2  # at most; a chunk of cards takes about a second of one core
TASKS_PER_WORKER = 1  # chunks a worker sets before a fresh one (an empty cache) takes over

_compiler: Any = None


def typeset(data: str, fmt: str = "pdf", ppi: float | None = None, frames: bool = False) -> Any:
    """The document `data` (JSON text) as PDF bytes, or a list of PNG pages' bytes;
    `frames` adds a last page listing where each card and section lies (the tests').

    Raises RuntimeError with typst's message when typst cannot lay it out."""
    global _compiler
    import typst

    if _compiler is None:
        _compiler = typst.Compiler(ignore_system_fonts=True)
    inputs = {"data": data, **({"frames": "1"} if frames else {})}
    try:
        return _compiler.compile(
            TEMPLATE.read_bytes(), format=fmt, ppi=ppi, sys_inputs=inputs, pdf_tags=False
        )
    except RuntimeError as exc:  # typst's own error type may not cross a process boundary
        raise RuntimeError(str(exc)) from None


def typeset_many(documents: Iterable[str]) -> Iterator[bytes]:
    """Each document as PDF bytes, in order, set by worker processes."""
    workers = max(1, min(WORKERS, os.cpu_count() or 1))
    context = multiprocessing.get_context("spawn")  # no copy of the caller's memory
    with context.Pool(workers, maxtasksperchild=TASKS_PER_WORKER) as pool:
        yield from pool.imap(typeset, documents)
