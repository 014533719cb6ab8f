"""A character made at the `--interactive` prompts carries a recipe that makes it again:
`--answers`, every line answered in order, replayed without a terminal.

Each system's PC is asked with answers that pick, refuse, roll again and keep the
dice (an answer a question refuses is followed by an empty one, which every question
takes); the recipe must make the same character, historik included, through the
Python API (`chargen.systems.remake`) and the command line. So must a member after
the first of an interactive batch, and one step alone.
"""

from __future__ import annotations

import json
import shlex

import pytest
from conftest import run

from chargen.encode import compact
from chargen.recipe import join_answers, parse, split_answers
from chargen.systems import load, remake

SYSTEMS = ("matinee", "spelsystemet", "karma", "lef", "savage")


def _answers(sid: str, pattern: int) -> str:
    """Lines for the prompts: each pattern picks and refuses in its own way, an empty
    line after each so that a refused answer is always followed by one taken."""
    again = load(sid).tables().labels.word("again")
    picks = [["2"], ["1", again], [again, again.upper()], ["3", "1,2"]][pattern % 4]
    lines: list[str] = []
    for i in range(60):
        lines += [picks[i % len(picks)], ""]
    return "\n".join(lines) + "\n"


def _asked(sid: str, *args: str, pattern: int = 0) -> list[dict]:
    result = run(sid, *args, "-f", "json", "--interactive", input=_answers(sid, pattern))
    assert result.exit_code == 0, result.stderr[-600:]
    return json.loads(result.stdout)


@pytest.mark.parametrize("sid", SYSTEMS)
def test_the_recipe_of_an_asked_character_makes_it_again(sid):
    for seed in range(1, 9):
        (char,) = _asked(sid, "pc", "--seed", str(seed), pattern=seed)
        made = parse(char["recipe"])
        assert made.answers is not None, char["recipe"]
        assert made.seed == seed and made.count == 1
        (again,) = list(remake(char["recipe"]))
        assert compact(again) == compact(char), (seed, char["recipe"])


@pytest.mark.parametrize("sid", SYSTEMS)
def test_the_recipe_on_the_command_line_makes_it_again(sid):
    (char,) = _asked(sid, "pc", "--seed", "5", pattern=1)
    words = char["recipe"].split(" ", 1)[1]
    import shlex

    again = run(*shlex.split(words), "-f", "json")
    assert again.exit_code == 0, again.stderr
    assert json.loads(again.stdout) == [char]
    assert again.stderr == ""  # the replayed questions are not shown


@pytest.mark.parametrize("sid", SYSTEMS)
def test_a_member_after_the_first_names_the_batch_up_to_it(sid):
    members = _asked(sid, "npc", "-n", "3", "--seed", "4", pattern=0)
    for index, char in enumerate(members):
        made = parse(char["recipe"])
        if index:
            assert made.count == index + 1 and made.seed == 4, char["recipe"]
        again = [c for c in remake(char["recipe"]) if c["seed"] == char["seed"]]
        assert [compact(c) for c in again] == [compact(char)], char["recipe"]


@pytest.mark.parametrize("sid", SYSTEMS)
def test_a_roster_made_at_the_prompts_says_one_recipe_the_whole_batch(sid):
    shown = run(sid, "pc", "-n", "3", "--seed", "4", "--answers", "", env={"COLUMNS": "100"})
    assert shown.exit_code == 0, shown.stderr
    word = load(sid).tables().labels.word("remake")
    lines = [line for line in shown.stdout.splitlines() if line.startswith(word + ":")]
    assert len(lines) == 1 and "<" not in lines[0], lines  # no seed to fill in
    recipe = lines[0].split(": ", 1)[1]
    made = parse(recipe)
    assert made.count == 3 and made.seed == 4 and made.answers is not None, recipe
    again = run(*shlex.split(recipe)[1:], "-f", "jsonl")
    first = run(sid, "pc", "-n", "3", "--seed", "4", "--answers", "", "-f", "jsonl")
    assert again.stdout == first.stdout and len(first.stdout.splitlines()) == 3


def test_one_step_asked_alone_is_made_again():
    (char,) = _asked("karma", "sardrag", "--seed", "2", pattern=0)
    assert "--answers" in char["recipe"]
    (again,) = list(remake(char["recipe"]))
    assert compact(again) == compact(char)


def test_answers_given_beforehand_then_the_terminal_asks_the_rest():
    (first,) = _asked("karma", "pc", "--seed", "3", pattern=0)
    given = split_answers(parse(first["recipe"]).answers)
    head = join_answers(given[:1])  # (an answer beforehand that is not empty)
    rest = "\n".join(given[1:]) + "\n" * 20  # (the empty answers at the end too)
    result = run(
        "karma", "pc", "--seed", "3", "-f", "json", "--interactive", "--answers", head, input=rest
    )
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == [first]
    # the answers given beforehand show at their questions as if typed
    assert given[0] in result.stderr


def test_an_empty_answers_word_takes_the_prompts_path_with_the_dice():
    quiet = run("karma", "pc", "--seed", "8", "-f", "json", "--answers", "")
    asked = run("karma", "pc", "--seed", "8", "-f", "json", "--interactive", input="\n" * 50)
    assert quiet.exit_code == asked.exit_code == 0
    (char,) = json.loads(asked.stdout)
    assert char["recipe"] == "chargen karma pc --seed 8 --answers ''"
    assert json.loads(quiet.stdout) == [char]


@pytest.mark.parametrize(
    "answers", [["2", "", "ja"], ["a/b", "c\\d", ""], [""], ["", "", "x"], ["-1", "igen"]]
)
def test_answers_are_one_word_read_back_as_they_were(answers):
    text = join_answers(answers)
    kept = list(answers)
    while kept and kept[-1] == "":
        kept.pop()
    assert list(split_answers(text)) == kept
    made = parse(f"chargen karma pc --seed 1 --answers {__import__('shlex').quote(text)}")
    assert made.answers == text


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--where", "karma > 1"], "takes no --answers"),
        (["--campaign", "c.db"], "--answers and --campaign"),
    ],
)
def test_answers_refuse_what_cannot_replay_them(tmp_path, extra, said):
    extra = [str(tmp_path / e) if e.endswith(".db") else e for e in extra]
    result = run("karma", "pc", "--seed", "1", "--answers", "1", *extra)
    assert result.exit_code == 2 and said in result.stderr, result.stderr


@pytest.mark.parametrize("sid", SYSTEMS)
def test_a_refused_answer_is_no_part_of_the_recipe_and_an_error_when_given(sid):
    """At the terminal a refused answer changes nothing, so the recipe leaves it out;
    given beforehand with no terminal to ask again, it is exit 2 saying why."""
    typed = "no such answer\n" + "\n" * 200  # refused, then the dice for every question
    asked = run(sid, "pc", "--seed", "3", "-f", "json", "--interactive", input=typed)
    assert asked.exit_code == 0, asked.stderr[-600:]
    (char,) = json.loads(asked.stdout)
    assert "no such answer" not in char["recipe"], char["recipe"]
    (again,) = list(remake(char["recipe"]))
    assert compact(again) == compact(char)
    given = run(sid, "pc", "--seed", "3", "--answers", "no such answer")
    assert given.exit_code == 2 and "--answers:" in given.stderr, given.stderr
    assert "no such answer" in given.stderr and "Traceback" not in given.stderr
    assert given.stderr.count("\n") == 1


def test_an_answer_ignores_word_breaks_as_an_option_does():
    by_option = run("karma", "pc", "--seed", "1", "--bakgrund", "gruvarbetare", "-f", "json")
    for answer in ("gruv-arbetare", "gruv arbetare", "Gruvarbetare"):
        by_answer = run("karma", "pc", "--seed", "1", "--answers", answer, "-f", "json")
        assert by_answer.exit_code == 0, by_answer.stderr
        chosen = json.loads(by_answer.stdout)[0]["bakgrunder"]
        assert [b["id"] for b in chosen] == ["gruvarbetare"], chosen
    assert json.loads(by_option.stdout)[0]["bakgrunder"][0]["id"] == "gruvarbetare"


def test_a_replayed_answer_none_of_the_choices_names_them():
    """With no list on the screen to be "above", the error names the choices."""
    given = run("karma", "npc", "--seed", "3", "--answers", "kung")
    assert given.exit_code == 2, given.stderr
    assert "'kung' is none of the answers the question takes (1 to 16, or one of bonde, st" in (
        given.stderr
    )
    assert "ovan" not in given.stderr


@pytest.mark.parametrize(
    ("args", "answers", "said"),
    [
        (["karma", "pc"], "1/zz", "'zz' is none of the answers the question takes (ja or nej)"),
        (["matinee", "pc"], "1/1/5", "'5' is none of the answers the question takes (a whole "),
    ],
)
def test_a_replayed_yes_no_or_number_says_what_the_question_takes(args, answers, said):
    given = run(*args, "--seed", "3", "--answers", answers)
    assert given.exit_code == 2 and said in given.stderr, given.stderr
    assert "ovan" not in given.stderr


@pytest.mark.parametrize("sid", SYSTEMS)
def test_answers_beyond_the_last_question_are_said_not_used(sid):
    """A recipe's answers make the character; answers after them that no question read
    are said on stderr (the character is made all the same), empty ones are not. (The
    recipe leaves out its last empty answers, so the extra ones follow 150 empty.)"""
    (char,) = _asked(sid, "pc", "--seed", "4")
    made = parse(char["recipe"])
    for extra, said in (("/" * 150 + "zzz/", True), ("/" * 150, False)):
        given = run(sid, "pc", "--seed", "4", "-f", "json", "--answers", made.answers + extra)
        assert given.exit_code == 0, given.stderr
        assert compact(json.loads(given.stdout)[0]) == compact(char)
        if said:
            assert "were not used (" in given.stderr and "zzz" in given.stderr, given.stderr
        else:
            assert given.stderr == "", given.stderr
