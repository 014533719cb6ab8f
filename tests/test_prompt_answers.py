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


def test_a_number_with_one_possible_value_is_not_asked():
    """`(0–0; ...)` asks nothing: the one value is taken, and the character is the one
    the same seed makes without prompts (the draw still comes from the same stream)."""
    import json
    import re

    from conftest import run

    same = re.compile(r"\((\d+)–(\d+);")
    for seed in range(1, 41):
        args = ["savage", "pc", "--seed", str(seed), "-f", "json"]
        asked = run(*args, "--interactive", input="\n" * 200)
        assert asked.exit_code == 0, asked.stderr
        for low, high in same.findall(asked.stderr + asked.stdout):
            assert low != high, f"seed {seed} asks for a number from {low} to {high}"
        plain = json.loads(run(*args).stdout)[0]
        prompted = json.loads(asked.stdout[asked.stdout.index("[") :])[0]
        for key in ("alaptulajdonsagok", "kepzettsegek", "hatranyok", "elonyok", "name"):
            assert prompted[key] == plain[key], (seed, key)


def _without_historik(stdout: str) -> dict:
    import json

    char = json.loads(stdout[stdout.index("[") :])[0]
    char.pop("historik")
    return char


def test_empty_answers_make_the_character_the_seed_makes_without_prompts():
    """Every prompt answered with Enter takes the draw the dice would have made."""
    from conftest import run

    from chargen.systems import available

    for sid in available():
        for seed in range(1, 16):
            args = [sid, "pc", "--seed", str(seed), "-f", "json"]
            asked = run(*args, "--interactive", input="\n" * 400)
            assert asked.exit_code == 0, (sid, seed, asked.stderr[-500:])
            plain = run(*args)
            asked_char, plain_char = (
                _without_historik(asked.stdout),
                _without_historik(plain.stdout),
            )
            # the recipe names the prompts' path (the historik says what was asked)
            assert asked_char.pop("recipe") == plain_char.pop("recipe") + " --answers ''"
            assert asked_char == plain_char, (sid, seed)
