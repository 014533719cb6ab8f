"""The pages the visual regression test compares (tests/test_printable_layout.py), and
a small PNG reader for them; tests/update_printable_reference.py writes the references."""

from __future__ import annotations

import struct
import zlib

from chargen import printable
from chargen.procedure import generate
from chargen.systems import load

SYSTEMS = ("matinee", "spelsystemet", "karma", "lef", "savage")
PPI = 30  # enough to see a layout move, small enough to keep in the repository
SEED = 24


def pictures(system_id: str) -> dict[str, bytes]:
    """A PC's first page and a first page of NPC cards, as PNG."""
    system = load(system_id)
    tables = system.tables()
    pc = list(generate(system, tables, "pc", {}, 1, SEED))
    npcs = list(generate(system, tables, "npc", {}, 8, SEED))
    return {
        f"{system_id}_pc.png": printable.png(system, tables, pc, 1, PPI)[0],
        f"{system_id}_cards.png": printable.png(system, tables, npcs, 8, PPI)[0],
    }


def pixels(png: bytes) -> tuple[int, int, list[int]]:
    """Width, height and the grey level (0-255) of every pixel of an 8-bit PNG."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, data = 8, b""
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos : pos + 8])
        body = png[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8, depth
        elif kind == b"IDAT":
            data += body
        pos += 12 + length
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
    raw = zlib.decompress(data)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                corner = previous[i - channels] if i >= channels else 0
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (
                    line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)
                ) & 255
        rows.append(line)
        previous = line
    grey = []
    for line in rows:
        for x in range(width):
            px = line[x * channels : x * channels + channels]
            value = sum(px[:3]) // 3 if channels >= 3 else px[0]
            if channels in (2, 4):  # over white
                alpha = px[-1]
                value = (value * alpha + 255 * (255 - alpha)) // 255
            grey.append(value)
    return width, height, grey
