"""The program's entry point: the CLI run with the collector set for a short run."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import tomllib
from conftest import run

import chargen.cli
from chargen import launch

ROOT = Path(__file__).resolve().parent.parent


def test_the_console_script_is_the_launcher():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["scripts"]["chargen"] == "chargen.launch:main"


def test_the_launcher_runs_the_cli_with_the_collector_on_and_start_up_frozen(monkeypatch):
    seen = {}

    def cli_main() -> None:
        seen["enabled"], seen["frozen"] = gc.isenabled(), gc.get_freeze_count()

    monkeypatch.setattr(chargen.cli, "main", cli_main)
    try:
        launch.main()
        frozen_at_exit = gc.get_freeze_count()
    finally:
        gc.unfreeze()  # this test process goes on: let the collector see it all again
    assert seen["enabled"] and gc.isenabled()
    assert seen["frozen"] > 0 and frozen_at_exit >= seen["frozen"]


def test_python_dash_m_makes_what_the_cli_makes():
    done = subprocess.run(
        [sys.executable, "-m", "chargen", "karma", "pc", "--seed", "5", "-f", "json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == run("karma", "pc", "--seed", "5", "-f", "json").stdout


def test_the_launcher_keeps_the_exit_status():
    done = subprocess.run(
        [sys.executable, "-m", "chargen", "nosuchgame", "pc"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 2 and "nosuchgame" in done.stderr and "Traceback" not in done.stderr
