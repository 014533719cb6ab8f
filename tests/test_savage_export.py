"""`-f foundry` and `-f statblock` for savage.

Every export of thousands of seeded characters (every concept, every template, both
Szívós grades, wild cards and squads) validates against a JSON Schema of the SWADE
Actor and Item fields written from the system's data model (tests/schemas/), and each
number is checked against the character's JSON. Stat blocks are read back with a
reader that works the way swade-npc-importer does (tests/statblock_reader.py). The
official Foundry CLI (npm) packs an exported folder into a compendium and unpacks it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import statblock_reader as reader
from conftest import by_id, fvtt_round_trip, run

from chargen import formats
from chargen import output as out
from chargen.errors import ChargenError
from chargen.export import foundry, statblock, swade
from chargen.procedure import Context, generate, make_character
from chargen.seeds import character_seed
from chargen.systems import load

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((Path(__file__).parent / "schemas/swade-actor.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
ITEM_VALIDATOR = jsonschema.Draft202012Validator({"$ref": "#/$defs/item", "$defs": SCHEMA["$defs"]})
PLACEHOLDER = {"_id": "A" * 16, "_key": f"!actors.items!{'A' * 16}.{'A' * 16}"}
SYSTEM = load("savage")
TABLES = SYSTEM.tables()
TEMPLATES = [e["id"] for e in TABLES["mellekszereplok"].entries]
CONCEPTS = [e["id"] for e in TABLES["koncepciok"].entries]
SKILL_NAMES = {e["id"]: e["name"] for e in TABLES["kepzettsegek"].entries}
ITEMS = by_id(TABLES, "felszereles")
ATTRS = {"ugyesseg": "agility", "esz": "smarts", "lelek": "spirit", "ero": "strength"}
ATTRS["allokepesseg"] = "vigor"
SWID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
ID = re.compile(r"^[A-Za-z0-9]{16}$")
# The English swids the SWADE system looks items up by (shared/design/FOUNDRY.md).
ENGLISH = {
    "kozelharc": "fighting",
    "loveszet": "shooting",
    "atletika": "athletics",
    "eszleles": "notice",
    "altalanos_ismeretek": "common-knowledge",
    "meggyozes": "persuasion",
    "lopakodas": "stealth",
    "gyogyitas": "healing",
    "tuleles": "survival",
    "hit": "faith",
}


def die(text: str) -> dict:
    sides, _, plus = text[1:].partition("+")
    return {"sides": int(sides), "modifier": int(plus or 0)}


def make(system_id: str, kind: str, count: int, seed: int, options: dict | None = None):
    """Characters through the Python API with the pack loaded once."""
    assert system_id == "savage"
    return list(generate(SYSTEM, TABLES, kind, options or {}, count, seed))


def pcs(count: int, seed: int, options: dict | None = None) -> list[dict]:
    """PCs of a batch, each regenerable from its seed. A character on which savage itself
    fails with its known fault (two enyhe Hátrányok of one csoport drawn together, which
    the system's own generation rejects) is passed over; nothing else is."""
    ctx = Context(SYSTEM, TABLES, "pc", options or {}, count, seed)
    found = []
    for index in range(count):
        ctx.start(character_seed(seed, index), index)
        try:
            found.append(make_character(ctx, SYSTEM.pc))
        except ChargenError as exc:
            if "two grades of one" not in str(exc):
                raise
    assert len(found) > count * 0.8
    return found


def batches() -> list[tuple[str, list[dict]]]:
    """Thousands of characters: PCs of every concept, NPCs of every template plain,
    Szívós, Nagyon szívós and wild card, and a squad of every template."""
    found = [(f"pc/{c}", pcs(40, 100 + i, {"template": c})) for i, c in enumerate(CONCEPTS)]
    found.append(("pc/random", pcs(300, 8)))
    for i, t in enumerate(TEMPLATES):
        for grade in (None, "szivos", "nagyon_szivos"):
            found.append(
                (
                    f"npc/{t}/{grade}",
                    make("savage", "npc", 25, 500 + i, {"template": t, "tough": grade}),
                )
            )
        found.append(
            (
                f"npc/{t}/wild",
                make("savage", "npc", 25, 900 + i, {"template": t, "wild_card": True}),
            )
        )
        found.append(
            (f"squad/{t}", make("savage", "npc", 4, 1300 + i, {"template": t, "squad": True}))
        )
    found.append(("npc/random", make("savage", "npc", 500, 11)))
    return found


@pytest.fixture(scope="module")
def exported() -> list[tuple[str, dict, dict]]:
    rows = []
    for label, chars in batches():
        for char, doc in zip(chars, foundry.actors(SYSTEM, TABLES, chars), strict=True):
            rows.append((label, char, doc))
    assert len(rows) > 3000
    return rows


# -- the schema ---------------------------------------------------------------------


def schema_errors(doc: dict, seen: dict[str, list[str]]) -> list[str]:
    """The schema's complaints about one Actor: the actor without its items, then each
    item. An item's verdict is kept by its content (ids aside, checked on their own by
    pattern), so the many identical skills of a batch are validated once, not 4,000 times."""
    errors = [
        f"{list(e.absolute_path)} {e.message[:200]}"
        for e in VALIDATOR.iter_errors(dict(doc, items=[]))
    ]
    for item in doc["items"]:
        key = json.dumps(dict(item, **PLACEHOLDER), sort_keys=True)
        if key not in seen:
            seen[key] = [
                f"{item['name']}: {list(e.absolute_path)} {e.message[:200]}"
                for e in ITEM_VALIDATOR.iter_errors(dict(item, **PLACEHOLDER))
            ]
        errors += seen[key]
        if not (
            ID.match(item["_id"]) and item["_key"] == f"!actors.items!{doc['_id']}.{item['_id']}"
        ):
            errors.append(f"{item['name']}: bad _id or _key")
    return errors


def test_every_export_validates_against_the_swade_schema(exported):
    bad, seen = [], {}
    for label, char, doc in exported:
        bad += [f"{label} {char['name']}: {e}" for e in schema_errors(doc, seen)]
    assert not bad, "\n".join(bad[:20])
    # the split validation agrees with the whole schema on whole documents
    for _, _, doc in exported[:: len(exported) // 40]:
        assert VALIDATOR.is_valid(doc)


def _first(doc: dict, kind: str) -> dict:
    return next(i["system"] for i in doc["items"] if i["type"] == kind)


def test_the_schema_cites_the_data_model_and_refuses_what_swade_refuses(exported):
    text = json.dumps(SCHEMA)
    for path in ("data/actor/base/creature.ts", "data/item/weapon.ts", "data/item/common.ts"):
        assert re.search(rf"src/module/{re.escape(path)}@[0-9a-f]{{40}}", text), path
    assert re.search(r"src/module/constants\.ts@[0-9a-f]{40}", text)
    doc = next(d for _, _, d in exported if {"edge", "weapon"} <= {i["type"] for i in d["items"]})
    for breaking in (
        lambda d: d["items"][0]["system"].__setitem__("swid", "kozel_harc"),  # underscore
        lambda d: d["items"][0]["system"].__setitem__("swid", "any"),  # reserved
        lambda d: d.__setitem__("_id", "short"),
        lambda d: d["system"]["attributes"]["vigor"]["die"].__setitem__("sides", "d8"),
        lambda d: d["system"]["pace"].__setitem__("base", "walk"),
        lambda d: d["system"]["stats"].__setitem__("speed", 6),  # before SWADE 4.2
        lambda d: d.__setitem__("type", "monster"),
        lambda d: _first(d, "edge")["requirements"].append(
            dict(_first(d, "edge")["requirements"][0])
        ),
        lambda d: _first(d, "edge")["requirements"][0].__setitem__("value", "Novice"),
        lambda d: _first(d, "weapon").pop("currentShots"),
    ):
        broken = json.loads(json.dumps(doc))
        breaking(broken)
        assert not VALIDATOR.is_valid(broken)


# -- the numbers --------------------------------------------------------------------


def test_actor_type_wild_card_wounds_and_bennies(exported):
    for label, char, doc in exported:
        s = doc["system"]
        if char["kind"] == "pc":
            assert doc["type"] == "character" and "wildcard" not in s
            assert s["wounds"]["max"] == 3
        else:
            assert doc["type"] == "npc" and s["wildcard"] is char["foszereplo"]
            want = (
                3
                if char["foszereplo"]
                else {None: 0, "szivos": 0, "nagyon_szivos": 1}[char["szivos"]]
            )
            assert s["wounds"]["max"] == want, label
        assert s["wounds"]["max"] == char["elviselt_sebek"]
        assert s["bennies"] == {"value": char["sorspont"], "max": char["sorspont"]}
        if label.endswith("/wild"):
            assert doc["type"] == "npc" and s["wildcard"] is True and s["wounds"]["max"] == 3


def test_attributes_pace_and_derived_values(exported):
    seen_plus = False
    for _, char, doc in exported:
        s = doc["system"]
        for hu, en in ATTRS.items():
            assert s["attributes"][en]["die"] == die(char["alaptulajdonsagok"][hu])
            seen_plus |= "+" in char["alaptulajdonsagok"][hu]
        wild = 6 if char["vadkocka"] else 6
        assert all(a["wild-die"]["sides"] == wild for a in s["attributes"].values())
        assert s["pace"] == {
            "base": "ground",
            "ground": char["mozgas"],
            "running": {"die": die(char["futaskocka"])["sides"], "mod": 0},
        }
        assert s["stats"]["toughness"] == {"value": char["szivossag"], "armor": char["pancel"]}
        assert s["stats"]["parry"]["value"] == char["haritas"]
        assert s["stats"]["size"] == char["meret"]
        assert s["details"]["autoCalcToughness"] is False and s["details"]["autoCalcParry"] is False
    assert seen_plus, "no d12+N attribute among the templates: the modifier is untested"
    medve = make("savage", "npc", 1, 3, {"template": "medve"})[0]
    strength = foundry.actor(SYSTEM, TABLES, medve)["system"]["attributes"]["strength"]["die"]
    assert strength == die(medve["alaptulajdonsagok"]["ero"]) and strength["sides"] == 12


def items_of(doc: dict, kind: str) -> list[dict]:
    return [i for i in doc["items"] if i["type"] == kind]


def test_skills_carry_the_swids_the_system_looks_up(exported):
    for _, char, doc in exported:
        skills = items_of(doc, "skill")
        assert [i["name"] for i in skills] == [SKILL_NAMES[k] for k in char["kepzettsegek"]]
        by_swid = {i["system"]["swid"]: i for i in skills}
        for key, value in char["kepzettsegek"].items():
            if key in ENGLISH:
                item = by_swid[ENGLISH[key]]
                assert item["name"] == SKILL_NAMES[key] and item["system"]["die"] == die(value)
        core = {i["system"]["swid"] for i in skills if i["system"]["isCoreSkill"]}
        assert core <= {"athletics", "common-knowledge", "notice", "persuasion", "stealth"}
        if char["kind"] == "pc":
            assert core == {"athletics", "common-knowledge", "notice", "persuasion", "stealth"}
        for item in skills:
            assert item["system"]["attribute"] in ATTRS.values()


def test_edges_hindrances_and_abilities(exported):
    for _, char, doc in exported:
        edges = items_of(doc, "edge")
        assert [e["name"] for e in edges] == [e["nev"] for e in char["elonyok"]]
        flaws = items_of(doc, "hindrance")
        assert [h["name"] for h in flaws] == [h["nev"] for h in char["hatranyok"]]
        for item, flaw in zip(flaws, char["hatranyok"], strict=True):
            major = flaw["sulyossag"] == "sulyos"
            assert item["system"]["severity"] == ("major" if major else "minor")
            assert item["system"]["major"] is major
        abilities = [a["name"] for a in items_of(doc, "ability")]
        sized = [k for k in char.get("kulonleges", ()) if re.match(r"Méret [-+]\d+\.$", k)]
        assert len(abilities) == len(char.get("kulonleges", ())) - len(sized) + bool(char["szivos"])
        assert not any(re.match(r"Méret|Size", a) for a in abilities)  # the size field has it
        background = char.get("arkan_hatter") or {}
        arcane = [e["name"] for e in edges if e["system"]["isArcaneBackground"]]
        assert arcane == ([background["nev"]] if background else [])
        powers = items_of(doc, "power")
        assert [p["name"] for p in powers] == [p["nev"] for p in background.get("hatalmak", ())]
        for item, power in zip(powers, background.get("hatalmak", ()), strict=True):
            assert item["system"]["pp"] == power["ar"]
            assert item["system"]["range"] == power["hatotav"]
            assert item["system"]["actions"]["trait"] == SKILL_NAMES[background["kepzettseg"]]
            want_damage = {"villam": "2d6", "robbanas": "2d6"}.get(power["id"], "")
            assert item["system"]["damage"] == want_damage
            assert item["system"]["duration"] == power["idotartam"]
        if background:
            points = background["hatalompont"]
            assert doc["system"]["powerPoints"] == {"general": {"value": points, "max": points}}
            arcane_swid = {"hit": "faith", "varazslas": "spellcasting", "pszionika": "psionics"}
            want = arcane_swid.get(background["kepzettseg"], "weird-science")
            assert want in {i["system"]["swid"] for i in items_of(doc, "skill")}
        else:
            assert "powerPoints" not in doc["system"]


def test_edges_carry_their_requirements_from_the_tables(exported):
    ranks = {"ujonc": 0, "tapasztalt": 1, "veteran": 2, "hosi": 3, "legendas": 4}
    edges = by_id(TABLES, "elonyok")
    seen = set()
    for _, char, doc in exported:
        for item, edge in zip(items_of(doc, "edge"), char["elonyok"], strict=True):
            entry = edges[edge["id"]]
            got = item["system"]["requirements"]
            assert got[0] == {"type": "rank", "selector": "", "value": ranks[entry["rang"]],
                              "combinator": "and"}  # fmt: skip
            want = [("attribute", ATTRS[k], die(v)["sides"]) for k, v in
                    entry.get("kell_tulajdonsag", {}).items()]  # fmt: skip
            want += [("skill", swade.mapping()["skills"].get(k, k), die(v)["sides"])
                     for k, v in entry.get("kell_kepzettseg", {}).items()]  # fmt: skip
            want += [("edge", swade.edge_swid(k), "") for k in entry.get("kell_elony", ())]
            assert [(r["type"], r["selector"], r["value"]) for r in got[1:]] == want
            for r in got[1:]:
                if r["type"] == "skill":
                    assert r["label"] == SKILL_NAMES[next(k for k, v in
                        swade.mapping()["skills"].items() if v == r["selector"])]  # fmt: skip
                if r["type"] == "edge":
                    seen.add("edge")
                    assert r["label"] == edges[next(k for k in entry["kell_elony"]
                        if swade.edge_swid(k) == r["selector"])]["name"]  # fmt: skip
            seen |= {r["type"] for r in got}
    assert seen == {"rank", "attribute", "skill", "edge"}


def test_english_swids_for_what_the_swade_core_rules_have(exported):
    m = swade.mapping()
    # every mapped id is one of the tables' (no stale key), every swid a valid one
    assert set(m["edges"]) <= {e["id"] for e in TABLES["elonyok"].entries}
    flaws = TABLES["hatranyok"].entries
    groups = {f["id"] for f in flaws} | {t for f in flaws for t in f.get("tags", ())}
    assert set(m["hindrances"]) <= groups
    assert set(m["gear"]) | set(m["shield_cover"]) <= set(ITEMS)
    for section in ("edges", "hindrances", "gear"):
        assert all(SWID.match(v) for v in m[section].values())
    by_edge: dict[str, str] = {}
    by_flaw: dict[str, set] = {}
    for _, char, doc in exported:
        for item, edge in zip(items_of(doc, "edge"), char["elonyok"], strict=True):
            by_edge[edge["id"]] = item["system"]["swid"]
        for item, flaw in zip(items_of(doc, "hindrance"), char["hatranyok"], strict=True):
            by_flaw.setdefault(flaw["id"].removesuffix("_sulyos"), set()).add(
                item["system"]["swid"]
            )
        physical = [i for i in doc["items"] if i["type"] in ("weapon", "armor", "shield", "gear")]
        for item, thing in zip(physical, char["felszereles"], strict=True):
            assert item["system"]["swid"] == m["gear"].get(
                thing["id"], thing["id"].replace("_", "-")
            )
    assert by_edge["gyors"] == "quick" and swade.edge_swid("higgadt") == "level-headed"
    assert by_edge.get("istenfelo", "istenfelo") == "istenfelo"  # no SWADE counterpart: Hungarian
    assert by_flaw["bosszuallo"] == {"vengeful"}  # both grades of one Hindrance, one swid
    assert all(len(swids) == 1 for swids in by_flaw.values())


def test_weapons_armour_shields_and_gear_with_their_numbers(exported):
    kinds = {"kozelharci": "weapon", "tavolsagi": "weapon", "termeszetes": "weapon"}
    kinds |= {"pancel": "armor", "pajzs": "shield", "egyeb": "gear"}
    places = {"fej": "head", "torzs": "torso", "kar": "arms", "lab": "legs"}
    seen = set()
    for _, char, doc in exported:
        physical = [i for i in doc["items"] if i["type"] in ("weapon", "armor", "shield", "gear")]
        assert len(physical) == len(char["felszereles"])
        for item, thing in zip(physical, char["felszereles"], strict=True):
            entry = ITEMS[thing["id"]]
            assert item["name"] == thing["nev"] and item["type"] == kinds[thing["tipus"]]
            s = item["system"]
            assert s["price"] == thing["ar"]
            seen.add(item["type"])
            if item["type"] == "weapon":
                raw = thing["sebzes"]
                want = "@str" + raw[3:] if raw.startswith("Erő") else raw
                want = "3d6" if raw == "1-3d6" else want
                assert s["damage"] == want
                assert s["range"] == thing.get("lotav", "")
                assert s["rof"] == thing.get("tgy", 1)
                assert s["ap"] == thing.get("pancel_tores", 0)
                assert s["minStr"] == entry.get("min_ero", "")
                melee = thing["tipus"] != "tavolsagi"
                assert s["rangeType"] == ((2 if "lotav" in thing else 0) if melee else 1)
            elif item["type"] == "armor":
                assert s["armor"] == thing["pancel"]
                assert s["minStr"] == entry.get("min_ero", "")
                covered = {places[h] for h in thing["hely"]}
                assert s["locations"] == {
                    p: p in covered for p in ("head", "torso", "arms", "legs")
                }
            elif item["type"] == "shield":
                assert s["parry"] == thing["haritas"] and s["equipStatus"] == 3
                assert s["cover"] == {"kozepes_pajzs": 2, "nagy_pajzs": 4, "rohampajzs": 4}.get(
                    thing["id"], 0
                )
            if item["type"] == "weapon":
                assert s["currentShots"] == s["shots"] == thing.get("lovesek", 0)  # loaded
        weapons = items_of(doc, "weapon")
        if weapons:
            assert weapons[0]["system"]["equipStatus"] in (4, 5)
    assert seen == {"weapon", "armor", "shield", "gear"}


def test_ids_swids_and_flags(exported):
    actor_ids: dict[str, str] = {}
    for label, char, doc in exported:
        assert ID.match(doc["_id"]) and doc["_key"] == f"!actors!{doc['_id']}"
        # one id, one character (the recipe aside: the same character made two ways)
        same = json.dumps({k: v for k, v in char.items() if k != "recipe"}, sort_keys=True)
        assert actor_ids.setdefault(doc["_id"], same) == same, label
        item_ids = [i["_id"] for i in doc["items"]]
        assert len(set(item_ids)) == len(item_ids)
        for item in doc["items"]:
            assert ID.match(item["_id"]) and SWID.match(item["system"]["swid"])
            assert item["_key"] == f"!actors.items!{doc['_id']}.{item['_id']}"
        flags = doc["flags"]["chargen"]
        assert flags["system"] == "savage" and flags["seed"] == char["seed"]
        assert flags["recipe"] == char.get("recipe")  # None where made step by step (pcs)
        assert label.startswith("pc/") or flags["recipe"].startswith("chargen savage npc")
        assert flags["template"] == char["template"] and flags["squad"] == char.get("squad")
        v = swade.versions()
        assert doc["_stats"] == {
            "coreVersion": v["core"],
            "systemId": "swade",
            "systemVersion": v["system"],
        }


def test_squads_name_their_leader_and_shared_card(exported):
    squads: dict[str, list] = {}
    for label, char, doc in exported:
        if label.startswith("squad/"):
            squads.setdefault(char["squad"], []).append(doc["flags"]["chargen"])
    assert len(squads) == len(TEMPLATES)
    for members in squads.values():
        assert [m["leader"] for m in members] == [True, False, False, False]
        assert len({m["card"] for m in members}) == 1 and len({m["leaderId"] for m in members}) == 1
        assert [m["member"] for m in members] == [1, 2, 3, 4]


def test_readme_states_the_pinned_versions():
    v = swade.versions()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"Foundry VTT {v['core']}" in readme and f"SWADE {v['system']}" in readme
    # the oldest Foundry 13 build the export loads in: Import Data refuses a newer core
    assert f"oldest Foundry 13\nbuild a savage export loads in is **{v['core']}**" in readme


# -- the command line ---------------------------------------------------------------


def test_same_seed_same_bytes():
    first = run("savage", "npc", "--seed", "42", "-n", "3", "-f", "foundry")
    again = run("savage", "npc", "--seed", "42", "-n", "3", "-f", "foundry")
    assert first.exit_code == 0 and first.stdout == again.stdout
    assert isinstance(json.loads(first.stdout), list)
    one = run("savage", "pc", "--seed", "42", "-f", "foundry")
    doc = json.loads(one.stdout)
    assert doc["type"] == "character" and doc["flags"]["chargen"]["seed"] == 42
    proc = subprocess.run(
        [sys.executable, "-m", "chargen", "savage", "pc", "--seed", "42", "-f", "foundry"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert proc.stdout == one.stdout
    block = run("savage", "pc", "--seed", "42", "-f", "statblock")
    assert block.stdout == run("savage", "pc", "--seed", "42", "-f", "statblock").stdout


def test_a_system_without_the_format_exits_2_naming_savage():
    for args in (("karma", "pc"), ("matinee", "npc"), ("roll", "2d6")):
        result = run(*args, "-f", "statblock")
        assert result.exit_code == 2, args
        assert "savage" in result.stderr and "-f statblock" in result.stderr
        assert "Traceback" not in result.stderr
    roll = run("roll", "2d6", "-f", "foundry")
    assert roll.exit_code == 2 and "savage" in roll.stderr
    step = run("savage", "hatranyok", "-f", "foundry")
    assert step.exit_code == 2 and "savage pc" in step.stderr
    stray = run("savage", "npc", "--latin1")
    assert stray.exit_code == 2 and "-f statblock" in stray.stderr
    assert formats.systems_with("statblock") == ["savage"]


def test_a_folder_per_batch_written_whole(tmp_path):
    target = tmp_path / "osztag"
    result = run(
        "savage", "npc", "--squad", "-n", "4", "--seed", "5", "-f", "foundry", "-o", target
    )
    assert result.exit_code == 0, result.stderr
    files = sorted(p.name for p in target.iterdir())
    assert "osztag.md" in files and len(files) == 5
    docs = [json.loads((target / f).read_text()) for f in files if f.endswith(".json")]
    notes = (target / "osztag.md").read_text()
    leader = next(d for d in docs if d["flags"]["chargen"]["leader"])
    assert leader["name"] in notes and leader["flags"]["chargen"]["card"] in notes
    assert all(d["name"] in notes for d in docs)
    again = run("savage", "npc", "--squad", "-n", "4", "--seed", "5", "-f", "foundry", "-o", target)
    assert again.exit_code == 2 and "exists" in again.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["osztag"]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run("savage", "npc", "-n", "2", "-f", "foundry", "-o", empty).exit_code == 0
    assert len(list(empty.iterdir())) == 2
    single = tmp_path / "one.json"
    assert run("savage", "pc", "--seed", "1", "-f", "foundry", "-o", single).exit_code == 0
    assert json.loads(single.read_text())["type"] == "character"


def test_a_failed_folder_leaves_nothing(tmp_path, monkeypatch):
    def broken(system, tables, items, count, values, path):
        (Path(path) / "half.json").write_text("{")
        raise RuntimeError("disk full")

    monkeypatch.setattr(foundry, "write_folder", broken)
    result = run("savage", "npc", "-n", "3", "-f", "foundry", "-o", tmp_path / "dir")
    assert result.exit_code == 1
    assert list(tmp_path.iterdir()) == []


# -- the Foundry CLI round trip -----------------------------------------------------


def test_the_foundry_cli_packs_and_unpacks_the_folder(tmp_path):
    src = tmp_path / "src"
    chars = make("savage", "npc", 6, 21, {"template": "lovag", "squad": True})
    chars += pcs(4, 22) + make("savage", "npc", 4, 23, {"wild_card": True})
    with out.new_folder(str(src)) as tmp:
        foundry.write_folder(SYSTEM, TABLES, chars, len(chars), {}, tmp)
    mine = {json.loads(p.read_text())["_id"]: p.read_text() for p in src.glob("*.json")}
    theirs = fvtt_round_trip(src, tmp_path)
    assert len(mine) == 14 and set(mine) == set(theirs)
    for key, text in mine.items():
        assert json.loads(theirs[key]) == json.loads(text)
        assert theirs[key] == text  # byte for byte: the CLI writes JSON as chargen does


# -- stat blocks --------------------------------------------------------------------


def expected(char: dict, latin1: bool) -> dict:
    """What the importer should read from a character's block."""
    fold = (lambda s: s.translate(statblock.LATIN1)) if latin1 else (lambda s: s)
    gear = {}
    for thing in char["felszereles"]:
        name = fold(statblock.gear_name(thing["nev"]))
        if "sebzes" in thing:
            dmg = thing["sebzes"].replace("Erő", "Str")
            stats = {}
            if "lotav" in thing:
                stats = {"range": thing["lotav"], "damage": dmg, "rof": str(thing.get("tgy", 1))}
            else:
                stats = {"damage": dmg} if dmg.startswith("Str") else {"damage": dmg}
            if thing.get("pancel_tores"):
                stats["ap"] = str(thing["pancel_tores"])
            if thing.get("eleres"):
                stats["reach"] = str(thing["eleres"])
            if thing.get("lovesek"):
                stats["shots"] = str(thing["lovesek"])
            gear[name] = stats
        elif "pancel" in thing:
            gear[name] = {"armorBonus": thing["pancel"]}
        elif "haritas" in thing:
            gear[name] = {"parry": thing["haritas"]}
        else:
            gear[name] = None
    grade = {"sulyos": "Major", "enyhe": "Minor"}
    return {
        "attributes": {en: die(char["alaptulajdonsagok"][hu]) for hu, en in ATTRS.items()},
        "skills": {fold(SKILL_NAMES[k]).lower(): die(v) for k, v in char["kepzettsegek"].items()},
        "pace": char["mozgas"],
        "parry": char["haritas"],
        "toughness": char["szivossag"],
        "armour": char["pancel"],
        "hindrances": [
            fold(f"{re.sub(r' [(](súlyos|enyhe)[)]$', '', h['nev'])} ({grade[h['sulyossag']]})")
            for h in char["hatranyok"]
        ],
        "edges": [fold(e["nev"]) for e in char["elonyok"]],
        "gear": gear,
        "powers": [fold(p["nev"]) for p in (char.get("arkan_hatter") or {}).get("hatalmak", ())],
        "power_points": (char.get("arkan_hatter") or {}).get("hatalompont"),
        "size": char["meret"],
        "running_die": die(char["futaskocka"])["sides"],
    }


def test_the_importer_reads_every_block_back_to_the_json(exported):
    chars = [char for label, char, _ in exported if not label.startswith("squad/")]
    text = "".join(statblock.render(SYSTEM, TABLES, chars, len(chars), {"latin1": True}))
    found = reader.blocks(text)
    assert len(found) == len(chars)
    for char, block in zip(chars, found, strict=True):
        got = reader.read(block)
        assert got["name"] == char["name"].translate(statblock.LATIN1)
        want = expected(char, latin1=True)
        for key, value in want.items():
            assert got[key] == value, (char["name"], key, got[key], value)
        assert not re.search("[őűŐŰ]", block)


def test_without_latin1_the_importer_breaks_names_with_o_and_u():
    char = next(c for c in pcs(200, 5) if any("ő" in e["nev"] for e in c["elonyok"]))
    block = "".join(statblock.render(SYSTEM, TABLES, [char], 1, {}))
    got = reader.read(block)
    assert got["edges"] != expected(char, latin1=False)["edges"]  # "Első csapás" -> "Els", ...
    assert got["attributes"] == expected(char, latin1=False)["attributes"]


def test_the_block_uses_the_english_labels_and_hungarian_names():
    char = make("savage", "pc", 1, 3)[0]
    text = run("savage", "pc", "--seed", "3", "-f", "statblock").stdout
    lines = text.splitlines()
    assert lines[0] == char["name"]
    for label in ("Attributes: Agility ", "Skills: ", "Pace: ", "Parry: ", "Toughness: "):
        assert label in text
    assert SKILL_NAMES["kozelharc"] in text or "kozelharc" not in char["kepzettsegek"]
    assert all(len(line) <= 80 for line in lines)
    narrow = run("savage", "pc", "--seed", "3", "-f", "statblock", "--width", "40").stdout
    assert all(len(line) <= 40 for line in narrow.splitlines()[1:])  # the name line stays whole
    wide, tight = reader.read(text), reader.read(narrow)
    assert " ".join(wide.pop("description")) == " ".join(tight.pop("description"))
    assert tight == wide  # the importer joins a section's lines again
    bear = run("savage", "npc", "--template", "medve", "--seed", "2", "-f", "statblock").stdout
    assert "Special Abilities:\n• Size +2" in bear and "Strength d12+" in bear


def test_a_squad_is_one_block_with_the_members_names():
    chars = make("savage", "npc", 5, 8, {"template": "ork", "squad": True})
    text = run(
        "savage", "npc", "--template", "ork", "--squad", "-n", "5", "--seed", "8", "-f", "statblock"
    ).stdout
    assert len(reader.blocks(text)) == 1
    got = reader.read(text)
    assert got["name"] == f"{chars[0]['sablon']} (osztag, 5 fő)"
    members = " ".join(got["description"])
    assert all(c["name"] in members for c in chars)
    assert chars[0]["akciokartya"] in members
    assert got["parry"] == chars[0]["haritas"] and got["toughness"] == chars[0]["szivossag"]


def test_latin1_leaves_no_o_or_u_with_double_acute():
    text = run("savage", "pc", "-n", "30", "--seed", "9", "-f", "statblock", "--latin1").stdout
    assert "õ" in text and not re.search("[őűŐŰ]", text)


# -- the importer's default settings --------------------------------------------------


def test_with_its_defaults_the_importer_reads_the_importer_block_back_to_the_json(exported):
    chars = [char for label, char, _ in exported if not label.startswith("squad/")]
    values = {"importer": True}
    text = "".join(statblock.render(SYSTEM, TABLES, chars, len(chars), values))
    found = reader.blocks(text)
    assert len(found) == len(chars)
    shields = 0
    for char, block in zip(chars, found, strict=True):
        got = reader.read(block, defaults=True)
        want = expected(char, latin1=True)
        for key in ("attributes", "skills", "pace", "parry", "toughness", "armour"):
            assert got[key] == want[key], (char["name"], key)
        for key in ("hindrances", "edges", "powers", "power_points"):
            assert got[key] == want[key], (char["name"], key)
        for name, stats in want["gear"].items():  # every name whole, ő and ű too
            if stats is not None and "parry" in stats:
                shields += 1
                assert got["gear"][name] == {"parry": None}  # v0.2.4 cannot read it
            else:
                assert got["gear"][name] == stats, (char["name"], name)
        assert "Special Abilities:" not in block and got["abilities"] == {}
        lines = [line.rstrip(".") for line in " ".join(got["description"]).split(". ")]
        for ability in statblock._abilities(char, TABLES):
            assert ability.translate(statblock.LATIN1).rstrip(".") in " ".join(lines)
        assert not re.search("[őűŐŰ]", block)
    assert shields


def test_with_its_defaults_the_importer_splits_bullets_into_letters():
    bear = make("savage", "npc", 1, 2, {"template": "medve"})[0]
    forum = "".join(statblock.render(SYSTEM, TABLES, [bear], 1, {}))
    assert "• Size +2" in forum  # the readable UTF-8 block keeps its bullets
    got = reader.read(forum, defaults=True)
    assert got["abilities"] and all(len(k) == 1 for k in got["abilities"])
    assert reader.read(forum)["abilities"]  # with a bullet setting of "•" it reads them


def test_without_latin1_the_importers_gear_pattern_cuts_the_gear_line():
    char = next(
        c for c in pcs(300, 6) if any(re.search("[őű]", g["nev"]) for g in c["felszereles"][:-1])
    )
    forum = "".join(statblock.render(SYSTEM, TABLES, [char], 1, {}))
    importer = "".join(statblock.render(SYSTEM, TABLES, [char], 1, {"importer": True}))
    want = expected(char, latin1=True)["gear"]
    assert len(reader.read(forum, defaults=True)["gear"]) < len(want)
    assert set(reader.read(importer, defaults=True)["gear"]) == set(want)
