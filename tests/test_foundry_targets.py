"""`-f foundry` for every system: matinee, karma and lef into Simple Worldbuilding,
spelsystemet into BRP (savage into SWADE has its own file, test_savage_export.py).

Two thousand seeded characters per system (PCs and NPCs, bands included) validate
against the JSON Schema of their target, written from its source files
(tests/schemas/), and their numbers are checked against the character's JSON. The
official Foundry CLI packs an exported folder of every system into a compendium and
unpacks it unchanged; the same seed gives the same bytes; a system without a target
is exit 2 naming those with one.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest
from conftest import fvtt_round_trip, run

from chargen import formats
from chargen import output as out
from chargen.export import foundry, group_of
from chargen.procedure import generate
from chargen.systems import load

jsonschema = pytest.importorskip("jsonschema")

SCHEMAS = Path(__file__).parent / "schemas"
TARGETS = {
    "matinee": "worldbuilding",
    "karma": "worldbuilding",
    "lef": "worldbuilding",
    "spelsystemet": "brp",
}
PER_SYSTEM = 2000
PLACEHOLDER_ID = "A" * 16
_ID = re.compile(r"[A-Za-z0-9]{16}")


@cache
def schema(target: str) -> dict:
    return json.loads((SCHEMAS / f"{target}-actor.schema.json").read_text(encoding="utf-8"))


@cache
def validator(target: str, part: str = "actor"):
    """A compiled validator of the target's Actor, or of one of its $defs."""
    whole = schema(target)
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{part}", "$defs": whole["$defs"]})


def batch(system_id: str) -> list[dict]:
    """PCs and NPCs of a system, and for karma bands, PER_SYSTEM in all."""
    system = load(system_id)
    tables = system.tables()
    half = PER_SYSTEM // 2
    chars = list(generate(system, tables, "pc", {}, half, 11))
    if system_id == "karma":
        chars += list(generate(system, tables, "npc", {}, half - 200, 12))
        for n in range(50):
            chars += list(generate(system, tables, "npc", {"band": True}, 4, 100 + n))
    else:
        chars += list(generate(system, tables, "npc", {}, half, 12))
    return chars


@cache
def exported(system_id: str) -> tuple[list[dict], list[dict]]:
    system = load(system_id)
    chars = batch(system_id)
    return chars, list(foundry.actors(system, system.tables(), chars))


# -- the schema ---------------------------------------------------------------------


def _worldbuilding_parts(doc: dict) -> tuple[dict, list[dict]]:
    """The actor with each attribute replaced by one valid stand-in (its keys and shape
    checked whole), and the attributes themselves, each validated once by content."""
    stand_in = {"value": 0, "dtype": "Number"}
    skeleton = json.loads(json.dumps(doc))
    parts = []
    for key, value in skeleton["system"]["attributes"].items():
        if "dtype" in value:
            parts.append(value)
            skeleton["system"]["attributes"][key] = stand_in
        else:
            parts += value.values()
            skeleton["system"]["attributes"][key] = dict.fromkeys(value, stand_in)
    return skeleton, parts


def schema_errors(target: str, doc: dict, seen: dict[str, list[str]]) -> list[str]:
    """The schema's complaints about one Actor: its frame whole, then each Item and
    attribute once by content (the many identical skills of a batch are not validated
    2,000 times). What differs between any two actors (ids, names, seeds, texts) is
    checked on its own and replaced by a stand-in, so that parts of one shape share
    one verdict."""
    errors = [] if _ID.fullmatch(doc["_id"]) else ["bad _id"]
    if target == "worldbuilding":
        skeleton, parts = _worldbuilding_parts(dict(doc, items=[]))
        errors += [] if isinstance(skeleton["system"]["biography"], str) else ["biography"]
        skeleton["system"]["biography"] = ""
    else:
        skeleton, parts = json.loads(json.dumps(dict(doc, items=[]))), []
    skeleton |= {"_id": PLACEHOLDER_ID, "_key": f"!actors!{PLACEHOLDER_ID}", "name": "N"}
    skeleton["prototypeToken"]["name"] = "N"
    flags = skeleton["flags"]["chargen"]
    flags |= {"seed": 0, "recipe": None if flags["recipe"] is None else "R"}
    flags |= {k: v for k, v in (("leaderId", PLACEHOLDER_ID), ("leaderName", "N")) if k in flags}
    checks = [("actor", skeleton)] + [("attribute", part) for part in parts]
    own_ids = {i["_id"] for i in doc["items"]}
    for item in doc["items"]:
        if not (
            _ID.fullmatch(item["_id"])
            and item["_key"] == f"!actors.items!{doc['_id']}.{item['_id']}"
            and isinstance(item["name"], str)
            and item["name"].strip()
        ):
            errors.append(f"{item['name']}: bad _id, _key or name")
        system = dict(item["system"])
        if isinstance(system.get("description"), str):
            system["description"] = ""
        if "hitlocID" in system:  # an id of the actor's own hit locations
            errors += [] if system["hitlocID"] in own_ids else [f"{item['name']}: hitlocID"]
            system["hitlocID"] = PLACEHOLDER_ID
        stand_in = {
            "_id": PLACEHOLDER_ID,
            "_key": f"!actors.items!{PLACEHOLDER_ID}.{PLACEHOLDER_ID}",
            "name": "N",
            "system": system,
        }
        checks.append(("item", dict(item, **stand_in)))
    for part, value in checks:
        key = part + json.dumps(value, sort_keys=True)
        if key not in seen:
            seen[key] = [
                f"{part} {value.get('name', value.get('label'))}: {list(e.absolute_path)} "
                f"{e.message[:200]}"
                for e in validator(target, part).iter_errors(value)
            ]
        errors += seen[key]
    return errors


@pytest.mark.parametrize("system_id", sorted(TARGETS))
def test_every_export_validates_against_its_targets_schema(system_id):
    target = TARGETS[system_id]
    chars, docs = exported(system_id)
    assert len(docs) == PER_SYSTEM
    bad, seen = [], {}
    for char, doc in zip(chars, docs, strict=True):
        bad += [f"{char['name']}: {e}" for e in schema_errors(target, doc, seen)]
    assert not bad, "\n".join(bad[:20])
    for doc in docs[:: PER_SYSTEM // 8]:  # the split validation agrees with the whole
        assert validator(target).is_valid(doc)


def test_the_worldbuilding_schema_cites_its_source_and_refuses_what_it_refuses():
    text = json.dumps(schema("worldbuilding"))
    for path in ("template.json", "module/helper.js", "module/constants.js"):
        assert f"foundryvtt/worldbuilding:{path}@" in text, path
    assert re.search(r"template\.json@[0-9a-f]{40}", text)
    _, docs = exported("lef")
    for breaking in (
        lambda d: d["system"]["attributes"]["talenter"].__setitem__(
            "a b", {"value": 1, "dtype": "Number"}
        ),
        lambda d: d["system"]["groups"].__setitem__("attributes", {"label": "x"}),
        lambda d: d["system"]["attributes"]["tilstande"]["liv"].pop("max"),
        lambda d: d["system"]["attributes"]["talenter"]["fysik"].__setitem__("dtype", "Integer"),
        lambda d: d["system"]["attributes"]["talenter"]["fysik"].__setitem__("value", "fem"),
        lambda d: d.__setitem__("type", "npc"),
        lambda d: d["items"][0].__setitem__("type", "weapon"),
        lambda d: d["system"].__setitem__("hp", 3),
    ):
        broken = json.loads(json.dumps(docs[0]))
        breaking(broken)
        assert not validator("worldbuilding").is_valid(broken)


# -- the numbers --------------------------------------------------------------------


def attributes(doc: dict, group: str) -> dict[str, dict]:
    return doc["system"]["attributes"].get(group, {})


def values(doc: dict, group: str) -> dict:
    return {k: a["value"] for k, a in attributes(doc, group).items()}


def items_named(doc: dict) -> list[str]:
    return [i["name"] for i in doc["items"]]


def _groups_declared(doc: dict) -> None:
    """Every group of attributes is declared with a label, and each attribute names it."""
    s = doc["system"]
    assert set(s["groups"]) == set(s["attributes"])
    for key, group in s["attributes"].items():
        assert s["groups"][key]["label"]
        assert all(a["group"] == key and a["label"] for a in group.values())
        for a in group.values():
            if a["dtype"] == "Resource":
                assert a["min"] <= a["value"] <= a["max"]  # what clampResourceValues keeps


def test_matinee_grundegenskaper_fardigheter_and_resources():
    chars, docs = exported("matinee")
    labels = load("matinee").tables().labels
    seen_resource = False
    for char, doc in zip(chars, docs, strict=True):
        _groups_declared(doc)
        assert values(doc, "grundegenskaper") == char["grundegenskaper"]
        assert values(doc, "fardigheter") == char["fardigheter"]
        assert doc["system"]["groups"]["fardigheter"]["label"] == labels("fardigheter")
        res = attributes(doc, "resurser")
        for key in ("hjaltepoang", "k_marker"):
            if key in char:
                assert res[key] == {
                    "value": char[key],
                    "min": 0,
                    "max": char[key],
                    "label": labels(key),
                    "dtype": "Resource",
                    "group": "resurser",
                }
                seen_resource = True
            else:
                assert key not in res
        if "tillgangar" in char:
            assert res["tillgangar"]["value"] == char["tillgangar"]
            assert res["tillgangar"]["dtype"] == "Number"
        if "bekanta_max" in char:
            assert (res["bekanta"]["value"], res["bekanta"]["max"]) == (0, char["bekanta_max"])
            assert (res["ode"]["value"], res["ode"]["max"]) == (0, char["ode_max"])
        assert values(doc, "strid")["slas_ut_pa"] == char["slas_ut_pa"]
        want = [u["namn"] for u in char.get("utrustning", ())]
        want += [b["ord"] for b in char.get("beskrivningsord", ())]
        want += [k["namn"] for k in char.get("karriarer", ())]
        want += [u["handelse"] for u in char.get("uppvaxthandelser", ())]
        assert items_named(doc) == want
        for item, thing in zip(doc["items"], char.get("utrustning", ()), strict=False):
            assert item["system"]["attributes"]["bonus"]["value"] == thing["bonus"]
    assert seen_resource


def test_karma_egenskaper_bakgrunder_sardrag_and_karma():
    chars, docs = exported("karma")
    tables = load("karma").tables()
    bands = set()
    for char, doc in zip(chars, docs, strict=True):
        _groups_declared(doc)
        assert values(doc, "egenskaper") == char["egenskaper"]
        assert values(doc, "bakgrunder") == {b["id"]: b["tarningar"] for b in char["bakgrunder"]}
        assert [a["label"] for a in attributes(doc, "bakgrunder").values()] == [
            b["namn"] for b in char["bakgrunder"]
        ]
        karma = attributes(doc, "karmatarningar")["karma"]
        assert (karma["value"], karma["max"], karma["dtype"]) == (
            char["karma"],
            char["karma"],
            "Resource",
        )
        assert items_named(doc) == [s["namn"] for s in char["sardrag"]]
        for item, trait in zip(doc["items"], char["sardrag"], strict=True):
            rules = tables["sardrag"].get(trait["id"]).get("rules", "")
            assert rules in item["system"]["description"].replace("&#x27;", "'")
        if group_of(char):
            bands.add(group_of(char))
            assert attributes(doc, "karmatarningar")["bandkarma"]["value"] == char["bandkarma"]
            assert doc["flags"]["chargen"]["squad"] == char["band"]
    assert len(bands) == 50


def test_lef_talenter_kundskaber_tilstande_ekspertiser_and_grej():
    chars, docs = exported("lef")
    tables = load("lef").tables()
    for char, doc in zip(chars, docs, strict=True):
        _groups_declared(doc)
        assert values(doc, "talenter") == char["talenter"]
        assert values(doc, "kundskaber") == char["kundskaber"]
        for key, state in char["tilstande"].items():
            got = attributes(doc, "tilstande")[key]
            assert (got["value"], got["max"], got["dtype"]) == (
                state["vaerdi"],
                state["loft"],
                "Resource",
            )
            assert got["label"] == tables["tilstande"].get(key)["name"]
        assert items_named(doc) == [e["navn"] for e in char["ekspertiser"]] + [
            g["navn"] for g in char.get("grej", ())
        ]
        for item in doc["items"]:
            assert item["system"]["description"].startswith("<p>")  # every one with its text
        for item, thing in zip(
            doc["items"][len(char["ekspertiser"]) :], char.get("grej", ()), strict=True
        ):
            assert item["system"]["attributes"]["udgift"]["value"] == thing["udgift"]


@pytest.mark.parametrize("system_id", sorted(TARGETS))
def test_ids_flags_and_versions(system_id):
    chars, docs = exported(system_id)
    target = foundry.target(load(system_id))
    ids = set()
    for char, doc in zip(chars, docs, strict=True):
        assert doc["_key"] == f"!actors!{doc['_id']}" and doc["_id"] not in ids
        ids.add(doc["_id"])
        assert len({i["_id"] for i in doc["items"]}) == len(doc["items"])
        flags = doc["flags"]["chargen"]
        assert (flags["system"], flags["seed"], flags["kind"]) == (
            system_id,
            char["seed"],
            char["kind"],
        )
        assert flags["recipe"] == char["recipe"] and flags["recipe"].startswith(
            f"chargen {system_id}"
        )
        v = target.versions()
        assert doc["_stats"] == {
            "coreVersion": v["core"],
            "systemId": v["system_id"],
            "systemVersion": v["system"],
        }


# -- the command line ---------------------------------------------------------------


@pytest.mark.parametrize("system_id", sorted(TARGETS))
def test_same_seed_same_bytes(system_id):
    first = run(system_id, "npc", "--seed", "42", "-n", "3", "-f", "foundry")
    again = run(system_id, "npc", "--seed", "42", "-n", "3", "-f", "foundry")
    assert first.exit_code == 0, first.stderr
    assert first.stdout == again.stdout and len(json.loads(first.stdout)) == 3
    one = run(system_id, "pc", "--seed", "42", "-f", "foundry")
    assert json.loads(one.stdout)["flags"]["chargen"]["seed"] == 42
    assert one.stdout == run(system_id, "pc", "--seed", "42", "-f", "foundry").stdout


def test_a_system_without_a_target_exits_2_naming_those_with_one(monkeypatch):
    import chargen.systems.karma as karma

    assert formats.systems_with("foundry") == sorted(["savage", *TARGETS]) or set(
        formats.systems_with("foundry")
    ) == {"savage", *TARGETS}
    monkeypatch.setattr(karma, "SYSTEM", karma.SYSTEM._replace(foundry=""))
    result = run("karma", "pc", "-f", "foundry")
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert "-f foundry" in result.stderr
    for other in ("savage", "matinee", "lef"):
        assert other in result.stderr
    assert "karma," not in result.stderr.split("have it:")[1]
    roll = run("roll", "2d6", "-f", "foundry")
    assert roll.exit_code == 2 and "savage" in roll.stderr


def test_a_band_gets_one_folder(tmp_path):
    target = tmp_path / "band"
    result = run("karma", "npc", "--band", "-n", "4", "--seed", "5", "-f", "foundry", "-o", target)
    assert result.exit_code == 0, result.stderr
    docs = [json.loads(p.read_text()) for p in sorted(target.glob("*.json"))]
    assert len(docs) == 4
    flags = [d["flags"]["chargen"] for d in docs]
    assert len({f["squad"] for f in flags}) == 1 and len({f["leaderId"] for f in flags}) == 1
    assert sorted(f["member"] for f in flags) == [1, 2, 3, 4]
    assert sum(f["leader"] for f in flags) == 1


@pytest.mark.parametrize("system_id", sorted(TARGETS))
def test_the_foundry_cli_packs_and_unpacks_the_folder(system_id, tmp_path):
    system = load(system_id)
    chars = exported(system_id)[0][:6] + exported(system_id)[0][-6:]
    src = tmp_path / "src"
    with out.new_folder(str(src)) as tmp:
        foundry.write_folder(system, system.tables(), chars, len(chars), {}, tmp)
    mine = {json.loads(p.read_text())["_id"]: p.read_text() for p in src.glob("*.json")}
    theirs = fvtt_round_trip(src, tmp_path)
    assert len(mine) == 12 and set(mine) == set(theirs)
    for key, text in mine.items():
        assert theirs[key] == text  # byte for byte: the CLI writes JSON as chargen does


def test_spelsystemet_into_brp_with_its_numbers():
    chars, docs = exported("spelsystemet")
    stats = {"sty": "str", "hal": "con", "sto": "siz", "kra": "pow", "ski": "dex"}
    seen_ranged = False
    for char, doc in zip(chars, docs, strict=True):
        s = doc["system"]
        assert doc["type"] == ("character" if char["kind"] == "pc" else "npc")
        for own, theirs in stats.items():
            assert s["stats"][theirs]["base"] == char["grundegenskaper"][own]
        assert all(s["stats"][k]["base"] == 0 for k in ("int", "cha", "edu"))
        assert s["health"] == {"value": char["lp"], "max": char["lp"]}
        assert s["move"] == char["snabbhet"]
        kinds: dict[str, list[dict]] = {}
        for item in doc["items"]:
            kinds.setdefault(item["type"], []).append(item)
        locations = {i["_id"]: i for i in kinds["hit-location"]}
        assert len(locations) == len(char["kp"])
        for item, kp in zip(kinds["hit-location"], char["kp"].values(), strict=True):
            h = item["system"]
            assert h["currHP"] == kp
            assert -(-char["lp"] // h["fractionHP"]) + h["adj"] == kp  # BRP's maxHP
        skills = kinds["skill"]
        assert [i["name"] for i in skills] == [
            char["fardighetsnamn"][k] for k in char["fardigheter"]
        ]
        categories = {i["flags"]["brp"]["brpidFlag"]["id"] for i in kinds["skillcat"]}
        by_brpid = {}
        for item, (key, value) in zip(skills, char["fardigheter"].items(), strict=True):
            assert item["system"]["base"] == value * 5
            group = next(g for g, keys in char["fardighetsgrupper"].items() if key in keys)
            assert item["system"]["category"] == f"i.skillcat.{group}" in categories
            by_brpid[item["flags"]["brp"]["brpidFlag"]["id"]] = value
        assert len(kinds.get("weapon", ())) == len(char["vapen"])
        for item, weapon in zip(kinds.get("weapon", ()), char["vapen"], strict=True):
            w = item["system"]
            assert w["dmg1"] == weapon["faktisk_skada"].split("/")[0].replace("T", "D")
            assert by_brpid[w["skill1"]] == weapon["varde"]
            if "skottvidd" in weapon:
                seen_ranged = True
                assert w["weaponType"] != "melee" and w["range1"]
            else:
                assert w["weaponType"] == "melee"
        pieces = [(p, part) for p in char["rustning"] for part in p["kroppsdelar"]]
        assert len(kinds.get("armour", ())) == len(pieces)
        for item, (piece, part) in zip(kinds.get("armour", ()), pieces, strict=True):
            a = item["system"]
            assert a["av1"] == min(piece["sp"].values())
            assert locations[a["hitlocID"]]["name"] == load("spelsystemet").tables().labels(part)
    assert seen_ranged


def test_the_brp_schema_cites_its_source_and_refuses_what_it_refuses():
    text = json.dumps(schema("brp"))
    for path in ("actor-model", "item-skill-model", "item-weapon-model", "item-hit-location-model"):
        assert re.search(rf"cragstone/brp:module/models/{path}\.mjs@[0-9a-f]{{40}}", text), path
    _, docs = exported("spelsystemet")
    doc = docs[0]
    weapon = next(n for n, i in enumerate(doc["items"]) if i["type"] == "weapon")
    for breaking in (
        lambda d: d["system"]["stats"]["str"].__setitem__("base", 10.5),  # requiredInteger
        lambda d: d["items"][weapon]["system"].__setitem__("weaponType", "sword"),
        lambda d: d["items"][weapon]["system"].__setitem__("dmg1", "1T6"),
        lambda d: d["items"][0].__setitem__("flags", {}),  # a skill category without its BRP id
        lambda d: d["items"][0].__setitem__("type", "talent"),
        lambda d: d.__setitem__("type", "monster"),
        lambda d: d["_stats"].__setitem__("coreVersion", "13.341"),
    ):
        broken = json.loads(json.dumps(doc))
        breaking(broken)
        assert not validator("brp").is_valid(broken)


def test_the_readme_states_each_targets_pinned_versions():
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    for system_id in TARGETS:
        v = foundry.target(load(system_id)).versions()
        row = next(line for line in readme.splitlines() if line.startswith(f"| {system_id}") or
                   (line.startswith("| matinee, karma, lef") and system_id in ("matinee", "karma", "lef")))  # fmt: skip
        assert v["system"] in row and f"Foundry VTT {v['core']}" in row and v["system_id"] in row
