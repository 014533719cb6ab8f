"""LEF over thousands of seeds: the people of Valhel and the sheet a player reads.

Names drawn from their home state's own table and gender; NPC lofts never below
regler.loft_start and an NPC's evne at 10 giving its ekspertise; creatures of one
template told apart in a batch; no wasted ekspertise picks; the sheet carrying each
ekspertise's text and each grej's price; the Danish of the tables.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import by_id, lef_values, make, run

from chargen.output import render
from chargen.systems import load

SYSTEM = load("lef")
TABLES = SYSTEM.tables()
RULES = TABLES["regler"].settings
EVNER = by_id(TABLES, "evner")
EKSPERTISER = by_id(TABLES, "ekspertiser")
BLODARV = by_id(TABLES, "blodarv")
PERSONLIGHEDER = by_id(TABLES, "personligheder")
HJEMSTATER = by_id(TABLES, "hjemstater")
SKABELONER = by_id(TABLES, "skabeloner")
SEEDS = 3000
GENDER = {"mand": "male", "kvinde": "female"}


@pytest.fixture(scope="module")
def pcs() -> list[dict]:
    return make("lef", "pc", count=SEEDS, seed=14)


@pytest.fixture(scope="module")
def npcs() -> list[dict]:
    return make("lef", "npc", count=SEEDS, seed=1014)


def _sheet(char: dict) -> str:
    return "".join(render(SYSTEM, TABLES, [char], "table", 1))


# -- names ------------------------------------------------------------------------------------


def _name_fits(name: str, table: dict, gender: str) -> bool:
    """The name is a given name of the gender, then a family name or the patronym made of a
    male given name, then perhaps a byname."""
    given = [g for g in table[gender] if name.startswith(g + " ")]
    for first in given:
        rest = name[len(first) + 1 :]
        bynames = table.get(f"byname_{gender}", table.get("byname", ()))
        endings = [""] + [" " + b for b in bynames]
        for ending in endings:
            if ending and not rest.endswith(ending):
                continue
            middle = rest[: len(rest) - len(ending)] if ending else rest
            if "patronym" in table:
                form = table["patronym"][gender]
                if any(middle == form.replace("{far}", f) for f in table["male"]):
                    return True
            elif middle in table.get("family", ()):
                return True
    return False


def test_every_home_state_has_its_own_names_table():
    assert len(HJEMSTATER) >= 9
    tables = {h["navne"] for h in HJEMSTATER.values()}
    assert len(tables) == len(HJEMSTATER)  # one each, no Faker locale
    for hjemstat in HJEMSTATER.values():
        names = TABLES[hjemstat["navne"]].settings
        assert len(names["male"]) >= 20 and len(names["female"]) >= 20
        assert not set(names["male"]) & set(names["female"])
        assert "family" in names or "patronym" in names


def test_modern_names_are_not_in_valhel():
    modern = {"Ayse", "Mustafa", "Krzysztof", "Cindy", "Kevin", "Zoey", "Mohamed", "Jennifer"}
    for hjemstat in HJEMSTATER.values():
        names = TABLES[hjemstat["navne"]].settings
        assert not modern & (set(names["male"]) | set(names["female"]))


def test_nandel_names_ring_of_the_sagas():
    names = TABLES["navne_nandel"].settings
    assert names["patronym"] == {"male": "{far}søn", "female": "{far}sdatter"}
    assert {"Sigurd", "Gunnar", "Njal"} <= set(names["male"])
    assert {"Gudrun", "Hallgerd"} <= set(names["female"])


@pytest.mark.parametrize("kind", ["pc", "npc"])
def test_names_come_from_the_home_states_table_and_gender(pcs, npcs, kind):
    chars = pcs if kind == "pc" else [c for c in npcs if c["blodarv"]]
    seen = Counter()
    for char in chars:
        table = TABLES[HJEMSTATER[char["hjemstat"]]["navne"]].settings
        gender = GENDER[char["kon"]]
        assert _name_fits(char["name"], table, gender), (char["hjemstat"], char["name"])
        seen[char["hjemstat"], gender] += 1
    assert set(seen) == {(h, g) for h in HJEMSTATER for g in ("male", "female")}


def test_nandel_patronyms_agree_with_the_gender(pcs):
    nandel = [c for c in pcs if c["hjemstat"] == "nandel"]
    assert len(nandel) > 100
    for char in nandel:
        second = char["name"].split(" ")[1]
        assert second.endswith("sdatter" if char["kon"] == "kvinde" else "søn"), char["name"]


def test_locale_option_still_overrides_the_names_table():
    chars = make("lef", "pc", count=30, seed=2)
    res = run("lef", "pc", "--seed", "2", "--locale", "en_US", "-f", "json")
    assert res.exit_code == 0
    assert chars[0]["name"] not in res.stdout


# -- NPCs ------------------------------------------------------------------------------------


def test_no_npc_loft_below_the_starting_loft(npcs):
    for template in SKABELONER.values():
        assert min(template["tilstande"].values()) >= RULES["loft_start"], template["id"]
    for char in npcs:
        for tilstand, row in char["tilstande"].items():
            assert row["loft"] >= RULES["loft_start"], (char["template"], tilstand)


def test_an_npc_loft_below_2_in_a_pack_is_refused(tmp_path):
    text = (Path(TABLES["skabeloner"].path)).read_text(encoding="utf-8")
    pack = tmp_path / "lef"
    pack.mkdir()
    (pack / "skabeloner.toml").write_text(
        text.replace("liv = 5, udbytte = 2 }", "liv = 5, udbytte = 1 }"), encoding="utf-8"
    )
    res = run("lef", "npc", "--template", "hedetrold", "--tables", str(tmp_path))
    assert res.exit_code == 2 and "udbytte" in res.stderr and "2..6" in res.stderr


def test_an_npc_evne_at_10_gives_its_ekspertise(npcs):
    reached = 0
    for char in npcs:
        held = {e["id"]: e for e in char["ekspertiser"]}
        for evne, value in lef_values(char).items():
            eks = EVNER[evne]["ekspertise"]
            if value >= RULES["ekspertise_ved"]:
                reached += 1
                assert eks in held, (char["template"], evne, value)
        for e in char["ekspertiser"]:
            if e["kilde"] in EVNER:
                assert lef_values(char)[e["kilde"]] >= RULES["ekspertise_ved"]
    assert reached > 150  # the check ran on many evner at 10 (mostly hedehekse and væsner)


def test_hedetrold_has_slagkraftig_and_vital_and_its_own_distinct_gift():
    for troll in make("lef", "npc", count=200, seed=77, options={"template": "hedetrold"}):
        ids = [e["id"] for e in troll["ekspertiser"]]
        assert {"slagkraftig", "vital", "troldekraefter"} <= set(ids)
        assert troll["stjerner"]["prygl"] >= 2
        assert troll["tilstande"]["udbytte"]["loft"] >= 2


def test_no_npc_holds_two_ekspertiser_with_one_effect(npcs):
    for char in npcs:
        effects = [_effect(EKSPERTISER[e["id"]]) for e in char["ekspertiser"]]
        effects = [e for e in effects if e]
        assert len(effects) == len(set(effects)), (char["template"], char["ekspertiser"])


def _unnumbered(name: str) -> str:
    """A name without the number the engine adds once a template's names ran out in a
    batch ("Ulv med revet øre 2")."""
    head, _, tail = name.rpartition(" ")
    return head if head and tail.isdigit() else name


def test_creatures_of_one_template_are_told_apart_in_a_batch():
    """No two væsner of a batch share a name (the engine draws a taken one's naming step
    again under a new seed, which it records); once its kendetegn are spent, a template's
    later væsner are numbered. Every member regenerates from its own seed, name included,
    the number aside."""
    for template in ("ulv", "hedetrold", "uren"):
        marks = SKABELONER[template]["kendetegn"]
        batch = make("lef", "npc", count=2 * len(marks), seed=5, options={"template": template})
        names = [c["name"] for c in batch]
        assert len(set(names)) == len(names), names
        told = [c["kendetegn"] for c in batch if c["name"] == _unnumbered(c["name"])]
        assert sorted(told) == sorted(marks), told  # (this seed) every kendetegn, then numbers
        for char in batch:  # a member made again from its own seed, name included
            again = make("lef", "npc", seed=char["seed"], options={"template": template})[0]
            assert again == {**char, "name": _unnumbered(char["name"])}
            assert again["name"] == f"{SKABELONER[template]['name']} {char['kendetegn']}"


def test_a_mixed_batch_tells_its_creatures_apart():
    batch = make("lef", "npc", count=400, seed=8)
    names = [c["name"] for c in batch]
    assert len(set(names)) == len(names)
    for template in ("ulv", "hedetrold", "uren"):
        names = [c["name"] for c in batch if c["template"] == template]
        assert names
        top = Counter(names).most_common(1)[0][1]
        assert top <= -(-len(names) // len(SKABELONER[template]["kendetegn"])) + 1
    for char in batch[::37]:
        assert make("lef", "npc", seed=char["seed"])[0] == {
            **char,
            "name": _unnumbered(char["name"]),
        }


def test_a_large_batch_is_not_capped_at_one_round_of_kendetegn(npcs):
    """A batch of 3,000 holds more væsner than there are kendetegn, as many as the
    templates' weights give (telling them apart never turns a væsen into a person), and
    a template whose kendetegn ran out numbers its own væsner only, never a person."""
    assert any(_unnumbered(c["name"]) != c["name"] for c in npcs)  # some wolf ran out
    assert all(_unnumbered(c["name"]) == c["name"] for c in npcs if c["blodarv"])
    counts = Counter(c["template"] for c in npcs)
    totals = {  # the weight of the templates that fit each gender (a hedeheks is a woman)
        gender: sum(
            t.get("weight", 1)
            for t in SKABELONER.values()
            if t.get("when", {}).get("gender", gender) == gender
        )
        for gender in ("male", "female")
    }
    for template in ("ulv", "hedetrold", "uren"):
        assert counts[template] > 2 * len(SKABELONER[template]["kendetegn"]), counts
        weight = SKABELONER[template].get("weight", 1)
        expected = SEEDS * sum(weight / total / 2 for total in totals.values())
        assert abs(counts[template] - expected) < 4 * expected**0.5, (template, counts)


# -- no wasted picks -------------------------------------------------------------------------


def _effect(entry: dict):
    """What an ekspertise does, as a comparable value (None for a text-only one)."""
    if "bytte" in entry:
        return ("bytte", tuple(entry["bytte"]))
    parts = []
    for key in ("loftbonus", "stjerner"):
        if key in entry:
            parts.append((key, tuple(sorted(entry[key].items()))))
    if "fokus" in entry:
        parts.append(("fokus", tuple(entry["fokus"])))
    if "frie_stjerner" in entry:
        parts.append(("frie_stjerner", entry["frie_stjerner"]))
    return tuple(parts) or None


def _wasted(eks: dict, arv: dict) -> bool:
    """The personlighed's ekspertise only repeats the blodarv: its fokus alone, already
    the blodarv's, or the blodarv ekspertise's very effect."""
    if _effect(eks) == _effect(EKSPERTISER[arv["ekspertise"]]):
        return True
    only_fokus = set(eks) & {"loftbonus", "stjerner", "frie_stjerner", "bytte"} == set()
    return only_fokus and eks.get("fokus") == [arv["fokus"]]


def test_the_tables_mark_every_wasted_pick():
    for pers in PERSONLIGHEDER.values():
        for arv in BLODARV.values():
            kept = [e for e in pers["ekspertiser"] if not _wasted(EKSPERTISER[e], arv)]
            assert kept, (pers["id"], arv["id"])
            for eks_id in pers["ekspertiser"]:
                unless = EKSPERTISER[eks_id].get("unless", {}).get("blodarv", [])
                unless = unless if isinstance(unless, list) else [unless]
                assert _wasted(EKSPERTISER[eks_id], arv) == (arv["id"] in unless), (eks_id, arv)


def test_no_personlighed_ekspertise_is_wasted(pcs):
    checked = Counter()
    for char in pcs:
        pers = next(e for e in char["ekspertiser"] if e["kilde"] == "personlighed")
        assert not _wasted(EKSPERTISER[pers["id"]], BLODARV[char["blodarv"]]), char["seed"]
        checked[char["blodarv"], char["personlighed"]] += 1
    assert len(checked) == len(BLODARV) * len(PERSONLIGHEDER)


def test_forced_wasted_pairs_draw_another():
    for arv, pers, wasted in [
        ("nemal", "spirituelle", "drommesyn"),
        ("vanaaetlinge", "spirituelle", "meditation"),
        ("avarinere", "rebelske", "trods"),
        ("hedinger", "letsindige", "fodlet"),
    ]:
        chars = make("lef", "pc", count=60, seed=3, options={"blodarv": arv, "personlighed": pers})
        drawn = {e["id"] for c in chars for e in c["ekspertiser"] if e["kilde"] == "personlighed"}
        assert wasted not in drawn and len(drawn) >= 1, (arv, pers, drawn)


# -- the sheet --------------------------------------------------------------------------------


def test_the_sheet_carries_each_ekspertise_text_and_grej_price():
    for char in make("lef", "pc", count=120, seed=40):
        sheet = _sheet(char)
        flat = " ".join(sheet.split())
        for held in char["ekspertiser"]:
            text = " ".join(EKSPERTISER[held["id"]]["description"].split())
            assert text in flat, (char["seed"], held["id"])
        for item in char["grej"]:
            assert re.search(rf"{re.escape(item['navn'])}\s+{item['udgift']}\b", sheet), item
        for track in TABLES["stjernespor"].entries:
            assert track["name"] in sheet


def test_praecisions_line_agrees_with_the_effect_applied():
    eks = EKSPERTISER["praecision"]
    assert eks["fokus"] == ["kraft"] and "bytte" not in eks
    assert eks["trykt_overskrift"] == "HELBRED +1 | KRAFT"  # as printed in the document
    assert eks["overskrift"] == "FOKUS KRAFT | AUTO"
    for char in make("lef", "pc", count=400, seed=4):
        for held in char["ekspertiser"]:
            if held["id"] == "praecision":
                assert held["virkning"] == "FOKUS KRAFT | AUTO" and "kraft" in char["fokus"]


def test_the_npc_roster_shows_names_not_ids():
    res = run("lef", "npc", "-n", "30", "--seed", "9")
    assert res.exit_code == 0
    for template in SKABELONER.values():
        if template["id"] != template["name"].lower():
            assert re.search(rf"\b{template['id']}\b", res.stdout) is None, template["id"]
    for arv in ("vanaaetlinge", "nemal", "avarinere"):
        assert re.search(rf"\b{arv}\b", res.stdout) is None


def test_danish_fixes_in_the_tables():
    text = "\n".join(
        Path(t.path).read_text(encoding="utf-8") for t in (TABLES[n] for n in TABLES.names())
    )
    assert "en kasteanker" not in text and "et kasteanker" in text
    assert "arbejder markedspladser" not in text
    assert "Drilsoldat" not in text and "drilsoldat" not in text
    assert "sjælloft" not in text
    chars = make("lef", "pc", count=800, seed=21)
    sjael = [f for c in chars for f in c["forbedringer"] if f.get("tilstand") == "sjael"]
    assert sjael
    sheets = [
        _sheet(c) for c in chars if any(f.get("tilstand") == "sjael" for f in c["forbedringer"])
    ]
    assert all("+1 sjæleloft" in s for s in sheets)
    assert not any("sjælloft" in s for s in sheets)
    for word in ("Forbindskasse", "statens hære", "regler.forbedring_ved"):
        assert word not in text, word


# -- coherence over the sweep ------------------------------------------------------------------

MALE_ONLY_BYNAMES = {
    b
    for h in HJEMSTATER.values()
    for b in set(TABLES[h["navne"]].settings.get("byname_male", ()))
    - set(TABLES[h["navne"]].settings.get("byname_female", ()))
}


def test_no_woman_carries_a_mans_byname(pcs, npcs):
    assert "Sortskæg" in MALE_ONLY_BYNAMES
    women = [c for c in pcs + npcs if c.get("kon") == "kvinde"]
    assert len(women) > 2000
    for char in women:
        assert not any(char["name"].endswith(" " + b) for b in MALE_ONLY_BYNAMES), char["name"]
    men = [c["name"] for c in pcs + npcs if c.get("kon") == "mand"]
    assert any(n.endswith(" Sortskæg") for n in men)  # the byname is still drawn for men


def test_every_hedeheks_is_a_woman(npcs):
    hekse = [c for c in npcs if c["template"] == "hedeheks"]
    assert len(hekse) > 50
    assert {c["kon"] for c in hekse} == {"kvinde"}
    assert SKABELONER["hedeheks"]["when"] == {"gender": "female"}


def test_grej_that_cannot_break_is_marked_and_the_slid_rule_is_on_the_sheet(pcs, npcs):
    """Holdbar means the grej cannot break on a fumlerul: some grej is, the sheet says
    so only where a character carries such grej, and it always gives the slid rule."""
    holdbar = {e["id"] for e in TABLES["grej"].entries if e.get("holdbar")}
    assert {"signetring", "amulet"} <= holdbar
    marked = unmarked = 0
    for char in pcs[:400] + npcs[:400]:
        if not char["grej"]:
            continue
        sheet = _sheet(char)
        assert "fumlerul" in sheet
        held = [i for i in char["grej"] if i["id"] in holdbar]
        assert all(i.get("holdbar") is True for i in held)
        if held:
            marked += 1
            assert "Holdbar" in sheet and "Holdbart grej går aldrig i stykker." in sheet
        else:
            unmarked += 1
            assert "Holdbar" not in sheet and "  nej  " not in sheet
    assert marked > 20 and unmarked > 20


def test_the_tilstande_carry_their_text_and_the_fokus_rule(pcs):
    for char in pcs[:100]:
        sheet = " ".join(_sheet(char).split())
        assert f"giver +{char['fokus_bonus']} til evnerullet" in sheet
        for tilstand in char["tilstande"]:
            text = TABLES["tilstande"].get(tilstand)["description"]
            assert " ".join(text.split()) in sheet, tilstand


# -- the roster ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["pc", "npc"])
def test_the_rosters_short_evner_are_spelled_out_under_it(kind):
    short = TABLES.labels.shorts
    for seed in (3, 30, 300):
        out = run("lef", kind, "-n", "40", "--seed", str(seed), "--width", "80").stdout
        lines = out.splitlines()
        assert max(len(line) for line in lines) <= 80
        seed = TABLES.labels.word("seed") + " "  # a member's seed line under its row
        rows = [line for line in lines[2 : lines.index("")] if not line.lstrip().startswith(seed)]
        body = "\n".join(rows)  # the rows, above the legend
        legend = " ".join(out[out.index("Forkortelser:") :].split())
        used = set(re.findall(r"\b([A-ZÆØÅ][a-zæøå]{2}) \d+\b", body))
        assert used, body
        for evne in EVNER:
            form = short[evne][-1]
            assert len(form) == 3
            assert f"{form} = {TABLES.labels(evne)}" in legend
        assert used <= {short[e][-1] for e in EVNER}
        assert not re.search(r"\b(Snil|Kari|Okku|Myto|Tekn)\b", out)  # the old cryptic forms


def test_a_narrow_roster_says_which_columns_it_left_out():
    out = run("lef", "npc", "-n", "20", "--seed", "3", "--width", "60").stdout
    assert max(len(line) for line in out.splitlines()) <= 60
    assert "Ikke plads til (står i -f json): Stærkeste evner, Fokus." in " ".join(out.split())
    assert "Forkortelser: Fys" not in out  # the evner column is not shown, nor its legend
