"""Campaigns: one SQLite file keeps every character made for it, and no name comes twice.

The file behaves like a database: several processes at once, kill -9 in a batch,
truncated, foreign, newer-schema and damaged files, a full disk and a read-only file
are each exercised here against a real file.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import assert_usage_error, run

from chargen import campaign as cmp
from chargen.encode import Lines
from chargen.procedure import generate
from chargen.seeds import character_seed
from chargen.systems import available, load

CHARGEN = [sys.executable, "-m", "chargen"]


def fill(path: Path, system_id: str, kind: str, count: int, seed: int, tag=None) -> list[dict]:
    """A run through the API, as the CLI does it: the characters it made, all stored."""
    system = load(system_id)
    with cmp.open_campaign(path) as campaign:
        recorder = campaign.recorder(
            {
                "system": system_id,
                "kind": kind,
                "options": {},
                "batch_seed": seed,
                "count": count,
                "version": "test",
                "tag": tag,
            }
        )
        items = generate(
            system, system.tables(), kind, {}, count, seed, names=campaign.names(system_id)
        )
        made = list(recorder.wrap(items))
        recorder.finish()
    return made


def rows(path: Path, sql: str = "SELECT system, name, seed, json FROM characters") -> list:
    db = sqlite3.connect(path)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def content(path: Path) -> list:
    """The campaign's logical content: every row of every table."""
    db = sqlite3.connect(path)  # (read-write: closing it folds the WAL back in)
    try:
        return list(db.iterdump())
    finally:
        db.close()


# -- names ----------------------------------------------------------------------


def test_no_name_twice_over_20000_characters_and_renamed_members_regenerate(tmp_path):
    """Runs of every system into one campaign, two of them with the same batch seed
    (every name of the second is taken): 20,000 stored, no name twice per system, and
    each renamed member is its stored seed's character alone."""
    path = tmp_path / "c.db"
    plan = [
        ("karma", "npc", 4000, 11),
        ("karma", "npc", 2000, 11),  # the same seed: every name is the first run's
        ("matinee", "npc", 3500, 12),
        ("savage", "npc", 3500, 13),
        ("lef", "npc", 3000, 14),
        ("spelsystemet", "npc", 3000, 15),
        ("matinee", "pc", 500, 16),
        ("karma", "pc", 500, 11),
    ]
    made: dict[str, list[str]] = {}
    second = []
    for i, (system_id, kind, count, seed) in enumerate(plan):
        chars = fill(path, system_id, kind, count, seed)
        made.setdefault(system_id, []).extend(c["name"] for c in chars)
        if i == 1:
            second = chars
    stored = rows(path)
    assert len(stored) == 20_000
    for system_id, names in made.items():
        assert len(names) == len(set(names)), system_id
        assert sorted(names) == sorted(n for s, n, _, _ in stored if s == system_id)
    # the second karma run: every member renamed (a new seed) or numbered
    system = load("karma")
    tables = system.tables()
    renamed = 0
    for index, char in enumerate(second[:300]):
        assert char["seed"] != character_seed(11, index) or re.search(r" \d+$", char["name"])
        alone = next(generate(system, tables, "npc", {}, 1, char["seed"]))
        if alone["name"] == char["name"]:
            renamed += 1
            assert Lines().line(alone) == Lines().line(char)
        else:  # the name space was spent: the first name with a number
            assert re.fullmatch(re.escape(alone["name"]) + r" \d+", char["name"])
    assert renamed > 250
    with cmp.open_campaign(path, write=False) as campaign:
        assert campaign.check() == (20_000, [])


def test_forget_frees_the_names_and_is_all_or_nothing(tmp_path, cli):
    path = tmp_path / "c.db"
    first = fill(path, "karma", "npc", 5, 3)
    assert_usage_error(cli("campaign", "forget", "1", "99", "--campaign", path), "99")
    assert len(rows(path)) == 5
    assert cli("campaign", "forget", "1", "2", "--campaign", path).exit_code == 0
    with cmp.open_campaign(path) as campaign:
        names = campaign.names("karma")
        assert not names.taken(first[0]["name"]) and not names.taken(first[1]["name"])
        assert names.taken(first[2]["name"])
    again = fill(path, "karma", "npc", 5, 3)  # the freed names come back, the rest do not
    assert [c["name"] for c in again[:2]] == [c["name"] for c in first[:2]]
    assert {c["name"] for c in again[2:]}.isdisjoint(c["name"] for c in first)


def test_a_batch_of_one_is_kept_unique_too(tmp_path, cli):
    path = tmp_path / "c.db"
    one = cli("karma", "npc", "--seed", "9", "-f", "json", "--campaign", path)
    two = cli("karma", "npc", "--seed", "9", "-f", "json", "--campaign", path)
    assert json.loads(one.stdout)[0]["name"] != json.loads(two.stdout)[0]["name"]
    env = cli("karma", "npc", "--seed", "9", "-f", "json", env={"CHARGEN_CAMPAIGN": str(path)})
    assert len(rows(path)) == 3 and env.exit_code == 0


# -- show and export ------------------------------------------------------------


def formats_of(system_id: str) -> list[str]:
    extra = {"savage": ["statblock", "foundry"]}.get(system_id, [])
    return ["table", "markdown", "json", "jsonl", "html", *extra]


@pytest.mark.parametrize("system_id", available())
def test_show_is_byte_identical_to_the_run_in_every_format(tmp_path, cli, system_id):
    """A run of one in each format, stored; `campaign show` of it, the same bytes."""
    path = tmp_path / "c.db"
    for kind in ("pc", "npc"):
        for fmt in formats_of(system_id):
            made = cli(system_id, kind, "--seed", "41", "-f", fmt, "--campaign", path)
            assert made.exit_code == 0, made.stderr
            (cid,) = rows(path, "SELECT max(id) FROM characters")[0]
            for show in (fmt, "json"):
                shown = cli("campaign", "show", str(cid), "-f", show, "--campaign", path)
                assert shown.exit_code == 0, shown.stderr
                if show == fmt:
                    assert shown.stdout == made.stdout, (system_id, kind, fmt)
            # a renamed member (the seed is taken) shows as its recipe makes it alone
            (recipe,) = rows(path, f"SELECT recipe FROM characters WHERE id = {cid}")[0]
            alone = cli(*recipe.split()[1:], "-f", fmt)
            assert alone.stdout == made.stdout


@pytest.mark.parametrize("system_id", available())
def test_sheets_from_stored_json_are_the_sheets_of_the_characters(system_id):
    """The sweep behind `campaign show`: a character read back from its JSON line
    renders the same sheet, Markdown and HTML as the character itself."""
    from chargen import output as out
    from chargen import printable

    system = load(system_id)
    tables = system.tables()
    line = Lines().line
    for kind in ("pc", "npc"):
        for char in generate(system, tables, kind, {}, 60, 77):
            back = json.loads(line(char))
            for fmt in ("table", "markdown"):
                assert "".join(out.render(system, tables, [back], fmt, 1)) == "".join(
                    out.render(system, tables, [char], fmt, 1)
                )
            assert printable.html(system, tables, [back], 1) == printable.html(
                system, tables, [char], 1
            )


def test_show_by_name_pdf_and_export(tmp_path, cli):
    path = tmp_path / "c.db"
    made = cli("savage", "npc", "-n", "4", "--seed", "5", "--tag", "s3", "--campaign", path)
    assert made.exit_code == 0
    cli("karma", "pc", "--seed", "5", "--campaign", path)
    stored = rows(path, "SELECT id, name, seed FROM characters ORDER BY id")
    cid, name, seed = stored[1]
    by_name = cli("campaign", "show", name, "--campaign", path)
    assert by_name.stdout == cli("campaign", "show", str(cid), "--campaign", path).stdout
    assert by_name.stdout == cli("savage", "npc", "--seed", str(seed)).stdout
    pdf_show, pdf_run = tmp_path / "a.pdf", tmp_path / "b.pdf"
    cli("campaign", "show", str(cid), "-f", "pdf", "-o", pdf_show, "--campaign", path)
    cli("savage", "npc", "--seed", str(seed), "-f", "pdf", "-o", pdf_run)
    assert pdf_show.read_bytes() == pdf_run.read_bytes()
    # export: JSONL is the stored lines; JSON mixes systems; the sheets need one system
    lines = cli("campaign", "export", "--campaign", path, "-f", "jsonl").stdout.splitlines()
    assert [json.loads(x)["name"] for x in lines] == [r[1] for r in stored]
    assert len(json.loads(cli("campaign", "export", "--campaign", path, "-f", "json").stdout)) == 5
    assert_usage_error(cli("campaign", "export", "--campaign", path, "-f", "markdown"), "--system")
    sheets = cli("campaign", "export", "--campaign", path, "--tag", "s3", "-f", "markdown")
    assert sheets.stdout.count("# ") >= 4 and stored[3][1] in sheets.stdout
    pdf = tmp_path / "all.pdf"
    assert cli("campaign", "export", "--campaign", path, "--system", "savage", "-f", "pdf",
               "-o", pdf).exit_code == 0  # fmt: skip
    assert pdf.read_bytes().startswith(b"%PDF")
    block = cli("campaign", "export", "1", "2", "--campaign", path, "-f", "statblock")
    assert block.exit_code == 0 and stored[0][1] in block.stdout


def test_list_filters_and_stats(tmp_path, cli):
    path = tmp_path / "c.db"
    cli("karma", "npc", "-n", "3", "--seed", "1", "--tag", "session-1", "--campaign", path)
    cli("karma", "pc", "--seed", "2", "--tag", "session-2", "--campaign", path)
    cli("lef", "npc", "-n", "2", "--seed", "3", "--campaign", path)

    def listed(*args):
        result = cli("campaign", "list", "--campaign", path, "-f", "jsonl", *args)
        assert result.exit_code == 0, result.stderr
        return [json.loads(x) for x in result.stdout.splitlines()]

    assert len(listed()) == 6
    assert {r["tag"] for r in listed("--tag", "session-1")} == {"session-1"}
    assert [r["kind"] for r in listed("--system", "karma", "--kind", "pc")] == ["pc"]
    one = listed()[0]
    assert listed("--name", one["name"][1:5])[0]["name"] == one["name"]
    assert listed("--template", one["template"])[0]["template"] == one["template"]
    today = one["at"][:10]
    assert len(listed("--since", today, "--until", today)) == 6
    assert listed("--until", "2000-01-01") == []
    assert_usage_error(cli("campaign", "list", "--campaign", path, "--since", "May"), "date")
    table = cli("campaign", "list", "--campaign", path)
    assert one["name"] in table.stdout and all(len(x) <= 80 for x in table.stdout.splitlines())
    stats = json.loads(cli("campaign", "stats", "--campaign", path, "-f", "json").stdout)
    assert {(s["system"], s["kind"], s["tag"], s["count"]) for s in stats} == {
        ("karma", "npc", "session-1", 3),
        ("karma", "pc", "session-2", 1),
        ("lef", "npc", None, 2),
    }
    assert "6" in cli("campaign", "stats", "--campaign", path).stdout


def test_campaign_options_where_they_do_not_apply(tmp_path, cli):
    path = tmp_path / "c.db"
    assert_usage_error(cli("karma", "npc", "--tag", "x"), "--campaign")
    assert_usage_error(cli("roll", "2d6", "--campaign", path), "campaign")
    assert_usage_error(cli("matinee", "arketyp", "--campaign", path), "pc or npc")
    assert_usage_error(cli("karma", "npc", "--interactive", "--campaign", path), "interactive")
    assert cli("roll", "2d6", env={"CHARGEN_CAMPAIGN": str(path)}).exit_code == 0
    assert not path.exists()
    assert_usage_error(cli("campaign", "list", "--campaign", path), "no campaign")
    assert_usage_error(cli("campaign", "show", "Nobody", "--campaign", path), "no campaign")
    fill(path, "karma", "npc", 2, 1)
    assert_usage_error(cli("campaign", "show", "Nobody", "--campaign", path), "Nobody")


def test_a_command_that_fails_stores_nothing(tmp_path, cli):
    path = tmp_path / "c.db"
    fill(path, "karma", "npc", 3, 1)
    before = content(path)
    failed = cli("karma", "npc", "-n", "3", "--campaign", path, "-o", tmp_path / "no" / "x")
    assert failed.exit_code == 2
    assert content(path) == before


# -- the file as a database ---------------------------------------------------------


def test_several_processes_at_once_lose_nothing_and_never_share_a_name(tmp_path):
    """Three processes with the same batch seed (so they want the very same names)
    write one campaign at once: the first is well into its batch (a chunk committed)
    when the two others start, so they overlap however loaded the machine is."""
    path = tmp_path / "c.db"
    outs = [tmp_path / f"out{i}.jsonl" for i in range(3)]

    def start(out: Path, count: int) -> subprocess.Popen:
        return subprocess.Popen(
            [*CHARGEN, "karma", "npc", "-n", str(count), "--seed", "5", "-f", "jsonl",
             "--campaign", str(path), "-o", str(out)],
            stderr=subprocess.PIPE,
        )  # fmt: skip

    procs = [start(outs[0], 12000)]
    deadline = time.monotonic() + 200
    while time.monotonic() < deadline and procs[0].poll() is None:
        try:
            if path.exists() and rows(path, "SELECT count(*) FROM characters")[0][0] > 0:
                break
        except sqlite3.Error:
            pass  # not yet a campaign
        time.sleep(0.05)
    procs += [start(outs[1], 3000), start(outs[2], 3000)]
    assert procs[0].poll() is None, "the first batch ended before the others started"
    for proc in procs:
        _, err = proc.communicate(timeout=240)
        assert proc.returncode == 0, err
    printed = [json.loads(x)["name"] for out in outs for x in out.read_text().splitlines()]
    stored = [n for _, n, _, _ in rows(path)]
    assert len(printed) == len(stored) == 18000
    assert len(set(stored)) == 18000 and sorted(printed) == sorted(stored)
    # three runs, whose chunks may interleave or (a writer holds the file while it makes
    # a chunk) follow one another: either way nothing is lost and no name comes twice
    assert len(rows(path, "SELECT DISTINCT run FROM characters")) == 3


def test_kill_9_in_a_batch_keeps_every_committed_character(tmp_path, cli):
    path = tmp_path / "c.db"
    proc = subprocess.Popen(
        [
            *CHARGEN,
            "karma",
            "npc",
            "-n",
            "100000",
            "-f",
            "jsonl",
            "--campaign",
            str(path),
            "-o",
            os.devnull,
        ],  # fmt: skip
        stderr=subprocess.DEVNULL,
    )
    committed = 0
    deadline = time.monotonic() + 120
    while committed < 3000 and time.monotonic() < deadline:
        time.sleep(0.2)
        if path.exists():
            try:
                committed = rows(path, "SELECT COUNT(*) FROM characters")[0][0]
            except sqlite3.OperationalError:
                committed = 0  # the schema is not there yet
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert committed >= 3000
    check = cli("campaign", "check", "--campaign", path)
    assert check.exit_code == 0, check.stderr
    kept = rows(path, "SELECT COUNT(*) FROM characters")[0][0]
    assert committed <= kept < 100_000
    assert cli("karma", "npc", "-n", "50", "--campaign", path, "-f", "jsonl").exit_code == 0
    assert rows(path, "SELECT COUNT(*) FROM characters")[0][0] == kept + 50


def small_campaign(tmp_path) -> Path:
    path = tmp_path / "c.db"
    fill(path, "karma", "npc", 400, 2)
    assert not Path(f"{path}-wal").exists()  # closed: everything is in the file itself
    return path


def refused(cli, path: Path, *fragments: str) -> None:
    """Every command refuses the file (exit 2, the reason), and leaves it as it was."""
    before = path.read_bytes()
    for args in (
        ("karma", "npc", "-n", "5", "--campaign", path),
        ("campaign", "list", "--campaign", path),
        ("campaign", "check", "--campaign", path),
        ("campaign", "forget", "1", "--campaign", path),
    ):
        assert_usage_error(cli(*args), *fragments)
        assert path.read_bytes() == before, args


def test_truncated_files_are_refused_and_left_alone(tmp_path, cli):
    path = small_campaign(tmp_path)
    whole = path.read_bytes()
    for size in (20, 99, 4096, len(whole) // 2 + 100, len(whole) - 4096):
        path.write_bytes(whole[:size])
        refused(cli, path, "damaged")


def test_foreign_and_newer_files_are_refused_and_left_alone(tmp_path, cli):
    path = tmp_path / "notes.db"
    path.write_text("my campaign notes\n" * 100)
    refused(cli, path, "not a chargen campaign")
    db = sqlite3.connect(path := tmp_path / "other.db")
    db.execute("CREATE TABLE inventory (item TEXT)")
    db.commit()
    db.close()
    refused(cli, path, "not a chargen campaign")
    newer = small_campaign(tmp_path)
    db = sqlite3.connect(newer)
    db.execute("PRAGMA user_version = 3")
    db.close()
    refused(cli, newer, "schema version 3", "upgrade")


def test_a_damaged_page_is_found_by_check(tmp_path, cli):
    path = small_campaign(tmp_path)
    data = bytearray(path.read_bytes())
    data[len(data) // 2 : len(data) // 2 + 3000] = os.urandom(3000)
    path.write_bytes(bytes(data))
    before = path.read_bytes()
    result = cli("campaign", "check", "--campaign", path)
    assert_usage_error(result, "problem")
    assert path.read_bytes() == before


def test_a_first_schema_file_is_migrated(tmp_path, cli):
    path = tmp_path / "v1.db"
    db = sqlite3.connect(path)
    db.executescript(cmp.SCHEMA_V1)
    db.execute(f"PRAGMA application_id = {cmp.APPLICATION_ID}")
    db.execute("PRAGMA user_version = 1")
    char = next(generate(load("lef"), load("lef").tables(), "npc", {"template": "vagt"}, 1, 8))
    db.execute(
        "INSERT INTO runs VALUES (1, '2026-01-01T00:00:00Z', 'lef', 'npc', ?, 8, 1, NULL, "
        "'[]', '0.1.0', 'old')",
        (json.dumps({"template": "vagt"}),),
    )
    db.execute(
        "INSERT INTO characters VALUES (1, 1, '2026-01-01T00:00:00Z', 'lef', 'npc', ?, ?, 8, "
        "'old', ?)",
        (char["template"], char["name"], Lines().line(char)[:-1]),
    )
    db.commit()
    db.close()
    listed = cli("campaign", "list", "--campaign", path, "-f", "json")
    assert listed.exit_code == 0, listed.stderr
    (row,) = json.loads(listed.stdout)
    assert row["recipe"] == "chargen lef npc --seed 8 --template vagt"
    assert rows(path, "PRAGMA user_version")[0][0] == cmp.SCHEMA_VERSION
    again = cli("lef", "npc", "--seed", "8", "--template", "vagt", "--campaign", path)
    assert again.exit_code == 0 and char["name"] not in again.stdout
    assert cli("campaign", "check", "--campaign", path).exit_code == 0


def test_a_full_database_rolls_the_whole_run_back(tmp_path):
    """SQLite's own "disk full" (a page limit on the connection): the run's chunks
    committed before it are removed too, so the file holds what it held."""
    path = small_campaign(tmp_path)
    before = content(path)
    system = load("karma")
    with cmp.open_campaign(path) as campaign:
        pages = campaign.db.execute("PRAGMA page_count").fetchone()[0]
        campaign.db.execute(f"PRAGMA max_page_count = {pages + 1500}")
        recorder = campaign.recorder(
            {
                "system": "karma",
                "kind": "npc",
                "options": {},
                "batch_seed": 1,
                "count": 20000,
                "version": "test",
            }  # fmt: skip
        )
        items = generate(
            system, system.tables(), "npc", {}, 20000, 1, names=campaign.names("karma")
        )
        committed = 0
        with pytest.raises(cmp.CampaignError, match="disk is full"):
            try:
                for _ in recorder.wrap(items):
                    pass
            except BaseException:
                committed = recorder.stored
                recorder.abort()
                raise
        assert committed > 0  # some chunks were committed before the page limit
    assert content(path) == before


def _mounted(where: Path, options: str) -> bool:
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)],
                          capture_output=True)  # fmt: skip
    return done.returncode == 0


def test_a_full_disk_is_exit_2_and_the_file_as_it_was(tmp_path):
    disk = tmp_path / "disk"
    if not _mounted(disk, "size=600k"):
        pytest.skip("no small tmpfs here (needs root): the page limit test stands in")
    try:
        path = disk / "c.db"
        fill(path, "karma", "npc", 100, 2)
        before = content(path)

        def make_room() -> None:  # what the user does once chargen says so
            subprocess.run(["mount", "-o", "remount,size=8m", str(disk)], check=True)

        done = subprocess.run(
            [*CHARGEN, "karma", "npc", "-n", "5000", "--campaign", str(path), "-f", "jsonl"],
            capture_output=True, text=True, timeout=240,
        )  # fmt: skip
        assert done.returncode == 2, done.stderr
        assert "disk is full" in done.stderr and "Traceback" not in done.stderr
        as_it_was(path, before, done.stderr, make_room)
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def test_a_file_size_limit_is_exit_2_and_the_file_as_it_was(tmp_path):
    """An I/O error from the system (RLIMIT_FSIZE: writes past it fail with EFBIG)."""
    import resource

    path = small_campaign(tmp_path)
    before = content(path)
    limit = path.stat().st_size + 100_000

    def limited():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = subprocess.run(
        [*CHARGEN, "karma", "npc", "-n", "5000", "--campaign", str(path), "-f", "jsonl"],
        capture_output=True, text=True, timeout=240, preexec_fn=limited,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "cannot write campaign" in done.stderr and "Traceback" not in done.stderr
    as_it_was(path, before, done.stderr)


def as_it_was(path: Path, before: list, stderr: str, room=None) -> None:
    """The file holds what it held; or, where even removing the run's committed chunks
    found no room, it is whole, says which run to forget, and forgetting it (once
    `room` has made room) restores it."""
    found = re.search(r"forget --run (\d+)", stderr)
    if found is None:
        assert content(path) == before, stderr
        return
    assert run("campaign", "check", "--campaign", path).exit_code == 0
    if room is not None:
        room()
    assert run("campaign", "forget", "--run", found[1], "--campaign", path).exit_code == 0
    assert content(path) == before


def test_a_read_only_file_is_exit_2_and_left_alone(tmp_path, cli):
    path = small_campaign(tmp_path)
    if os.geteuid() == 0:  # root writes any file: a read-only mount instead
        disk = tmp_path / "ro"
        if not _mounted(disk, "size=4m"):
            pytest.skip("root, and no tmpfs to mount read-only")
        try:
            shutil.copy(path, disk / "c.db")
            subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
            before = (disk / "c.db").read_bytes()
            assert_usage_error(cli("karma", "npc", "--campaign", disk / "c.db"), "read-only")
            assert (disk / "c.db").read_bytes() == before
        finally:
            subprocess.run(["umount", str(disk)], check=False)
        return
    path.chmod(0o444)
    before = path.read_bytes()
    assert_usage_error(cli("karma", "npc", "--campaign", path), "read-only")
    assert path.read_bytes() == before
    assert cli("campaign", "list", "--campaign", path).exit_code == 0


def test_start_up_imports_no_sqlite3(tmp_path):
    code = (
        "import sys\nfrom chargen.cli import main\n"
        "try:\n    main(['karma', 'npc', '--seed', '1'])\nexcept SystemExit:\n    pass\n"
        "print('sqlite3' in sys.modules, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stderr.strip() == "False"


def test_where_and_reroll_keep_the_campaign_s_names(tmp_path, cli):
    path = tmp_path / "c.db"
    args = ("karma", "npc", "-n", "5", "--seed", "4", "--where", "karma > 0", "-f", "jsonl")
    first = [json.loads(x) for x in cli(*args, "--campaign", path).stdout.splitlines()]
    again = [json.loads(x) for x in cli(*args, "--campaign", path).stdout.splitlines()]
    assert len(first) == len(again) == 5
    assert {c["name"] for c in first}.isdisjoint(c["name"] for c in again)
    assert all(c["karma"] > 0 for c in again)
    cli("karma", "npc", "--seed", "4", "--reroll", "name", "--campaign", path)
    (made_by,) = rows(path, "SELECT recipe FROM characters ORDER BY id DESC LIMIT 1")[0]
    assert "--reroll" in made_by
    assert cli("campaign", "check", "--campaign", path).exit_code == 0
