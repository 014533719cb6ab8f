"""Conditions in tables (when, unless, requires, excludes, tags), gendered text,
steering by pinned choices and the linter, forced on a small pack of their own."""

from __future__ import annotations

import json
import re
import textwrap
from collections import Counter
from pathlib import Path

import pytest
from conftest import assert_usage_error, run

from chargen import names
from chargen.conditions import fill, filler, resolve_text
from chargen.errors import ChargenError, ChoiceError, TableError
from chargen.procedure import Context, Option, Step, System, generate
from chargen.systems import load
from chargen.tables import NAME_SPEC, Spec, Tables

SPECS = {
    "korporationer": Spec("definitions"),
    "arketyper": Spec("definitions"),
    "handelser": Spec("roll"),
    "drag": Spec("definitions"),
    "sysslor": Spec("roll", {"yrke": "text"}),
    "namn_*": NAME_SPEC,
    "extra_*": Spec("definitions", {"titel": "str"}),
}

FILES = {
    "korporationer": """
        # Authored for the tests.
        [[entries]]
        id = "bauhaus"
        [[entries]]
        id = "mishima"
        [[entries]]
        id = "brodraskapet"
        """,
    "arketyper": """
        [[entries]]
        id = "krigare"
        [[entries]]
        id = "mystiker"
        name = { male = "Mystiker", female = "Mystika" }
        when = { megakorporation = "brodraskapet" }
        [[entries]]
        id = "geisha"
        when = { gender = "female", megakorporation = ["mishima", "bauhaus"] }
        [[entries]]
        id = "samuraj"
        unless = { megakorporation = ["bauhaus", "brodraskapet"] }
        """,
    "handelser": """
        die = "d6"
        [[entries]]
        roll = "1-2"
        result = { male = "var sångare", female = "var sångerska" }
        [[entries]]
        roll = 3
        result = "{Han} ljög men {han} log mot {honom}, {han/hon} var {sångare/sångerska} {{inte}}"
        [[entries]]
        roll = 4
        result = "Flätat skägg"
        when = { gender = "male" }
        [[entries]]
        roll = 5
        result = "Talar aldrig med en mishima"
        unless = { megakorporation = "mishima" }
        [[entries]]
        roll = 6
        result = "Hemlig"
        requires = ["krigare"]
        """,
    "drag": """
        [[entries]]
        id = "liten"
        tags = ["storlek"]
        excludes = ["storlek"]
        [[entries]]
        id = "jattelik"
        tags = ["storlek"]
        excludes = ["storlek"]
        [[entries]]
        id = "pacifist"
        excludes = ["vapen"]
        [[entries]]
        id = "svard"
        tags = ["vapen"]
        [[entries]]
        id = "doev"
        [[entries]]
        id = "eber"
        excludes = ["doev"]
        """,
    "sysslor": """
        [[entries]]
        weight = 1
        result = "x"
        yrke = { male = "Hovman", female = "Hovdam" }
        """,
    "namn_medeltid": """
        # Authored for the tests.
        male = ["Erik", "Lars"]
        female = ["Ingrid"]
        patronym = { male = "{far}sson", female = "{far}sdotter" }
        """,
}


def write_pack(root: Path, files: dict[str, str] = FILES) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (root / f"{name}.toml").write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return root


def _korp(char: dict, ctx: Context) -> None:
    char["megakorporation"] = ctx.choose("megakorporation", "korporationer")["id"]


def _arketyp(char: dict, ctx: Context) -> None:
    entry = ctx.choose("arketyp", "arketyper")
    char["arketyp"], char["arketyp_namn"] = entry["id"], ctx.text(entry.get("name", entry["id"]))


def _handelse(char: dict, ctx: Context) -> None:
    char["handelse"] = ctx.text(ctx.roll_table("handelser")[0]["result"])


def _drag(char: dict, ctx: Context) -> None:
    char["drag"] = [e["id"] for e in ctx.choose_many("drag", "drag", 3)]


def _namn(char: dict, ctx: Context) -> None:
    char["name"], char["kon"] = ctx.authored_name("namn_medeltid")


STEPS = [
    Step("megakorporation", _korp),
    Step("arketyp", _arketyp),
    Step("handelse", _handelse),
    Step("drag", _drag),
    Step("namn", _namn),
]


def make_system(**extra) -> System:
    return System(
        id="demo",
        name="Demo",
        language="sv",
        locale="sv_SE",
        specs=SPECS,
        effect_keys=frozenset(),
        pc=STEPS,
        npc=STEPS,
        sheet=lambda char, tables: [],
        roster=[],
        pc_options=[
            Option("megakorporation", table="korporationer"),
            Option("arketyp", table="arketyper"),
            Option("drag", table="drag", multiple=True),
        ],
        facts={"megakorporation": "korporationer", "arketyp": "arketyper"},
        **extra,
    )


@pytest.fixture()
def pack(tmp_path):
    system = make_system()
    folder = write_pack(tmp_path / "demo")
    tables = Tables(
        "demo",
        SPECS,
        frozenset(),
        [folder],
        facts=system.facts,
        pronouns=system.pronoun_set(),
    )
    return system, tables


def chars(pack, count=300, options=None, kind="pc", seed=7, trace=None):
    system, tables = pack
    return list(generate(system, tables, kind, options or {}, count, seed, trace=trace))


def test_the_pack_passes_the_linter(pack):
    assert pack[1].check() == []


# -- when / unless ------------------------------------------------------------------


def test_when_holds_on_every_key(pack):
    seen = Counter()
    for char in chars(pack, 600):
        gender = "female" if char["kon"] == "female" else "male"
        if char["arketyp"] == "geisha":
            assert gender == "female" and char["megakorporation"] in ("mishima", "bauhaus")
        if char["arketyp"] == "mystiker":
            assert char["megakorporation"] == "brodraskapet"
        if char["handelse"] == "Flätat skägg":
            assert gender == "male"
        seen[char["arketyp"]] += 1
    assert set(seen) == {"krigare", "mystiker", "geisha", "samuraj"}


def test_unless_fires_on_any_key(pack):
    rows = chars(pack, 600)
    assert not any(
        c["arketyp"] == "samuraj" and c["megakorporation"] in ("bauhaus", "brodraskapet")
        for c in rows
    )
    assert not any(
        c["handelse"] == "Talar aldrig med en mishima" and c["megakorporation"] == "mishima"
        for c in rows
    )
    assert any(c["handelse"] == "Talar aldrig med en mishima" for c in rows)


def test_requires_needs_the_name_drawn_before(pack):
    rows = chars(pack, 600)
    hemlig = [c for c in rows if c["handelse"] == "Hemlig"]
    assert hemlig and all(c["arketyp"] == "krigare" for c in hemlig)


def test_a_die_table_rerolls_a_row_that_does_not_fit_and_says_so(pack):
    rerolled = 0
    for char in chars(pack, 300):
        events = [e for e in char["historik"] if e.get("table") == "handelser"]
        assert events[-1].get("rerolled") is None
        for event in events[:-1]:
            assert event["rerolled"] is True and event["step"] == "handelse"
            rerolled += 1
    assert rerolled > 20


# -- excludes -------------------------------------------------------------------------


def test_excludes_are_symmetric_and_tags_make_groups(pack):
    for char in chars(pack, 800):
        drag = set(char["drag"])
        assert not {"liten", "jattelik"} <= drag
        assert not {"pacifist", "svard"} <= drag  # svard never lists pacifist: symmetric
        assert not {"eber", "doev"} <= drag
    both = Counter(frozenset(c["drag"]) for c in chars(pack, 800))
    assert any("pacifist" in d for d in both) and any("svard" in d for d in both)


def test_a_pinned_entry_keeps_what_it_excludes_out_of_random_draws(pack):
    for char in chars(pack, 200, {"drag": ["pacifist"]}):
        assert "svard" not in char["drag"] and "pacifist" in char["drag"]
    for char in chars(pack, 200, {"drag": ["svard"]}):
        assert "pacifist" not in char["drag"]


def test_pinned_entries_that_exclude_each_other_are_exit_2(pack):
    with pytest.raises(ChargenError, match="--drag liten rules out --drag jattelik"):
        chars(pack, 1, {"drag": ["liten", "jattelik"]})
    with pytest.raises(ChargenError, match="--drag svard rules out --drag pacifist|pacifist"):
        chars(pack, 1, {"drag": ["svard", "pacifist"]})


# -- gendered text ------------------------------------------------------------------


def test_gendered_text_follows_the_gender(pack):
    for char in chars(pack, 400):
        if char["handelse"].startswith("var "):
            want = "var sångerska" if char["kon"] == "female" else "var sångare"
            assert char["handelse"] == want
        if char["arketyp"] == "mystiker":
            assert char["arketyp_namn"] == ("Mystika" if char["kon"] == "female" else "Mystiker")


def test_placeholders_are_filled_from_the_pronoun_set():
    sv = make_system().pronoun_set()
    text = "{Han} ljög men {han} log mot {honom}, {han/hon} var {sångare/sångerska} {{inte}}"
    assert resolve_text(text, "female", sv) == (
        "Hon ljög men hon log mot henne, hon var sångerska {inte}"
    )
    assert (
        resolve_text(text, "male", sv) == "Han ljög men han log mot honom, han var sångare {inte}"
    )
    da = System("x", "x", "da", "da_DK", {}, set(), [], [], lambda c, t: [], []).pronoun_set()
    assert resolve_text("{han} så {ham}, {hans} hest", "female", da) == "hun så hende, hendes hest"
    assert resolve_text("{namn} ljög", "male", sv, {"namn": "Erik"}) == "Erik ljög"


FILLED = [
    "{namn} {last} men {han} {dygd}",
    "{Han} ljög om {namn}, {han/hon} var {sångare/sångerska} {{inte}} {okänd}",
    "}}{namn}{{ {namn}{namn} {antal} gånger {Hans}",
    "{namn} har {braces} {x.y} {0}",
    {"male": "{namn} är kung", "female": "{namn} är drottning {hon}"},
    "inga ord alls",
]
WORDS = [
    {"namn": "Erik", "last": "super {han}", "dygd": "håller {{ sitt ord", "antal": 3},
    {"namn": "Åsa {x}", "braces": "{}", "antal": 2.5, "x.y": "punkt"},
    {"0": "noll", "namn": None},
]


def _filled_by_hand(text, gender, pronouns, words):
    """The document of resolve_text, written out on its own: {{ and }} are braces,
    {male/female} takes its side, a word of `words` its str(), a pronoun of the set its
    form (capitalised as written), anything else between braces stays as it is."""
    if isinstance(text, dict):
        text = text[gender]
    side = 1 if gender == "female" else 0

    def one(match):
        whole, inner = match.group(0), match.group(1)
        if whole in ("{{", "}}"):
            return whole[0]
        if "/" in inner:
            return inner.split("/", 1)[side]
        if inner in words:
            return str(words[inner])
        key = inner[:1].lower() + inner[1:]
        if key in pronouns:
            word = pronouns[key][side]
            return word[:1].upper() + word[1:] if inner[:1].isupper() else word
        return whole

    return re.sub(r"\{\{|\}\}|\{([^{}]*)\}", one, text)


@pytest.mark.parametrize("text", FILLED)
def test_a_filler_fills_as_resolve_text_does(text):
    """Context.text with words resolves a text once but for its words
    (conditions.filler) and joins them in (conditions.fill), as resolve_text does: for
    every gender and set of words it is the text the rules give, braces, pronouns,
    unknown placeholders and words that are no plain names included; a word is never
    read as a format field."""
    sv = make_system().pronoun_set()
    for gender in ("male", "female"):
        for words in WORDS:
            expected = _filled_by_hand(text, gender, sv, words)
            assert fill(filler(text, gender, sv, words), words) == expected, (text, words)
            assert resolve_text(text, gender, sv, words) == expected, (text, words)
    assert filler(7, "male", sv, {}) is None


def test_ctx_text_with_words_is_resolve_text(pack):
    system, tables = pack
    ctx = Context(system, tables, "pc", {})
    ctx.start(3, 0)
    for gender in ("male", "female"):
        ctx.facts["gender"] = gender
        for text in FILLED:
            for words in WORDS:
                for _ in range(2):  # worked out, then from the memo
                    expected = resolve_text(text, gender, ctx._pronouns, words)
                    assert ctx.text(text, **words) == expected


def test_ctx_text_resolves_a_spec_field_of_type_text(pack):
    system, tables = pack
    ctx = Context(system, tables)
    ctx.start(1, 0)
    ctx.set_fact("gender", "female")
    assert ctx.text(tables["sysslor"].entries[0]["yrke"]) == "Hovdam"


# -- steering -------------------------------------------------------------------------


def test_a_pinned_choice_steers_the_draws_before_it(pack):
    rows = chars(pack, 100, {"arketyp": "mystiker"})
    assert {c["megakorporation"] for c in rows} == {"brodraskapet"}
    rows = chars(pack, 100, {"arketyp": "geisha"})
    assert {c["kon"] for c in rows} == {"female"}
    assert {c["megakorporation"] for c in rows} == {"mishima", "bauhaus"}
    rows = chars(pack, 100, {"arketyp": "samuraj"})
    assert {c["megakorporation"] for c in rows} == {"mishima"}


def test_steering_is_deterministic_and_a_member_regenerates(pack):
    first = chars(pack, 20, {"arketyp": "geisha"}, seed=3)
    again = chars(pack, 20, {"arketyp": "geisha"}, seed=3)
    assert first == again
    member = first[7]
    alone = chars(pack, 1, {"arketyp": "geisha"}, seed=member["seed"])[0]
    assert {k: v for k, v in alone.items() if k != "historik"} == {
        k: v for k, v in member.items() if k != "historik"
    }


def test_a_combination_no_character_can_have_is_exit_2_naming_both(pack):
    with pytest.raises(ChargenError) as info:
        chars(pack, 1, {"megakorporation": "bauhaus", "arketyp": "mystiker"})
    message = str(info.value)
    assert "--arketyp mystiker rules out --megakorporation bauhaus" in message
    assert "megakorporation = brodraskapet" in message


def test_a_given_choice_that_does_not_fit_names_the_reason(pack):
    system, tables = pack
    ctx = Context(system, tables, options={"arketyp": "mystiker"})
    ctx.start(1, 0)
    ctx.set_fact("megakorporation", "bauhaus")
    with pytest.raises(ChoiceError, match="needs megakorporation brodraskapet"):
        ctx.choose("arketyp", "arketyper")


def test_open_values_and_an_unknown_fact(pack):
    system, tables = pack
    ctx = Context(system, tables, options={"arketyp": "geisha"})
    ctx.start(1, 0)
    assert ctx.open_values("megakorporation", ["bauhaus", "mishima", "brodraskapet"]) == [
        "bauhaus",
        "mishima",
    ]
    assert ctx.open_values("gender", ["male", "female"]) == ["female"]
    with pytest.raises(ChargenError, match="declares no fact 'planet'"):
        ctx.set_fact("planet", "mars")


# -- the record the property tests read -------------------------------------------------


def test_every_drawn_row_is_recorded_and_holds(pack):
    def check(char, ctx):
        assert ctx.drawn_rows
        for table, entry in ctx.drawn_rows:
            assert table
            assert ctx._rule(entry) is None or ctx._rule(entry).holds(ctx.facts)

    chars(pack, 200, trace=check)


def test_the_rows_drawn_are_kept_for_a_trace_only(monkeypatch):
    """A batch without a trace keeps no list of its rows (no one reads it); what the
    rows drawn name and exclude is kept either way, since the next draws need it."""
    from chargen import context

    system = load("karma")
    seen = []
    start = context.Context.start

    def watched(self, seed, index):
        seen.append(self)
        start(self, seed, index)

    monkeypatch.setattr(context.Context, "start", watched)
    plain = list(generate(system, system.tables(), "npc", {}, 50, 3))
    ctx = seen[-1]
    assert not ctx.keep_rows and ctx.drawn_rows == [] and ctx.drawn
    traced = list(generate(system, system.tables(), "npc", {}, 50, 3, trace=lambda c, x: None))
    assert seen[-1].keep_rows and seen[-1].drawn_rows
    assert plain == traced


def test_a_fast_pool_is_memoised_per_fact_values(pack):
    system, tables = pack
    ctx = Context(system, tables, kind="npc")
    ctx.start(1, 0)
    ctx.set_fact("gender", "male")
    ctx.set_fact("megakorporation", "mishima")
    first = ctx.pool("arketyper")
    assert ctx.pool("arketyper") is first
    assert {e["id"] for e in first.entries} == {"krigare", "samuraj"}


# -- names ------------------------------------------------------------------------------


def test_faker_names_on_both_sides_go_where_they_are_weighted_more():
    picker = names.picker("sv_SE")
    female = set(picker.given["female"].names)
    male = set(picker.given["male"].names)
    for name in ("Ali", "Ahmed", "Mohamed", "Ibrahim", "Kim"):
        assert name in male and name not in female


def test_gender_sorted_keeps_unweighted_unisex_names():
    assert names.gender_sorted(["Robin", "Sam"], ["Robin"]) == (["Robin", "Sam"], ["Robin"])
    male, female = names.gender_sorted({"A": 2.0, "B": 1.0}, {"A": 1.0, "C": 1.0, "B": 1.0})
    assert set(male) == {"A", "B"} and set(female) == {"C", "B"}


def test_authored_names_agree_with_gender_and_build_patronyms(pack):
    for char in chars(pack, 100):
        given, family = char["name"].split()
        if char["kon"] == "female":
            assert given == "Ingrid" and family in ("Eriksdotter", "Larsdotter")
        else:
            assert given in ("Erik", "Lars") and family in ("Eriksson", "Larsson")


# -- the linter ---------------------------------------------------------------------------


def lint(tmp_path, name: str, text: str, facts=None) -> list[str]:
    files = dict(FILES)
    files[name] = text
    folder = write_pack(tmp_path / "lint", files)
    system = make_system()
    tables = Tables(
        "demo",
        SPECS,
        frozenset(),
        [folder],
        facts=system.facts if facts is None else facts,
        pronouns=system.pronoun_set(),
    )
    return [str(p) for p in tables.check()]


def one_fault(tmp_path, name: str, text: str, line: int, *fragments: str) -> None:
    faults = lint(tmp_path, name, text)
    assert len(faults) == 1, faults
    assert f"{name}.toml:{line}:" in faults[0], faults
    for fragment in fragments:
        assert fragment in faults[0], faults


def test_lint_a_fact_the_system_does_not_declare(tmp_path):
    text = '[[entries]]\nid = "a"\n\n[[entries]]\nid = "b"\nwhen = { planet = "mars" }\n'
    one_fault(tmp_path, "extra_a", text, 6, "'planet' is not a fact of demo")


def test_lint_an_unknown_value_of_a_table_fact(tmp_path):
    text = '[[entries]]\nid = "a"\nwhen = { megakorporation = ["bauhaus", "whitestar"] }\n'
    one_fault(tmp_path, "extra_a", text, 3, "'whitestar' is not a value of megakorporation")


def test_lint_an_unknown_gender(tmp_path):
    text = '[[entries]]\nid = "a"\nunless = { gender = "kvinna" }\n'
    one_fault(tmp_path, "extra_a", text, 3, "'kvinna' is not a value of gender")


def test_lint_an_unknown_value_of_an_enumerated_fact(tmp_path):
    files = dict(FILES)
    files["extra_a"] = '[[entries]]\nid = "a"\nwhen = { korszak = "jovo" }\n'
    folder = write_pack(tmp_path / "enum", files)
    facts = {"megakorporation": "korporationer", "korszak": ("kozepkor", "modern")}
    sv = make_system().pronoun_set()
    tables = Tables("demo", SPECS, frozenset(), [folder], facts=facts, pronouns=sv)
    faults = [str(p) for p in tables.check()]
    assert len(faults) == 1 and "extra_a.toml:3:" in faults[0]
    assert "'jovo' is not a value of korszak (values: kozepkor, modern)" in faults[0]


def test_lint_an_unknown_id_or_tag(tmp_path):
    text = '[[entries]]\nid = "a"\n\n[[entries]]\nid = "b"\nexcludes = ["storlek", "vampyr"]\n'
    one_fault(tmp_path, "extra_a", text, 6, "excludes: 'vampyr' is no id and no tag")
    text = '[[entries]]\nid = "a"\nrequires = ["nagot"]\n'
    one_fault(tmp_path, "extra_a", text, 3, "requires: 'nagot' is no id and no tag")


def test_lint_a_table_with_no_row_for_some_character(tmp_path):
    text = (
        'die = "d6"\n[[entries]]\nroll = "1-3"\nresult = "a"\nwhen = { gender = "male" }\n'
        '[[entries]]\nroll = "4-6"\nresult = "b"\n'
        'when = { gender = "female", megakorporation = ["bauhaus", "mishima"] }\n'
    )
    one_fault(
        tmp_path,
        "handelser",
        text,
        2,
        "no row fits a character with gender=female, megakorporation=brodraskapet",
    )


def test_lint_coverage_skips_what_a_domain_entry_rules_out(tmp_path):
    # Only a mystiker row, when mystiker exists only in Brödraskapet: covered.
    text = (
        'die = "d6"\n[[entries]]\nroll = "1-6"\nresult = "a"\n'
        'when = { arketyp = ["mystiker", "krigare", "samuraj", "geisha"] }\n'
    )
    assert lint(tmp_path, "handelser", text) == []
    text = (
        'die = "d6"\n[[entries]]\nroll = "1-6"\nresult = "a"\n'
        'when = { arketyp = ["krigare", "samuraj", "geisha"] }\n'
        'unless = { megakorporation = "bauhaus" }\n'
    )
    faults = lint(tmp_path, "handelser", text)
    assert len(faults) == 1 and "arketyp=krigare, megakorporation=bauhaus" in faults[0]


def test_lint_malformed_condition_keys(tmp_path):
    one_fault(tmp_path, "extra_a", '[[entries]]\nid = "a"\nwhen = "mishima"\n', 3, "when must")
    one_fault(tmp_path, "extra_a", '[[entries]]\nid = "a"\nrequires = "a"\n', 3, "requires")
    one_fault(tmp_path, "extra_a", '[[entries]]\nid = "a"\ntags = ["Stor Lek"]\n', 3, "tags")


def test_lint_gendered_text(tmp_path):
    one_fault(
        tmp_path,
        "extra_a",
        '[[entries]]\nid = "a"\nname = { male = "A" }\n',
        3,
        "'name' must be a non-empty text, or { male",
    )
    files = dict(FILES)
    files["extra_a"] = '[[entries]]\nid = "a"\ntitel = { male = "A", female = "B" }\n'
    folder = write_pack(tmp_path / "str", files)
    sv = make_system().pronoun_set()
    faults = [str(p) for p in Tables("demo", SPECS, frozenset(), [folder], pronouns=sv).check()]
    assert (
        len(faults) == 1
        and "extra_a.toml:3:" in faults[0]
        and "'titel' must be a non-empty text (at most" in faults[0]
    )


def test_lint_placeholders(tmp_path):
    text = '[[entries]]\nroll = 1\nresult = "a"\n[[entries]]\nroll = "2-6"\nresult = "men {hen}"\n'
    one_fault(tmp_path, "handelser", 'die = "d6"\n' + text, 7, "unknown placeholder {hen}")
    text = 'die = "d6"\n[[entries]]\nroll = "1-6"\nresult = "a {b/c/d} e"\n'
    one_fault(tmp_path, "handelser", text, 4, "{male form/female form}")
    text = 'die = "d6"\n[[entries]]\nroll = "1-6"\nresult = "a } e"\n'
    one_fault(tmp_path, "handelser", text, 4, "unbalanced brace")


def test_lint_name_tables(tmp_path):
    text = 'male = ["A"]\nfemale = []\npatronym = { male = "{far}son", female = "dotter" }\n'
    faults = lint(tmp_path, "namn_medeltid", text)
    assert any("namn_medeltid.toml:2:" in f and "at least one name" in f for f in faults)
    assert any("namn_medeltid.toml:3:" in f and "{far}" in f for f in faults)


def test_a_users_pack_is_checked_before_use(pack, tmp_path):
    system, tables = pack
    bad = tables.dirs[0].parent / "bad"
    bad.mkdir()
    (bad / "arketyper.toml").write_text('[[entries]]\nid = "a"\nwhen = { planet = "x" }\n')
    overlay = Tables("demo", SPECS, frozenset(), [tables.dirs[0], bad], facts=system.facts)
    with pytest.raises(TableError, match="'planet' is not a fact"):
        overlay["arketyper"]


# -- through the command line ---------------------------------------------------------------


def test_tables_check_names_file_and_line_of_a_condition_fault(tmp_path):
    pack = tmp_path / "pack" / "karma"
    pack.mkdir(parents=True)
    (pack / "laster.toml").write_text(
        '# Authored for the test.\n[[entries]]\nweight = 1\nresult = "ljuger"\n'
        '[[entries]]\nweight = 1\nresult = "super"\nwhen = { planet = "mars" }\n',
        encoding="utf-8",
    )
    result = run("tables", "check", tmp_path / "pack")
    assert result.exit_code == 2
    assert "laster.toml:8:" in result.stderr and "'planet' is not a fact of karma" in result.stderr
    result = run("karma", "pc", "--seed", "1", "--tables", tmp_path / "pack")
    assert_usage_error(result, "laster.toml:8:", "planet")


def test_a_users_gendered_row_is_resolved_in_the_historik(tmp_path):
    pack = tmp_path / "pack" / "karma"
    pack.mkdir(parents=True)
    (pack / "laster.toml").write_text(
        "# Authored for the test.\n[[entries]]\nweight = 1\n"
        'result = { male = "ljuger som en karl", female = "ljuger som en kärring" }\n'
        'when = { gender = "female" }\n'
        '[[entries]]\nweight = 1\nresult = "super"\nwhen = { gender = "male" }\n',
        encoding="utf-8",
    )
    assert run("tables", "check", tmp_path / "pack").exit_code == 0
    seen = set()
    for seed in range(12):
        result = run("karma", "pc", "--seed", seed, "-f", "json", "--tables", tmp_path / "pack")
        char = json.loads(result.stdout)[0]
        event = next(e for e in char["historik"] if e.get("table") == "laster")
        seen.add(event["result"])
        assert event["result"] in ("ljuger som en kärring", "super")
        assert event["result"] in char["mening"]  # roll_table hands out resolved rows
    assert seen == {"ljuger som en kärring", "super"}


def test_lint_a_fact_whose_domain_table_is_missing(tmp_path):
    folder = write_pack(tmp_path / "dom")
    facts = {"megakorporation": "korporationer", "planet": "planeter"}
    sv = make_system().pronoun_set()
    faults = [
        str(p)
        for p in Tables("demo", SPECS, frozenset(), [folder], facts=facts, pronouns=sv).check()
    ]
    assert faults == [
        f"{folder}: fact 'planet' takes the ids of table 'planeter', which demo lacks"
    ]
