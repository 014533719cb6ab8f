"""Join the PDFs typst writes (one per chunk of a long batch) into one, a part at a time.

typst's PDFs are plain: a classic cross-reference table, no object streams. Each
part's objects are copied with their numbers shifted past the parts before; its
page tree becomes a branch of one new root, under one new catalog. References are
rewritten in the objects' dictionaries only, never inside stream data.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_XREF = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")
_ENTRY = re.compile(rb"(\d{10}) (\d{5}) ([nf])")
_REF = re.compile(rb"\b(\d+) 0 R\b")
_STREAM = re.compile(rb">>\s*stream\r?\n")
ROOT, PAGES = 1, 2  # the joined file's catalog and page tree


def _objects(part: bytes) -> tuple[dict[int, bytes], bytes]:
    """A part's objects (number: what lies between `obj` and `endobj`) and its trailer."""
    found = _XREF.search(part)
    if found is None:
        raise ValueError("not a PDF with a cross-reference table")
    xref = int(found.group(1))
    head, _, rest = part[xref:].partition(b"trailer")
    lines = head.split(b"\n")
    first = int(lines[1].split()[0])
    offsets = {}
    for number, line in enumerate(lines[2:], first):
        entry = _ENTRY.match(line.strip())
        if entry and entry.group(3) == b"n":
            offsets[number] = int(entry.group(1))
    order = sorted(offsets, key=offsets.get)
    ends = [offsets[n] for n in order[1:]] + [xref]
    objects = {}
    for number, end in zip(order, ends, strict=True):
        chunk = part[offsets[number] : end]
        start = chunk.index(b"obj") + 3
        objects[number] = chunk[start : chunk.rindex(b"endobj")]
    return objects, rest


def _shift(body: bytes, by: int) -> bytes:
    def renumber(text: bytes) -> bytes:
        return _REF.sub(lambda m: b"%d 0 R" % (int(m.group(1)) + by), text)

    stream = _STREAM.search(body)
    if stream is None:
        return renumber(body)
    return renumber(body[: stream.start()]) + body[stream.start() :]


def join(parts: Iterable[bytes]) -> bytes:
    """The parts' pages, in order, as one PDF."""
    out = bytearray(b"%PDF-1.7\n%\xc2\xb5\xc2\xb6\n")
    offsets: dict[int, int] = {}
    kids: list[int] = []
    pages = 0
    base = PAGES
    for part in parts:
        objects, trailer = _objects(part)
        root = int(re.search(rb"/Root (\d+) 0 R", trailer).group(1))
        tree = int(re.search(rb"/Pages (\d+) 0 R", objects[root]).group(1))
        pages += int(re.search(rb"/Count (\d+)", objects[tree]).group(1))
        for number in sorted(objects):
            body = _shift(objects[number], base)
            if number == tree:  # the part's page tree hangs under the new root
                body = body.replace(b"<<", b"<</Parent %d 0 R" % PAGES, 1)
            offsets[number + base] = len(out)
            out += b"%d 0 obj" % (number + base) + body + b"endobj\n"
        kids.append(tree + base)
        base += max(objects)
    offsets[PAGES] = len(out)
    refs = b" ".join(b"%d 0 R" % k for k in kids)
    out += b"%d 0 obj\n<</Type/Pages/Kids[%s]/Count %d>>\nendobj\n" % (PAGES, refs, pages)
    offsets[ROOT] = len(out)
    out += b"%d 0 obj\n<</Type/Catalog/Pages %d 0 R>>\nendobj\n" % (ROOT, PAGES)
    size = max(offsets) + 1
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for number in range(1, size):
        if number in offsets:
            out += b"%010d 00000 n \n" % offsets[number]
        else:
            out += b"0000000000 00000 f \n"
    out += b"trailer\n<</Size %d/Root %d 0 R>>\nstartxref\n%d\n%%%%EOF\n" % (size, ROOT, xref)
    return bytes(out)
