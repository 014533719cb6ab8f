"""The command-line contract: help, formats, seeds, files, pipes and errors."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import assert_usage_error, run

from chargen import output
from chargen.cli import cli
from chargen.commands import build_system_group
from chargen.systems import available, load

ROOT = Path(__file__).resolve().parent.parent


def every_command_path() -> list[list[str]]:
    paths = [
        [],
        ["roll"],
        ["systems"],
        ["tables"],
        ["tables", "list"],
        ["tables", "show"],
        ["tables", "check"],
    ]
    for sid in available():
        group = build_system_group(load(sid))
        paths.append([sid])
        paths += [[sid, name] for name in group.list_commands(None)]
    return paths


@pytest.mark.parametrize("path", every_command_path(), ids=lambda p: " ".join(p) or "root")
def test_help_works_on_every_command(path):
    result = run(*path, "--help")
    assert result.exit_code == 0, result.stderr
    assert "Usage:" in result.stdout


def test_root_help_imports_neither_faker_nor_tabulate_nor_systems():
    code = (
        "import sys\n"
        "from chargen.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in sys.modules if m.split('.')[0] in ('faker', 'tabulate')"
        " or m.startswith('chargen.systems.') or m == 'chargen.commands']\n"
        "print(heavy, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stderr.strip() == "[]"
    assert "karma" in done.stdout


def test_the_root_help_says_what_each_command_says_of_itself():
    from chargen.cli import SHORT_HELP
    from chargen.commands import COMMANDS

    assert sorted(SHORT_HELP) == sorted(COMMANDS)
    for name, command in COMMANDS.items():
        assert SHORT_HELP[name] == command.get_short_help_str(200), name
    listed = run("--help").stdout
    assert all(name in listed for name in SHORT_HELP)


def test_version():
    result = run("--version")
    assert result.exit_code == 0 and "chargen" in result.stdout


def test_systems_lists_only_working_systems_with_their_steps():
    result = run("systems", "-f", "json")
    rows = json.loads(result.stdout)
    assert [r["id"] for r in rows] == available()
    for row in rows:
        system = load(row["id"])
        assert row["commands"][:2] == ["pc", "npc"]
        assert [s["id"] for s in row["steps"]] == [s.id for s in system.pc if s.command]
        assert row["language"] in ("sv", "da", "hu")
    table = run("systems")
    assert all(r["id"] in table.stdout for r in rows)


@pytest.mark.parametrize("fmt", ["table", "json", "jsonl", "markdown"])
def test_same_seed_gives_byte_identical_output(fmt):
    first = run("karma", "npc", "-n", "25", "--seed", "4242", "-f", fmt)
    again = run("karma", "npc", "-n", "25", "--seed", "4242", "-f", fmt)
    other = run("karma", "npc", "-n", "25", "--seed", "4243", "-f", fmt)
    assert first.exit_code == 0 and first.stdout == again.stdout != other.stdout


def test_every_character_of_a_batch_regenerates_from_its_own_seed():
    batch = [
        json.loads(line)
        for line in run("karma", "pc", "-n", "12", "-f", "jsonl").stdout.splitlines()
    ]
    assert batch[0]["seed"] != batch[1]["seed"]
    for char in batch:
        alone = json.loads(run("karma", "pc", "--seed", char["seed"], "-f", "jsonl").stdout)
        assert alone == char


def test_first_character_uses_the_batch_seed():
    batch = [
        json.loads(line)
        for line in run("karma", "pc", "-n", "3", "--seed", "77", "-f", "jsonl").stdout.splitlines()
    ]
    assert batch[0]["seed"] == 77 and len({c["seed"] for c in batch}) == 3


def test_json_is_always_an_array_and_jsonl_one_object_per_line():
    one = json.loads(run("karma", "pc", "--seed", "1", "-f", "json").stdout)
    many = json.loads(run("karma", "pc", "-n", "3", "--seed", "1", "-f", "json").stdout)
    assert isinstance(one, list) and len(one) == 1 and len(many) == 3
    lines = run("karma", "pc", "-n", "3", "--seed", "1", "-f", "jsonl").stdout.splitlines()
    assert [json.loads(line) for line in lines] == many


def test_table_format_is_a_sheet_for_one_and_a_roster_for_many():
    sheet = run("karma", "pc", "--seed", "1").stdout
    assert "Egenskaper" in sheet and "Last och dygd" in sheet
    roster = run("karma", "npc", "-n", "5", "--seed", "1").stdout.split("\n\n")[0].splitlines()
    assert roster[0].split()[:2] == ["Namn", "Mall"] and len(roster) == 2 + 5 * 2
    # at 80 columns each member's seed has a line of its own under its row
    assert [line.split()[0] for line in roster[3::2]] == ["Frö"] * 5  # karma's word for seed


def test_markdown_sheet_and_roster():
    sheet = run("karma", "pc", "--seed", "1", "-f", "markdown").stdout
    assert sheet.startswith("# ") and "## Egenskaper" in sheet and "|" in sheet
    text = run("karma", "npc", "-n", "4", "--seed", "1", "-f", "markdown").stdout
    roster = text.split("\n\n")[0].splitlines()
    assert roster[0].startswith("| Namn") and roster[1].startswith("| --") and len(roster) == 6
    assert roster[0].endswith("| Frö |") and "Gör om: `chargen karma npc --seed <Frö>`" in text


def test_long_roster_is_written_in_chunks_with_every_row():
    result = run("karma", "npc", "-n", str(output.ROSTER_CHUNK + 10), "--seed", "1")
    # a row's first line holds its Egenskaper (digits); a long name's second line, the
    # headers and the legend under the roster hold none
    rows = [
        line
        for line in result.stdout.splitlines()
        if re.search(r" \d( |$)", line) and not line.startswith("  Frö ")
    ]
    assert len(rows) == output.ROSTER_CHUNK + 10


def test_output_file_is_written_and_matches_stdout(tmp_path):
    target = tmp_path / "npcs.jsonl"
    result = run("karma", "npc", "-n", "10", "--seed", "3", "-f", "jsonl", "-o", target)
    assert result.exit_code == 0 and result.stdout == ""
    assert (
        target.read_text(encoding="utf-8")
        == run("karma", "npc", "-n", "10", "--seed", "3", "-f", "jsonl").stdout
    )
    assert [p.name for p in tmp_path.iterdir()] == ["npcs.jsonl"]


@pytest.mark.parametrize("failure", [RuntimeError, KeyboardInterrupt])
def test_failed_or_interrupted_output_leaves_no_file(tmp_path, monkeypatch, failure):
    import chargen.procedure as procedure

    real = procedure.Context.start

    def flaky(ctx, seed, index):
        if index == 500:
            raise failure("boom")
        return real(ctx, seed, index)

    monkeypatch.setattr(procedure.Context, "start", flaky)
    target = tmp_path / "out.jsonl"
    result = run("karma", "npc", "-n", "1000", "-f", "jsonl", "-o", target)
    assert result.exit_code == (1 if failure is RuntimeError else 130)
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_failed_output_keeps_an_existing_file(tmp_path, monkeypatch):
    import chargen.procedure as procedure

    target = tmp_path / "keep.json"
    target.write_text("old", encoding="utf-8")

    def broken(ctx, seed, index):
        raise RuntimeError("boom")

    monkeypatch.setattr(procedure.Context, "start", broken)
    run("karma", "npc", "-o", target)
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.json"]


def test_output_into_a_missing_folder_is_a_usage_error(tmp_path):
    assert_usage_error(run("karma", "pc", "-o", tmp_path / "no" / "such.json"), "does not exist")


def test_internal_error_exits_1_briefly_and_debug_shows_the_traceback(monkeypatch):
    import chargen.procedure as procedure

    def broken(ctx, steps, fields=None, step=None):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(procedure, "make_character", broken)
    result = run("karma", "pc")
    assert (
        result.exit_code == 1
        and "internal error" in result.stderr
        and "Traceback" not in result.stderr
    )
    with pytest.raises(RuntimeError):
        from chargen.cli import main

        main(["--debug", "karma", "pc"])


def test_closed_pipe_ends_quietly():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def shell(line: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            line, shell=True, capture_output=True, text=True, env=env, executable="/bin/bash"
        )

    done = shell(f"'{sys.executable}' -m chargen karma npc -n 200000 -f jsonl | head -1")
    assert done.stderr == ""
    assert json.loads(done.stdout)["system"] == "karma"
    status = shell(
        f"set -o pipefail; '{sys.executable}' -m chargen karma pc -n 50000 -f json"
        " | head -c 10 >/dev/null"
    )
    assert status.returncode == 0 and status.stderr == ""


def test_progress_bar_only_on_a_terminal():
    class Tty:
        def __init__(self, tty):
            self.tty, self.text = tty, ""

        def isatty(self):
            return self.tty

        def write(self, text):
            self.text += text

        def flush(self):
            pass

    for tty in (True, False):
        stream = Tty(tty)
        assert list(output.progress(iter(range(5000)), 5000, stream)) == list(range(5000))
        assert ("5,000/5,000" in stream.text) is tty
    # (a seed: some batches of 3,000 run out of names and say so on stderr)
    assert run("karma", "npc", "-n", "1500", "--seed", "1", "-f", "jsonl").stderr == ""


@pytest.mark.parametrize(
    "args, fragments",
    [
        (["nosuch", "pc"], ["nosuch", *available()]),
        (["karma", "nosuch"], ["nosuch"]),
        (["karma", "pc", "-f", "yaml"], ["yaml", "jsonl", "markdown"]),
        (["karma", "pc", "-n", "0"], ["--count"]),
        (["karma", "pc", "-n", "1000001"], ["--count"]),
        (["karma", "pc", "--seed", "-5"], ["--seed"]),
        (["karma", "pc", "--seed", "abc"], ["--seed"]),
        (["karma", "pc", "--locale", "xx_XX"], ["xx_XX", "sv_SE", "hu_HU"]),
        (["tables", "show", "nope"], ["nope"]),
        (["tables", "list", "--system", "dnd"], ["dnd", "karma"]),
    ],
)
def test_bad_usage_exits_2_with_a_message(args, fragments):
    result = run(*args)
    assert_usage_error(result, *fragments)


def test_locale_overrides_the_system_names():
    from chargen.names import picker

    hungarian = set(picker("hu_HU").family["male"].names)
    chars = [
        json.loads(x)
        for x in run(
            "karma", "npc", "-n", "30", "--locale", "hu_HU", "-f", "jsonl"
        ).stdout.splitlines()
    ]
    assert all(c["name"].split()[-1] in hungarian for c in chars)


def test_python_dash_m_runs():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "chargen", "karma", "pc", "--seed", "1", "-f", "jsonl"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0 and json.loads(done.stdout)["seed"] == 1


def test_shell_completion_completes_systems_and_choice_values():
    env = {"_CHARGEN_COMPLETE": "bash_complete", "COMP_WORDS": "chargen ka", "COMP_CWORD": "1"}
    done = run(env=env)
    assert "karma" in done.stdout
    env = {
        "_CHARGEN_COMPLETE": "bash_complete",
        "COMP_WORDS": "chargen karma npc --template sta",
        "COMP_CWORD": "4",
    }
    assert "stadsvakt" in run(env=env).stdout
    assert cli.name == "cli" or cli is not None


def every_step() -> list[tuple[str, str]]:
    return [(sid, s.id) for sid in available() for s in load(sid).pc if s.command]


@pytest.mark.parametrize("system_id, step", every_step())
@pytest.mark.parametrize(
    "fmt, count", [("table", "1"), ("table", "3"), ("markdown", "1"), ("jsonl", "2")]
)
def test_every_step_alone_in_every_format(system_id, step, fmt, count):
    result = run(system_id, step, "--seed", "3", "-n", count, "-f", fmt)
    assert result.exit_code == 0, result.stderr
    if fmt == "jsonl":
        parts = [json.loads(line) for line in result.stdout.splitlines()]
        assert len(parts) == int(count) and all(p["step"] == step for p in parts)
    else:
        assert result.stdout.strip()


class _Recorder:
    """A text stream that records each write call."""

    def __init__(self, line_buffering: bool) -> None:
        self.line_buffering, self.calls = line_buffering, []

    def write(self, text: str) -> None:
        self.calls.append(text)

    def flush(self) -> None:
        pass


def test_a_batch_is_written_in_joined_chunks_and_a_terminal_gets_each_line():
    lines = [f"{i}\n" for i in range(300)]
    piped = _Recorder(line_buffering=False)
    output.write(iter(lines), piped)
    assert "".join(piped.calls) == "".join(lines)
    assert len(piped.calls) == -(-300 // output.WRITE_CHUNKS)
    terminal = _Recorder(line_buffering=True)
    output.write(iter(lines), terminal)
    assert terminal.calls == lines


def test_what_was_made_before_an_error_is_written():
    def failing():
        yield "one\n"
        yield "two\n"
        raise RuntimeError("the third failed")

    piped = _Recorder(line_buffering=False)
    with pytest.raises(RuntimeError):
        output.write(failing(), piped)
    assert "".join(piped.calls) == "one\ntwo\n"
