"""Input a hostile or careless user gives (found by a fuzzing pass): each is exit 2 with
a message, or quiet where the reader went away, never an internal error (exit 1)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import run

from chargen import commands
from chargen.odds import percent

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _shell(line: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        line, shell=True, capture_output=True, text=True, env=ENV, executable="/bin/bash", cwd=ROOT
    )


def test_a_closed_pipe_with_a_users_pack_is_quiet():
    done = _shell(
        f"set -o pipefail; '{sys.executable}' -m chargen karma npc -n 3000"
        " --tables examples/my-pack -f jsonl | head -1"
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert json.loads(done.stdout)["system"] == "karma"


def test_a_campaign_export_into_a_closed_pipe_is_quiet(tmp_path):
    db = tmp_path / "c.db"
    assert run("karma", "npc", "-n", "3000", "--seed", "1", "--campaign", db).exit_code == 0
    for fmt in ("jsonl", "json", "table"):
        done = _shell(
            f"set -o pipefail; '{sys.executable}' -m chargen campaign export -f {fmt}"
            f" --campaign '{db}' | head -1"
        )
        assert done.returncode == 0 and done.stderr == "", (fmt, done.stderr)


@pytest.mark.parametrize("stored", ["{not json", "[1, 2]", "{}", "[" * 1000 + "]" * 1000])
def test_a_damaged_campaign_row_is_named_not_a_crash(tmp_path, stored):
    db = tmp_path / "c.db"
    assert run("karma", "npc", "-n", "2", "--seed", "1", "--campaign", db).exit_code == 0
    with sqlite3.connect(db) as con:
        con.execute("UPDATE characters SET json = ? WHERE id = 1", (stored,))
    for args in (["show", "1"], ["export"], ["check"]):
        done = run("campaign", *args, "--campaign", db)
        assert done.exit_code == 2, (args, done.stderr)
        assert "internal error" not in done.stderr
    assert "character 1 is stored damaged" in run("campaign", "show", "1", "--campaign", db).stderr


def test_json_nested_too_deep_is_no_character():
    done = run("karma", "reroll", "name", "-", input="[" * 1000 + "]" * 1000)
    assert done.exit_code == 2 and "nested too deep" in done.stderr, done.stderr


def test_where_nested_too_deep_is_refused():
    done = run("karma", "npc", "--where", "(" * 170 + "name" + ")" * 170)
    assert done.exit_code == 2 and "parentheses within each other" in done.stderr, done.stderr


def test_an_impossible_where_gives_up_after_the_first_tries_whatever_n(monkeypatch):
    monkeypatch.setattr(commands, "WHERE_TRIES", 400)
    done = run("karma", "npc", "--where", "seed < 0", "-n", "1000000")
    assert done.exit_code == 2 and "0 of 400 characters matched" in done.stderr, done.stderr


def test_tiny_odds_are_written_with_a_power_of_ten():
    assert percent(Fraction(1, 36)) == "2.778%"
    assert percent(Fraction(3, 10**100)) == "3e-98%"
    assert percent(Fraction(1, 3 * 10**400)) == "3.333e-399%"  # below a float's range
    done = run("roll", "5d6!", "--odds", "--depth", "100")
    assert done.exit_code == 0, done.stderr
    assert "e-" in done.stdout and "0.0000000" not in done.stdout


def test_a_pasted_page_as_an_answer_is_not_said_back_whole():
    done = run("karma", "pc", "--interactive", input="x" * 100_000 + "\n")
    assert done.exit_code == 2 and "x" * 57 + "..." in done.stderr, done.stderr[-300:]
    assert "x" * 100 not in done.stderr


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["savage", "pc", "--elony", "bator", "--elony", "bator"], "--elony"),
        (["karma", "pc", "--bakgrund", "munk", "--bakgrund", "munk"], "--bakgrund"),
        (["savage", "pc", "--hatrany", "gyava", "--hatrany", "gyava"], "--hatrany"),
    ],
)
def test_a_row_chosen_twice_is_refused_for_every_repeatable_choice(args, option):
    done = run(*args)
    assert done.exit_code == 2 and f"{option} names the same row twice" in done.stderr, done.stderr


def test_forgetting_in_a_missing_campaign_makes_no_file(tmp_path):
    db = tmp_path / "new.db"
    done = run("campaign", "forget", "1", "--campaign", db)
    assert done.exit_code == 2 and "no campaign" in done.stderr and not db.exists()


def test_a_table_saved_with_a_byte_order_mark_is_read(tmp_path):
    """Notepad saves UTF-8 with a BOM; the table is the same text without it."""
    (tmp_path / "karma").mkdir()
    own = (ROOT / "tables" / "karma" / "laster.toml").read_text(encoding="utf-8")
    (tmp_path / "karma" / "laster.toml").write_bytes(b"\xef\xbb\xbf" + own.encode("utf-8"))
    checked = run("tables", "check", str(tmp_path))
    assert checked.exit_code == 0, checked.stderr
    made = run("karma", "pc", "--tables", str(tmp_path), "--seed", "1", "-f", "jsonl")
    plain = run("karma", "pc", "--seed", "1", "-f", "jsonl")
    assert (
        made.exit_code == 0 and json.loads(made.stdout)["last"] == json.loads(plain.stdout)["last"]
    )


def test_output_names_that_are_no_file_say_what_is_wrong(tmp_path):
    """`-o newdir/` (not there yet) is a folder's name, not "it is a folder"; an empty
    -o for a folder of Foundry actors asks for a folder name, not "it exists"."""
    missing = f"{tmp_path}/new/"
    result = run("savage", "npc", "-f", "jsonl", "-o", missing)
    assert result.exit_code == 2 and "a name ending in '/' is a folder's" in result.stderr
    assert not (tmp_path / "new").exists()
    # a format that writes folders writes one for a single character named so
    result = run("savage", "npc", "--seed", "1", "-f", "foundry", "-o", missing)
    assert result.exit_code == 0, result.stderr
    (actor,) = (tmp_path / "new").iterdir()
    alone = run("savage", "npc", "--seed", "1", "-f", "foundry").stdout
    assert json.loads(actor.read_text(encoding="utf-8"))["name"] == json.loads(alone)["name"]
    result = run("savage", "npc", "-o", str(tmp_path))
    assert result.exit_code == 2 and "it is a folder" in result.stderr
    result = run("savage", "npc", "-f", "foundry", "-n", "2", "-o", "")
    assert result.exit_code == 2 and "-o needs a folder name" in result.stderr
