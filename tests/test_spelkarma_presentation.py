"""spelsystemet and karma as a reader meets them (issue 11): step batches in the sheet's
words, rosters that abbreviate alike and say so, weapon codes explained, Swedish capitals.
Also the engine's generic roster legend and same-priority shrinking these rely on."""

from __future__ import annotations

import re

from chargen import output
from chargen.labels import Labels
from chargen.procedure import generate
from chargen.render import choose_columns
from chargen.sheet import Column
from chargen.systems import load

SP = load("spelsystemet")
SP_PACK = SP.tables()
KARMA = load("karma")
KARMA_PACK = KARMA.tables()


def _text(system, pack, kind="pc", seed=1, count=1, step=None, fmt="table", width=80) -> str:
    items = list(generate(system, pack, kind, {}, count, seed, step=step))
    target = system.step(step) if step else None
    return "".join(output.render(system, pack, iter(items), fmt, count, target, width))


# -- the engine: legend, left-out columns, shrinking alike ------------------------------------


def _labels(**words: str) -> Labels:
    return Labels(
        {
            "labels": {"name": "Namn", "stark": "Stark", "talig": "Tålig", "not": "Anteckning"},
            "short": {"stark": "Sta", "talig": "Tål"},
            "words": words,
        }
    )


def test_columns_of_one_priority_shrink_together():
    cols = [Column("name", priority=9), Column("stark", priority=6), Column("talig", priority=6)]
    forms = [["Namn"], ["Stark", "Sta"], ["Tålig", "Tål"]]
    cells = [["Ann", "2", "3"]]
    # room for one short header but not two full ones: both shrink, never one of them
    keep, heads, _ = choose_columns(cols, forms, cells, 15)
    assert heads == ["Namn", "Sta", "Tål"]
    keep, heads, _ = choose_columns(cols, forms, cells, 40)
    assert heads == ["Namn", "Stark", "Tålig"]


def test_roster_legend_spells_out_short_headers_and_names_left_out_columns():
    cols = [
        Column("name", priority=9),
        Column("stark", priority=6),
        Column("talig", priority=6),
        Column("not", priority=1),
    ]
    chars = [{"name": f"Person {n}", "stark": n, "talig": n, "not": "lång " * 8} for n in range(3)]
    words = {"legend": "Förkortningar: {items}.", "dropped": "Utelämnat: {items}."}
    text = "".join(output.roster(cols, chars, False, _labels(**words), 20))
    assert "Förkortningar: Sta = Stark, Tål = Tålig." in " ".join(text.split())
    assert "Utelämnat: Anteckning." in " ".join(text.split())
    assert all(len(line) <= 20 for line in text.splitlines())
    # without the words (a labels file that does not opt in) nothing is added
    plain = "".join(output.roster(cols, chars, False, _labels(), 20))
    assert "Förkortningar" not in plain and plain.count("\n\n") == 0
    # a column empty in every row is not "left out": there was nothing to show
    empty = [{"name": "A", "stark": 1, "talig": 1, "not": ""}]
    assert "Utelämnat" not in "".join(output.roster(cols, empty, False, _labels(**words), 30))


def test_an_empty_list_reads_as_none_in_list_and_prompts():
    text = "".join(output.listing([SP_PACK["yrken"]], "table", SP_PACK, 80))
    riddare = text[text.index("Riddare:") :].split("Jägare:")[0]
    assert "Avståndsvapen: inga" in " ".join(riddare.split())


# -- spelsystemet ---------------------------------------------------------------------------


def test_a_step_batch_shows_the_parts_columns_not_the_fields():
    for step in ("yrke", "vapen", "rustning", "grundegenskaper", "beraknade"):
        text = _text(SP, SP_PACK, count=5, step=step)
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), (step, text)  # no skill keys
        assert "{" not in text
    yrke = _text(SP, SP_PACK, count=5, step="yrke", seed=4)
    assert "Bästa färdigheter" in yrke and "Modersmål" in yrke
    assert yrke.splitlines()[0].split()[:2] == ["Namn", "Yrke"]  # one Yrke column, not two


def test_a_step_alone_shows_only_its_columns():
    beraknade = _text(SP, SP_PACK, step="beraknade", seed=3)
    assert "Artmaximum" not in beraknade and "SP H" not in beraknade  # not made yet
    rustning = _text(SP, SP_PACK, step="rustning", seed=3)
    assert "SP H" in rustning and not re.search(r"^Kroppsdel\s+KP", rustning, re.M)
    grund = _text(SP, SP_PACK, step="grundegenskaper", seed=3)
    assert grund.count("Artmaximum") == 1  # in the table, not again as a list
    genre = _text(SP, SP_PACK, step="genre", seed=3)
    assert not re.search(r"^Namn\s*$", genre, re.M)  # no empty name row before the name


def test_weapon_codes_are_explained_where_the_sheet_uses_them():
    seen = set()
    for seed in range(1, 120):
        char = next(generate(SP, SP_PACK, "pc", {}, 1, seed))
        text = _text(SP, SP_PACK, seed=seed)
        codes = [w["skada"] for w in char["vapen"]]
        if any(c.startswith(("Grund", "G")) for c in codes):
            assert "Grund är rollpersonens Grundskada" in text
            seen.add("grund")
        if any(c.endswith("*") and not c.endswith("**") for c in codes):
            assert "* efter skadan: vapnet gör som minst 1T6" in text
            seen.add("star")
        if any("eldhastighet" in w for w in char["vapen"]):
            assert "Eh: eldhastighet" in " ".join(text.split())
            seen.add("eh")
        if any("langd" in w for w in char["vapen"]):
            assert "L: närstridsvapnets relativa längd" in text
    assert seen == {"grund", "star", "eh"}


def test_names_use_swedish_capitals():
    """Only the first word capitalised ("Förbinda sår", "Hårt läder"); the document's
    English-style capitals are gone. A <klass> placeholder keeps its own."""
    for table in ("fardigheter", "rustningar", "hjalmar", "narstridsvapen"):
        for entry in SP_PACK[table].entries:
            # "Kult / Religion <Gud / Kyrka>": each of the document's two names on its own
            for name in re.sub(r"<[^>]*>", "", entry["name"]).split("/"):
                assert not any(w[:1].isupper() for w in name.split()[1:]), entry["name"]


def test_a_verb_skill_writes_its_specification_in_lower_case():
    found = set()
    for char in generate(SP, SP_PACK, "pc", {}, 300, 11):
        for label in char["fardighetsnamn"].values():
            for prefix in ("Spela", "Rida", "Styra", "Använda"):
                if label.startswith(prefix + " "):
                    assert label[len(prefix) + 1].islower(), label
                    found.add(prefix)
    assert found == {"Spela", "Rida", "Styra", "Använda"}


def test_roster_fits_and_explains_its_abbreviations():
    """Over many batches (how far a roster shrinks depends on its names): every line
    fits, every short header shown is spelled out under the roster, and the columns
    left out are named; the shortest Grundskada header, G, is among those seen."""
    labels = SP_PACK.labels
    shorts = {s: labels(c.key) for c in SP.roster for s in labels.short(c.key)}
    explained = set()
    for seed in range(1, 16):
        for width in (110, 80, 60):
            text = _text(SP, SP_PACK, "npc", seed=seed, count=12, width=width)
            assert all(len(line) <= width for line in text.splitlines())
            flat = " ".join(text.split())
            for header in text.splitlines()[0].split():
                if header in shorts and header != shorts[header]:
                    assert f"{header} = {shorts[header]}" in flat, (seed, width, header)
                    explained.add((width, header))
            assert "Får inte plats (finns i -f json):" in text
    assert (110, "G") in explained  # the shortest Grundskada header, spelled out


# -- karma --------------------------------------------------------------------------------


def test_karma_roster_headers_are_one_consistent_abbreviation_explained():
    shorts = ["Sta", "Tål", "Smi", "Upp", "Öve", "Stv", "Trä"]
    text = _text(KARMA, KARMA_PACK, "npc", seed=2, count=8)
    assert text.splitlines()[0].split()[2:9] == shorts  # all seven at 80 columns
    legend = " ".join(text.split())
    assert "Sta = Stark" in legend and "Stv = Stridsvan" in legend
    # at 60 some go, named under the roster; those left are abbreviated alike
    text = _text(KARMA, KARMA_PACK, "npc", seed=2, count=8, width=60)
    head = text.splitlines()[0].split()
    assert all(len(line) <= 60 for line in text.splitlines())
    shown = [h for h in head if h in shorts]
    assert shown == shorts[: len(shown)] and not {"Stark", "Tålig"} & set(head)
    assert "Får inte plats (finns i -f json):" in text and "Träffsäker" in text


def test_karma_sardrag_typ_reads_in_swedish():
    listing = "".join(output.listing([KARMA_PACK["sardrag"]], "table", KARMA_PACK, 80))
    assert "fördel" in listing and "fordel" not in listing
    for seed in range(1, 60):
        text = _text(KARMA, KARMA_PACK, seed=seed) + _text(
            KARMA, KARMA_PACK, step="sardrag", seed=seed
        )
        assert "fordel" not in text


def test_gendered_yrke_and_template_names_agree_with_the_character():
    """Krigarnunna, Spelkvinna, Köpkvinna, Sjökvinna for a woman; the -man forms for a man."""
    seen = set()
    for kind, count in (("pc", 1500), ("npc", 1500)):
        for char in generate(SP, SP_PACK, kind, {}, count, 17):
            for table, field, shown in (
                ("yrken", "yrke", "yrke_namn"),
                ("mallar", "template", "mall_namn"),
            ):
                if not char.get(field):
                    continue
                name = SP_PACK[table].get(char[field])["name"]
                if isinstance(name, dict) and not SP_PACK[table].get(char[field]).get(
                    "namn_per_genre", {}
                ).get(char["genre"]):
                    assert char[shown] == name[char["kon"]], (char["name"], char[shown])
                    seen.add((char[field], char["kon"]))
    assert {("spelman", "female"), ("spelman", "male"), ("kopman", "female")} <= seen


def test_each_weapon_carried_has_its_rules_and_notes_on_the_sheet():
    seen = set()
    for seed in range(1, 200):
        char = next(generate(SP, SP_PACK, "pc", {}, 1, seed))
        text = " ".join(_text(SP, SP_PACK, seed=seed).split())
        for w in char["vapen"]:
            table = SP_PACK["narstridsvapen" if "langd" in w else "avstandsvapen"]
            entry = table.get(w["id"])
            for key in ("rules", "anmarkning"):
                if entry.get(key):
                    assert " ".join(entry[key].split()) in text, (seed, w["namn"], key)
                    seen.add((w["id"], key))
            if w["typ"] == "Stick":
                assert "Stick: ett stickvapen som får in en kritisk träff fastnar" in text
    assert {("svard", "rules"), ("skold", "rules"), ("skold", "anmarkning")} <= seen
