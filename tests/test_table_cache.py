"""The cache of parsed built-in tables (chargen/tables.py): it changes nothing a user
sees, it is rebuilt when stale or corrupt, and a user's pack is never cached."""

from __future__ import annotations

import json
import shutil

import pytest
from conftest import run

from chargen import output
from chargen.procedure import generate
from chargen.systems import available, load
from chargen.tables import _TABLE_CACHE_VERSION


def sheet(sid: str, seed: int) -> str:
    system = load(sid)
    pack = system.tables()
    chars = list(generate(system, pack, "pc", {}, 1, seed))
    return "".join(output.render(system, pack, iter(chars), "table", 1, None, 80))


def cache_files(root, sid: str = "*") -> list:
    return sorted((root / "chargen").glob(f"tables{_TABLE_CACHE_VERSION}-*-{sid}-*.json"))


@pytest.mark.parametrize("sid", available())
def test_cached_tables_make_the_same_characters(sid, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("CHARGEN_NO_CACHE", raising=False)
    first = [sheet(sid, seed) for seed in range(1, 6)]  # parses and writes the cache
    assert cache_files(tmp_path, sid), "the built-in tables were not cached"
    again = [sheet(sid, seed) for seed in range(1, 6)]  # reads the cache
    monkeypatch.setenv("CHARGEN_NO_CACHE", "1")
    fresh = [sheet(sid, seed) for seed in range(1, 6)]
    assert first == again == fresh


def test_a_stale_or_corrupt_cache_file_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("CHARGEN_NO_CACHE", raising=False)
    want = sheet("karma", 3)
    files = cache_files(tmp_path, "karma")
    assert files
    # a file whose key does not match (an older chargen, an edited table) is not used
    for path in files:
        cached = json.loads(path.read_text(encoding="utf-8"))
        cached["data"] = {"entries": []}
        cached["key"] = "stale"
        path.write_text(json.dumps(cached), encoding="utf-8")
    assert sheet("karma", 3) == want
    assert all(json.loads(p.read_text(encoding="utf-8"))["key"] != "stale" for p in files)
    # nor is a file that is not JSON, or JSON of another shape
    files[0].write_text("{not json", encoding="utf-8")
    files[1].write_text("[1, 2]", encoding="utf-8")
    assert sheet("karma", 3) == want
    assert run("karma", "pc", "--seed", "3").exit_code == 0


def test_a_users_pack_is_read_afresh_and_never_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("CHARGEN_NO_CACHE", raising=False)
    pack = tmp_path / "pack" / "karma"
    pack.mkdir(parents=True)
    source = load("karma").tables().files["sardrag"]
    (pack / "sardrag.toml").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    assert run("karma", "pc", "--seed", "3", "--tables", str(tmp_path / "pack")).exit_code == 0
    cached = [p.name for p in cache_files(tmp_path / "cache", "karma")]
    assert cached and not any(name.endswith("-karma-sardrag.json") for name in cached)
    # a broken file in the pack is a fault with its line, whatever the cache holds
    (pack / "sardrag.toml").write_text("[[entries]\n", encoding="utf-8")
    result = run("karma", "pc", "--seed", "3", "--tables", str(tmp_path / "pack"))
    assert result.exit_code == 2 and "sardrag.toml" in result.stderr


def test_the_cache_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("CHARGEN_NO_CACHE", "1")
    sheet("lef", 2)
    assert cache_files(tmp_path) == []


def test_two_installs_keep_their_cached_tables_apart(monkeypatch, tmp_path):
    """A development checkout beside a site install: each its own cache files, or each
    start of one would rebuild what the other just wrote."""
    from chargen import tables as engine

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("CHARGEN_NO_CACHE", raising=False)
    pack = load("karma").tables()
    path = pack.files["sardrag"]
    here = engine._table_cache("sardrag", path, pack)
    elsewhere = tmp_path / "other-install"
    (elsewhere / "karma").mkdir(parents=True)
    shutil.copy2(path, elsewhere / "karma" / path.name)  # the same file, size and time
    monkeypatch.setattr(engine, "builtin_root", lambda: elsewhere)
    other = engine._table_cache("sardrag", elsewhere / "karma" / path.name, pack)
    assert here is not None and other is not None
    assert here[0] != other[0] and here[0].parent == other[0].parent


def test_an_edited_built_in_table_is_read_again(monkeypatch, tmp_path):
    """A cached table is not read at all, so an edit must show in the file's size or
    time: it does, and the edited rows are what the next run draws from."""
    from chargen import procedure
    from chargen import tables as engine

    root = tmp_path / "install"
    shutil.copytree(engine.builtin_root() / "karma", root / "karma")
    for module in (engine, procedure):
        monkeypatch.setattr(module, "builtin_root", lambda: root)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("CHARGEN_NO_CACHE", raising=False)
    assert load("karma").tables()["laster"].entries[0]["result"] == "super som ett svin"
    cached = load("karma").tables()["laster"]
    assert "text" not in vars(cached), "the second load did not come from the cache"
    assert cached.text == (root / "karma" / "laster.toml").read_text(encoding="utf-8")
    path = root / "karma" / "laster.toml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("super som ett svin", "dricker som en svamp"),
        encoding="utf-8",
    )
    edited = load("karma").tables()["laster"]
    assert edited.entries[0]["result"] == "dricker som en svamp"
    assert load("karma").tables()["laster"].entries[0]["result"] == "dricker som en svamp"
