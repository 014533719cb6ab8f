"""A user's savage pack: each fault the specs cannot express, found by `chargen tables check`.

Each case writes one built-in file with one change into a pack, then asserts that
`chargen tables check PACK` exits 2 naming the file and the line of the change,
and that generating with `--tables PACK` stops the same way before any output.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import assert_usage_error, pack_table, run

from chargen.systems import load
from chargen.systems.savage.checks import check_pack

TABLES = load("savage").tables()

# (file, text in the built-in file, what it becomes, words the problem must say)
FAULTS = [
    # dice off the ladder
    (
        "mellekszereplok",
        'ugyesseg = "d6", esz = "d4"',
        'ugyesseg = "d7", esz = "d4"',
        "'d7' is not a die of the ladder",
    ),
    (
        "mellekszereplok",
        'kozelharc = "d6", loveszet = "d6"',
        'kozelharc = "d5", loveszet = "d6"',
        "'d5' is not a die",
    ),
    ("mellekszereplok", 'futaskocka = "d10"', 'futaskocka = "d9"', "'futaskocka': 'd9'"),
    (
        "elonyok",
        'kell_tulajdonsag = { ugyesseg = "d6" }',
        'kell_tulajdonsag = { ugyesseg = "6" }',
        "'kell_tulajdonsag': '6' is not a die",
    ),
    ("felszereles", 'min_ero = "d8"', 'min_ero = "d7"', "'min_ero': 'd7'"),
    ("beallitasok", 'tulajdonsag_kezdo = "d4"', 'tulajdonsag_kezdo = "d5"', "tulajdonsag_kezdo"),
    ("beallitasok", 'vadkocka = "d6"', 'vadkocka = "d7"', "'vadkocka': 'd7'"),
    ("beallitasok", 'futaskocka_min = "d4"', 'futaskocka_min = "4"', "'futaskocka_min': '4'"),
    (
        "beallitasok",
        'kocka_letra = ["d4", "d6", "d8", "d10", "d12"]',
        'kocka_letra = ["d4", "d8", "d6", "d10", "d12"]',
        "lowest first",
    ),
    (
        "beallitasok",
        'kocka_letra = ["d4", "d6", "d8", "d10", "d12"]',
        'kocka_letra = ["d4", "d6", "d8", "10", "d12"]',
        'dice such as "d4"',
    ),
    (
        "beallitasok",
        'tulajdonsag_kezdo = "d4"',
        'tulajdonsag_kezdo = "d12+1"',
        "tulajdonsag_kezdo d12+1 is above tulajdonsag_max d12",
    ),
    (
        "beallitasok",
        'alap_kepzettseg_kezdo = "d4"',
        'alap_kepzettseg_kezdo = "d12+2"',
        "is above kepzettseg_max",
    ),
    # misspelt trait and skill keys
    (
        "mellekszereplok",
        'ugyesseg = "d6", esz = "d4"',
        'ugyeseg = "d6", esz = "d4"',
        "unknown alaptulajdonság 'ugyeseg'",
    ),
    (
        "mellekszereplok",
        'kepzettsegek = { atletika = "d6", kozelharc = "d6", loveszet = "d6"',
        'kepzettsegek = { atletica = "d6", kozelharc = "d6", loveszet = "d6"',
        "unknown képzettség 'atletica'",
    ),
    (
        "elonyok",
        'kell_tulajdonsag = { ugyesseg = "d6" }',
        'kell_tulajdonsag = { ugyeseg = "d6" }',
        "unknown alaptulajdonság 'ugyeseg'",
    ),
    (
        "elonyok",
        'kell_kepzettseg = { loveszet = "d8" }',
        'kell_kepzettseg = { loveszett = "d8" }',
        "unknown képzettség 'loveszett'",
    ),
    (
        "koncepciok",
        "tulajdonsag_sulyok = { ugyesseg = 3,",
        "tulajdonsag_sulyok = { ugyeseg = 3,",
        "'tulajdonsag_sulyok': unknown alaptulajdonság 'ugyeseg'",
    ),
    (
        "koncepciok",
        "kepzettseg_sulyok = { kozelharc = 12,",
        "kepzettseg_sulyok = { kozelharcc = 12,",
        "'kepzettseg_sulyok': unknown képzettség 'kozelharcc'",
    ),
    (
        "alaptulajdonsagok",
        'id = "ugyesseg"',
        'id = "szerencse"\nname = "Szerencse"\n\n[[entries]]\nid = "ugyesseg"',
        "unknown alaptulajdonság 'szerencse'",
    ),
    # grades, purchases and shop kinds the procedure knows
    ("hatranyok", 'sulyossag = "enyhe"', 'sulyossag = "kozepes"', "'kozepes' must be one of"),
    (
        "beallitasok",
        "hatrany_koltes_sulyok = { tulajdonsag = 4,",
        "hatrany_koltes_sulyok = { tulajdonsagg = 4,",
        "unknown purchase 'tulajdonsagg'",
    ),
    ("beallitasok", 'kezdo_rangok = ["ujonc"]', 'kezdo_rangok = ["ujoncc"]', "rang 'ujoncc'"),
    (
        "beallitasok",
        'bevasarlas = ["kozelharci",',
        'bevasarlas = ["kozelharcii",',
        "no item has tipus 'kozelharcii'",
    ),
    ("koncepciok", 'korszak = ["kozepkor"]', "korszak = []", "'korszak' must be a non-empty list"),
    # numbers the procedure cannot use
    (
        "koncepciok",
        "kepzettseg_sulyok = { kozelharc = 12,",
        "kepzettseg_sulyok = { kozelharc = -1,",
        "a whole number from 0 to 1000",
    ),
    ("mellekszereplok", "szoras = 0", "szoras = -1", "'szoras' must be a whole number from 0"),
    ("beallitasok", "hatrany_pont_enyhe = 1", "hatrany_pont_enyhe = 0", "1 or more"),
    ("beallitasok", "mozgas = 6 ", "mozgas = -6 ", "'mozgas' must be a whole number from 1"),
    (
        "beallitasok",
        "mellekszereplo_valtozas_esely = 35",
        "mellekszereplo_valtozas_esely = 135",
        "percentage",
    ),
    (
        "beallitasok",
        "hatrany_pont_sulyok = [1, 1, 2, 3, 6]",
        "hatrany_pont_sulyok = [0, 0, 0, 0, 0]",
        "no weight above 0",
    ),
    (
        "beallitasok",
        "kepzettseg = 3, penz = 1 }",
        "kepzettseg = 0, penz = 0 }",
        "1 Hátrány point(s) left can buy nothing",
    ),
    ("beallitasok", "tulajdonsag_lepesek = 5", "tulajdonsag_lepesek = 19", "do not fit in 20"),
]


def _pack(tmp_path: Path, name: str, old: str, new: str) -> tuple[Path, Path, int]:
    """A pack whose `name`.toml has `old` changed to `new` once; (pack, file, changed line)."""
    source = TABLES.files[name].read_text(encoding="utf-8")
    assert old in source, (name, old)
    path = pack_table(tmp_path, "savage", name, lambda text: text.replace(old, new, 1))
    return tmp_path, path, source.count("\n", 0, source.index(old)) + 1


def _problem_line(stderr: str, path: Path, line: int) -> str:
    """The one line of the report that names `path` at `line`."""
    prefix = f"{path}:{line}: "
    found = [text for text in stderr.splitlines() if text.strip().startswith(prefix)]
    assert found, (prefix, stderr)
    return " ".join(found)


@pytest.mark.parametrize(
    "name,old,new,words", FAULTS, ids=[f"{f[0]}:{f[2].splitlines()[0]}" for f in FAULTS]
)
def test_tables_check_names_file_and_line(tmp_path, name, old, new, words):
    pack, path, line = _pack(tmp_path, name, old, new)
    result = run("tables", "check", str(pack))
    assert_usage_error(result, "bad tables")
    assert words in _problem_line(result.stderr, path, line), result.stderr
    for kind in ("pc", "npc"):  # the same pack stops a batch before any output
        result = run("savage", kind, "--tables", str(pack), "--seed", "1")
        assert_usage_error(result, f"{path}:{line}: ", words)


def test_missing_fighting_skill_is_named(tmp_path):
    # kozelharc renamed everywhere it is named: the references agree, Hárítás has no skill
    folder = tmp_path / "savage"
    folder.mkdir()
    for name in ("kepzettsegek", "felszereles", "koncepciok", "elonyok", "mellekszereplok"):
        text = TABLES.files[name].read_text(encoding="utf-8")
        (folder / f"{name}.toml").write_text(
            re.sub(r"\bkozelharc\b", "harc", text), encoding="utf-8"
        )
    result = run("tables", "check", str(tmp_path))
    assert_usage_error(result, f"{folder / 'kepzettsegek.toml'}: missing képzettség 'kozelharc'")
    assert result.stderr.count("problem(s)") == 1 and "(1 problem(s))" in result.stderr


def test_every_fault_is_reported_not_only_the_first(tmp_path):
    folder = tmp_path / "savage"
    folder.mkdir()
    source = TABLES.files["mellekszereplok"].read_text(encoding="utf-8")
    bad = source.replace('esz = "d4"', 'esz = "d7"')
    (folder / "mellekszereplok.toml").write_text(bad, encoding="utf-8")
    lines = [n for n, text in enumerate(bad.splitlines(), 1) if 'esz = "d7"' in text]
    assert len(lines) > 3
    result = run("tables", "check", str(tmp_path))
    assert_usage_error(result, f"({len(lines)} problem(s))")
    for line in lines:
        assert f"mellekszereplok.toml:{line}: 'alaptulajdonsagok': 'd7'" in result.stderr


def test_builtin_pack_passes_its_own_checks():
    assert check_pack(TABLES) == []
    result = run("tables", "check", "--system", "savage")
    assert result.exit_code == 0 and "no problems" in result.stderr


def test_a_good_pack_passes_and_is_used(tmp_path):
    pack, path, _ = _pack(tmp_path, "beallitasok", 'vadkocka = "d6"', 'vadkocka = "d8"')
    result = run("tables", "check", str(pack))
    assert result.exit_code == 0, result.stderr
    result = run("savage", "npc", "--tables", str(pack), "--wild-card", "-f", "jsonl")
    assert result.exit_code == 0, result.stderr
    assert '"vadkocka":"d8"' in result.stdout
