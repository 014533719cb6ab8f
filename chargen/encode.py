"""JSON text of characters: compact lines, pretty arrays, and a batch's shared parts
encoded once.

The standard library's encoder is the reference: every text here is exactly what
`json.dumps(value, ensure_ascii=False, separators=(",", ":"))` gives (and, for
arrays, `indent=2`). A batch streams through `Lines`, which reuses the text of the
values the batch's members share: what `Context.memo` worked out once for the
batch (a template's gear, its skill names) is one object in every member that has
it, registered with its text, so it is encoded once per batch instead of once per
member. The registry holds every such object, so its id cannot be reused.

Where orjson is installed (`pip install 'chargen[fast]'`), lines are its text
instead, at a fraction of the cost. It is the same text for what characters hold:
strings, whole numbers, booleans, None, lists and dicts with string keys, and never
a float (orjson writes 1e16 where the standard library writes 1e+16; the sweeps hold
every game to whole numbers, and tests/test_batch.py compares both encoders over
thousands of characters of every game). A number orjson cannot hold (2**64 and
above) goes to the standard library.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from json.encoder import encode_basestring
from typing import Any

# Characters are trees of plain dicts and lists, so the circular-reference check is skipped.
compact = json.JSONEncoder(ensure_ascii=False, check_circular=False, separators=(",", ":")).encode
pretty = json.JSONEncoder(ensure_ascii=False, check_circular=False, indent=2).encode
quote = encode_basestring  # a str as JSON text, as the encoder writes it


try:  # the standard library's C encoder, built once: a call costs a third of `compact`'s
    from json.encoder import c_make_encoder as _c_make_encoder
except ImportError:  # pragma: no cover - Pythons without the C accelerator
    _c_make_encoder = None
if _c_make_encoder is not None:
    _encode = _c_make_encoder(
        None, json.JSONEncoder().default, encode_basestring, None, ":", ",", False, False, True
    )

    def _text(value: Any) -> str:
        return "".join(_encode(value, 0))

else:  # pragma: no cover
    _text = compact


def _orjson():
    """orjson, when it is installed and not turned off (CHARGEN_NO_ORJSON=1); else None."""
    import os

    if os.environ.get("CHARGEN_NO_ORJSON"):
        return None
    try:
        import orjson
    except ImportError:
        return None
    return orjson


class Lines:
    """Characters as JSON Lines, the batch's shared values spliced from their text.

    A character made by chargen.procedure carries `constants`, the batch's registry of
    values its members share (id -> [the value, its text once encoded]): the line is
    the standard encoder's text of the character with those values stood in for by a
    marker, split at the markers and joined again with each value's text in its place
    (one pass, however many values are shared). The marker is a NUL character, whose
    text `"\\u0000"` is ASCII (a wide marker would make the whole line a wide string);
    a character whose own values hold that very string has more markers than shared
    values, and its line is encoded whole."""

    __slots__ = ("fast",)

    def __init__(self, fast: bool | None = None) -> None:
        found = _orjson() if fast is not False else None
        if found is not None:
            dumps, newline = found.dumps, found.OPT_APPEND_NEWLINE

            def fast_line(char: Any) -> bytes | None:
                try:
                    return dumps(char, option=newline)
                except TypeError:  # not JSON orjson writes as the standard library does
                    return None

            self.fast = fast_line
        else:
            self.fast = None

    def line(self, char: Any) -> str:
        """`compact(char) + "\n"`, with the text of shared values reused."""
        if self.fast is not None:
            data = self.fast(char)
            if data is not None:
                return data.decode()
        return self._encoded(char)

    def raw(self, char: Any) -> bytes:
        """`line(char)` in UTF-8: orjson's bytes as it writes them, never decoded to
        be encoded again."""
        if self.fast is not None:
            data = self.fast(char)
            if data is not None:
                return data
        return self._encoded(char).encode("utf-8")

    def _encoded(self, char: Any) -> str:
        """`line(char)` by the standard library's encoder."""
        constants = getattr(char, "constants", None)
        if not constants:
            return _text(char) + "\n"
        shared = None
        stand_in = None
        for key, value in char.items():
            found = constants.get(id(value))
            if found is None or found[0] is not value:
                continue
            if found[1] is None:
                found[1] = _text(value)
            if shared is None:
                shared = [found[1]]
                stand_in = dict(char)
            else:
                shared.append(found[1])
            stand_in[key] = _MARK
        if shared is None:
            return _text(char) + "\n"
        parts = _text(stand_in).split(_MARK_TEXT)
        if len(parts) != len(shared) + 1:  # a value of the character is the marker itself
            return _text(char) + "\n"
        out = [parts[0]]
        for value_text, after in zip(shared, parts[1:], strict=True):
            out.append(value_text)
            out.append(after)
        out.append("\n")
        return "".join(out)


_MARK = "\x00"  # what stands in for a shared value
_MARK_TEXT = '"\\u0000"'  # and its text: ASCII, so the line is never a wide string


def jsonl(items: Iterable[Any]) -> Iterator[str]:
    """One compact JSON object per line, a batch's shared values encoded once."""
    line = Lines().line
    for item in items:
        yield line(item)


def jsonl_utf8(items: Iterable[Any]) -> Iterator[bytes]:
    """`jsonl`'s lines in UTF-8, for a stream that takes bytes (chargen.output)."""
    raw = Lines().raw
    for item in items:
        yield raw(item)


def json_array(items: Iterable[Any]) -> Iterator[str]:
    """A JSON array streamed one element at a time (always an array, even of one)."""
    first = True
    for item in items:
        body = pretty(item).replace("\n", "\n  ")
        yield ("[\n  " if first else ",\n  ") + body
        first = False
    yield "[]\n" if first else "\n]\n"
