"""What a new user stumbled on (issue 21): mistyped names, lists, help, the
environment, wide characters, the README's promises and the language of messages."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import click
import pytest
from conftest import assert_usage_error, run

from chargen.commands import roll_command
from chargen.render import display_width, ljust, table_lines, wrap
from chargen.systems import available, load

README = Path(__file__).resolve().parent.parent / "README.md"


def columns(text: str) -> int:
    """The test's own count of terminal columns (to check chargen's, not to reuse it)."""
    import unicodedata

    return sum(
        0
        if unicodedata.category(ch) in ("Mn", "Me", "Cf")
        else 2
        if unicodedata.east_asian_width(ch) in ("W", "F")
        else 1
        for ch in text
    )


# -- did you mean ------------------------------------------------------------------


@pytest.mark.parametrize(
    "args,meant",
    [
        (["karma", "pc", "--bakgrund", "mnuk"], "munk"),
        (["karma", "npc", "--template", "stadsvakten"], "stadsvakt"),
        (["karmaa", "pc"], "karma"),
        (["rol", "2d6"], "roll"),
        (["karma", "bakgrundr"], "bakgrunder"),
        (["savage", "npc", "--tough", "szivso"], "szivos"),
        (["savage", "npc", "--template", "katonna"], "katona"),
        (["matinee", "pc", "--arketyp", "soldatt"], "soldat"),
        (["matinee", "npc", "--megakorporation", "bauhus"], "bauhaus"),
        (["lef", "pc", "--blodarv", "vanaetling"], "vanaaetlinge"),
        (["spelsystemet", "npc", "--genre", "fantasi"], "fantasy"),
        (["tables", "show", "karma/bakgrundr"], "karma/bakgrunder"),
        (["tables", "show", "sardrg"], "karma/sardrag"),
        (["tables", "list", "--system", "savag"], "savage"),
        (["karma", "pc", "-f", "jsonn"], "json"),
        (["matinee", "pc", "--locale", "sv_SS"], "sv_SE"),
    ],
)
def test_a_mistyped_name_gets_a_did_you_mean(args, meant):
    result = run(*args)
    assert result.exit_code == 2, result.stderr
    assert f"(did you mean '{meant}'?)" in result.stderr, result.stderr
    assert "Valid:" in result.stderr


def test_a_name_far_from_every_valid_one_gets_no_guess():
    result = run("karma", "pc", "--bakgrund", "xqzzy")
    assert result.exit_code == 2 and "did you mean" not in result.stderr


# -- npc --list --------------------------------------------------------------------


@pytest.mark.parametrize("system_id", available())
def test_npc_list_shows_every_template_on_a_line_of_its_own(system_id):
    system = load(system_id)
    table = system.tables()[next(o.table for o in system.npc_options if o.name == "template")]
    rows = json.loads(run(system_id, "npc", "--list", "-f", "json").stdout)
    assert [r["template"] for r in rows] == list(table.ids)
    assert all(r["name"] and r["description"] and "\n" not in r["description"] for r in rows)
    text = run(system_id, "npc", "--list", "--width", "300").stdout.splitlines()
    assert text[0].startswith("--template") and set(text[1]) <= {"-", " "}
    assert [line.split()[0] for line in text[2:]] == list(table.ids)


# -- help --------------------------------------------------------------------------


def _help(*args: str) -> str:
    text = run(*args, "--help", env={"COLUMNS": "300"}).stdout
    return " ".join(text.split())


def _format_help(*args: str) -> str:
    text = _help(*args)
    return text[text.index("-f, --format") : text.index("[default: table]")]


@pytest.mark.parametrize("system_id", available())
def test_format_help_lists_exactly_the_formats_each_command_has(system_id):
    from chargen import formats

    system = load(system_id)
    step = next(s for s in system.pc if s.command)
    for command, whole in (("pc", True), ("npc", True), (step.id, False)):
        shown = _format_help(system_id, command)
        for export in formats.FORMATS.values():
            has = export.supports(system_id) and (whole or not export.whole_characters)
            assert (f" {export.id} (" in shown) == has, (command, export.id, shown)
        for builtin in ("table", "json", "jsonl", "markdown", "html", "pdf"):
            assert builtin in shown
        output = _help(system_id, command).split("-o, --output")[1].split("--locale")[0]
        assert ("foundry" in output) == (" foundry (" in shown), output


def test_roll_help_lists_only_the_four_formats_roll_has():
    shown = _format_help("roll")
    named = set(re.findall(r"[a-z]+", shown)) & {
        "table",
        "json",
        "jsonl",
        "markdown",
        "html",
        "pdf",
        "foundry",
        "statblock",
        "sheet",
        "roster",
    }
    assert named == {"table", "json", "jsonl", "markdown"}


def _value_for(param: click.Option, tmp_path: Path) -> list[list[str]]:
    """Command lines that use `param` with a value it accepts (every choice)."""
    flag = max(param.opts, key=len)
    if param.is_flag:
        return [[flag]]
    kind = param.type
    if isinstance(kind, click.IntRange):
        return [[flag, str(kind.min if kind.min is not None else 1)]]
    if hasattr(kind, "choices"):
        return [[flag, c] for c in kind.choices]
    if isinstance(kind, click.Path):
        return [[flag, str(tmp_path / "out.txt")]]
    raise AssertionError(f"no value known for {flag}")


def test_every_option_roll_offers_is_one_roll_takes(tmp_path):
    offered = [p for p in roll_command.params if isinstance(p, click.Option) and p.name != "help"]
    assert {p.name for p in offered} >= {"count", "seed", "fmt", "output", "width", "odds"}
    for param in offered:
        for args in _value_for(param, tmp_path):
            if param.name == "depth":
                args = [*args, "--odds"]
            result = run("roll", "2d6", *args)
            assert result.exit_code == 0, (args, result.stderr)
    help_text = _help("roll")
    for refused in ("--locale", "--tables", "--interactive"):
        assert refused not in help_text


# -- CHARGEN_TABLES ----------------------------------------------------------------


@pytest.mark.parametrize("kind", ["missing", "file", "empty", "second"])
def test_an_unusable_chargen_tables_is_named_as_such(tmp_path, kind):
    (tmp_path / "karma").mkdir()
    (tmp_path / "plain.txt").write_text("x", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    value = {
        "missing": str(tmp_path / "nowhere"),
        "file": str(tmp_path / "plain.txt"),
        "empty": str(tmp_path / "empty"),
        "second": f"{tmp_path}:{tmp_path / 'nowhere'}",
    }[kind]
    for args in (["karma", "pc"], ["tables", "list"]):
        result = run(*args, env={"CHARGEN_TABLES": value})
        assert_usage_error(result, "CHARGEN_TABLES", "unusable table pack")
        assert "--tables" not in result.stderr
    assert run("karma", "pc", env={"CHARGEN_TABLES": str(tmp_path)}).exit_code == 0


def test_a_bad_tables_option_still_names_the_option(tmp_path):
    assert_usage_error(run("karma", "pc", "--tables", str(tmp_path / "nowhere")), "--tables")


# -- display width -----------------------------------------------------------------


def test_display_width_counts_wide_and_combining_characters():
    assert display_width("Åsa Őrző") == 8
    assert display_width("中村舞") == 6
    assert display_width("ｱｲ") == 2  # halfwidth katakana
    assert display_width("Ｒ") == 2  # fullwidth Latin
    assert display_width("e\u0301e") == 2  # a combining acute accent takes no column
    assert ljust("中村", 6) == "中村  "


def test_wrap_breaks_wide_text_within_the_width():
    text = "山田太郎は東京の古い屋敷に住んでいる剣士である " * 4
    for width in (20, 21, 33):
        lines = wrap(text, width)
        assert all(columns(line) <= width for line in lines), lines
        assert "".join(lines).replace("-", "").replace(" ", "") == text.replace(" ", "")


def test_table_columns_align_by_columns():
    lines = table_lines([["中村舞", 3], ["Anna", 12], ["e\u0301mile", 5]], ["Namn", "Värde"], 40)
    ends = {columns(line) for line in lines}
    assert len(ends) == 1, lines


@pytest.mark.parametrize(
    "system_id,options", [("karma", {}), ("spelsystemet", {}), ("savage", {}), ("lef", {})]
)
def test_ja_jp_names_align_in_a_roster(system_id, options):
    from chargen.output import render
    from chargen.procedure import generate

    system = load(system_id)
    pack = system.tables()
    items = list(generate(system, pack, "npc", options, 12, 7, "ja_JP", None, None))
    text = "".join(render(system, pack, items, "table", 12, None, 80))
    lines = text.split("\n\n")[0].splitlines()
    assert any(not line.isascii() and re.search(r"[\u3040-\u9fff]", line) for line in lines)
    assert all(columns(line) <= 80 for line in lines)
    starts = [m.start() for m in re.finditer(r"(?<=  )-", lines[1])]
    assert starts
    seed = pack.labels.word("seed")
    for line in lines[2:]:
        if line.lstrip().startswith(seed + " "):
            continue  # the member's seed, under its row
        cells = "".join(ch * columns(ch) for ch in line)  # one character a column
        for start in starts:
            if len(cells) > start:
                assert cells[start - 2 : start] == "  ", (line, start)


# -- the README --------------------------------------------------------------------


def _matches(sample, actual) -> bool:
    """The README's sample against real output: '...' stands for what is left out."""
    if sample == "...":
        return True
    if isinstance(sample, dict):
        return (
            isinstance(actual, dict)
            and list(sample) == list(actual)
            and all(_matches(sample[k], actual[k]) for k in sample)
        )
    if isinstance(sample, list):
        if sample and sample[-1] == "...":
            head = sample[:-1]
            return isinstance(actual, list) and all(
                _matches(a, b) for a, b in zip(head, actual[: len(head)], strict=True)
            )
        return (
            isinstance(actual, list)
            and len(sample) == len(actual)
            and all(_matches(a, b) for a, b in zip(sample, actual, strict=True))
        )
    return sample == actual


def test_the_readme_json_sample_is_what_chargen_prints():
    text = README.read_text(encoding="utf-8")
    block = text[text.index("## Output") :]
    sample = json.loads(
        block[block.index("```json") + 7 : block.index("```", block.index("```json") + 7)]
    )
    command = ["karma" if sample["system"] == "karma" else sample["system"], sample["kind"]]
    actual = json.loads(run(*command, "--seed", str(sample["seed"]), "-f", "json").stdout)[0]
    assert _matches(sample, actual), (sample, actual)


def test_the_changelog_has_the_running_version_and_versions_newest_first():
    """A seed reproduces a character within one version, so each version says what it
    changed: the installed one has its entry (or an Unreleased one above it)."""
    import chargen

    text = (README.parent / "CHANGELOG.md").read_text(encoding="utf-8")
    heads = re.findall(r"^## (\S+)", text, flags=re.MULTILINE)
    versions = [h for h in heads if h != "Unreleased"]
    assert chargen.__version__ in versions, (chargen.__version__, heads)
    if "Unreleased" in heads:
        assert heads[0] == "Unreleased", heads
    numbers = [tuple(map(int, v.split("."))) for v in versions]
    assert numbers == sorted(numbers, reverse=True), versions
    assert versions[0] == chargen.__version__, "the newest entry is the running version"


def test_every_example_of_the_readme_runs(tmp_path, monkeypatch):
    """The README's Examples block, each command as typed (a pipe's first command; the
    terminal walk of --interactive is tests/test_interactive.py's)."""
    import shlex

    text = README.read_text(encoding="utf-8")
    block = text[text.index("Examples:") :]
    block = block[block.index("```sh") + 5 : block.index("```", block.index("```sh") + 5)]
    commands = [line.split(" #")[0].split(" | ")[0] for line in block.strip().splitlines()]
    assert len(commands) >= 10 and all(c.startswith("chargen ") for c in commands)
    monkeypatch.chdir(README.parent)  # (examples/my-pack/ is named from the checkout)
    for command in commands:
        words = shlex.split(command)[1:]
        if "--interactive" in words:
            continue
        words = [str(tmp_path / w) if w.endswith(".jsonl") else w for w in words]
        done = run(*words)
        assert done.exit_code == 0, (command, done.stderr)
        assert (done.stdout + done.stderr).strip() or "-o" in words, command


def test_the_readme_cards_to_a_page_is_what_the_pdf_holds(tmp_path):
    """Cards are sized to their content, so the README says "about": every card is
    printed once, each full page holds within two of the number it names."""
    pypdf = pytest.importorskip("pypdf")
    pytest.importorskip("typst")
    text = README.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if "to a page" in x and x.startswith("chargen"))
    words = {"eight": 8, "ten": 10, "twelve": 12}
    per_page = words[re.search(r"cards, about (\w+) to a page", line).group(1)]
    command = line.split("#")[0].split()[1:]
    count = int(command[command.index("-n") + 1])
    out = tmp_path / "cards.pdf"
    command[command.index("-o") + 1] = str(out)
    for seed in ("1", "13", "57"):  # 13 and 57 once printed their rules on the second page
        assert run(*command, "--seed", seed).exit_code == 0
        pages = [p.extract_text() for p in pypdf.PdfReader(out).pages]
        cards = [p.count(f"chargen {command[0]} npc --seed") for p in pages]
        assert sum(cards) == count, cards
        full = [n for n in cards if n][:-1]  # the last page with cards may hold fewer
        assert full and all(abs(n - per_page) <= 2 for n in full), cards
        rules_pages = 1  # the rules they share take a page at most
        assert len(pages) <= math.ceil(count / (per_page - 2)) + rules_pages, cards


def test_the_readme_install_advice_for_pdf_works_from_a_checkout():
    text = README.read_text(encoding="utf-8")
    assert "pip install 'chargen[pdf]'" not in text  # chargen is not on a package index
    assert "pip install '.[pdf]'" in text
    from chargen import printable

    source = Path(printable.__file__).read_text(encoding="utf-8")
    assert "chargen[pdf]" not in source


# -- the language of a line --------------------------------------------------------


@pytest.mark.parametrize(
    "system_id,word",
    [
        ("karma", "fel"),
        ("matinee", "fel"),
        ("spelsystemet", "fel"),
        ("lef", "fejl"),
        ("savage", "hiba"),
    ],
)
def test_a_message_in_the_games_language_starts_with_its_word_for_error(system_id, word):
    result = run(system_id, "pc", "--interactive", input="")
    assert result.exit_code == 2
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(f"chargen: {word}: "), last
    english = run(system_id, "pc", "--tables", "/nonexistent")
    assert "error" in english.stderr.lower()


@pytest.mark.parametrize(
    "system_id,word", [("karma", "Frö"), ("matinee", "Frö"), ("lef", "Frø"), ("savage", "Mag")]
)
def test_the_step_header_names_the_seed_in_the_games_language(system_id, word):
    system = load(system_id)
    step = next(s for s in system.pc if s.command)
    text = run(system_id, step.id, "--seed", "5").stdout
    assert re.search(rf"^{word}\s+5$", text, re.M), text
    assert not re.search(r"^Seed\s", text, re.M)
