"""Karma content that fits the character (issue 25, karma): the sentence never
contradicts itself, the vice never contradicts the Bakgrund, and the Särdrag fit the
Bakgrunder. Each pair below is one a Swedish reader flagged; the tables exclude it
(conditions, not code), and a sweep of thousands of characters shows none of them."""

from __future__ import annotations

import pytest
from conftest import make

from chargen.systems import load

TABLES = load("karma").tables()
SEEDS = 6000

# (vice id, virtue id): the sentence says one and then its opposite
SENTENCES = {
    ("avundas", "tar_inte_mer_an_behovs"),  # --seed 1294290936652203
    ("smiter", "lojal"),  # --seed 3263356895757523
    ("latsas_vara_sjuk", "lojal"),
    ("sig_sjalv_forst", "lojal"),
    ("sig_sjalv_forst", "trogen_van"),
    ("skryter", "talar_sanning"),
    ("tar_at_sig_aran", "talar_sanning"),
    ("elaka_rykten", "talar_sanning"),
    ("fjaskar", "star_upp_for_de_svaga"),
    ("tal_inte_framlingar", "lyssnar_innan_domen"),
    ("smiter", "skyddar_barn_och_gamla"),
    ("dagdrommer", "huvudet_kallt"),
    ("langfingrad", "rattvisans_sida"),
    ("snattar", "rattvisans_sida"),
    ("smiter", "ger_sig_inte"),
    ("gralar", "artig"),
    ("brak_pa_krogen", "artig"),
    ("latsas_vara_sjuk", "biter_ihop"),
    ("smiter", "tar_ansvar"),
    ("hamnas", "gor_ingen_illa"),
}
# (vice id, Bakgrund id): the vice denies what the Bakgrund is
VICES = {
    ("ser_ner_pa_fattiga", "tiggare"),  # --seed 8718695314980238
    ("tal_inte_framlingar", "krogvard"),
    ("plagar_djur", "ryttare"),
    ("vagrar_ta_order", "soldat"),
    ("morkradd", "klok"),
}
# (Särdrag id, Bakgrund id): a body that cannot do the work
SARDRAG = {
    ("stammar", "prast"),
    ("stammar", "gycklare"),
    ("stammar", "hovdam"),
    ("stammar", "kopman"),
    ("dovt_hor", "spejare"),
    ("dovt_hor", "vaktare"),
    ("dovt_hor", "skald"),
    ("dovt_hor", "jagare"),
    ("traben", "kurir"),
    ("traben", "ficktjuv"),
    ("haltar", "kurir"),
    ("haltar", "spejare"),
    ("narsynt", "jagare"),
    ("narsynt", "vaktare"),
    ("enarmad", "jagare"),
    ("enarmad", "smed"),
    ("enarmad", "tornerare"),
    ("darrhant", "lakekvinna"),
    ("darrhant", "alkemist"),
    ("okansliga_hander", "ficktjuv"),
    ("fingrar_saknas", "bardskarare"),
    ("jattelik", "ficktjuv"),
    ("fetlagd", "tiggare"),
}


def _names(entry: dict) -> set[str]:
    return {entry["id"], *entry.get("tags", ())}


def _excluded(a: dict, b: dict) -> bool:
    return bool(set(a.get("excludes", ())) & _names(b) or set(b.get("excludes", ())) & _names(a))


@pytest.mark.parametrize(
    ("pairs", "left", "right"),
    [
        (SENTENCES, "laster", "dygder"),
        (VICES, "laster", "bakgrunder"),
        (SARDRAG, "sardrag", "bakgrunder"),
    ],
)
def test_the_tables_exclude_every_flagged_pair(pairs, left, right):
    for a, b in sorted(pairs):
        assert _excluded(TABLES[left].get(a), TABLES[right].get(b)), (a, b)


@pytest.fixture(scope="module")
def everyone() -> list[dict]:
    return make("karma", "pc", count=SEEDS, seed=2525) + make(
        "karma", "npc", count=SEEDS, seed=2526
    )


def test_no_character_has_a_flagged_pair(everyone):
    found = []
    for char in everyone:
        backgrounds = {b["id"] for b in char["bakgrunder"]}
        traits = {s["id"] for s in char["sardrag"]}
        found += [p for p in SENTENCES if p == (char["last_id"], char["dygd_id"])]
        found += [p for p in VICES if p[0] == char["last_id"] and p[1] in backgrounds]
        found += [p for p in SARDRAG if p[0] in traits and p[1] in backgrounds]
    assert not found, sorted(set(found))


@pytest.mark.parametrize("system_id", ["karma", "matinee", "lef", "savage", "spelsystemet"])
def test_list_shows_no_raw_placeholders(system_id):
    """`--list` writes for no one character: "fuskar när han/hon spelar kort", and the
    sentence's form as ‹namn› ‹last› men han/hon ‹dygd›, never "{han}"."""
    from chargen.output import listing

    pack = load(system_id).tables()
    shown = [pack[n] for n in pack.names() if pack[n].kind != "labels"]  # its own templates
    text = "".join(listing(shown, "text", pack, 200))
    assert "{" not in text and "}" not in text, [x for x in text.splitlines() if "{" in x][:5]
    if system_id == "karma":
        assert "fuskar när han/hon spelar kort" in text
        assert "‹namn› ‹last› men han/hon ‹dygd›" in text


def test_npc_rosters_show_the_sentence_or_name_it_as_left_out():
    import json

    from conftest import run

    chars = json.loads(run("karma", "npc", "-n", "3", "--seed", "5", "-f", "json").stdout)
    wide = run("karma", "npc", "-n", "3", "--seed", "5", "--width", "1000").stdout
    assert "Last och dygd" in wide
    assert all(c["mening"] in wide for c in chars)
    narrow = run("karma", "npc", "-n", "3", "--seed", "5", "--width", "80").stdout
    assert "Får inte plats" in narrow and "Last och dygd" in narrow.split("Får inte plats")[1]
    band = run("karma", "npc", "-n", "3", "--seed", "5", "--band").stdout
    assert "Last och dygd" in band
