"""Savage kit that fits the concept and the era, SWADE's powers, Hungarian re-asks and the
roster's columns (issue 25, savage).

The detectors here are written from a Savage Worlds player's reading, independently of
the tables (which get there through koncepciok `keszlet` and `kell_*`, felszereles
`unless` and korszakok `utonevek_*`): each sweeps thousands of generated PCs.
"""

from __future__ import annotations

import json

import pytest
from conftest import by_id, make, run
from pty_walk import walk

from chargen.systems import load

SYSTEM = load("savage")
TABLES = SYSTEM.tables()
ITEMS = by_id(TABLES, "felszereles")
POWERS = by_id(TABLES, "hatalmak")
TEMPLATES = by_id(TABLES, "mellekszereplok")
DIE = {"d4": 0, "d6": 1, "d8": 2, "d10": 3, "d12": 4}
PCS = 2500
KNIGHTLY = {"hosszukard", "szablya", "rovidkard", "ketkezes_kard", "buzogany", "csatabard"}
KNIGHTLY |= {"csatacsakany", "landzsa"}  # swords, maces, axes, the spear of the charge
BOWS = {"rovid_ij", "hosszu_ij"}
RIOT = {"rohamsisak", "rohampajzs"}  # police and soldiers' gear
CIVILIANS = {"tudos", "gyogyito", "pap", "magus", "medium", "feltalalo", "szelhamos", "hekker"}
# given names a Hungarian reads as 19th-20th century (coined in the language reform or
# brought in since): none fits a medieval character
MODERN_NAMES = {
    "Vivien", "Kitti", "Tünde", "Csilla", "Enikő", "Tímea", "Nikolett", "Bernadett",
    "Norbert", "Attila", "Zsolt", "Tibor", "Krisztián", "Richárd", "Patrik", "Kevin",
    "Szilvia", "Anita", "Mónika", "Melinda", "Adrienn", "Zsanett", "Bianka", "Jázmin",
    "Gyöngyi", "Ibolya", "Etelka", "Hajnalka", "Emese", "Csongor", "Elemér", "Szilárd",
}  # fmt: skip


@pytest.fixture(scope="module")
def pcs() -> list[dict]:
    return make("savage", "pc", count=PCS, seed=2501)


def _ids(char: dict) -> set[str]:
    return {i["id"] for i in char["felszereles"]}


def _flaws(char: dict) -> set[str]:
    return {h["id"] for h in char["hatranyok"]}


def test_a_knight_rides_in_armour_with_a_knights_weapon(pcs):
    knights = [c for c in pcs if c["template"] == "lovag"]
    assert len(knights) > 80
    bad = [
        c["seed"]
        for c in knights
        if not any(
            i["tipus"] == "pancel" and "torzs" in i.get("hely", ()) for i in c["felszereles"]
        )
        or not _ids(c) & KNIGHTLY
        or "lovaglas" not in c["kepzettsegek"]
        or "parittya" in _ids(c)
    ]
    assert bad == [], f"Lovag without body armour, a knight's weapon or Lovaglás: {bad[:5]}"


def test_an_archer_carries_a_bow_and_can_shoot_it(pcs):
    archers = [c for c in pcs if c["template"] == "ijasz"]
    assert len(archers) > 80
    bad = [c["seed"] for c in archers if not _ids(c) & BOWS]
    assert bad == [], f"Íjász without a bow: {bad[:5]}"
    assert all(DIE[c["kepzettsegek"]["loveszet"]] >= DIE["d6"] for c in archers)


def test_a_trained_shooter_carries_something_to_shoot(pcs):
    """Lövészet d8 or better buys a Lövészet weapon; the residue is the Pacifista, whose
    Hátrány keeps every weapon out of its hands."""
    shooters = [c for c in pcs if DIE.get(c["kepzettsegek"].get("loveszet"), -1) >= DIE["d8"]]
    assert len(shooters) > 300
    bad = [
        c["seed"]
        for c in shooters
        if not any(i.get("kepzettseg") == "loveszet" for i in c["felszereles"])
        and not _flaws(c) & {"pacifista", "pacifista_sulyos"}
    ]
    assert bad == [], f"Lövészet d8+ with nothing to shoot: {bad[:5]}"


def test_civilians_wear_no_riot_gear(pcs):
    civil = [c for c in pcs if c["template"] in CIVILIANS]
    assert len(civil) > 600
    bad = [
        (c["seed"], c["template"], sorted(_ids(c) & (RIOT | {"golyoallo_melleny", "bilincs"})))
        for c in civil
        if _ids(c) & (RIOT | {"golyoallo_melleny", "bilincs", "gumibot"})
    ]
    assert bad == [], bad[:5]


def test_the_middle_ages_have_no_telescope_and_no_modern_given_names(pcs):
    medieval = [c for c in pcs if c["korszak"] == "kozepkor"]
    assert len(medieval) > 800
    assert [c["seed"] for c in medieval if "tavcso" in _ids(c)] == []
    modern = [c["name"] for c in medieval if set(c["name"].split()[1:]) & MODERN_NAMES]
    assert modern == [], modern[:5]
    # the modern era keeps Faker's whole list
    later = [c for c in pcs if c["korszak"] == "modern"]
    assert any(set(c["name"].split()[1:]) & MODERN_NAMES for c in later)


def test_medieval_npcs_have_medieval_names():
    npcs = make("savage", "npc", count=600, seed=77, options={"korszak": "kozepkor"})
    people = [c["name"] for c in npcs if c.get("nem")]
    assert len(people) > 100
    assert [n for n in people if set(n.split()[1:]) & MODERN_NAMES] == []


def test_no_template_carries_a_shield_beside_a_two_handed_weapon():
    for tid, template in TEMPLATES.items():
        gear = [ITEMS[i] for i in template.get("felszereles", ())]
        shields = [g for g in gear if g["tipus"] == "pajzs"]
        two_handed = [g["id"] for g in gear if "ketkezes" in g.get("tags", ())]
        assert not (shields and two_handed), f"{tid}: {shields[0]['id']} beside {two_handed}"


def test_a_step_alone_prices_in_its_eras_money():
    shown = {}
    for seed in range(1, 40):
        out = run("savage", "felszereles", "--seed", seed, "-f", "json")
        era = json.loads(out.stdout)[0]["korszak"]
        text = run("savage", "felszereles", "--seed", seed).stdout
        shown[era] = text
        unit, other = ("dollár", "tallér") if era == "modern" else ("tallér", "dollár")
        assert unit in text and other not in text, (seed, era, text)
    assert set(shown) == {"modern", "kozepkor"}


def test_powers_follow_swade_costs_and_ranks(pcs):
    # SWADE: Boost/Lower Trait 3, Illusion 3, Blast 3 (Seasoned), Sloth/Speed Seasoned
    assert {k: POWERS[k]["ar"] for k in ("erosites", "gyengites", "illuzio", "robbanas")} == {
        "erosites": 3,
        "gyengites": 3,
        "illuzio": 3,
        "robbanas": 3,
    }
    assert POWERS["gyorsasag"]["rang"] == "tapasztalt"
    known = [p for c in pcs if c["arkan_hatter"] for p in c["arkan_hatter"]["hatalmak"]]
    assert len(known) > 300
    assert {p["id"] for p in known if p["rang"] != "ujonc"} == set()
    assert all(p["ar"] == POWERS[p["id"]]["ar"] for p in known)


def test_a_conflicting_answer_is_asked_again_in_hungarian():
    """Gyáva beside Hős, then gear that costs more than the purse: each is refused with
    its reason in Hungarian and asked again; the character is made."""
    answers = [
        (r"Koncepció", "zsoldos"),
        (r"Korszak", "modern"),
        (r"Súlyos hátrány", "gyáva, hős"),
        (r"Súlyos hátrány", "gyáva"),
        (r"Felszerelés", "1, 2, 3, 4, 5, 6, " + ", ".join(f"+{n}" for n in range(1, 17))),
        (r"Felszerelés", ""),
    ]
    done = walk(["savage", "pc", "--interactive", "--seed", "47", "-f", "json"], answers)
    assert done.code == 0, done.stderr
    assert "Gyáva és Hős nem állhat együtt" in done.stderr
    assert "kezdőpénz csak" in done.stderr and "Válassz újra" in done.stderr
    assert "cannot" not in done.stderr and "error" not in done.stderr
    assert sum("Súlyos hátrány" in p for p in done.prompts) == 2
    assert sum(p.startswith("Felszerelés") for p in done.prompts) == 2
    char = json.loads(done.stdout)[0]
    assert "gyava" in _flaws(char) and "hos" not in _flaws(char)


@pytest.mark.parametrize(
    ("width", "kept"),
    [(80, ["Közh", "Löv", "Erő", "Hár", "Szív"]), (60, ["Közh", "Löv", "Erő", "Hár", "Szív"])],
)
def test_the_roster_keeps_the_fighting_columns_longest(width, kept):
    for kind in ("npc", "pc"):
        out = run("savage", kind, "-n", "6", "--seed", "3", "--width", width)
        assert out.exit_code == 0, out.stderr
        header = out.stdout.splitlines()[0].split()
        for short in kept:
            assert short in header, (kind, width, header)
        assert max(len(line) for line in out.stdout.splitlines()) <= width
