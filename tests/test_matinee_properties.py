"""Matinee Chronicles over thousands of seeds, in one process: what the document
expects of every character beyond the numbers (issue 12).

Each property is checked on every character of a large sweep: the Kunskap
points belong to inriktningar, every character carries a weapon and its
stridsmanövrar, no row was drawn against its own conditions, no item twice,
the raised Tillgångar budget, the Dark Legion's korruption and size.
"""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import by_id

from chargen.conditions import Rule, entry_names
from chargen.procedure import generate
from chargen.systems import load
from chargen.systems.matinee.rules import FASTA, KUNSKAP, WEAPON_SKILLS

SYSTEM = load("matinee")
TABLES = SYSTEM.tables()
SWEEP = 3000


def _sweep(kind: str, count: int, seed: int, options: dict | None = None) -> list[tuple]:
    """(character, facts, drawn rows, drawn names) for each character of a batch."""
    out = []

    def trace(char, ctx):
        out.append((char, dict(ctx.facts), list(ctx.drawn_rows), frozenset(ctx.drawn)))

    for _ in generate(SYSTEM, TABLES, kind, options or {}, count, seed, trace=trace):
        pass
    return out


@pytest.fixture(scope="module")
def pcs() -> list[tuple]:
    return _sweep("pc", SWEEP, 12)


@pytest.fixture(scope="module")
def spenders() -> list[tuple]:
    return _sweep("pc", SWEEP // 3, 13, {"spend_hjaltepoang": True})


@pytest.fixture(scope="module")
def npcs() -> list[tuple]:
    return _sweep("npc", SWEEP, 14)


def test_every_row_drawn_fits_its_own_conditions(pcs, spenders, npcs):
    """No gender or faction contradiction by the tables' own conditions: every row
    a character drew (events, beskrivningsord, karriärer, items, epithets) holds
    against what the character finally is, and nothing it drew excludes another."""
    checked = Counter()
    for char, facts, rows, names in pcs + spenders + npcs:
        if "kon" in char:  # a person (creatures have no gender)
            assert char["kon"] == {"male": "man", "female": "kvinna"}[facts["gender"]]
        for table, row in rows:
            rule = Rule(row)
            assert rule.holds(facts), (char["seed"], table, row)
            assert rule.requires <= names, (char["seed"], table, row)
            others = frozenset().union(
                *(entry_names(r) for t, r in rows if r is not row and (t, r) != (table, row))
            )
            assert rule.excludes.isdisjoint(others), (char["seed"], table, row)
            if rule.when or rule.unless or rule.excludes:
                checked[table.split("_")[0]] += 1
    # the conditions were really exercised, in the tables that carry them
    assert {"karriarer", "arketyper", "beskrivningsord", "utrustning", "epitet"} <= set(checked)


def test_gendered_text_follows_the_character(pcs):
    female_only = {"Du var sångerska i ett tehus."}
    male_only = {"Du var sångare i ett tehus."}
    seen = Counter()
    for char, facts, _, _ in pcs:
        texts = {e["handelse"] for e in char["uppvaxthandelser"]}
        texts |= {k["handelse"]["handelse"] for k in char["karriarer"]}
        words = {w["ord"] for w in char["beskrivningsord"]}
        if facts["gender"] == "male":
            assert not texts & female_only
            assert char["arketyp_namn"] != "Vetenskapskvinna"
        else:
            assert not texts & male_only and "Flätat skägg" not in words
            assert char["arketyp_namn"] != "Vetenskapsman"
            assert not any(k["namn"] == "Affärsman" for k in char["karriarer"])
        seen[facts["gender"]] += 1
        assert not any("{" in t or "}" in t for t in texts | words)
    assert seen["male"] > SWEEP / 3 and seen["female"] > SWEEP / 3


def test_no_word_against_the_characters_own_faction(pcs):
    against = {
        "mishima": "Talar aldrig med en mishima",
        "cybertronic": "Litar inte på Cybertronic",
        "imperial": "Hatar Imperial",
        "brodraskapet": "Misstror Brödraskapet",
    }
    for char, _, _, _ in pcs:
        words = {w["ord"] for w in char["beskrivningsord"]}
        assert against.get(char["megakorporation"]) not in words
        if char["megakorporation"] == "brodraskapet":  # a cyberarm is heresy there
            assert "Cyberarm" not in words


def test_no_beskrivningsord_against_the_characters_own_life(pcs, spenders):
    """Contempt for the rich not from a direktör or one who made a career in business,
    nor beside expensive perfume; no "Ljuger aldrig" from a spy; no distrust of the
    Brotherhood beside its prayer."""
    seen = Counter()
    for char, _, _, _ in pcs + spenders:
        words = {w["id"] for w in char["beskrivningsord"]}
        karriarer = {k["id"] for k in char["karriarer"]}
        if "foraktar_de_rika" in words:
            seen["rika"] += 1
            assert char["arketyp"] != "direktor" and "affarsman" not in karriarer
            assert "luktar_dyr_parfym" not in words
        if "ljuger_aldrig" in words:
            seen["ljuger"] += 1
            assert "spion" not in karriarer
        if "misstror_brodraskapet" in words:
            seen["misstror"] += 1
            assert not words & {"ljuset_skyddar", "ljuset_gar_fore_allt"}
    assert min(seen.values()) >= 20 and len(seen) == 3  # each case really came up


def test_spoken_beskrivningsord_in_quotation_marks_and_no_english_category(pcs):
    """Repliker and motton are spoken lines: ”...” without a closing full stop, so a
    list of two never reads "., "; no category shows the English "One-liners"."""
    spoken = 0
    for char, _, _, _ in pcs:
        for word in char["beskrivningsord"]:
            text = word["ord"]
            assert not text.endswith("."), text
            if word["kategori"] in ("one_liners", "motton"):
                spoken += 1
                assert text.startswith("”") and text.endswith("”"), text
                assert not text.endswith(".”"), text
    assert spoken > 300
    names = {e["name"] for e in TABLES["beskrivningsord_kategorier"].entries}
    assert "Repliker" in names and not any("One" in n for n in names)


def test_creature_epithets_fit_the_body(npcs):
    """Rust only on metal, a broken bone blade only on those that grow blades."""
    metal = {"razid", "cairath", "robust", "monster", "vidunder"}
    blades = {"zenithisk_sjalslaktare", "nekromutant"}
    text = {e["id"]: e["name"] for e in TABLES["epitet"].entries}
    seen = Counter()
    for char, _, _, _ in npcs:
        epitet = char.get("epitet")
        if epitet == text["rostflackar"]:
            seen["rost"] += 1
            assert char["template"] in metal, char["name"]
        if epitet == text["avbrutet_blad"]:
            seen["blad"] += 1
            assert char["template"] in blades, char["name"]
    assert len(seen) == 2


def test_every_kunskap_point_belongs_to_an_inriktning(pcs, spenders):
    inriktningar = TABLES["kunskap"]
    seen = Counter()
    for char, _, _, _ in pcs + spenders:
        skills = char["fardigheter"]
        assert "kunskap" not in skills and "kunskap" not in char["nivaer"]
        assert set(FASTA) <= set(skills)
        for key, value in skills.items():
            if key.startswith(KUNSKAP):
                assert key[len(KUNSKAP) :] in inriktningar, key
                assert 1 <= value <= 18, (key, value)  # no inriktning listed at 0
                seen[key] += 1
        assert set(char["nivaer"]) == set(skills)
        # karriärer name the inriktning they give
        for career in char["karriarer"]:
            spec = TABLES["karriarer"].get(career["id"])
            for inriktning in spec.get("kunskap", {}):
                assert KUNSKAP + inriktning in skills
    assert len(seen) >= 8


def test_every_character_carries_a_weapon_with_its_stridsmanovrar(pcs, spenders, npcs):
    manovrar = by_id(TABLES, "stridsmanovrar")
    for char, _, _, _ in pcs + spenders:
        weapons = [i for i in char["utrustning"] if i.get("vapen")]
        assert weapons, char["seed"]  # "alla rollpersoner har ett vapen"
        first = char["utrustning"][0]
        assert first.get("vapen") and first["fardighet"] in WEAPON_SKILLS
        for weapon in weapons:
            assert weapon["stridsmanovrar"]
            for m in weapon["stridsmanovrar"]:
                assert weapon["fardighet"] in manovrar[m]["fardigheter"]
            if weapon["fardighet"] == "narstrid":  # "Närstridsvapen kan endast använda
                assert set(weapon["stridsmanovrar"]) <= {"ansats", "finta", "satsa"}
        # the weapon's bonus is inside the budget, which it may use up
        assert sum(i["bonus"] for i in char["utrustning"]) <= (char["tillgangar"] + 1) // 2 + sum(
            1 for h in char["hojningar"] if h["typ"] == "foremal" and h["lyckat"]
        )
    for char, _, _, _ in npcs:
        if char.get("megakorporation"):  # a human NPC carries one too
            assert char["utrustning"][0]["vapen"]
        else:  # creatures show their natural weapons
            assert char["vapen"]


def test_the_first_weapon_is_of_the_best_weapon_skill(pcs, spenders):
    """A prickskytt with Enkelskott 18 carries a gun first, not only a knife."""
    weapons = {
        s: [e for e in TABLES[f"utrustning_{s}"].entries if "vapen" in e.get("tags", ())]
        for s in WEAPON_SKILLS
    }
    own = {e["id"]: e.get("vapen") for e in TABLES["arketyper"].entries}
    names = {e["id"]: e["name"] for s in WEAPON_SKILLS for e in weapons[s]}
    samurajer = 0
    for char, facts, _, _ in pcs + spenders:
        weapon = char["utrustning"][0]
        assert weapon.get("vapen"), char["seed"]
        if own[char["arketyp"]]:  # the arketyp's own weapon comes first (a samuraj's katana)
            samurajer += 1
            assert weapon["namn"] in {names[i] for i in own[char["arketyp"]]}, char["seed"]
            continue
        open_ = [s for s in WEAPON_SKILLS if any(Rule(e).holds(facts) for e in weapons[s])]
        best = max(char["fardigheter"][s] for s in open_)
        # spending hjältepoäng may raise a färdighet after utrustning: allow one step
        assert char["fardigheter"][weapon["fardighet"]] >= best - 1, char["seed"]
    assert samurajer > 20


def test_no_item_twice(pcs, spenders, npcs):
    for char, _, _, _ in pcs + spenders + npcs:
        names = [i["namn"] for i in char.get("utrustning", ())]
        assert len(names) == len(set(names)), names


def test_a_tillgangar_raise_comes_before_utrustning(spenders):
    raised = 0
    for char, _, _, _ in spenders:
        steps = [e["step"] for e in char["historik"]]
        assert steps.index("spendera") < steps.index("utrustning")
        tillgangar = [h for h in char["hojningar"] if h["typ"] == "tillgangar"]
        spent = sum(i["bonus"] for i in char["utrustning"])
        foremal = sum(1 for h in char["hojningar"] if h["typ"] == "foremal" and h["lyckat"])
        # the budget is half of the (raised) Tillgångar, rounded up
        assert spent - foremal == (char["tillgangar"] + 1) // 2
        if tillgangar and tillgangar[0]["lyckat"]:
            raised += 1
            before = tillgangar[0]["over"]
            assert char["tillgangar"] == before + 1
    assert raised > 10


def test_dark_legion_korruption_and_size_tiers(npcs):
    sizes = {e["id"]: e["slas_ut_pa"] for e in TABLES["storlekar"].entries}
    bands = sorted(TABLES["sinnesryckning"].entries, key=lambda e: e["min"])
    seen = set()
    for char, facts, _, _ in npcs:
        spec = TABLES["mallar"].get(char["template"])
        assert facts["template"] == char["template"]
        assert char["slas_ut_pa"] == spec.get("slas_ut_pa", sizes[spec["storlek"]])
        if spec.get("apostel"):
            seen.add(char["template"])
            assert char["korruption"] >= 20 and char["korruptionsvarde"] in (5, 10, 15)
            band = [b for b in bands if char["korruption"] >= b["min"]][-1]
            assert char["sinnesryckning"] == band["name"]
            assert char["name"].startswith(spec["name"] + " ") and char["epitet"]
    assert len(seen) == 10


def test_creatures_of_a_roster_can_be_told_apart(npcs):
    """Ten nekromutanter in one roster do not all read the same."""
    by_template: dict[str, list[str]] = {}
    for char, _, _, _ in npcs:
        if not char.get("megakorporation"):
            by_template.setdefault(char["template"], []).append(char["name"])
    for names in by_template.values():
        sample = names[:10]
        assert len(set(sample)) >= min(len(sample), 6)


def test_konsten_users_start_past_niva_1_with_the_documents_inriktningar(pcs):
    brothers = _sweep("pc", 400, 15, {"megakorporation": "brodraskapet", "arketyp": "mystiker"})
    brothers += _sweep("pc", 400, 16, {"arketyp": "inkvisitor"})
    counts = Counter()
    names = {e["id"]: e["name"] for e in TABLES["konsten"].entries}
    assert set(names.values()) == {
        "Exorcismen",
        "Förutskickelsen",
        "Förändringen",
        "Kinetiken",
        "Mentalismen",
    }
    for char, _, _, _ in brothers:
        assert char["fardigheter"]["konsten"] >= 10  # Nivå 2 or more
        if char["arketyp"] == "inkvisitor":
            assert len(char["konsten"]) == 1
        else:  # "mystiker får lika många som sitt värde i Psyke"
            assert len(char["konsten"]) == max(1, min(char["grundegenskaper"]["psyke"], 5))
            counts[len(char["konsten"])] += 1
    # most mystiker know some, not all five
    assert counts[5] < 0.3 * sum(counts.values())
    assert sum(counts[n] for n in (2, 3, 4)) > 0.5 * sum(counts.values())
    for char, _, _, _ in pcs:
        if char["arketyp"] not in ("inkvisitor", "mystiker"):
            assert char["konsten"] == []


@pytest.mark.parametrize(
    ("option", "table"),
    [("megakorporation", "megakorporationer"), ("arketyp", "arketyper"), ("karriar", "karriarer")],
)
def test_each_pc_choice_alone_succeeds(option, table):
    """`--arketyp X` or `--karriar Y` alone narrows the other draws instead of failing."""
    for entry in TABLES[table].entries:
        value = [entry["id"]] if option == "karriar" else entry["id"]
        for char, facts, _, _ in _sweep("pc", 50, 7, {option: value}):
            if option == "karriar":
                assert entry["id"] in [k["id"] for k in char["karriarer"]]
            else:
                assert char[option] == entry["id"] == facts[option]


def test_each_npc_choice_alone_succeeds():
    for template in TABLES["mallar"].ids:
        assert all(
            c["template"] == template for c, *_ in _sweep("npc", 50, 8, {"template": template})
        )
    for corp in TABLES["megakorporationer"].ids:
        chars = _sweep("npc", 50, 9, {"megakorporation": corp})
        assert all(c["megakorporation"] == corp for c, *_ in chars)
