"""Choices as a player types them, in every system: an entry's id, or its display name as the
sheet spells it (diacritics, capitals and spaces included), or that name without its
diacritics, all name the same entry (`chargen lef pc --personlighed militant`,
`--blodarv vanaætlinge`, `chargen savage npc --tough "nagyon szívós"`)."""

from __future__ import annotations

import json

import click
import pytest
from conftest import assert_usage_error, run

from chargen.commands import SlugChoice, _validate_options
from chargen.prompts import Prompter
from chargen.slugs import normalize
from chargen.systems import available, load
from chargen.tables import match_choice


def _strip(text: str) -> str:
    """The name as typed on a keyboard without the language's letters."""
    plain = str.maketrans("øåäöőüűáéíóú", "oaaoouuaeiou")
    return text.replace("æ", "ae").replace("Æ", "AE").translate(plain)


def _names(entry: dict) -> list[str]:
    name = entry.get("name")
    return list(name.values()) if isinstance(name, dict) else [name] if name else []


def _table_options():
    for system_id in available():
        system = load(system_id)
        for kind in ("pc", "npc"):
            for option in system.options(kind):
                if option.table:
                    yield system_id, kind, option


TABLE_OPTIONS = list(_table_options())


def test_normalize_folds_as_the_contract_makes_keys():
    assert normalize("Vanaætlinge") == "vanaaetlinge"
    assert normalize("Religiøs") == "religios"
    assert normalize("Nagyon szívós") == "nagyon_szivos"
    assert normalize("Állóképesség") == "allokepesseg"
    assert normalize("Brödraskapet") == "brodraskapet"
    assert normalize("  codex-cardinalus ") == "codex_cardinalus"
    assert normalize("Őr") == "or"


@pytest.mark.parametrize(
    ("system_id", "kind", "option"),
    TABLE_OPTIONS,
    ids=[f"{s}-{k}-{o.name}" for s, k, o in TABLE_OPTIONS],
)
def test_every_entry_is_chosen_by_id_and_by_its_display_name(system_id, kind, option):
    system = load(system_id)
    pack = system.tables()
    table = pack[option.table]
    checked = 0
    for entry in table.entries:
        typed = [entry["id"], entry["id"].upper(), entry["id"].replace("_", "-")]
        for name in _names(entry):
            typed += [name, name.lower(), name.upper(), _strip(name)]
        for text in typed:
            value = (text,) if option.multiple else text
            got = _validate_options(system, kind, pack, {option.key: value})[option.key]
            assert got == ([entry["id"]] if option.multiple else entry["id"]), (text, got)
            assert match_choice(table, text) == entry["id"]
            checked += 1
    assert checked >= 3 * len(table.entries)


def test_fixed_choices_accept_diacritics_and_spaces():
    choice = SlugChoice(("szivos", "nagyon_szivos"))
    assert choice.convert("Nagyon szívós", None, None) == "nagyon_szivos"
    assert choice.convert("SZÍVÓS", None, None) == "szivos"
    with pytest.raises(click.BadParameter):
        choice.convert("szivosabb", None, None)


@pytest.mark.parametrize(
    ("args", "same_as"),
    [
        (["lef", "pc", "--personlighed", "militant"], ["lef", "pc", "--personlighed", "militante"]),
        (["lef", "pc", "--blodarv", "vanaætlinge"], ["lef", "pc", "--blodarv", "vanaaetlinge"]),
        (["lef", "pc", "--personlighed", "Religiøs"], ["lef", "pc", "--personlighed", "religiose"]),
        (["lef", "npc", "--template", "Piratjæger"], ["lef", "npc", "--template", "piratjaeger"]),
        (
            ["savage", "npc", "--tough", "nagyon szívós"],
            ["savage", "npc", "--tough", "nagyon_szivos"],
        ),
        # word breaks do not matter either, written or left out
        (
            ["savage", "npc", "--tough", "nagyonszivos"],
            ["savage", "npc", "--tough", "nagyon_szivos"],
        ),
        (
            ["karma", "pc", "--bakgrund", "gruv-arbetare"],
            ["karma", "pc", "--bakgrund", "gruvarbetare"],
        ),
        (["lef", "pc", "--blodarv", "Vana Ætlinge"], ["lef", "pc", "--blodarv", "vanaaetlinge"]),
    ],
)
def test_a_display_name_on_the_command_line_gives_the_ids_character(args, same_as):
    first = run(*args, "--seed", "7", "-f", "json")
    second = run(*same_as, "--seed", "7", "-f", "json")
    assert first.exit_code == 0, first.stderr
    assert first.stdout == second.stdout
    assert json.loads(first.stdout)[0]["seed"] == 7


def test_a_display_name_for_each_system_on_the_command_line():
    for system_id, kind, option in TABLE_OPTIONS:
        pack = load(system_id).tables()
        entry = next(e for e in pack[option.table].entries if _names(e))
        name = _names(entry)[0]
        by_name = run(system_id, kind, f"--{option.name}", name, "--seed", "3", "-f", "json")
        by_id = run(system_id, kind, f"--{option.name}", entry["id"], "--seed", "3", "-f", "json")
        assert by_name.exit_code == by_id.exit_code, (system_id, option.name, by_name.stderr)
        assert by_name.stdout == by_id.stdout


def test_an_unknown_spelling_still_lists_the_valid_ones():
    assert_usage_error(run("lef", "pc", "--personlighed", "militærisk"), "beleven", "militante")


def test_the_interactive_prompt_takes_a_display_name_too():
    table = load("lef").tables()["personligheder"]
    prompter = Prompter()
    assert prompter._resolve("Militant", list(table.entries))["id"] == "militante"
    assert prompter._resolve("religiøs", list(table.entries))["id"] == "religiose"
