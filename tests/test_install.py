"""The installed package is the source tree: a wheel built from it holds every module
of chargen, every game's package and every built-in table (a game's package left out
of pyproject.toml's list once made `pip install .` a chargen without that game, while
an editable install and the tests of a checkout went on working)."""

from __future__ import annotations

import zipfile
from pathlib import Path

from conftest import pip

ROOT = Path(__file__).resolve().parent.parent


def test_the_wheel_holds_every_module_and_table(tmp_path):
    pip("wheel", "--wheel-dir", str(tmp_path), str(ROOT))
    (wheel,) = tmp_path.glob("chargen-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {str(p.relative_to(ROOT)) for p in (ROOT / "chargen").rglob("*.py")}
    missing = sorted(modules - names)
    assert not missing, f"modules not in the wheel (pyproject.toml's packages): {missing}"
    tables = {
        "chargen/builtin_tables/" + str(p.relative_to(ROOT / "tables"))
        for p in (ROOT / "tables").rglob("*.toml")
    }
    missing = sorted(tables - names)
    assert not missing, f"tables not in the wheel: {missing}"
    assert "chargen/sheet.typ" in names and "chargen/export/swade.toml" in names
