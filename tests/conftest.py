"""Shared test helpers: run the CLI in-process, and generate characters directly."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen.cli import main
from chargen.procedure import generate
from chargen.systems import load


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str


def run(*args: str, input: str | None = None, env: dict | None = None) -> Result:
    """`chargen ARGS` through the real entry point (exit-code mapping included)."""
    runner = CliRunner()
    with runner.isolation(input=input, env=env) as (out, err, _mixed):
        try:
            main([str(a) for a in args])
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        return Result(code, out.getvalue().decode(), err.getvalue().decode())


def make(
    system_id: str,
    kind: str = "pc",
    count: int = 1,
    seed: int = 1,
    options: dict | None = None,
    step: str | None = None,
) -> list[dict]:
    """Characters generated in-process, as the CLI would (options keyed by slug)."""
    system = load(system_id)
    return list(generate(system, system.tables(), kind, options or {}, count, seed, step=step))


def pip(command: str, *args: str) -> None:
    """`python -m pip COMMAND ARGS` of this test environment, offline and quiet (no
    dependencies, no build isolation: the environment's own setuptools builds)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "pip", command, "--quiet", "--no-deps", "--no-build-isolation",
         "--disable-pip-version-check", *args],
        capture_output=True,
        text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def by_id(tables, name: str) -> dict[str, dict]:
    """The entries of a loaded pack's table `name`, keyed by id."""
    return {e["id"]: e for e in tables[name].entries}


def lef_values(char: dict) -> dict[str, int]:
    """A LEF character's twelve evner (talenter and kundskaber) in one dict."""
    return {**char["talenter"], **char["kundskaber"]}


def pack_table(pack: Path, system: str, name: str, edit: Callable[[str], str]) -> Path:
    """Write built-in table `name` of `system`, its text changed by `edit`, into a pack
    (`pack/SYSTEM/NAME.toml`); the file written. An edit that changes nothing fails."""
    from chargen.tables import builtin_root

    text = (builtin_root() / system / f"{name}.toml").read_text(encoding="utf-8")
    changed = edit(text)
    assert changed != text, f"the edit of {system}/{name}.toml changed nothing"
    folder = pack / system
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.toml"
    path.write_text(changed, encoding="utf-8")
    return path


def assert_usage_error(result: Result, *fragments: str) -> None:
    """Exit 2, a message on stderr naming the fault, nothing on stdout, no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.stderr)
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    for fragment in fragments:
        assert fragment in result.stderr, (fragment, result.stderr)


@pytest.fixture
def cli():
    return run


def fvtt() -> Path:
    """The official Foundry CLI (@foundryvtt/foundryvtt-cli@3, installed by .ci/run or
    here with npm); the test skips, saying so, without npm."""
    import shutil
    import subprocess

    root = Path(__file__).resolve().parent.parent
    binary = root / ".ci/node/node_modules/.bin/fvtt"
    if binary.exists():
        return binary
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip(
            "npm is not installed: the Foundry CLI round trip needs @foundryvtt/foundryvtt-cli"
        )
    subprocess.run(
        [npm, "install", "--prefix", str(root / ".ci/node"), "@foundryvtt/foundryvtt-cli@3"],
        check=True,
        capture_output=True,
    )
    return binary


def fvtt_round_trip(src: Path, work: Path) -> dict[str, str]:
    """Pack a folder of Actor source files into a compendium with the Foundry CLI, unpack
    it again, and return the unpacked files' text by actor id."""
    import json
    import os
    import subprocess

    binary = fvtt()
    env = dict(os.environ, HOME=str(work))  # the CLI may keep a config file in HOME
    packed, back = work / "packs", work / "back"
    for command, source, target in (("pack", src, packed), ("unpack", packed, back)):
        subprocess.run(
            [str(binary), "package", command, "chargen", "--in", str(source), "--out", str(target)],
            check=True, capture_output=True, env=env, cwd=work,
        )  # fmt: skip
    return {json.loads(p.read_text())["_id"]: p.read_text() for p in back.glob("*.json")}
