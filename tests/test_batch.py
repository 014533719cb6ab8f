"""One batch path (issue 20): a batch's members are byte for byte the members made alone.

A batch works its templates out once (`Context.memo`) and encodes what its members
share once (`chargen.encode.Lines`); a member made alone from its recorded seed, with
the same options, builds everything afresh and is encoded by the standard library.
The two texts are the same for every member of thousands per system, for every
template, and with each option (those that make the batch one whole, a squad or a
band, aside). A member whose name was numbered because its template's names ran out
cannot be made alone with its number: it is compared on everything but the number.
"""

from __future__ import annotations

import io
import json

import pytest

from chargen import output
from chargen.encode import Lines, compact, jsonl
from chargen.errors import PipeClosed
from chargen.procedure import generate
from chargen.systems import load

SYSTEMS = ("matinee", "spelsystemet", "karma", "lef", "savage")
MIXED = 2_000  # members of a batch with no options
PER_TEMPLATE = 40  # members of a batch of each template
PER_OPTION = 60  # members of a batch with each value of each other option
PC = 200
PENDING: set[str] = set()  # not on the batch path yet


def _marks(sid):
    return [pytest.mark.xfail(reason="PENDING", strict=False)] if sid in PENDING else []


def _numbered(char: dict, alone: dict) -> bool:
    return char["name"] != alone["name"] and char["name"].startswith(alone["name"] + " ")


def _check(system, tables, kind, options, count, seed):
    lines, fast = Lines(fast=False), Lines()  # spliced by the standard library; orjson's
    checked = 0
    for char in generate(system, tables, kind, options, count, seed):
        text = lines.line(char)
        assert text == compact(char) + "\n", "the spliced line is not the encoder's text"
        assert fast.line(char) == text, "orjson's line is not the standard library's"
        assert fast.raw(char) == lines.raw(char) == text.encode("utf-8")
        alone = next(generate(system, tables, kind, options, 1, char["seed"]))
        if _numbered(char, alone):  # its template's names ran out: itself but the number
            alone = {**alone, "name": char["name"]}
        assert text == compact(alone) + "\n", (
            f"{system.id} {kind} {options}: member --seed {char['seed']} of batch --seed "
            f"{seed} differs from itself made alone"
        )
        checked += 1
    return checked


def _option_values(system, tables, kind):
    """(option key, value) pairs: every value of every choice option that does not make
    the batch one whole; numbers at their ends."""
    for option in system.options(kind):
        if option.batch or option.key == "template":
            continue
        if option.table:
            values = list(tables[option.table].ids)
        elif option.choices:
            values = list(option.choices)
        elif option.flag:
            values = [True]
        elif option.type is int:
            values = [option.minimum or 0, option.maximum or 10]
        else:
            continue
        for value in values:
            yield option.key, [value] if option.multiple else value


@pytest.mark.parametrize("sid", [pytest.param(s, marks=_marks(s)) for s in SYSTEMS])
def test_a_mixed_batch_is_its_members_made_alone(sid):
    system = load(sid)
    assert _check(system, system.tables(), "npc", {}, MIXED, 20261201) > MIXED * 0.9


@pytest.mark.parametrize("sid", [pytest.param(s, marks=_marks(s)) for s in SYSTEMS])
def test_every_template_batch_is_its_members_made_alone(sid):
    system = load(sid)
    tables = system.tables()
    table = next(o.table for o in system.npc_options if o.key == "template")
    for template in tables[table].ids:
        _check(system, tables, "npc", {"template": template}, PER_TEMPLATE, 7)


@pytest.mark.parametrize("sid", [pytest.param(s, marks=_marks(s)) for s in SYSTEMS])
def test_batches_with_options_are_their_members_made_alone(sid):
    from chargen.errors import ChargenError

    system = load(sid)
    tables = system.tables()
    for kind in ("npc", "pc"):
        for key, value in _option_values(system, tables, kind):
            try:
                _check(system, tables, kind, {key: value}, PER_OPTION, 11)
            except ChargenError:
                continue  # a value refused up front (a rank no new character has)


@pytest.mark.parametrize("sid", [pytest.param(s, marks=_marks(s)) for s in SYSTEMS])
def test_a_pc_batch_is_its_members_made_alone(sid):
    system = load(sid)
    assert _check(system, system.tables(), "pc", {}, PC, 5) > PC * 0.9


def _floats(value, where=""):
    if isinstance(value, float):
        return [where]
    if isinstance(value, dict):
        return [f for k, v in value.items() for f in _floats(v, f"{where}.{k}")]
    if isinstance(value, list):
        return [f for v in value for f in _floats(v, where)]
    return []


@pytest.mark.parametrize("sid", SYSTEMS)
def test_characters_hold_whole_numbers_only(sid):
    """No float in any character: the orjson lines are then the standard library's."""
    system = load(sid)
    tables = system.tables()
    for kind in ("pc", "npc"):
        for char in generate(system, tables, kind, {}, 1_000 if kind == "npc" else 200, 3):
            assert not _floats(char), (sid, kind, char["seed"], _floats(char))


def test_orjson_is_used_where_installed_and_can_be_turned_off(monkeypatch):
    pytest.importorskip("orjson")
    assert Lines().fast is not None and Lines(fast=False).fast is None
    monkeypatch.setenv("CHARGEN_NO_ORJSON", "1")
    assert Lines().fast is None
    monkeypatch.delenv("CHARGEN_NO_ORJSON")
    huge = {"n": 2**70, "s": 'å\n\u0001"', "l": [True, None, {"x": -3}]}
    assert Lines().line(huge) == json.dumps(huge, ensure_ascii=False, separators=(",", ":")) + "\n"


def test_the_spliced_line_is_the_standard_encoders_text():
    """Shared values, values shared under several keys, and odd scalars."""
    from chargen.procedure import Character

    shared = [{"a": "å", "b": [1, 2.5, None]}]
    char = Character(x=shared, y=1.0e20, z=True, w=None, v=shared, u={"k": shared}, t='\n"')
    char.constants = {id(shared): [shared, None]}
    line = Lines(fast=False).line(char)
    assert line == json.dumps(char, ensure_ascii=False, separators=(",", ":")) + "\n"
    assert Lines(fast=False).line({"a": 1}) == '{"a":1}\n'


def test_a_value_that_is_the_marker_is_encoded_as_it_is():
    """A character's own value that is the splice's marker (a NUL string) cannot be
    mistaken for a shared value: the line is still the standard encoder's text."""
    from chargen.procedure import Character

    shared = {"a": [1, 2]}
    for own in ("\x00", ["\x00"], {"k": "\x00"}, "x\x00y"):
        char = Character(x=own, y=shared, z="\x00")
        char.constants = {id(shared): [shared, None]}
        assert (
            Lines(fast=False).line(char)
            == json.dumps(char, ensure_ascii=False, separators=(",", ":")) + "\n"
        )


class _Pipe(io.BufferedWriter):
    """A pipe whose reader is gone after `room` bytes."""

    def __init__(self, room: int) -> None:
        super().__init__(io.BytesIO())
        self.room = room

    def write(self, data) -> int:
        self.room -= len(data)
        if self.room < 0:
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(data)


@pytest.mark.parametrize("fast", [True, False], ids=["orjson", "stdlib"])
@pytest.mark.parametrize("sid", SYSTEMS)
def test_json_lines_written_as_bytes_are_the_text_lines(sid, fast, monkeypatch):
    """A UTF-8 file or pipe takes a batch's lines as bytes (output.write_jsonl): the
    very bytes the text lines make, written after what was written as text."""
    if fast:
        pytest.importorskip("orjson")
    else:
        monkeypatch.setenv("CHARGEN_NO_ORJSON", "1")
    system = load(sid)
    tables = system.tables()
    chars = list(generate(system, tables, "npc", {}, 2_000, 17))
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="utf-8", newline="\n")
    stream.write("first\n")
    output.write_jsonl(iter(chars), stream)
    assert raw.getvalue() == ("first\n" + "".join(jsonl(chars))).encode("utf-8")


def test_json_lines_go_as_text_where_bytes_would_differ():
    """A stream in another encoding, a terminal (line-buffered) or one without a byte
    buffer gets the text lines, as `write` writes them."""
    system = load("savage")  # Hungarian: ő and ű, which latin-1 cannot hold
    chars = list(generate(system, system.tables(), "npc", {}, 50, 3))
    text = "".join(jsonl(chars))
    buffered = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", line_buffering=True)
    output.write_jsonl(iter(chars), buffered)
    assert buffered.buffer.getvalue() == text.encode("utf-8")
    plain = io.StringIO()
    output.write_jsonl(iter(chars), plain)
    assert plain.getvalue() == text
    latin = io.TextIOWrapper(io.BytesIO(), encoding="latin-1")
    with pytest.raises(UnicodeEncodeError):  # what the CLI reports as the output's encoding
        output.write_jsonl(iter(chars), latin)
    swedish = list(generate(load("karma"), load("karma").tables(), "npc", {}, 50, 3))
    latin = io.TextIOWrapper(io.BytesIO(), encoding="latin-1")
    output.write_jsonl(iter(swedish), latin)
    assert latin.buffer.getvalue() == "".join(jsonl(swedish)).encode("latin-1")


def test_json_lines_as_bytes_to_a_closed_pipe_end_quietly():
    system = load("lef")
    chars = generate(system, system.tables(), "npc", {}, 5_000, 3)
    stream = io.TextIOWrapper(_Pipe(room=50_000), encoding="utf-8")
    with pytest.raises(PipeClosed):
        output.write_jsonl(chars, stream)
