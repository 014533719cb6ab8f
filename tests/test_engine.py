"""Seeds, names and the procedure machinery shared by every system."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from chargen import names
from chargen.errors import ChargenError
from chargen.seeds import SEED_LIMIT, character_seed
from chargen.slugs import normalize


def test_first_character_uses_the_batch_seed_and_others_are_derived():
    assert character_seed(123, 0) == 123
    seeds = [character_seed(123, i) for i in range(1, 100_000)]
    assert len(set(seeds)) == len(seeds)
    assert all(0 <= s < SEED_LIMIT for s in seeds)
    assert character_seed(124, 1) != character_seed(123, 1)


def test_derived_seeds_are_stable_across_versions():
    # Scripts keep seeds: this mapping may never change.
    assert character_seed(0, 5) == 899919476812197
    assert character_seed(2024, 1) == 4027210032700501
    assert character_seed(1, 1) == 7545560759907481


def test_name_lists_are_fakers_own():
    from faker.providers.person.sv_SE import Provider as Swedish

    picker = names.picker("sv_SE")
    # Faker's list, less the names it weights more as men's (Ali, Ahmed, ...: names.gender_sorted)
    male = Swedish.first_names_male
    female = Swedish.first_names_female
    kept = tuple(n for n, w in female.items() if not male.get(n, 0) > w)
    assert picker.given["female"].names == kept and "Ali" not in kept
    assert len(kept) == len(female) - 9
    assert picker.family["male"].names == tuple(Swedish.last_names)


def test_weighted_names_follow_fakers_weights():
    from faker.providers.person.hu_HU import Provider as Hungarian

    weights = Hungarian.last_names
    rng = random.Random(5)
    picks = Counter(names.picker("hu_HU").family["male"].pick(rng) for _ in range(100_000))
    total = sum(weights.values())
    for name, weight in list(weights.items())[:5]:
        assert abs(picks[name] / 100_000 - weight / total) < 0.01


def test_names_are_reproducible_and_gendered():
    picker = names.picker("sv_SE")
    a = [picker.pick(random.Random(s)) for s in range(50)]
    b = [picker.pick(random.Random(s)) for s in range(50)]
    assert a == b
    for name, gender in a:
        given = name.split()[0]
        assert given in picker.given[gender].names


def test_family_first_order():
    name, _ = names.picker("hu_HU").pick(random.Random(1), family_first=True)
    assert name.split()[0] in names.picker("hu_HU").family["male"].names


def test_latin_names_for_japanese_and_russian():
    for locale in ("ja_JP", "ru_RU"):
        picker = names.picker(locale, latin=True)
        for seed in range(200):
            name, _ = picker.pick(random.Random(seed))
            assert name.replace(" ", "").replace("-", "").replace("'", "").isascii(), name


def test_romanize_cyrillic():
    assert names.romanize("Щукин") == "Shchukin"
    assert names.romanize("Юлия") == "Yuliya"
    assert names.romanize("Smith") == "Smith"


def test_unknown_locale_lists_the_valid_ones():
    with pytest.raises(ChargenError, match="sv_SE"):
        names.picker("xx_XX")


def test_normalize_takes_hyphens_spaces_and_case():
    assert normalize("Free-Luna") == "free_luna"
    assert normalize(" nagyon szivos ") == "nagyon_szivos"


@pytest.mark.parametrize("weights_are", ["whole", "fractional", "all 1"])
def test_drawing_several_rows_at_once_picks_what_one_at_a_time_picks(weights_are):
    """Pool.pick_many (a leisure skill draw, any steady draw of several rows) gives what
    picking from a pool of the rows not yet taken gives, one at a time, from the same
    numbers (what Pool.pick_without promises too), whether its weights are whole
    numbers, fractions or all 1 (counted in places, Pool._pick_many_unit)."""
    from chargen.seeds import Stream
    from chargen.tables import Pool

    pick = random.Random(5)
    for case in range(3000):
        size = pick.randint(1, 12 if weights_are != "all 1" else 60)
        weights = [pick.choice([1, 1, 2, 3, 5, 10, 250]) for _ in range(size)]
        if weights_are == "fractional":  # (a table's weights are above 0: tables.py refuses others)
            weights = [w + pick.choice([0, 0.25, 0.1]) for w in weights]
        if weights_are == "all 1":
            weights = [1] * size
        entries = [{"id": f"r{i}", "weight": w} for i, w in enumerate(weights)]
        pool = Pool(entries)
        count = pick.randint(1, size + 1)
        many = pool.pick_many(Stream(case), count)
        if count > size:
            assert many is None
            continue
        stream, one_by_one = Stream(case), []
        for _ in range(count):
            rest = Pool(e for e in entries if all(e is not t for t in one_by_one))
            one_by_one.append(rest.pick(stream))
            if len(one_by_one) > 1:  # pick_without, on the same numbers, agrees
                again = Stream(case)
                for _ in range(len(one_by_one) - 1):
                    again.random()
                assert pool.pick_without(again, one_by_one[:-1]) is one_by_one[-1]
        assert many == one_by_one, (weights, count)
        assert len({id(e) for e in many}) == count  # never the same row twice


@pytest.mark.parametrize(
    "pattern",
    ["namn_*", "namn_*_x", "namn_?", "n[ab]mn_*", "*", "namn", "namn_", "karriarhandelser_*"],
)
def test_a_spec_pattern_matches_what_fnmatch_matches(pattern):
    """tables._matches, which reads "prefix_*" without compiling it, agrees with
    fnmatch on patterns, and a name that is no pattern matches nothing."""
    import fnmatch

    from chargen.tables import _matches

    names_tried = ["namn_", "namn_a", "namn_a_x", "namn", "nbmn_b", "xnamn_a", "", "namn_*"]
    names_tried += ["karriarhandelser_polis", "karriarhandelser"]
    wild = any(c in pattern for c in "*?[")
    for name in names_tried:
        assert _matches(name, pattern) == (wild and fnmatch.fnmatchcase(name, pattern)), name


def test_every_table_of_every_system_finds_the_spec_it_found_before():
    """spec_for (memoised, patterns read without fnmatch where they can be): the
    first spec that names or matches the table, for every table of every system."""
    import fnmatch

    from chargen.systems import available, load

    for sid in available():
        pack = load(sid).tables()
        for name in pack.names():
            wanted = pack.specs.get(name) or next(
                (
                    spec
                    for pattern, spec in pack.specs.items()
                    if any(c in pattern for c in "*?[") and fnmatch.fnmatchcase(name, pattern)
                ),
                None,
            )
            assert pack.spec_for(name) is wanted and pack.spec_for(name) is wanted, (sid, name)
