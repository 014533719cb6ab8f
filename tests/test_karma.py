"""The karma system (document 002) over many seeds: every rule on every character."""

from __future__ import annotations

import json

import pytest
from conftest import assert_usage_error, make, run

from chargen.conditions import resolve_text
from chargen.systems import load
from chargen.systems.karma.rules import EGENSKAPER

SYSTEM = load("karma")
TABLES = SYSTEM.tables()
RULES = TABLES["regler"].settings
SEEDS = 300
PRONOUNS = SYSTEM.pronoun_set()


def text(value, gender: str) -> str:
    return resolve_text(value, gender, PRONOUNS)


@pytest.fixture(scope="module")
def pcs() -> list[dict]:
    return make("karma", "pc", count=SEEDS, seed=2024)


@pytest.fixture(scope="module")
def npcs() -> list[dict]:
    return make("karma", "npc", count=SEEDS, seed=77)


def test_the_document_fixes_seven_egenskaper_of_2_to_7_dice(pcs):
    # "Det finns 7 Egenskaper ... ett antal t6:or, säg 2-7."
    assert EGENSKAPER == (
        "stark",
        "talig",
        "smidig",
        "uppmarksam",
        "overtygande",
        "stridsvan",
        "traffsaker",
    )
    for char in pcs:
        assert list(char["egenskaper"]) == list(EGENSKAPER)
        assert all(2 <= v <= 7 for v in char["egenskaper"].values()), char["egenskaper"]


def test_extra_dice_budget_is_spent_exactly(pcs):
    base, budget = RULES["grundvarde"], RULES["extra_tarningar"]
    for char in pcs:
        assert sum(char["egenskaper"].values()) == 7 * base + budget
        [placed] = [e["extra_tarningar"] for e in char["historik"] if "extra_tarningar" in e]
        assert len(placed) == budget
        for key in EGENSKAPER:
            assert char["egenskaper"][key] == base + placed.count(key)


def test_egenskaper_spread_across_the_whole_range(pcs):
    seen = {v for char in pcs for v in char["egenskaper"].values()}
    assert seen == set(range(2, 8))


def test_bakgrunder_one_or_more_each_with_2_to_5_dice(pcs):
    ids = TABLES["bakgrunder"].ids
    for char in pcs:
        backgrounds = char["bakgrunder"]
        assert 1 <= len(backgrounds) <= 2
        assert len({b["id"] for b in backgrounds}) == len(backgrounds)
        for b in backgrounds:
            assert b["id"] in ids
            assert b["namn"] == text(TABLES["bakgrunder"].get(b["id"])["name"], char["kon"])
            assert 2 <= b["tarningar"] <= 5


def test_300_characters_show_at_least_twenty_bakgrunder(pcs):
    assert len({b["id"] for c in pcs for b in c["bakgrunder"]}) >= 20


def test_sardrag_are_a_separate_list_of_known_traits(pcs):
    for char in pcs:
        assert 1 <= len(char["sardrag"]) <= 2
        assert len({s["id"] for s in char["sardrag"]}) == len(char["sardrag"])
        for trait in char["sardrag"]:
            assert trait["typ"] in ("fordel", "nackdel", "neutral")
            assert trait["namn"] == text(TABLES["sardrag"].get(trait["id"])["name"], char["kon"])


def test_karma_hand_defaults_to_the_rules_and_follows_the_option(pcs):
    assert all(c["karma"] == RULES["karma"] for c in pcs)
    assert all(c["karma"] == 12 for c in make("karma", count=20, options={"karma": 12}))


def test_sentence_is_a_vice_men_pronoun_virtue(pcs):
    vices = {e["id"]: e["result"] for e in TABLES["laster"].entries}
    virtues = {e["id"]: e["result"] for e in TABLES["dygder"].entries}
    assert len(vices) >= 50 and len(virtues) >= 50
    for char in pcs:
        assert char["last"] == text(vices[char["last_id"]], char["kon"])
        assert char["dygd"] == text(virtues[char["dygd_id"]], char["kon"])
        pronoun = {"male": "han", "female": "hon"}[char["kon"]]
        first = char["name"].split()[0]
        assert char["mening"] == f"{first} {char['last']} men {pronoun} {char['dygd']}"
    assert {c["kon"] for c in pcs} == {"male", "female"}


def test_pc_envelope(pcs):
    for char in pcs[:20]:
        assert list(char)[:5] == ["system", "kind", "template", "seed", "name"]
        assert char["system"] == "karma" and char["kind"] == "pc" and char["template"] is None


def test_chosen_bakgrund_is_taken_and_repeatable():
    for char in make("karma", count=30, options={"bakgrund": ["munk"]}):
        assert [b["id"] for b in char["bakgrunder"]] == ["munk"]
    for char in make("karma", count=30, options={"bakgrund": ["munk", "rovare"]}):
        assert [b["id"] for b in char["bakgrunder"]] == ["munk", "rovare"]


def test_npc_templates_at_least_ten_some_with_karma():
    templates = TABLES["mallar"].entries
    assert len(templates) >= 10
    assert any(t["karma"] != "0" for t in templates) and any(t["karma"] == "0" for t in templates)
    assert all(t["karma"] == "0" for t in templates if t["karma_typ"] == "ingen")
    assert {t["karma_typ"] for t in templates} == {"ingen", "egen", "grupp"}


@pytest.mark.parametrize("template", [t["id"] for t in load("karma").tables()["mallar"].entries])
def test_npcs_stay_within_their_template(template):
    from chargen.tables import parse_range

    spec = TABLES["mallar"].get(template)
    chars = make("karma", "npc", count=60, seed=3, options={"template": template})
    if "when" in spec:  # a template for one gender (Häxa, Abbedissa) makes only that gender
        assert {c["kon"] for c in chars} == {spec["when"]["gender"]}
    for char in chars:
        assert char["mall_namn"] == text(spec["name"], char["kon"])
        assert char["template"] == template and char["kind"] == "npc"
        for key in EGENSKAPER:
            low, high = parse_range(spec["egenskaper"][key])
            assert low <= char["egenskaper"][key] <= high
        assert [b["id"] for b in char["bakgrunder"]] == spec["bakgrunder"]
        low, high = parse_range(spec["bakgrund_tarningar"])
        assert all(low <= b["tarningar"] <= high for b in char["bakgrunder"])
        low, high = parse_range(spec["karma"])
        assert low <= char["karma"] <= high
        assert char["karma_typ"] == spec["karma_typ"]
        assert len(char["sardrag"]) == spec["sardrag"]


def test_npc_karma_option_overrides_the_template_that_has_karma(npcs):
    batch = make("karma", "npc", count=200, options={"karma": 9})
    for char in batch:
        kind = TABLES["mallar"].get(char["template"])["karma_typ"]
        assert char["karma"] == (0 if kind == "ingen" else 9), char["template"]
    assert {c["karma"] for c in batch} == {0, 9}
    assert len({c["template"] for c in npcs}) >= 10


def test_each_character_regenerates_from_its_own_seed(pcs):
    for char in pcs[1:40:7]:
        again = make("karma", "pc", seed=char["seed"])[0]
        assert again == char


def test_step_alone_matches_the_whole_character(pcs):
    char = pcs[0]
    for step in ("egenskaper", "sardrag", "bakgrunder", "karma", "mening"):
        part = make("karma", seed=char["seed"], step=step)[0]
        assert part["step"] == step
        for field in SYSTEM.step(step).fields:
            assert part[field] == char[field]


def test_cli_pc_sheet_and_json():
    sheet = run("karma", "pc", "--seed", "5")
    assert sheet.exit_code == 0
    for label in (
        "Egenskaper",
        "Stark",
        "Tålig",
        "Uppmärksam",
        "Övertygande",
        "Träffsäker",
        "Bakgrunder",
        "Särdrag",
        " men ",
    ):
        assert label in sheet.stdout
    data = json.loads(run("karma", "pc", "--seed", "5", "-f", "json").stdout)
    assert isinstance(data, list) and data[0]["seed"] == 5


def test_cli_bad_choices_exit_2_listing_valid_ones():
    assert_usage_error(run("karma", "pc", "--bakgrund", "astronaut"), "astronaut", "jagare", "munk")
    assert_usage_error(run("karma", "npc", "--template", "drake"), "drake", "stadsvakt")
    assert_usage_error(run("karma", "pc", "--karma", "-1"), "--karma")
    # a template without karma refuses --karma, with the reason
    assert_usage_error(
        run("karma", "npc", "--template", "bonde", "--karma", "3"), "bonde", "has no karma"
    )


def test_cli_choice_values_are_case_and_hyphen_insensitive():
    for spelling in ("Munk", "MUNK", "munk"):
        result = run("karma", "pc", "--bakgrund", spelling, "--seed", "1", "-f", "jsonl")
        assert json.loads(result.stdout)["bakgrunder"][0]["id"] == "munk"
    hyphen = run("karma", "npc", "--template", "stadsvakt", "-f", "jsonl", "--locale", "sv_SE")
    assert json.loads(hyphen.stdout)["template"] == "stadsvakt"


def test_interactive_asks_for_bakgrund_and_takes_the_answer():
    result = run(
        "karma", "pc", "--interactive", "--seed", "1", "-f", "jsonl", input="munk,1" + "\n" * 6
    )
    assert result.exit_code == 0, result.stderr
    assert "Munk" in result.stderr  # the options are shown, on stderr
    char = json.loads(result.stdout)
    assert [b["id"] for b in char["bakgrunder"]] == ["munk", "jagare"]
    picked = [e for e in char["historik"] if e.get("choice") == "bakgrund"]
    assert [e["by"] for e in picked] == ["prompt", "prompt"]


def test_interactive_player_picks_one_or_two_bakgrunder_whatever_the_roll():
    for answer, expected in (
        ("3" + "\n" * 6, ["rovare"]),
        ("3,1" + "\n" * 6, ["rovare", "jagare"]),
    ):
        result = run("karma", "pc", "--interactive", "--seed", "1", "-f", "jsonl", input=answer)
        assert result.exit_code == 0, result.stderr
        assert "Välj 1 till 2 Bakgrunder" in result.stderr
        assert [b["id"] for b in json.loads(result.stdout)["bakgrunder"]] == expected
    too_many = run("karma", "pc", "--interactive", "-f", "jsonl", input="1,2,3\n1" + "\n" * 6)
    assert "Välj 1 till 2, inte 3." in too_many.stderr  # not "none of the options"
    assert len(json.loads(too_many.stdout)["bakgrunder"]) == 1


def test_list_shows_every_bakgrund():
    result = run("karma", "bakgrunder", "--list")
    assert result.exit_code == 0
    for entry in TABLES["bakgrunder"].entries:
        names = entry["name"].values() if isinstance(entry["name"], dict) else [entry["name"]]
        assert all(name in result.stdout for name in names)


def test_interactive_asks_for_the_karma_hand():
    result = run(
        "karma", "pc", "--interactive", "--seed", "1", "-f", "jsonl", input="\n\n\n7\n\n\n"
    )  # Bakgrunder, Egenskaper, Särdrag, karma
    assert result.exit_code == 0, result.stderr
    assert "Karma (0–100" in result.stderr
    char = json.loads(result.stdout)
    assert char["karma"] == 7
    assert {"ask": "karma", "value": 7, "by": "prompt"}.items() <= next(
        e for e in char["historik"] if e.get("ask") == "karma"
    ).items()
    empty = run("karma", "pc", "--interactive", "--seed", "1", "-f", "jsonl", input="\n" * 6)
    assert json.loads(empty.stdout)["karma"] == RULES["karma"]  # the campaign's default
