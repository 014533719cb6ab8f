"""Karma characters that make sense (issue 13), over thousands of seeds.

Every point is checked by the tables' own exclusions and forms, on every character:
no virtue beside a vice it excludes, no two Särdrag that exclude each other, no phrase
repeated within a sentence, pronouns and gendered forms that agree with the character,
Bakgrunder that favour their Egenskaper, names of a medieval Nordic world.
"""

from __future__ import annotations

import re
from statistics import mean

import pytest
import tomllib
from conftest import assert_usage_error, make, run

from chargen.conditions import resolve_text
from chargen.systems import load
from chargen.systems.karma.rules import EGENSKAPER
from chargen.tables import builtin_root

SYSTEM = load("karma")
TABLES = SYSTEM.tables()
PRONOUNS = SYSTEM.pronoun_set()
SEEDS = 3000
NAMES = tomllib.loads((builtin_root() / "karma" / "namn_medeltid.toml").read_text("utf-8"))
# Words two halves of a sentence may share without repeating a phrase.
FUNCTION_WORDS = set(
    [
        "en",
        "ett",
        "att",
        "som",
        "och",
        "i",
        "på",
        "av",
        "för",
        "det",
        "den",
        "de",
        "är",
        "sin",
        "sina",
        "sitt",
        "han",
        "hon",
        "honom",
        "henne",
        "hans",
        "hennes",
        "med",
        "till",
        "när",
        "om",
        "så",
        "än",
        "har",
        "inte",
        "alla",
        "ingen",
        "andra",
        "sig",
        "men",
        "upp",
        "åt",
    ]
)


@pytest.fixture(scope="module")
def pcs() -> list[dict]:
    return make("karma", "pc", count=SEEDS, seed=4711)


@pytest.fixture(scope="module")
def npcs() -> list[dict]:
    return make("karma", "npc", count=SEEDS, seed=1066)


def _names(entry: dict) -> set[str]:
    return {entry["id"], *entry.get("tags", ())}


def _excluded(a: dict, b: dict) -> bool:
    """The engine's rule: exclusion is symmetric, by id or tag."""
    return bool(set(a.get("excludes", ())) & _names(b) or set(b.get("excludes", ())) & _names(a))


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def test_at_least_fifty_vices_and_fifty_virtues_all_different():
    for table in ("laster", "dygder"):
        texts = [str(e["result"]) for e in TABLES[table].entries]
        assert len(texts) >= 50 and len(set(texts)) == len(texts)


def test_the_broken_rows_of_the_issue_are_gone():
    every = " / ".join(str(e["result"]) for t in ("laster", "dygder") for e in TABLES[t].entries)
    for broken in (
        "lägger sig i allt som inte angår",
        "ger aldrig upp ett agg",
        "girig intill benet",
        "spar den som ger sig",
        "ber för alla på sin väg",
    ):
        assert broken not in every


def test_no_sentence_contradicts_itself(pcs, npcs):
    vices, virtues = TABLES["laster"], TABLES["dygder"]
    for char in pcs + npcs:
        vice, virtue = vices.get(char["last_id"]), virtues.get(char["dygd_id"])
        assert not _excluded(vice, virtue), char["mening"]


def test_the_issues_contradictions_are_excluded_by_the_tables():
    vices, virtues = TABLES["laster"], TABLES["dygder"]
    for vice, virtue in (
        ("ljuger", "talar_sanning"),
        ("brak_pa_krogen", "undviker_blodsutgjutelse"),
        ("smiter", "modig"),
        ("lovar_for_mycket", "haller_sitt_ord"),
        ("langsint", "forlater"),
        ("snal", "delar_sitt_brod"),
    ):
        assert _excluded(vices.get(vice), virtues.get(virtue)), (vice, virtue)


def test_no_phrase_repeats_within_any_possible_sentence():
    # every pair the tables allow, in both genders: the halves share no content word
    for vice in TABLES["laster"].entries:
        for virtue in TABLES["dygder"].entries:
            if _excluded(vice, virtue):
                continue
            for gender in ("male", "female"):
                a = set(_words(resolve_text(vice["result"], gender, PRONOUNS)))
                b = set(_words(resolve_text(virtue["result"], gender, PRONOUNS)))
                assert not (a & b) - FUNCTION_WORDS, (vice["id"], virtue["id"], a & b)


def test_pronouns_and_gendered_forms_agree_with_the_character(pcs, npcs):
    wrong = {"male": {"hon", "henne", "hennes"}, "female": {"han", "honom", "hans"}}
    for char in pcs + npcs:
        first = char["name"].split()[0]
        own = {"male": "han", "female": "hon"}[char["kon"]]
        assert char["mening"].startswith(f"{first} {char['last']} men {own} "), char["mening"]
        words = set(_words(char["mening"]))
        assert not words & wrong[char["kon"]], char["mening"]
        assert "{" not in char["mening"]
        for b in char["bakgrunder"]:
            entry = TABLES["bakgrunder"].get(b["id"])
            assert b["namn"] == resolve_text(entry["name"], char["kon"], PRONOUNS)
    hovfolk = {
        b["namn"]
        for c in pcs
        if c["kon"] == "female"
        for b in c["bakgrunder"]
        if b["id"] == "hovdam"
    }
    assert hovfolk == {"Hovdam"}
    hovfolk = {
        b["namn"] for c in pcs if c["kon"] == "male" for b in c["bakgrunder"] if b["id"] == "hovdam"
    }
    assert hovfolk == {"Hovman"}
    assert all(
        b["namn"] != "Klok gumma" for c in pcs + npcs if c["kon"] == "male" for b in c["bakgrunder"]
    )


def test_gendered_templates_and_leaders(npcs):
    for char in npcs:
        if char["template"] in ("haxa", "abbedissa"):
            assert char["kon"] == "female"
        if char["template"] in ("prast", "svartkonstnar"):
            assert char["kon"] == "male"
    for template in ("rovarhovding", "kultledare"):
        entry = TABLES["mallar"].get(template)
        assert "hans" in resolve_text(entry["description"], "male", PRONOUNS)
        assert "hennes" in resolve_text(entry["description"], "female", PRONOUNS)
    forced = make("karma", "npc", count=40, seed=2, options={"template": "haxa"})
    assert {c["kon"] for c in forced} == {"female"}
    assert {b["namn"] for c in forced for b in c["bakgrunder"]} >= {"Klok gumma"}


def test_sardrag_never_contradict_each_other(pcs, npcs):
    table = TABLES["sardrag"]
    pairs = 0
    for char in pcs + npcs:
        traits = [table.get(s["id"]) for s in char["sardrag"]]
        for i, a in enumerate(traits):
            for b in traits[i + 1 :]:
                pairs += 1
                assert not _excluded(a, b), (a["id"], b["id"])
    assert pairs > 500
    assert _excluded(table.get("liten_och_spenslig"), table.get("jattelik"))
    assert _excluded(table.get("traben"), table.get("snabb_som_vinden"))


def test_bakgrunder_favour_the_egenskaper_they_imply(pcs):
    table = TABLES["bakgrunder"]
    overall = {e: mean(c["egenskaper"][e] for c in pcs) for e in EGENSKAPER}
    checked = 0
    for egenskap in EGENSKAPER:
        favoured = [
            c
            for c in pcs
            if any(egenskap in table.get(b["id"]).get("egenskaper", ()) for b in c["bakgrunder"])
        ]
        if len(favoured) >= 100:
            checked += 1
            assert mean(c["egenskaper"][egenskap] for c in favoured) > overall[egenskap] + 0.4
    assert checked == len(EGENSKAPER)
    archers = make("karma", count=300, seed=5, options={"bakgrund": ["bagskytt"]})
    smiths = make("karma", count=300, seed=5, options={"bakgrund": ["smed"]})
    assert mean(c["egenskaper"]["traffsaker"] for c in archers) > overall["traffsaker"] + 0.5
    assert mean(c["egenskaper"]["stark"] for c in smiths) > overall["stark"] + 0.5
    for char in archers + smiths:  # the same budget and cap
        assert sum(char["egenskaper"].values()) == 7 * 2 + 10
        assert max(char["egenskaper"].values()) <= 7


def test_names_are_of_a_medieval_nordic_world(pcs, npcs):
    for char in pcs + npcs:
        given, family = char["name"].split()[:2]
        assert given in NAMES[char["kon"]], char["name"]
        suffix = "son" if char["kon"] == "male" else "dotter"
        assert family.endswith(suffix), char["name"]
    modern = make("karma", count=50, seed=3)
    assert not {c["name"].split()[0] for c in modern} & {"Kenny", "Ronny", "Denise"}


def test_fakers_modern_names_only_with_locale():
    from chargen.procedure import generate

    chars = list(generate(SYSTEM, TABLES, "pc", {}, 200, 9, locale="sv_SE"))
    assert any(c["name"].split()[0] not in NAMES["male"] + NAMES["female"] for c in chars)


def test_one_karma_die_is_singular():
    one = run("karma", "pc", "--karma", "1", "--seed", "2")
    assert "1 karmatärning" in one.stdout and "1 karmatärningar" not in one.stdout
    assert "3 karmatärningar" in run("karma", "pc", "--karma", "3", "--seed", "2").stdout


def test_a_template_without_karma_shows_none():
    result = run("karma", "npc", "--template", "bonde", "--seed", "4")
    assert result.exit_code == 0
    assert "karmatärning" not in result.stdout and "Karma" not in result.stdout
    assert_usage_error(
        run("karma", "npc", "--template", "bonde", "--karma", "2"), "bonde", "has no karma"
    )
    for char in make("karma", "npc", count=300, seed=8, options={"karma": 4}):
        kind = TABLES["mallar"].get(char["template"])["karma_typ"]
        assert char["karma"] == (0 if kind == "ingen" else 4)


def test_a_band_shares_one_declared_karma_pool():
    band = make("karma", "npc", count=6, seed=21, options={"band": True})
    leader, *followers = band
    spec = TABLES["mallar"].get(leader["template"])
    assert spec["karma_typ"] == "grupp"
    assert {c["band"] for c in band} == {leader["band"]}
    assert {c["bandkarma"] for c in band} == {leader["karma"]}
    low, high = (int(x) for x in spec["karma"].split("-"))
    assert low <= leader["karma"] <= high
    assert all(c["template"] in spec["foljare"] and c["karma"] == 0 for c in followers)
    fixed = make("karma", "npc", count=4, seed=1, options={"band": True, "karma": 11})
    assert {c["bandkarma"] for c in fixed} == {11}
    roster = run("karma", "npc", "--band", "-n", "5", "--seed", "21", "--karma", "7")
    assert roster.exit_code == 0, roster.stderr
    assert roster.stdout.count("7 karmatärningar") == 1
    assert_usage_error(run("karma", "npc", "--band", "--seed", "1"), "--band needs -n 2")
    assert_usage_error(
        run("karma", "npc", "--band", "-n", "3", "--template", "bonde"), "bonde", "--band"
    )
