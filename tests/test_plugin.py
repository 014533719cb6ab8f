"""Games as plugins (issue 20): examples/plugin, installed with pip, is a game of chargen.

The example package `chargen-lantern` is installed into a folder of its own with pip
(`--target`, so the test environment itself stays as it was) and put on the path;
chargen then finds it through the entry-point group `chargen.systems`, exactly as it
would in a virtual environment. Every command runs on it as a user types it, and the
engine's own guarantees are asserted on it: characters that never fail and keep
Lantern's rules, a stream per step, a batch that is its members made alone.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import pip

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "plugin"
SEEDS = 3_000


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The folder pip installed the example into; it is on sys.path while the module runs."""
    target = tmp_path_factory.mktemp("plugin")
    pip("install", "--target", str(target), str(EXAMPLE))
    from chargen import systems

    sys.path.insert(0, str(target))
    systems.installed.cache_clear()
    yield target
    sys.path.remove(str(target))
    systems.installed.cache_clear()
    for name in [m for m in sys.modules if m.startswith("chargen_lantern")]:
        del sys.modules[name]


@pytest.fixture(scope="module")
def lantern(installed):
    from chargen.systems import load

    system = load("lantern")
    return system, system.tables()


def chargen(
    installed, *args: str, input: str | None = None, beside: Path | None = None, columns: int = 80
) -> subprocess.CompletedProcess:
    """`chargen ARGS` with the example installed (and the games in `beside`, if given)."""
    path = str(installed) if beside is None else f"{installed}{os.pathsep}{beside}"
    env = {**os.environ, "PYTHONPATH": path, "COLUMNS": str(columns)}
    return subprocess.run(
        [sys.executable, "-m", "chargen", *args],
        capture_output=True,
        text=True,
        env=env,
        input=input,
        timeout=120,
    )


# -- found as the standard library finds it ---------------------------------------------


def test_the_entry_point_is_found_as_importlib_metadata_finds_it(installed):
    import importlib.metadata

    from chargen.systems import available
    from chargen.systems import installed as scanned

    found = {e.name: e.value for e in importlib.metadata.entry_points(group="chargen.systems")}
    assert found.get("lantern") == "chargen_lantern"
    assert scanned() == found
    assert available()[-1] == "lantern" and available()[:5] == [
        "matinee",
        "spelsystemet",
        "karma",
        "lef",
        "savage",
    ]


def test_a_plugin_cannot_take_a_built_in_id_or_lie_about_its_own(installed, tmp_path):
    from chargen.errors import ChargenError
    from chargen.systems import _group, load

    assert _group("[chargen.systems]\nkarma = evil\n[other]\nx = y\n") == [("karma", "evil")]
    assert load("karma").name == "Karmasystemet"  # a built-in wins over any plugin
    bad = tmp_path / "bad-0.1.dist-info"
    bad.mkdir()
    (bad / "entry_points.txt").write_text("[chargen.systems]\nnosuch = no_such_module\n")
    from chargen import systems

    sys.path.insert(0, str(tmp_path))
    systems.installed.cache_clear()
    try:
        with pytest.raises(ChargenError, match="no_such_module.*cannot be loaded"):
            load("nosuch")
    finally:
        sys.path.remove(str(tmp_path))
        systems.installed.cache_clear()


def test_a_plugin_that_cannot_be_imported_leaves_the_other_games_usable(installed, tmp_path):
    broken = tmp_path / "chargen_broken-0.1.dist-info"
    broken.mkdir()
    (broken / "entry_points.txt").write_text("[chargen.systems]\nbroken = chargen_broken\n")
    (tmp_path / "chargen_broken.py").write_text("raise ImportError('a missing dependency')\n")

    def run(*args: str) -> subprocess.CompletedProcess:
        return chargen(installed, *args, beside=tmp_path, columns=100)

    helped = run("--help")
    assert helped.returncode == 0, helped.stderr
    assert "broken        cannot be loaded: ImportError: a missing dependency" in helped.stdout
    assert "lantern" in helped.stdout and "karma" in helped.stdout
    listed = run("systems", "-f", "jsonl")
    assert listed.returncode == 0 and "'broken'" in listed.stderr and "warning" in listed.stderr
    ids = [json.loads(line)["id"] for line in listed.stdout.splitlines()]
    assert ids == ["matinee", "spelsystemet", "karma", "lef", "savage", "lantern"]
    assert run("karma", "pc", "--seed", "1").returncode == 0
    checked = run("tables", "check")
    assert checked.returncode == 2 and "chargen_broken" in checked.stderr
    assert "the other 6 system(s) have no problems" in checked.stderr
    assert run("tables", "check", "--system", "karma").returncode == 0
    used = run("broken", "pc")
    assert used.returncode == 2 and "a missing dependency" in used.stderr
    assert "Traceback" not in used.stderr + checked.stderr + listed.stderr


def test_the_built_in_declarations_have_no_faults_and_a_plugins_are_refused(lantern):
    from chargen.systems import BUILTIN, load

    for system_id in BUILTIN:
        assert load(system_id).faults() == [], system_id
    system, _tables = lantern
    assert system.faults() == []
    first, *rest = system.pc
    reader = next(s for s in system.pc if s.reads)
    for pc, said in (
        ([first._replace(id="reroll"), *rest], "the pc step id 'reroll' is taken by the engine"),
        ([first, first, *rest], f"the pc procedure has two steps '{first.id}'"),
        (
            [reader, *(s for s in system.pc if s is not reader)],
            f"the pc step '{reader.id}' reads {', '.join(reader.reads)}, which no earlier",
        ),
    ):
        faults = system._replace(pc=pc).faults()
        assert any(said in fault for fault in faults), (said, faults)
    from chargen.tables import Spec, type_fault

    specs = {**system.specs, "rules": Spec("settings", fields={"gear_count": "int[1..1000"})}
    assert system._replace(specs=specs).faults() == [
        "the spec of rules.toml, field gear_count: 'int[1..1000' is no field type "
        "(types: str, text, table, int, num, bool, dice, locale, any, int[LO..HI], "
        "num[LO..HI], dice[LO..HI], id:TABLE, table:KIND, one:a|b, re:PATTERN, list[T], "
        "dict[T]; then + {a,b} !)"
    ]
    for good in ("int[1..]!", "dict[int[1..100]]{a,b}!", "list[dice[0..10]]+", "table:names*!"):
        assert type_fault(good) == "", good
    for bad in ("list[itn]", "re:(", "id:", "str{a}", "list[str"):
        assert type_fault(bad), bad


def test_tables_check_finds_what_a_plugins_steps_read_or_write_undeclared(lantern):
    from chargen.procedure import declaration_trial

    system, tables = lantern
    assert declaration_trial(system, tables) == []
    reader = next(s for s in system.pc if s.reads)
    unread = [s._replace(reads=()) if s is reader else s for s in system.pc]
    found = declaration_trial(system._replace(pc=unread), tables)
    assert any(
        f"written by '{reader.id}', which does not declare that it reads" in f
        and "add it to Step.reads" in f
        for f in found
    ), found

    def sneaky(char, ctx):
        reader.run(char, ctx)
        char["lucky"] = True

    undeclared = [s._replace(run=sneaky) if s is reader else s for s in system.pc]
    found = declaration_trial(system._replace(pc=undeclared), tables)
    assert (
        f"a pc has lucky (written by '{reader.id}'), which no step declares in its fields: "
        "add each to the fields of the step that writes it" in found
    ), found

    def misspelt(char, ctx):  # the option --background is declared, and this asks another
        entry = ctx.choose("backgound", "backgrounds")
        char.update(background=entry["id"], background_name=entry["name"], skill=entry["skill"])

    chooser = next(s for s in system.pc if s.id == "background")
    misread = [s._replace(run=misspelt) if s is chooser else s for s in system.pc]
    found = declaration_trial(system._replace(pc=misread), tables)
    assert found == [
        "no pc step looks up the option --background (in 20 characters): a step reads it "
        "as ctx.choose('background', 'backgrounds'), under the option's name"
    ], found


def test_tables_check_finds_the_labels_a_plugins_sheets_lack(lantern, tmp_path):
    from chargen.procedure import label_trial

    system, tables = lantern
    assert label_trial(system, tables) == []
    shutil.copytree(system.tables_root, tmp_path / "tables")
    labels = tmp_path / "tables" / "labels.toml"
    text = labels.read_text(encoding="utf-8")
    assert '\nguard = "Guard"\n' in text and '\nskill = "Skill"\n' in text
    labels.write_text(
        text.replace('\nguard = "Guard"\n', "\n").replace('\nskill = "Skill"\n', "\n"),
        encoding="utf-8",
    )
    moved = system._replace(tables_root=tmp_path / "tables")
    found = label_trial(moved, moved.tables())
    assert len(found) == 1 and found[0].file == str(labels), found
    assert "no label for guard, skill, which the sheets or the roster show" in found[0].text
    pack = moved.tables()  # as `tables check` has it: the trial draws sheets first
    pack.thorough = True
    found = pack.check()
    assert len(found) == 1 and "no label for guard, skill," in found[0].text, found


def _shim(folder: Path, system_id: str, body: str) -> None:
    """A game installed as `system_id` whose module (chargen_<id>.py) is `body`."""
    info = folder / f"chargen_{system_id}-0.1.dist-info"
    info.mkdir()
    (info / "entry_points.txt").write_text(
        f"[chargen.systems]\n{system_id} = chargen_{system_id}\n", encoding="utf-8"
    )
    (folder / f"chargen_{system_id}.py").write_text(body, encoding="utf-8")


# Games made of Lantern with one fault each, as a plugin's author might write them.
FAULTY = {
    "crash": "def guard(char, ctx):\n"
    "    raise ZeroDivisionError('the guard step divides by zero')\n"
    "SYSTEM = L._replace(id='crash', pc=[*L.pc[:-1], L.pc[-1]._replace(run=guard)])\n",
    "blot": "def sheet(char, tables):\n"
    "    return char['origin_name']\n"
    "SYSTEM = L._replace(id='blot', sheet=sheet)\n",
    "typo": "def gear(char, ctx):\n"
    "    ctx.pick('gaer')\n"
    "SYSTEM = L._replace(id='typo', pc=[*L.pc[:-1], L.pc[-1]._replace(run=gear)])\n",
    "rootless": "SYSTEM = L._replace(id='rootless', tables_root=None)\n",
    "clash": "SYSTEM = L._replace(id='clash', pc=[L.pc[0]._replace(id='npc'), *L.pc[1:]])\n",
}


def test_a_plugins_bug_is_reported_with_its_game_step_and_seed(installed, tmp_path):
    for system_id, body in FAULTY.items():
        _shim(tmp_path, system_id, "from chargen_lantern import SYSTEM as L\n" + body)

    def run(*args: str) -> subprocess.CompletedProcess:
        return chargen(installed, *args, beside=tmp_path)

    def internal(result: subprocess.CompletedProcess, said: str) -> None:
        assert result.returncode == 1, result.stderr
        assert f"internal error in the game {said}" in result.stderr, result.stderr
        assert "report it to the authors of that package" in result.stderr
        assert "Run it again as `chargen --debug ...`" in result.stderr

    crashed = run("crash", "pc", "--seed", "4")
    internal(
        crashed,
        "'crash', step 'guard' (--seed 4), a plugin (chargen_crash): "
        "ZeroDivisionError: the guard step divides by zero",
    )
    blotted = run("blot", "npc", "--seed", "5")
    internal(
        blotted, "'blot', its sheet (--seed 5), a plugin (chargen_blot): KeyError: 'origin_name'"
    )
    debugged = run("--debug", "blot", "npc", "--seed", "5")
    assert "Traceback" in debugged.stderr and "origin_name" in debugged.stderr
    checked_sheet = run("tables", "check", "--system", "blot")
    assert "KeyError: 'origin_name' (in its sheet)" in checked_sheet.stderr, checked_sheet.stderr
    checked = run("tables", "check", "--system", "crash")
    assert checked.returncode == 2, checked.stderr
    assert "the game 'crash' cannot make a pc (--seed 1): ZeroDivisionError" in checked.stderr
    assert "(in its step 'guard')" in checked.stderr
    rootless = run("rootless", "pc")
    assert rootless.returncode == 2, rootless.stderr
    assert "the game 'rootless' has no tables: a plugin's System names" in rootless.stderr
    alone = tmp_path / "alone"
    alone.mkdir()
    _shim(alone, "rootless", "from chargen_lantern import SYSTEM as L\n" + FAULTY["rootless"])
    every = chargen(installed, "tables", "check", beside=alone)  # the others are checked
    assert every.returncode == 2 and "has no tables" in every.stderr, every.stderr
    assert "(the other 6 system(s) have no problems)" in every.stderr, every.stderr
    misspelt = run("typo", "pc")
    assert misspelt.returncode == 2, misspelt.stderr
    assert (
        "typo has no table named 'gaer', which the pc step 'guard' asks for "
        "(did you mean 'gear'?)" in misspelt.stderr
    ), misspelt.stderr
    clashing = run("clash", "pc")
    assert clashing.returncode == 2, clashing.stderr
    assert "the pc step id 'npc' is taken by the engine" in clashing.stderr
    assert (
        "Traceback"
        not in crashed.stderr + checked.stderr + clashing.stderr + blotted.stderr + rootless.stderr
    )
    assert run("lantern", "pc", "--seed", "4").returncode == 0


# -- the game keeps its rules over thousands of seeds -------------------------------------


def test_delvers_keep_lanterns_rules(lantern):
    from chargen.procedure import generate

    system, tables = lantern
    rules = tables["rules"].settings
    backgrounds = {e["id"]: e for e in tables["backgrounds"].entries}
    names = set()
    for char in generate(system, tables, "pc", {}, SEEDS, 1):
        abilities = char["abilities"]
        assert set(abilities) == {"might", "grace", "wits"}
        assert all(3 <= v <= 18 for v in abilities.values())
        gear = char["gear"]
        assert gear[0]["id"] == backgrounds[char["background"]]["item"]
        assert len(gear) == 1 + rules["gear_count"] == len({i["id"] for i in gear})
        assert sum(i["kind"] == "armour" for i in gear) <= 1
        might = abilities["might"]
        bonus = 2 if might >= 16 else 1 if might >= 13 else 0
        armour = sum(i.get("guard", 0) for i in gear)
        assert 1 + bonus + armour <= char["guard"] <= 6 + bonus + armour
        # given and family name; once the batch has used them all, a number after them
        words = char["name"].split(" ")
        assert char["gender"] in ("male", "female")
        assert len(words) == 2 or (len(words) == 3 and words[2].isdigit()), char["name"]
        assert char["name"] not in names
        names.add(char["name"])
        assert [e["step"] for e in char["historik"]].count("abilities") == 3
        drawn = [e["gear"] for e in char["historik"] if e["step"] == "gear"]
        assert drawn == [[i["id"] for i in gear]], char["historik"]


def test_denizens_keep_their_templates(lantern):
    from chargen.procedure import generate
    from chargen.tables import parse_range

    system, tables = lantern
    templates = {e["id"]: e for e in tables["templates"].entries}
    names = set()
    for char in generate(system, tables, "npc", {}, SEEDS, 2):
        template = templates[char["template"]]
        for ability, value in char["abilities"].items():
            low, high = parse_range(template["abilities"][ability])
            assert low <= value <= high
        assert [i["id"] for i in char["gear"]] == template["gear"]
        armour = sum(i.get("guard", 0) for i in char["gear"])
        assert char["guard"] == template["guard"] + armour
        if template.get("creature"):
            assert char["name"].startswith(template["name"] + " ") and char["gender"] is None
        assert char["name"] not in names  # the engine keeps a batch's names apart
        names.add(char["name"])


def test_the_engines_guarantees_hold_for_the_plugin(lantern):
    """A stream per step, and a batch that is its members made alone."""
    from test_batch import _check

    from chargen.procedure import dependents, generate

    system, tables = lantern
    for kind in ("pc", "npc"):
        steps = system.steps(kind)
        for step in steps:
            ids, touched = dependents(steps, step.id)
            kept = {f for s in steps if s.id not in ids for f in s.fields} - touched
            for seed in range(1, 101):
                usual = next(generate(system, tables, kind, {}, 1, seed))
                again = next(generate(system, tables, kind, {}, 1, seed, variants={step.id: 1}))
                assert all(usual.get(f) == again.get(f) for f in kept), (kind, step.id, seed)
        assert _check(system, tables, kind, {}, 500, 3) > 300  # numbered creatures aside
    for template in tables["templates"].ids:
        _check(system, tables, "npc", {"template": template}, 40, 9)


# -- every command, as a user types it ---------------------------------------------------


def test_the_game_is_listed_and_helped(installed):
    listed = chargen(installed, "systems", "-f", "jsonl")
    rows = {json.loads(line)["id"]: json.loads(line) for line in listed.stdout.splitlines()}
    assert rows["lantern"]["commands"] == ["pc", "npc", "abilities", "background", "gear", "guard"]
    helped = chargen(installed, "--help")
    assert "lantern" in helped.stdout and "Lantern (en)" in helped.stdout
    assert chargen(installed, "lantern", "--help").returncode == 0


def test_pc_npc_and_each_step_in_every_format(installed, tmp_path):
    for args in (
        ("pc", "--seed", "5"),
        ("pc", "--seed", "5", "--background", "miner"),
        ("npc", "-n", "6", "--seed", "5"),
        ("npc", "--template", "wolf", "-n", "3", "--seed", "5"),
        ("abilities", "--seed", "5"),
        ("background", "--seed", "5", "-n", "3"),
        ("gear", "--seed", "5"),
        ("guard", "--seed", "5"),
    ):
        for fmt in ("table", "markdown", "json", "jsonl", "html"):
            done = chargen(installed, "lantern", *args, "-f", fmt)
            assert done.returncode == 0, (args, fmt, done.stderr)
            assert done.stdout.strip() and not done.stderr, (args, fmt)
    sheet = chargen(installed, "lantern", "pc", "--seed", "5").stdout
    assert "Abilities" in sheet and "Might" in sheet and "Guard" in sheet
    char = json.loads(chargen(installed, "lantern", "pc", "--seed", "5", "-f", "json").stdout)[0]
    assert char["system"] == "lantern" and char["seed"] == 5 and char["kind"] == "pc"
    markdown = chargen(installed, "lantern", "npc", "-n", "4", "--seed", "5", "-f", "markdown")
    assert markdown.stdout.startswith("| Name")
    pdf = tmp_path / "delver.pdf"
    done = chargen(installed, "lantern", "pc", "--seed", "5", "-f", "pdf", "-o", str(pdf))
    assert done.returncode == 0, done.stderr
    assert pdf.read_bytes().startswith(b"%PDF")
    cards = tmp_path / "cards.pdf"
    done = chargen(installed, "lantern", "npc", "-n", "8", "-f", "pdf", "-o", str(cards))
    assert done.returncode == 0 and cards.read_bytes().startswith(b"%PDF"), done.stderr


def test_the_plugin_goes_into_foundry_through_its_own_mapping(installed, lantern, tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(
        (ROOT / "tests" / "schemas" / "worldbuilding-actor.schema.json").read_text("utf-8")
    )
    # the schema is Simple Worldbuilding's Actor with chargen's flags of the built-in games
    chargen_flags = schema["$defs"]["actor"]["properties"]["flags"]["properties"]["chargen"]
    chargen_flags["properties"]["system"]["enum"] = ["lantern"]
    validator = jsonschema.Draft202012Validator(schema)
    done = chargen(installed, "lantern", "pc", "--seed", "5", "-f", "foundry")
    assert done.returncode == 0, done.stderr
    actor = json.loads(done.stdout)
    assert not list(validator.iter_errors(actor))
    char = json.loads(chargen(installed, "lantern", "pc", "--seed", "5", "-f", "json").stdout)[0]
    attributes = actor["system"]["attributes"]
    assert {k: v["value"] for k, v in attributes["abilities"].items()} == char["abilities"]
    assert attributes["play"]["guard"]["value"] == char["guard"]
    assert [i["name"] for i in actor["items"]] == [g["name"] for g in char["gear"]]
    assert char["background_name"] in actor["system"]["biography"]
    folder = tmp_path / "denizens"
    done = chargen(
        installed, "lantern", "npc", "-n", "4", "--seed", "5", "-f", "foundry", "-o", f"{folder}/"
    )
    assert done.returncode == 0 and len(list(folder.glob("*.json"))) == 4, done.stderr


def test_a_foundry_target_without_the_games_mapping_is_refused_by_name(lantern, tmp_path):
    from chargen.errors import ChargenError
    from chargen.export import foundry, worldbuilding
    from chargen.procedure import generate

    system, tables = lantern
    assert foundry.target(system) is worldbuilding
    for declared, said in (
        ("dnd5e", "no target of chargen's (targets: swade, brp, worldbuilding)"),
        ("swade", "maps the fields of savage only"),
        ("brp", "maps the fields of spelsystemet only"),
    ):
        with pytest.raises(ChargenError, match=re.escape(said)):
            foundry.target(system._replace(foundry=declared))
    own = (EXAMPLE / "chargen_lantern" / "worldbuilding.toml").read_text(encoding="utf-8")
    (tmp_path / "tables").mkdir()
    moved = system._replace(tables_root=tmp_path / "tables")
    with pytest.raises(ChargenError, match=r"worldbuilding.toml has no \[lantern\] section"):
        foundry.target(moved)
    for n, (text, said) in enumerate(
        (
            ("[lantern\n", "worldbuilding.toml: "),
            ("[lantern]\ngroup = []\n", "unknown keys group"),
            ("[lantern]\n[[lantern.groups]]\nkey = 'x'\n", "needs either from or fields"),
            ("[lantern]\n[[lantern.items]]\nfrom = 'gear'\n", "needs from and name"),
        )
    ):
        root = tmp_path / f"v{n}"
        (root / "tables").mkdir(parents=True)
        (root / "worldbuilding.toml").write_text(text, encoding="utf-8")
        with pytest.raises(ChargenError, match=re.escape(said)):
            foundry.target(system._replace(tables_root=root / "tables"))
    # a mapping naming a field the characters do not have is its file's fault
    root = tmp_path / "wrong"
    shutil.copytree(system.tables_root, root / "tables")
    (root / "worldbuilding.toml").write_text(
        own.replace('name = "name"', 'name = "nmae"'), encoding="utf-8"
    )
    char = next(generate(system, tables, "pc", {}, 1, 5))
    wrong = system._replace(tables_root=root / "tables")
    with pytest.raises(ChargenError, match="does not fit a character of the game: KeyError"):
        foundry.actor(wrong, wrong.tables(), char)


def test_list_and_bad_choices(installed):
    for step in ("abilities", "background", "gear", "guard"):
        done = chargen(installed, "lantern", step, "--list")
        assert done.returncode == 0 and done.stdout.strip(), (step, done.stderr)
    listed = chargen(installed, "lantern", "background", "--list").stdout
    assert "Lamplighter" in listed and "%" in listed and "," not in listed.split("%")[0][-4:]
    bad = chargen(installed, "lantern", "pc", "--background", "pirate")
    assert bad.returncode == 2 and "lamplighter" in bad.stderr and "Traceback" not in bad.stderr
    spelled = chargen(installed, "lantern", "pc", "--background", "Grave Digger", "-f", "json")
    assert json.loads(spelled.stdout)[0]["background"] == "grave_digger"
    listed = chargen(installed, "tables", "list", "--system", "lantern", "-f", "jsonl")
    assert {json.loads(line)["source"] for line in listed.stdout.splitlines()} == {"plugin"}
    # its naming step is called name, the word --reroll takes for any game's: said once
    for kind, steps in (("pc", "name, abilities, background, gear, guard"), ("npc", None)):
        refused = chargen(installed, "lantern", kind, "--reroll", "gearz")
        valid = refused.stderr.split("Valid: ")[1].strip()
        assert refused.returncode == 2 and valid.split(", ").count("name") == 1, valid
        assert steps is None or valid == steps, valid


def test_tables_check_and_a_pack_over_the_plugins_tables(installed, tmp_path):
    done = chargen(installed, "tables", "check")
    assert done.returncode == 0 and "6 system(s)" in done.stderr, done.stderr
    pack = tmp_path / "pack" / "lantern"
    pack.mkdir(parents=True)
    (pack / "templates.toml").write_text(
        '[[entries]]\nid = "rat"\nname = "Giant rat"\n'
        'abilities = { might = "3-5", grace = "12-14", wits = "3" }\nguard = 1\ngear = []\n'
        "creature = true\n",
        encoding="utf-8",
    )
    assert chargen(installed, "tables", "check", str(tmp_path / "pack")).returncode == 0
    rats = chargen(
        installed, "lantern", "npc", "-n", "3", "--tables", str(tmp_path / "pack"), "-f", "jsonl"
    )
    assert rats.returncode == 0, rats.stderr
    assert [json.loads(line)["template"] for line in rats.stdout.splitlines()] == ["rat"] * 3
    # templates without descriptions are listed without an empty column for them
    listed = chargen(installed, "lantern", "npc", "--list", "--tables", str(tmp_path / "pack"))
    assert listed.stdout.splitlines()[0].split() == ["--template", "Name"], listed.stdout
    listed = chargen(installed, "lantern", "npc", "--list").stdout
    assert listed.splitlines()[0].split() == ["--template", "Name", "Description"], listed
    for body, line, said in (
        ('abilities = { might = "3-5", grace = "12" }\nguard = 1\ngear = []\n', 4, "wits"),
        (
            'abilities = { might = "3", grace = "12", wits = "1" }\nguard = 1\ngear = ["cheese"]\n',
            6,
            "cheese",
        ),
    ):
        (pack / "templates.toml").write_text(
            '[[entries]]\nid = "rat"\nname = "Giant rat"\n' + body, encoding="utf-8"
        )
        broken = chargen(installed, "tables", "check", str(tmp_path / "pack"))
        assert broken.returncode == 2 and f"templates.toml:{line}" in broken.stderr, broken.stderr
        assert said in broken.stderr and "Traceback" not in broken.stderr
    # the rules' name table must be a name table (names*.toml), said at its line
    (pack / "templates.toml").unlink()
    rules = (EXAMPLE / "chargen_lantern" / "tables" / "rules.toml").read_text(encoding="utf-8")
    (pack / "rules.toml").write_text(
        rules.replace('name_table = "names"', 'name_table = "gear"'), encoding="utf-8"
    )
    line = rules[: rules.index("name_table")].count("\n") + 1
    broken = chargen(installed, "tables", "check", str(tmp_path / "pack"))
    assert broken.returncode == 2 and f"rules.toml:{line}" in broken.stderr, broken.stderr
    assert "names*" in broken.stderr and "KeyError" not in broken.stderr


def test_interactive_walk_on_a_terminal(installed):
    from pty_walk import walk

    env = {**os.environ, "PYTHONPATH": str(installed)}
    run = walk(
        ["lantern", "pc", "--interactive", "--seed", "3", "-f", "json"],
        answers=[("(?i)background", "miner")],
        env=env,
    )
    assert run.code == 0, run.stderr
    assert json.loads(run.stdout)[0]["background"] == "miner"
    assert any("Lamplighter" in line for line in run.stderr.splitlines())
    chosen = [e for e in json.loads(run.stdout)[0]["historik"] if e.get("choice") == "background"]
    assert [(e["id"], e["by"]) for e in chosen] == [("miner", "prompt")], chosen


def test_the_plugins_where_example_is_its_own(lantern, installed):
    from chargen.procedure import generate
    from chargen.where import parse

    system, tables = lantern
    condition = parse(system.where_example)
    for kind in ("pc", "npc"):
        held = [condition.holds(c) for c in generate(system, tables, kind, {}, 1_000, 4)]
        assert 0 < sum(held) < len(held), (kind, sum(held))
    helped = chargen(installed, "lantern", "npc", "--help").stdout
    assert f"e.g. '{system.where_example}'" in " ".join(helped.split())
    assert "grundegenskaper" not in helped  # (no other game's example)
