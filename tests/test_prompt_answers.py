"""What a player types at an --interactive prompt: only ASCII digits count as a number."""

from __future__ import annotations

from pty_walk import walk

from chargen.prompts import _whole


def test_only_ascii_digits_are_a_number():
    assert _whole("12")
    assert not _whole("²") and not _whole("٣") and not _whole("1" * 10) and not _whole("")


def test_a_non_ascii_digit_is_an_invalid_answer_not_an_internal_error():
    out = walk(
        ["karma", "pc", "--interactive", "--seed", "3", "-f", "json"], answers=[], default="²"
    )
    assert out.code == 2, out.stderr
    assert "internal error" not in out.stderr
