"""The table format and its linter: every fault named with file and line; overlays."""

from __future__ import annotations

import json
import random
import textwrap
from pathlib import Path

import pytest
from conftest import assert_usage_error, pack_table, run

from chargen.errors import ChoiceError, TableError
from chargen.systems import available, load
from chargen.tables import Spec, Tables, parse_range

SPECS = {
    "events": Spec("roll"),
    "events_*": Spec("roll"),
    "things": Spec("definitions", fields={"power": "int!", "friend": "id:things", "dice": "dice"}),
    "rules": Spec("settings", fields={"cap": "int!", "name": "str"}),
}


def pack(tmp_path: Path, files: dict[str, str], specs=SPECS) -> Tables:
    folder = tmp_path / "demo"
    folder.mkdir(exist_ok=True)
    for name, text in files.items():
        (folder / f"{name}.toml").write_text(textwrap.dedent(text), encoding="utf-8")
    return Tables("demo", specs, {"fysik", "tillgangar"}, [folder])


GOOD = {
    "events": """\
        die = "1d6"
        [[entries]]
        roll = "1-3"
        result = "low"
        effects = { fysik = 1 }
        [[entries]]
        roll = "4-6"
        result = "high"
        ref = "events_more"
        """,
    "events_more": """\
        [[entries]]
        weight = 3
        result = "often"
        [[entries]]
        weight = 1
        result = "seldom"
        """,
    "things": """\
        [[entries]]
        id = "sword"
        name = "Svärd"
        power = 2
        friend = "shield"
        [[entries]]
        id = "shield"
        power = 1
        """,
    "rules": "cap = 7\n",
}


def problems_of(tmp_path, **changes) -> list[str]:
    files = {**GOOD, **changes}
    return [str(p) for p in pack(tmp_path, files).check()]


def test_a_good_pack_has_no_problems_and_rolls(tmp_path):
    tables = pack(tmp_path, GOOD)
    assert tables.check() == []
    value, entry = tables["events"].roll(random.Random(1))
    assert 1 <= value <= 6 and entry["result"] == ("low" if value <= 3 else "high")
    assert tables["things"].get("sword")["power"] == 2
    assert tables["rules"].setting("cap") == 7
    assert tables["events_more"].probabilities() == [0.75, 0.25]
    assert tables["events"].probabilities() == [0.5, 0.5]


def test_toml_syntax_error_names_file_and_line(tmp_path):
    found = problems_of(tmp_path, events='die = "1d6"\n[[entries]]\nroll = "1-6"\nresult = oops\n')
    assert any("events.toml:4:" in p and "TOML" in p for p in found), found


def _rows(*rows: tuple[str, str]) -> str:
    return "".join(f'[[entries]]\nroll = "{r}"\nresult = "{t}"\n' for r, t in rows)


# One fault each: the file it is in, its text, what the message says (file:line first).
SINGLE_FAULTS = {
    "gap at the die": (
        "events",
        'description = "x"\ndie = "1d6"\n' + _rows(("1-3", "a"), ("5-6", "b")),
        ["events.toml:2:", "gap", "4"],
    ),
    "overlap at the second entry": (
        "events",
        'die = "1d6"\n' + _rows(("1-4", "a"), ("4-6", "b")),
        ["events.toml:6:", "overlap"],
    ),
    "range outside the die": (
        "events",
        'die = "1d6"\n' + _rows(("1-6", "a"), ("7", "b")),
        ["events.toml:6:", "outside"],
    ),
    "unknown reference": (
        "events",
        textwrap.dedent(GOOD["events"]).replace('ref = "events_more"', 'ref = "nowhere"'),
        ["events.toml:9:", "nowhere"],
    ),
    "unknown effect key, valid ones listed": (
        "events",
        textwrap.dedent(GOOD["events"]).replace("fysik = 1", "charisma = 1"),
        ["events.toml:5:", "charisma", "fysik"],
    ),
    "duplicate ids": (
        "things",
        '[[entries]]\nid = "a"\npower = 1\n\n[[entries]]\nid = "a"\npower = 2\n',
        ["things.toml:6:", "duplicate id 'a'"],
    ),
}


@pytest.mark.parametrize("case", SINGLE_FAULTS)
def test_a_single_fault_is_named_with_file_and_line(tmp_path, case):
    name, text, fragments = SINGLE_FAULTS[case]
    found = problems_of(tmp_path, **{name: text})
    assert any(all(f in p for f in fragments) for p in found), found


def test_d66_ranges_cover_only_real_results(tmp_path):
    rows = "".join(f'[[entries]]\nroll = "{t}1-{t}6"\nresult = "r{t}"\n' for t in range(1, 7))
    assert problems_of(tmp_path, events='die = "d66"\n' + rows) == []
    broken = rows.replace('roll = "31-36"', 'roll = "31-35"')
    found = problems_of(tmp_path, events='die = "d66"\n' + broken)
    assert any("gap" in p and "36" in p for p in found), found


def test_reference_cycle(tmp_path):
    more = '[[entries]]\nweight = 1\nresult = "back"\nref = "events"\n'
    found = problems_of(tmp_path, events_more=more)
    assert any("cycle" in p and "events" in p and "events_more" in p for p in found), found


def test_missing_required_field_wrong_type_and_unknown_key(tmp_path):
    text = '[[entries]]\nid = "a"\n\n[[entries]]\nid = "b"\npower = "strong"\n\n[[entries]]\nid = "c"\npower = 1\ncolour = "red"\n'
    found = problems_of(tmp_path, things=text)
    assert any("things.toml:1:" in p and "lacks required key 'power'" in p for p in found), found
    assert any("things.toml:6:" in p and "'power' must be a whole" in p for p in found), found
    assert any("things.toml:11:" in p and "unknown key 'colour'" in p for p in found), found


def test_id_reference_to_a_missing_id(tmp_path):
    text = GOOD["things"].replace('friend = "shield"', 'friend = "spear"')
    found = problems_of(tmp_path, things=textwrap.dedent(text))
    assert any("things.toml:5:" in p and "'spear' is not an id in things" in p for p in found), (
        found
    )


def test_settings_missing_and_unknown(tmp_path):
    found = problems_of(tmp_path, rules='name = "x"\nspeed = 3\n')
    assert any("missing setting 'cap'" in p for p in found), found
    assert any("rules.toml:2:" in p and "unknown setting 'speed'" in p for p in found), found


def test_file_matching_no_schema_is_an_error(tmp_path):
    found = problems_of(tmp_path, monsters='[[entries]]\nweight = 1\nresult = "x"\n')
    assert any("monsters.toml" in p and "matches no known" in p for p in found), found


def test_a_systems_own_consistency_check_runs_on_a_clean_pack(tmp_path):
    from chargen.errors import Problem

    def too_strong(tables):
        return [
            Problem(
                str(tables["things"].path),
                tables["things"].entry_line(i),
                f"{e['id']} is too strong",
            )
            for i, e in enumerate(tables["things"].entries)
            if e["power"] > 1
        ]

    folder = pack(tmp_path, GOOD).dirs[0]
    tables = Tables("demo", SPECS, {"fysik", "tillgangar"}, [folder], too_strong)
    assert [str(p) for p in tables.check()] == [f"{folder / 'things.toml'}:1: sword is too strong"]


def test_missing_required_table(tmp_path):
    files = dict(GOOD)
    del files["rules"]
    assert any("missing table 'rules'" in str(p) for p in pack(tmp_path, files).check())


def test_weights_must_be_positive_and_present(tmp_path):
    found = problems_of(
        tmp_path, events_more='[[entries]]\nweight = 0\nresult = "a"\n[[entries]]\nresult = "b"\n'
    )
    assert any("events_more.toml:2:" in p and "weight" in p for p in found), found
    assert any("events_more.toml:4:" in p and "needs a 'weight'" in p for p in found), found


def test_aceing_die_cannot_index_a_table(tmp_path):
    found = problems_of(tmp_path, events='die = "d6!"\n[[entries]]\nroll = "1-6"\nresult = "a"\n')
    assert any("events.toml:1:" in p and "aces" in p for p in found), found


def test_loading_a_bad_table_raises_with_the_file(tmp_path):
    tables = pack(
        tmp_path, {**GOOD, "events": 'die = "1d6"\n[[entries]]\nroll = "1-5"\nresult = "a"\n'}
    )
    with pytest.raises(TableError, match="events.toml"):
        tables["events"]


def test_get_unknown_id_lists_valid_ones(tmp_path):
    with pytest.raises(ChoiceError, match="sword, shield"):
        pack(tmp_path, GOOD)["things"].get("axe")


def test_draw_gives_distinct_entries(tmp_path):
    things = pack(tmp_path, GOOD)["things"]
    for seed in range(50):
        drawn = things.draw(random.Random(seed), 2)
        assert {e["id"] for e in drawn} == {"sword", "shield"}


def test_parse_range():
    assert parse_range("11-13") == (11, 13)
    assert parse_range(14) == (14, 14)
    assert parse_range("7") == (7, 7)
    for bad in ("a", "5-3", "1-", True):
        with pytest.raises(ValueError):
            parse_range(bad)


@pytest.mark.parametrize("system_id", available())
def test_built_in_tables_pass_the_linter(system_id):
    tables = load(system_id).tables()
    assert tables.check() == []


@pytest.mark.parametrize("system_id", available())
def test_every_built_in_table_says_whether_it_is_authored_or_quoted(system_id):
    tables = load(system_id).tables()
    for name in tables.names():
        head = tables.files[name].read_text(encoding="utf-8").split("\n", 5)[:5]
        comments = " ".join(line for line in head if line.startswith("#")).lower()
        assert comments, f"{name}.toml has no header comment"
        assert any(
            w in comments
            for w in ("authored", "quoted", "transcribed", "citerad", "från dokumentet")
        ), name


# -- through the CLI ----------------------------------------------------------


def write_pack(root: Path, system: str, files: dict[str, str]) -> Path:
    folder = root / system
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / f"{name}.toml").write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def test_cli_check_builtin_is_clean():
    result = run("tables", "check")
    assert result.exit_code == 0, result.stderr
    assert "no problems" in result.stderr


def test_cli_check_reports_file_and_line_and_exits_2(tmp_path):
    root = write_pack(
        tmp_path,
        "karma",
        {"laster": '[[entries]]\nweight = 1\nresult = "ljuger"\nref = "saknas"\n'},
    )
    result = run("tables", "check", str(root))
    assert_usage_error(result, "laster.toml:4:", "saknas")


def test_cli_check_bare_folder_needs_a_system(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "laster.toml").write_text(
        '[[entries]]\nweight = 1\nresult = "ljuger"\n', encoding="utf-8"
    )
    assert_usage_error(run("tables", "check", str(folder)), "--system")
    assert run("tables", "check", str(folder), "--system", "karma").exit_code == 0


def test_overlay_replaces_a_built_in_table(tmp_path):
    root = write_pack(
        tmp_path, "karma", {"laster": '[[entries]]\nweight = 1\nresult = "sjunger falskt"\n'}
    )
    result = run("karma", "pc", "-n", "20", "-f", "jsonl", "--tables", str(root))
    assert result.exit_code == 0, result.stderr
    assert {json.loads(line)["last"] for line in result.stdout.splitlines()} == {"sjunger falskt"}
    env = run("karma", "pc", "-n", "5", "-f", "jsonl", env={"CHARGEN_TABLES": str(root)})
    assert {json.loads(line)["last"] for line in env.stdout.splitlines()} == {"sjunger falskt"}


def test_bad_overlay_is_refused_before_any_output(tmp_path):
    root = write_pack(tmp_path, "karma", {"regler": "grundvarde = 2\n"})
    assert_usage_error(
        run("karma", "pc", "--tables", str(root)), "regler.toml", "missing setting 'tak'"
    )


def test_overlay_folder_must_exist():
    result = run("karma", "pc", "--tables", "/no/such/folder")
    assert result.exit_code == 2 and "Traceback" not in result.stderr


def test_cli_list_and_show():
    listing = run("tables", "list", "--system", "karma")
    assert (
        listing.exit_code == 0
        and "bakgrunder" in listing.stdout
        and "definitions" in listing.stdout
    )
    shown = run("tables", "show", "karma/laster")
    assert shown.exit_code == 0
    n = len(load("karma").tables()["laster"].entries)
    assert (
        f"{100 / n:.1f} %".replace(".", ",") in shown.stdout
        and "super som ett svin" in shown.stdout
    )
    data = json.loads(run("tables", "show", "laster", "--system", "karma", "-f", "json").stdout)
    assert data[0]["table"] == "laster"
    assert sum(e["chance"] for e in data[0]["entries"]) == pytest.approx(100, abs=0.5)
    assert_usage_error(run("tables", "show", "karma/nope"), "nope", "karma/laster")


PLAIN_UPPVAXT = """# Uppväxthändelser, my own.
die = "d6"
[[entries]]
roll = "1-3"
result = "Du växte upp i Luna City."
[[entries]]
roll = "4-6"
result = "Du växte upp på Mars."
effects = { fysik = 1 }
"""


def test_a_plain_replacement_leaves_the_built_in_exclusions_of_its_tags_harmless(tmp_path):
    """matinee's Brödraskapet events exclude the tag 'familj' of the uppväxthändelser a
    user may replace by a table without tags: the built-in exclusion excludes nothing then
    (it is checked in the built-in pack alone); a user's own unknown name is still said."""
    (tmp_path / "matinee").mkdir()
    (tmp_path / "matinee" / "uppvaxthandelser.toml").write_text(PLAIN_UPPVAXT)
    checked = run("tables", "check", str(tmp_path))
    assert checked.exit_code == 0, checked.stderr
    for seed in range(1, 40):
        made = run("matinee", "pc", "--tables", str(tmp_path), "--seed", str(seed), "-f", "json")
        assert made.exit_code == 0, made.stderr
        events = json.loads(made.stdout)[0]["uppvaxthandelser"]
        mine = [e["handelse"] for e in events if e["tabell"] == "uppvaxthandelser"]
        assert set(mine) <= {"Du växte upp i Luna City.", "Du växte upp på Mars."}, events
    own = PLAIN_UPPVAXT.replace("{ fysik = 1 }", '{ fysik = 1 }\nexcludes = ["famil"]')
    (tmp_path / "matinee" / "uppvaxthandelser.toml").write_text(own)
    checked = run("tables", "check", str(tmp_path))
    assert checked.exit_code == 2 and "'famil' is no id and no tag" in checked.stderr, (
        checked.stderr
    )


@pytest.mark.parametrize(
    ("system_id", "table", "old", "new", "key"),
    [
        ("karma", "regler", 'namntabell = "namn_medeltid"', 'namntabell = "sardrag"', "namntabell"),
        (
            "spelsystemet",
            "arter",
            'namntabeller = { fantasy = "namn_manniska_fantasy" }',
            'namntabeller = { fantasy = "yrken" }',
            "namntabeller",
        ),
    ],
)
def test_a_name_table_setting_must_name_a_name_table(tmp_path, system_id, table, old, new, key):
    """A setting that names the table names are drawn from, pointed at another table, is
    a pack fault with file and line (not a KeyError when the first name is drawn)."""
    path = pack_table(tmp_path, system_id, table, lambda text: text.replace(old, new, 1))
    line = path.read_text(encoding="utf-8").split(new)[0].count("\n") + 1
    result = run("tables", "check", str(tmp_path))
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert f"{path}:{line}: '{key}' names " in result.stderr
    assert "not a table named like namn_*" in result.stderr, result.stderr


def test_karmas_default_hand_above_its_largest_is_a_pack_fault_at_its_line(tmp_path):
    path = pack_table(
        tmp_path,
        "karma",
        "regler",
        lambda text: text.replace("karma = 5\n", "karma = 50\n").replace(
            "karma_hogst = 100", "karma_hogst = 20"
        ),
    )
    line = path.read_text(encoding="utf-8").split("karma = 50")[0].count("\n") + 1
    result = run("tables", "check", str(tmp_path))
    assert result.exit_code == 2
    assert f"{path}:{line}: 'karma' = 50, the default hand, is above karma_hogst = 20" in (
        result.stderr
    )
    assert "--karma must be" not in result.stderr  # not said as if the user had asked for 50


@pytest.mark.parametrize(
    ("table", "old", "new", "at"),
    [
        ("laster", 'description = "', 'description = "\\u001b[2J', "description"),  # clears
        ("laster", 'result = "', 'result = "\\u001b[31m', "result"),
        ("namn_medeltid", '"Algot"', '"Al\\u0007got"', "male = ["),  # a bell, in a list
        ("laster", 'result = "', 'result = "\\u009b', "result"),  # a C1 control
    ],
)
def test_control_characters_in_a_tables_text_are_refused(tmp_path, table, old, new, at):
    """A table's text goes to terminals: an escape sequence in it is a pack fault, said
    with its file and line and shown escaped, not printed raw onto a screen."""
    path = pack_table(tmp_path, "karma", table, lambda text: text.replace(old, new, 1))
    line = path.read_text(encoding="utf-8").split(at)[0].count("\n") + 1
    result = run("tables", "check", str(tmp_path))
    assert result.exit_code == 2
    assert f"{path}:{line}: " in result.stderr and "no control characters" in result.stderr
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr


def test_tabs_and_newlines_stay_allowed_in_a_tables_text(tmp_path):
    pack_table(
        tmp_path,
        "karma",
        "laster",
        lambda t: t.replace('result = "', 'result = "två\\trader\\n', 1),
    )
    assert run("tables", "check", str(tmp_path)).exit_code == 0


def test_a_table_file_with_an_upper_case_extension_is_refused_not_ignored(tmp_path):
    """laster.TOML (as some editors save it) was meant as a table: used quietly as the
    built-in one instead, the pack would not do what its author wrote."""
    path = pack_table(tmp_path, "karma", "laster", lambda t: t.replace("svin", "galt", 1))
    path.rename(path.with_name("laster.TOML"))
    for args in (("tables", "check", str(tmp_path)), ("karma", "pc", "--tables", str(tmp_path))):
        result = run(*args)
        assert result.exit_code == 2
        assert "laster.TOML: a table file is named in lower case: laster.toml" in result.stderr


def test_a_weight_on_a_row_of_a_die_table_is_refused_at_its_line(tmp_path):
    """The die decides a die table's rows: a weight there would be ignored, so a pack
    author who wrote one would get shares other than those written."""
    path = pack_table(
        tmp_path,
        "matinee",
        "karriarhandelser_diplomat",
        lambda t: t.replace("\nroll = 1\n", "\nroll = 1\nweight = 3\n", 1),
    )
    line = path.read_text(encoding="utf-8").split("weight = 3")[0].count("\n") + 1
    result = run("tables", "check", str(tmp_path))
    assert result.exit_code == 2
    assert f"{path}:{line}: entry 1 has a 'weight', but a table with die = 'T6'" in result.stderr
