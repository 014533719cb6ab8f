"""Savage over thousands of seeds: the rule faults of issue 14 stay fixed.

Each property reads the tables itself and recomputes what it asserts, so a wrong
module fails it. One batch of PCs and one of NPCs is built per module (in one
process, through the Python API) and every property runs over all of it.
"""

from __future__ import annotations

import pytest
from conftest import by_id, make, run

from chargen.systems import load

SYSTEM = load("savage")
TABLES = SYSTEM.tables()
S = TABLES["beallitasok"].settings
LADDER = ["d4", "d6", "d8", "d10", "d12"] + [f"d12+{n}" for n in range(1, 11)]
RUNG = {die: i for i, die in enumerate(LADDER)}
EDGES = by_id(TABLES, "elonyok")
FLAWS = by_id(TABLES, "hatranyok")
ITEMS = by_id(TABLES, "felszereles")
TEMPLATES = by_id(TABLES, "mellekszereplok")
PCS = 4000
NPCS = 5000


@pytest.fixture(scope="module")
def pcs() -> list[dict]:
    return make("savage", "pc", count=PCS, seed=14)


@pytest.fixture(scope="module")
def npcs() -> list[dict]:
    return make("savage", "npc", count=NPCS, seed=14)


# -- the Hátrány group fault (issue 10's first case) ---------------------------------


def test_the_seed_that_drew_two_grades_of_one_hatrany_now_builds():
    # `chargen savage pc --seed 2399477561453771` exited 2 with "--hatrany kover and
    # apro are two grades of one Hátrány" though no option was given.
    result = run("savage", "pc", "--seed", "2399477561453771", "-f", "json")
    assert result.exit_code == 0, result.stderr
    result = run("savage", "pc", "-n", "300", "--seed", "5", "-f", "jsonl")
    assert result.exit_code == 0, result.stderr
    assert len(result.stdout.splitlines()) == 300


def test_no_two_grades_of_one_hatrany(pcs):
    grades = [e for e in FLAWS.values() if set(e.get("tags", ())) & set(e.get("excludes", ()))]
    assert len(grades) >= 20  # the two grades of one Hátrány share a tag both exclude
    for char in pcs:
        tags = [t for h in char["hatranyok"] for t in FLAWS[h["id"]].get("tags", ())]
        assert len(tags) == len(set(tags)), char["hatranyok"]


# -- SWADE's Hátrány limit and what a point buys -----------------------------------------


def test_hatranyok_any_mix_of_at_most_four_points(pcs):
    mixes = set()
    for char in pcs:
        grades = [FLAWS[h["id"]]["sulyossag"] for h in char["hatranyok"]]
        points = sum(2 if g == "sulyos" else 1 for g in grades)
        assert points <= 4 and points == char["hatrany_pontok"]["osszes"]
        mixes.add((grades.count("sulyos"), grades.count("enyhe")))
    # every mix the limit allows is drawn, not only one súlyos and two enyhe
    assert mixes == {(m, n) for m in range(3) for n in range(5) if 2 * m + n <= 4}


def test_a_point_spent_on_money_gives_twice_the_starting_funds(pcs):
    seen = set()
    for char in pcs:
        percent = 100 + sum(
            EDGES[e["id"]].get("effects", {}).get("penz_szazalek", 0) for e in char["elonyok"]
        )
        percent += sum(
            FLAWS[h["id"]].get("effects", {}).get("penz_szazalek", 0) for h in char["hatranyok"]
        )
        points = char["hatrany_pontok"]["penz"]
        assert char["kezdo_penz"] == 500 * percent // 100 + points * 2 * 500
        seen.add(points)
    assert {1, 2} <= seen


# -- Kövér, Termetes, min. Erő -----------------------------------------------------------


def test_termetes_never_with_kover(pcs):
    assert "kover" in EDGES["termetes"]["excludes"]
    for char in pcs:
        flaws = {h["id"] for h in char["hatranyok"]}
        edges = {e["id"] for e in char["elonyok"]}
        assert not ("termetes" in edges and flaws & {"kover", "apro"}), char["name"]


def test_termetes_asked_for_steers_the_hatranyok_and_dice():
    for char in make("savage", "pc", count=300, seed=3, options={"elony": ["termetes"]}):
        assert "termetes" in {e["id"] for e in char["elonyok"]}
        assert not {h["id"] for h in char["hatranyok"]} & {"kover", "apro"}
        assert RUNG[char["alaptulajdonsagok"]["ero"]] >= RUNG["d6"]
        assert RUNG[char["alaptulajdonsagok"]["allokepesseg"]] >= RUNG["d6"]


def _armour_ero(char: dict) -> int:
    steps = sum(FLAWS[h["id"]].get("effects", {}).get("pancel_ero", 0) for h in char["hatranyok"])
    return RUNG[char["alaptulajdonsagok"]["ero"]] + steps


def test_bought_gear_meets_min_ero_kover_one_step_lower_for_armour(pcs):
    for char in pcs:
        ero = RUNG[char["alaptulajdonsagok"]["ero"]]
        for item in char["felszereles"]:
            need = ITEMS[item["id"]].get("min_ero")
            if need is None:
                continue
            have = _armour_ero(char) if ITEMS[item["id"]]["tipus"] == "pancel" else ero
            assert have >= RUNG[need], (char["name"], item["nev"])


def test_kover_cannot_buy_armour_at_its_bare_min_ero():
    opts = {"hatrany": ["kover"], "template": "lovag"}
    heavy = 0
    for char in make("savage", "pc", count=400, seed=8, options=opts):
        for item in char["felszereles"]:
            need = ITEMS[item["id"]].get("min_ero")
            if need and ITEMS[item["id"]]["tipus"] == "pancel":
                assert RUNG[char["alaptulajdonsagok"]["ero"]] - 1 >= RUNG[need]
                heavy += 1
    assert heavy, "no Kövér knight bought armour with a min. Erő: the test shows nothing"


def test_every_template_meets_its_own_gears_min_ero_and_edges():
    for template in TEMPLATES.values():
        ero = RUNG[template["alaptulajdonsagok"]["ero"]]
        for item_id in template.get("felszereles", ()):
            need = ITEMS[item_id].get("min_ero")
            assert need is None or ero >= RUNG[need], (template["id"], item_id)
        for edge_id in template.get("elonyok", ()):
            edge = EDGES[edge_id]
            for attr, die in edge.get("kell_tulajdonsag", {}).items():
                assert RUNG[template["alaptulajdonsagok"][attr]] >= RUNG[die]
            for skill, die in edge.get("kell_kepzettseg", {}).items():
                assert RUNG[template["kepzettsegek"][skill]] >= RUNG[die]


def test_a_varied_member_keeps_what_its_template_requires(npcs):
    checked = 0
    for char in npcs:
        template = TEMPLATES[char["template"]]
        ero = RUNG[char["alaptulajdonsagok"]["ero"]]
        for item_id in template.get("felszereles", ()):
            need = ITEMS[item_id].get("min_ero")
            if need:
                checked += 1
                assert ero >= RUNG[need], (char["name"], item_id, char["alaptulajdonsagok"])
        for edge_id in template.get("elonyok", ()):
            for attr, die in EDGES[edge_id].get("kell_tulajdonsag", {}).items():
                assert RUNG[char["alaptulajdonsagok"][attr]] >= RUNG[die]
            for skill, die in EDGES[edge_id].get("kell_kepzettseg", {}).items():
                assert RUNG[char["kepzettsegek"][skill]] >= RUNG[die]
    assert checked > 1000


# -- batches: names and seeds -------------------------------------------------------------


def test_names_distinct_and_each_member_regenerates_from_its_seed_name_included(npcs, pcs):
    for batch, kind in ((npcs, "npc"), (pcs, "pc")):
        names = [c["name"] for c in batch]
        assert len(set(names)) == len(names)
        for char in batch[1 :: max(1, len(batch) // 60)]:
            if char["name"][-1].isdigit():  # every epithet of its creature was taken
                continue
            assert make("savage", kind, seed=char["seed"])[0] == char
        for char in [c for c in batch if c["name"][-1].isdigit()][:20]:
            alone = make("savage", kind, seed=char["seed"])[0]  # alone: without the number
            assert alone == {**char, "name": char["name"].rsplit(" ", 1)[0]}
        # a number only once every epithet of a creature is taken (hundreds of one beast)
        numbered = [n for n in names if n[-1].isdigit()]
        assert len(numbered) < len(batch) // 25
    first = make("savage", "npc", count=1000, seed=14)
    assert not [c["name"] for c in first if c["name"][-1].isdigit()]


def test_squad_stat_block_and_group_rule_agree_on_the_shared_wild_die():
    squad = make("savage", "npc", count=4, seed=2, options={"squad": True, "template": "katona"})
    for member in squad:
        assert member["vadkocka"] is None  # a Mellékszereplő has none of its own
        assert member["csoport_vadkocka"] == S["vadkocka"] == "d6"
    text = run("savage", "npc", "--squad", "-n", "4", "--template", "katona", "--seed", "2")
    assert text.exit_code == 0
    assert "közös d6" in text.stdout
    assert "Vadkocka" in text.stdout and "nincs" not in text.stdout.split("Csoportdobás")[0]


# -- Mágikus hátterek (Arcane Backgrounds) ---------------------------------------------

POWERS = by_id(TABLES, "hatalmak")
ARCANE = {k: e for k, e in EDGES.items() if e.get("arkan_kepzettseg")}
CONCEPTS = by_id(TABLES, "koncepciok")


def test_four_arcane_backgrounds_and_fifteen_starting_powers_in_the_tables():
    assert {"magia", "csodatetel", "pszionika", "furcsa_tudomany"} <= set(ARCANE)
    names = {EDGES[k]["name"] for k in ARCANE}
    assert {"Mágia", "Csodatétel", "Pszionika", "Furcsa tudomány"} <= names
    novice = [p for p in POWERS.values() if p["rang"] == "ujonc"]
    assert len(novice) >= 15
    for power in POWERS.values():
        assert power["ar"] >= 1 and power["hatotav"] and power["idotartam"]
        assert power["hatas"].endswith(".") and "\n" not in power["hatas"]
    # SWADE's numbers: 10 PP and 3 powers, Weird Science 15 PP and 2 powers
    assert [
        (ARCANE[k]["hatalompont"], ARCANE[k]["kezdo_hatalmak"])
        for k in ("magia", "csodatetel", "pszionika", "furcsa_tudomany")
    ] == [(10, 3), (10, 3), (10, 3), (15, 2)]
    assert CONCEPTS["pap"]["arkan_hatter"] == "csodatetel"
    assert CONCEPTS["magus"]["arkan_hatter"] == "magia"
    assert "alkalmazkodo" not in EDGES  # it had no rules effect: it left the table


def _check_arcane(char: dict) -> None:
    arcane = char["arkan_hatter"]
    edge_ids = [e["id"] for e in char["elonyok"]]
    backgrounds = [e for e in edge_ids if e in ARCANE]
    if arcane is None:
        assert not backgrounds
        return
    assert backgrounds == [arcane["id"]]
    edge = ARCANE[arcane["id"]]
    skill = edge["arkan_kepzettseg"]
    assert arcane["kepzettseg"] == skill and skill in char["kepzettsegek"]
    assert arcane["hatalompont"] == edge["hatalompont"]
    ids = [p["id"] for p in arcane["hatalmak"]]
    assert len(ids) == len(set(ids)) == edge["kezdo_hatalmak"]
    for power in arcane["hatalmak"]:
        entry = POWERS[power["id"]]
        assert entry["rang"] == "ujonc"
        # a power of another background is not drawn (a priest reads no minds)
        assert arcane["id"] in entry.get("when", {}).get("arkan_hatter", [arcane["id"]])
        assert (
            power["nev"],
            power["ar"],
            power["hatotav"],
            power["idotartam"],
            power["hatas"],
        ) == (entry["name"], entry["ar"], entry["hatotav"], entry["idotartam"], entry["hatas"])


def test_arcane_concepts_take_their_background_with_skill_points_and_powers(pcs):
    seen = set()
    for char in pcs:
        _check_arcane(char)
        implied = CONCEPTS[char["template"]].get("arkan_hatter")
        if implied:
            assert char["arkan_hatter"]["id"] == implied
            seen.add(implied)
        elif char["arkan_hatter"] is not None:
            pytest.fail(f"{char['template']} drew a Mágikus háttér it does not imply")
    assert seen == {"magia", "csodatetel", "pszionika", "furcsa_tudomany"}


@pytest.mark.parametrize("background", ["magia", "csodatetel", "pszionika", "furcsa_tudomany"])
def test_elony_arcane_background_alone_works_with_its_skill(background):
    for char in make("savage", "pc", count=60, seed=4, options={"elony": [background]}):
        assert char["arkan_hatter"]["id"] == background
        _check_arcane(char)


def test_pap_sheet_shows_the_powers_with_their_rules():
    result = run("savage", "pc", "--template", "pap", "--seed", "3")
    assert result.exit_code == 0, result.stderr
    assert "Csodatétel" in result.stdout and "Hatalompont" in result.stdout
    char = make("savage", "pc", seed=3, options={"template": "pap"})[0]
    for power in char["arkan_hatter"]["hatalmak"]:
        assert power["nev"] in result.stdout


# -- coherent characters: era, exclusions, epithets --------------------------------------

SKILLS = by_id(TABLES, "kepzettsegek")
MODERN_ONLY = {"pilotazas", "hackeles", "elektronika", "vezetes", "furcsa_tudomany"}


def test_the_era_is_chosen_before_the_skills_and_everything_fits_it(pcs):
    steps = [e["step"] for e in make("savage", "pc", seed=2)[0]["historik"]]
    assert steps.index("korszak") < steps.index("kepzettsegek")
    assert {k for k, e in SKILLS.items() if e.get("when") == {"korszak": "modern"}} == MODERN_ONLY
    medieval = 0
    for char in pcs:
        era = char["korszak"]
        assert era in CONCEPTS[char["template"]]["korszak"]
        for item in char["felszereles"]:
            assert era in ITEMS[item["id"]]["korszak"], (char["name"], item["nev"])
        for skill in char["kepzettsegek"]:
            when = SKILLS[skill].get("when", {})
            assert when.get("korszak", era) == era, (char["name"], skill, era)
        for edge in char["elonyok"]:
            assert EDGES[edge["id"]].get("when", {}).get("korszak", era) == era
        medieval += era == "kozepkor"
    assert medieval > PCS // 4


def _names(entry: dict) -> set[str]:
    return {entry["id"], *entry.get("tags", ())}


def test_nothing_stands_beside_what_it_excludes(pcs):
    """Every pair of Hátrányok, Előnyök and items on a character, both ways."""
    tables = {"hatranyok": FLAWS, "elonyok": EDGES, "felszereles": ITEMS}
    for char in pcs:
        rows = [FLAWS[h["id"]] for h in char["hatranyok"]]
        rows += [EDGES[e["id"]] for e in char["elonyok"]]
        rows += [ITEMS[i["id"]] for i in char["felszereles"]]
        for a in rows:
            for b in rows:
                if a is not b:
                    assert not set(a.get("excludes", ())) & _names(b), (
                        char["name"],
                        a["id"],
                        b["id"],
                    )
    assert tables  # the three tables the check reads


@pytest.mark.parametrize(
    "flaw, edge",
    [
        ("nagyothallo_sulyos", "eber"),
        ("gyava", "berzerker"),
        ("szegeny", "nemes"),
        ("kover", "termetes"),
    ],
)
def test_named_exclusions_hold_both_ways(pcs, flaw, edge):
    assert edge in FLAWS[flaw].get("excludes", ()) or flaw in EDGES[edge].get("excludes", ())
    with_flaw = make("savage", "pc", count=150, seed=6, options={"hatrany": [flaw]})
    assert all(edge not in {e["id"] for e in c["elonyok"]} for c in with_flaw)
    with_edge = make("savage", "pc", count=150, seed=6, options={"elony": [edge]})
    assert all(flaw not in {h["id"] for h in c["hatranyok"]} for c in with_edge)


def test_a_grave_pacifist_carries_no_weapon_and_no_shield_beside_a_bow(pcs):
    pacifists = make("savage", "pc", count=300, seed=7, options={"hatrany": ["pacifista_sulyos"]})
    for char in pacifists:
        assert not [i for i in char["felszereles"] if "fegyver" in ITEMS[i["id"]].get("tags", ())]
        assert char["template"] not in {"harcos", "lovag", "zsoldos", "katona", "ijasz", "vadasz"}
    shields = 0
    for char in pcs:
        kit = [ITEMS[i["id"]] for i in char["felszereles"]]
        if any(i["tipus"] == "pajzs" for i in kit):
            shields += 1
            assert not any(i.get("ketkezes") for i in kit), (char["name"], [i["id"] for i in kit])
    assert shields > 50


@pytest.mark.parametrize("era", ["kozepkor", "modern"])
def test_npc_batches_take_korszak(era):
    batch = make("savage", "npc", count=400, seed=9, options={"korszak": era})
    for char in batch:
        assert char["korszak"] == era
        when = TEMPLATES[char["template"]].get("when", {})
        assert when.get("korszak", era) == era
        for item in TEMPLATES[char["template"]].get("felszereles", ()):
            assert ITEMS[item]["korszak"] in ([era], ["kozepkor", "modern"], ["termeszetes"])
    templates = {c["template"] for c in batch}
    assert ("katona" in templates) == (era == "modern") and ("lovag" in templates) == (
        era == "kozepkor"
    )
    squad = make("savage", "npc", count=5, seed=3, options={"korszak": era, "squad": True})
    assert {c["korszak"] for c in squad} == {era}


def test_npc_template_alone_steers_its_era():
    for char in make("savage", "npc", count=50, seed=1, options={"template": "katona"}):
        assert char["korszak"] == "modern"
    result = run("savage", "npc", "--template", "lovag", "--korszak", "modern")
    assert result.exit_code == 2 and "lovag" in result.stderr


JELZOK = {e["name"]: e for e in TABLES["jelzok"].entries}


def test_epithets_fit_the_creature(npcs):
    beasts = [c for c in npcs if not TEMPLATES[c["template"]].get("szemelynev", True)]
    assert len(beasts) > 1000
    for char in beasts:
        sablon = TEMPLATES[char["template"]]["name"].lower()
        epithets = char["name"].rsplit(" " + sablon, 1)[0].split(", ")
        assert len(epithets) in (1, 2) and len(set(epithets)) == len(epithets)
        for n, epithet in enumerate(epithets):
            entry = JELZOK[epithet if n == 0 else epithet[:1].upper() + epithet[1:]]
            when = entry.get("when", {})
            assert char["template"] in when.get("sablon", [char["template"]]), char["name"]
    assert "csontvaz" not in JELZOK["Csonka fülű"]["when"]["sablon"]


def test_no_arcane_skill_without_its_background(pcs):
    own = {"varazslas": "magia", "pszionika": "pszionika", "furcsa_tudomany": "furcsa_tudomany"}
    for char in pcs:
        edges = {e["id"] for e in char["elonyok"]}
        for skill, background in own.items():
            if skill in char["kepzettsegek"]:
                assert background in edges, (char["name"], skill)


def test_a_grave_pacifist_knows_no_wounding_power():
    opts = {"hatrany": ["pacifista_sulyos"], "template": "feltalalo"}
    for char in make("savage", "pc", count=200, seed=3, options=opts):
        for power in char["arkan_hatter"]["hatalmak"]:
            assert "fegyver" not in POWERS[power["id"]].get("tags", ()), char["name"]
