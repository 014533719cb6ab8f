"""The commands of the command line: each game's group (pc, npc, its steps, reroll),
built from its `System`, and `roll`, `systems`, `tables`, `campaign`. chargen.cli
holds the root group and the exit codes, and loads this module when a command runs
(`chargen --help` lists the commands without it)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import partial

import click

from chargen import __version__, formats
from chargen.errors import (
    DEBUG,
    ChargenError,
    ChoiceError,
    PipeClosed,
    TableError,
    did_you_mean,
)
from chargen.systems import BUILTIN, available, load, loadable

FORMATS = ("table", "json", "jsonl", "markdown")
PRINT_FORMATS = ("html", "pdf")  # printable sheets and NPC cards (chargen/printable.py)
MAX_COUNT = 1_000_000
WHERE_TRIES = 50_000  # characters --where tries at least (1,000 per match asked, if more)
ODDS_SAMPLES = 10_000  # characters `--where ... --odds` samples unless --samples says
NAMES_KEPT = 50_000  # names --where remembers to keep its matches' unique (flat memory)
SEED_LIMIT = 2**53


class SlugChoice(click.ParamType):
    """A fixed choice that accepts hyphen and underscore forms and lists the valid ones."""

    name = "choice"

    def __init__(self, choices: tuple[str, ...]) -> None:
        self.choices = choices

    def convert(self, value, param, ctx):
        from chargen.slugs import normalize

        slug = normalize(value)
        if slug not in self.choices:
            self.fail(
                f"'{value}' is not valid{did_you_mean(slug, list(self.choices))}. "
                f"Valid: {', '.join(self.choices)}",
                param,
                ctx,
            )
        return slug

    def shell_complete(self, ctx, param, incomplete):
        from click.shell_completion import CompletionItem

        return [CompletionItem(c) for c in self.choices if c.startswith(incomplete)]


format_option = click.option(
    "-f",
    "--format",
    "fmt",
    type=SlugChoice(FORMATS),
    default="table",
    show_default=True,
    help="table, json (array), jsonl (one object per line), markdown.",
)
width_option = click.option(
    "--width",
    type=click.IntRange(20, 1000),
    default=None,
    help="Width of table and markdown text (default: COLUMNS on a terminal, else 80).",
)


def count_option(help: str) -> Callable:
    """`-n/--count`, as generating commands and `roll` take it (their own help)."""
    return click.option(
        "-n",
        "--count",
        type=click.IntRange(1, MAX_COUNT),
        default=1,
        show_default=True,
        help=help,
    )


def seed_option(help: str) -> Callable:
    """`--seed`, as generating commands and `roll` take it (their own help)."""
    return click.option("--seed", type=click.IntRange(0, SEED_LIMIT - 1), default=None, help=help)


class PackDir(click.Path):
    """A table pack folder. One named by CHARGEN_TABLES that cannot serve is exit 2
    naming the variable, not `--tables`, which the user never typed."""

    def __init__(self) -> None:
        super().__init__(exists=True, file_okay=False)

    def convert(self, value, param, ctx):
        from click.core import ParameterSource

        if ctx is None or ctx.get_parameter_source(param.name) != ParameterSource.ENVIRONMENT:
            return super().convert(value, param, ctx)
        from pathlib import Path

        from chargen.tables import pack_problems

        path = Path(value)
        why = (
            "does not exist"
            if not path.exists()
            else "is a file, not a folder"
            if not path.is_dir()
            else "; ".join(p.text for p in pack_problems(path, available()))
        )
        if why:
            raise ChargenError(
                f"CHARGEN_TABLES names an unusable table pack: '{value}' {why} "
                f"(CHARGEN_TABLES is one or more pack folders DIR/SYSTEM/*.toml, "
                f"separated by '{os.pathsep}'; unset it to use the built-in tables)"
            )
        return value


tables_option = click.option(
    "--tables",
    "tables_dirs",
    type=PackDir(),
    multiple=True,
    envvar="CHARGEN_TABLES",
    help="A table pack (DIR/SYSTEM/*.toml) laid over the built-in tables. Also CHARGEN_TABLES.",
)


def common_options(func: Callable, format_help: str = "") -> Callable:
    """The options every generating command takes; `format_help` lists its formats."""
    options = [
        count_option("How many to generate (1 to 1,000,000); batches stream."),
        seed_option(
            "Integer seed: the same seed, options, tables and version give the same output."
        ),
        click.option(
            "-f",
            "--format",
            "fmt",
            # every format is accepted, so that one this system lacks is refused naming
            # the systems that have it; the help lists only this command's own
            type=SlugChoice(FORMATS + PRINT_FORMATS + formats.names()),
            default="table",
            show_default=True,
            help=format_help,
        ),
        click.option(
            "-o",
            "--output",
            type=click.Path(),
            default=None,
            help="Write to FILE (atomically) instead of stdout"
            + (
                "; -f foundry with -n 2 or more: a new folder DIR."
                if " foundry (" in format_help
                else "."
            ),
        ),
        click.option(
            "--locale",
            default=None,
            shell_complete=_complete_locale,
            help="Faker locale for names, overriding the system's own (e.g. sv_SE, hu_HU).",
        ),
        tables_option,
        width_option,
        click.option(
            "--campaign",
            "campaign_path",
            type=click.Path(dir_okay=False),
            default=None,
            envvar="CHARGEN_CAMPAIGN",
            help="A campaign file (SQLite): names never repeat within it, and every "
            "character made is stored there. Also CHARGEN_CAMPAIGN.",
        ),
        click.option(
            "--tag",
            default=None,
            help="With --campaign: a label stored with each character (such as session-3).",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _complete_locale(ctx, param, incomplete):
    from chargen.names import locales

    return [loc for loc in locales() if loc.startswith(incomplete)]


# -- system groups ----------------------------------------------------------


class StepGroup(click.Group):
    """A system's commands, each built when it is first asked for (a run uses one, and
    building the options of all of them is a tenth of a sheet's start-up); an unknown
    one is refused with the list of valid ones."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.makers: dict[str, Callable[[], click.Command]] = {}

    def list_commands(self, ctx):
        return list(self.makers)

    def get_command(self, ctx, name):
        command = self.commands.get(name)
        if command is None and name in self.makers:
            command = self.commands[name] = self.makers[name]()
        return command

    def resolve_command(self, ctx, args):
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            shown = name if len(name) <= 60 else name[:57] + "..."
            valid = self.list_commands(ctx)
            raise click.UsageError(
                f"unknown command or step '{shown}'{did_you_mean(name, valid)}. "
                f"Valid: {', '.join(valid)}",
                ctx,
            )
        return super().resolve_command(ctx, args)


def build_system_group(system) -> click.Group:
    """A click group for one system: pc, npc, and one command per procedure step."""
    group = StepGroup(
        system.id,
        help=f"{system.name} ({system.language}). {system.description}".strip(),
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    group.makers["pc"] = partial(_generate_command, system, "pc", None)
    group.makers["npc"] = partial(_generate_command, system, "npc", None)
    for step in system.pc:
        if step.command:
            group.makers[step.id] = partial(_generate_command, system, "pc", step)
    group.makers["reroll"] = partial(_reroll_command, system)
    return group


def _reroll_command(system) -> click.Command:
    @click.command(
        "reroll",
        help="A character saved as JSON (FILE, - for stdin) with STEP (or `name`) drawn "
        "again, K times over with STEP=K. The file must be this system's, made by this "
        "version, and match its recipe.",
    )
    @click.argument("step_word", metavar="STEP[=K]")
    @click.argument("file", type=click.Path(allow_dash=True, dir_okay=False))
    @format_option
    @click.option("-o", "--output", type=click.Path(), default=None, help="Write to FILE.")
    @width_option
    def reroll(step_word, file, fmt, output, width):
        run_reroll(system, step_word, file, fmt, output, width)

    return reroll


def run_reroll(system, step_word: str, file: str, fmt: str, output, width) -> None:
    from chargen import output as out
    from chargen import saved

    width = width or out.terminal_width()
    items = saved.read(file)
    made = []
    for n, char in enumerate(items, 1):
        where = file if len(items) == 1 else f"{file} (character {n})"
        saved.check(char, system.id, where)
        kind = char.get("kind") if char.get("kind") in ("pc", "npc") else "pc"
        step = system.step(char["step"]) if char.get("step") else None
        variants = reroll_variants(system, kind, step, [step_word])
        made.append(saved.rerolled(char, variants))
    pack = load_tables(system, ())
    with out.destination(output) as stream:
        if len(made) == 1 or fmt in ("json", "jsonl"):
            step = system.step(made[0]["step"]) if made[0].get("step") else None
            out.write(out.render(system, pack, iter(made), fmt, len(made), step, width), stream)
        else:
            out.write(out.render(system, pack, iter(made), fmt, len(made), None, width), stream)


def _system_option(system, option) -> Callable:
    flag = f"--{option.name}"
    if option.flag:
        return click.option(flag, option.key, is_flag=True, help=option.help)
    if option.type is int:
        kind = click.IntRange(option.minimum, option.maximum)
        return click.option(flag, option.key, type=kind, default=None, help=option.help)
    if option.choices:
        return click.option(
            flag,
            option.key,
            type=SlugChoice(option.choices),
            multiple=option.multiple,
            help=option.help,
        )
    return click.option(
        flag,
        option.key,
        multiple=option.multiple,
        help=option.help,
        shell_complete=_table_completer(system, option.table),
        metavar=option.table.upper() if option.table else "TEXT",
    )


def _table_completer(system, table_name):
    def complete(ctx, param, incomplete):
        if not table_name:
            return []
        try:
            return [i for i in system.tables()[table_name].ids if i.startswith(incomplete)]
        except ChargenError:
            return []

    return complete


def _generate_command(system, kind: str, step) -> click.Command:
    options = system.options(kind)
    if step is None:
        name = kind
        helptext = (
            f"A player character: {' > '.join(s.id for s in system.pc if s.command)}."
            if kind == "pc"
            else "NPCs from the system's own templates."
        )
    else:
        name = step.id
        helptext = step.help or f"Step '{step.id}' of the creation procedure alone."

    def callback(**params):
        try:
            run_generate(system, kind, step, **params)
        except (ChargenError, PipeClosed, click.ClickException, click.exceptions.Abort):
            raise  # (a closed pipe is the reader's going, not the pack's fault)
        except Exception as exc:
            if not params.get("tables_dirs") or DEBUG["on"]:
                raise
            # A user's pack passed the check (and its trial) yet a character failed:
            # the pack is the outside cause, so it is exit 2 naming it, not a crash.
            packs = ", ".join(str(p) for p in _overlay_paths(params["tables_dirs"]))
            raise ChargenError(
                f"the tables in {packs} cannot make this {system.id} {kind}: "
                f"{type(exc).__name__}: {exc} (CHARGEN_DEBUG=1 shows where)"
            ) from exc

    command = callback
    for option in reversed(options + formats.options_for(system.id)):
        command = _system_option(system, option)(command)
    command = click.option(
        "--where",
        "where",
        default=None,
        metavar="EXPR",
        help="Only characters that satisfy EXPR (README: --where)"
        + (f", e.g. '{system.where_example}'" if system.where_example and step is None else "")
        + (" over this step's fields and the name" if step is not None else "")
        + f"; -n N is N matches, from at most {WHERE_TRIES:,} (or 1,000 per match "
        "asked) tries.",
    )(command)
    command = where_odds_options(command)
    command = click.option(
        "--reroll",
        "reroll",
        multiple=True,
        metavar="STEP[=K]",
        help="The same character with STEP (or `name`) drawn again (K: the K-th "
        "alternative; repeatable; the same step twice is K=2).",
    )(command)
    command = click.option(
        "--answers",
        "answers",
        default=None,
        metavar="A/B/...",
        help="The answers to the --interactive questions, in order, '/' between them, as "
        "a recipe names them: asked and answered without a terminal (with --interactive, "
        "the terminal asks the rest); when they run out, the dice decide.",
    )(command)
    command = click.option(
        "--interactive",
        is_flag=True,
        help="Ask for each choice on the terminal, showing the options and their effects.",
    )(command)
    if step is not None or kind == "npc":
        command = click.option(
            "--list",
            "list_tables",
            is_flag=True,
            help="Show every option of this step with its effects."
            if step is not None
            else "Show the NPC templates (--template), one line each.",
        )(command)
    command = common_options(command, _format_help(system, step))
    return click.command(name, help=helptext)(command)


def _format_help(system, step) -> str:
    """The -f help of one system's command: exactly the formats it has."""
    own = [
        f"{e.id} ({e.help})"
        for e in formats.FORMATS.values()
        if e.supports(system.id) and (step is None or not e.whole_characters)
    ]
    return (
        "table (sheet or roster), json (array), jsonl (one object per line), markdown, "
        "html and pdf (printable sheets and NPC cards)" + "".join(f", {o}" for o in own) + "."
    )


def _overlay_paths(tables_dirs) -> list:
    from pathlib import Path  # here, not at the top: `chargen --help` needs no paths

    paths = []
    for entry in tables_dirs:
        paths += (
            [Path(p) for p in str(entry).split(os.pathsep) if p]
            if isinstance(entry, str)
            else [Path(entry)]
        )
    return paths


def load_tables(system, tables_dirs):
    """The system's pack with the user's overlays, checked whole when there are any."""
    pack = system.tables(_overlay_paths(tables_dirs), tuple(available()))
    if len(pack.dirs) > 1:
        problems = pack.check()
        if problems:
            raise TableError(problems)
    return pack


def _validate_options(system, kind: str, pack, chosen: dict) -> dict:
    """Normalise choice values and check them against the tables before any output."""
    from chargen.tables import match_choice

    values = {}
    for option in system.options(kind):
        value = chosen.get(option.key)
        if option.table and value not in (None, ()):
            table = pack[option.table]
            items = list(value) if isinstance(value, tuple | list) else [value]
            ids = [match_choice(table, item) for item in items]
            for item, found in zip(items, ids, strict=True):
                if found is None:
                    raise ChoiceError(option.name, item, list(table.ids))
            twice = sorted({i for i in ids if ids.count(i) > 1})
            if twice:  # (one row chosen twice is one choice; a table's rows are each once)
                raise ChargenError(f"--{option.name} names the same row twice: {', '.join(twice)}")
            value = ids if option.multiple else ids[0]
        elif isinstance(value, tuple):
            value = list(value)
        values[option.key] = value
    return values


def run_generate(
    system,
    kind: str,
    step,
    *,
    count: int,
    seed: int | None,
    fmt: str,
    output: str | None,
    locale: str | None,
    tables_dirs,
    interactive: bool,
    list_tables: bool = False,
    width: int | None = None,
    reroll: tuple[str, ...] = (),
    answers: str | None = None,
    where: str | None = None,
    odds: bool = False,
    samples: int = ODDS_SAMPLES,
    campaign_path: str | None = None,
    tag: str | None = None,
    **chosen,
) -> None:
    from chargen import output as out
    from chargen.seeds import draw_seed

    width = width or out.terminal_width()
    export = None if list_tables else formats.lookup(fmt, system.id, step)
    export_values = formats.values_for(export, system.id, chosen) | {"width": width}
    pack = load_tables(system, tables_dirs)
    if list_tables and step is None:
        return show_templates(system, pack, fmt, output, width)
    if list_tables:
        return show_step_tables(system, step, pack, fmt, output, width)
    if locale is not None:
        from chargen.names import is_locale, unknown_locale

        if not is_locale(locale):
            raise unknown_locale(locale)
    options = _validate_options(system, kind, pack, chosen)
    variants = reroll_variants(system, kind, step, reroll)
    prompter = None
    if interactive and (sys.stdin is None or sys.stdin.closed):
        raise ChargenError("--interactive reads the answers from standard input, which is closed")
    # what makes the characters at the prompts, as the messages name it
    asked = "--interactive" if interactive else "--answers" if answers is not None else None
    if asked:
        from chargen.prompts import Prompter, replay
        from chargen.recipe import split_answers

        width = out.terminal_width(sys.stderr)
        if answers is None:
            prompter = Prompter(pack.labels, width=width, pack=pack)
        else:
            terminal = sys.stdin if interactive else None
            prompter = replay(split_answers(answers), pack, terminal, sys.stderr, width)
    condition = None
    if where is not None:
        condition = where_condition(system, kind, options, where, asked, step)
    batch_seed = draw_seed() if seed is None else seed
    if odds or samples != ODDS_SAMPLES:
        from functools import partial

        from chargen.procedure import generate

        make = partial(generate, system, pack, kind, options)
        more = {"variants": variants, "unique_names": False, "step": step and step.id}
        return where_odds(make, more, condition, samples, batch_seed, locale, count, fmt, output)
    run = Run(system, pack, kind, options, count, batch_seed, locale, prompter, step)
    run.variants, run.condition = variants, condition
    run.tables_given = tuple(str(p) for p in _overlay_paths(tables_dirs))
    campaign = _campaign_for(step, asked, campaign_path, tag)
    if campaign is None:
        return emit(system, pack, run.items(), count, fmt, output, step, width, export,
                    export_values)  # fmt: skip
    with campaign:
        recorder = campaign.recorder(
            {
                "system": system.id,
                "kind": kind,
                "options": options,
                "batch_seed": batch_seed,
                "count": count,
                "locale": locale,
                "tables": [str(p.resolve()) for p in _overlay_paths(tables_dirs)],
                "variants": variants,
                "version": __version__,
                "tag": tag,
            }
        )
        items = recorder.wrap(run.items(campaign.names(system.id)))
        try:
            emit(system, pack, items, count, fmt, output, step, width, export, export_values)
        except PipeClosed:
            recorder.finish()  # the reader stopped early: what it was given is kept
            raise
        except BaseException as exc:
            recorder.abort(exc)  # an error or an interrupt: the campaign is as it was
            raise
        recorder.finish()


class Run:
    """What a generating command makes: `items(names)` streams its characters (with a
    campaign's `names` taken too)."""

    def __init__(self, system, pack, kind, options, count, batch_seed, locale, prompter, step):
        self.system, self.pack, self.kind, self.options = system, pack, kind, options
        self.count, self.batch_seed, self.locale = count, batch_seed, locale
        self.prompter, self.step = prompter, step
        self.variants: dict = {}
        self.condition = None
        self.tables_given: tuple[str, ...] = ()

    def items(self, names=None):
        from chargen import output as out
        from chargen.procedure import generate

        system, count, condition = self.system, self.count, self.condition
        items = generate(
            system,
            self.pack,
            self.kind,
            self.options,
            count if condition is None else where_tries(count),
            self.batch_seed,
            self.locale,
            self.prompter,
            self.step.id if self.step is not None else None,
            warn=lambda text: click.echo(f"chargen: {system.id}: {text}", err=True),
            variants=self.variants,
            tables_given=self.tables_given,
            unique_names=condition is None,
            names=names,
        )
        if condition is not None:
            items = matching(
                items,
                condition,
                count,
                where_tries(count),
                names,
                lambda text: click.echo(f"chargen: note: {text}", err=True),
            )
        if self.prompter is not None:
            items = _answers_used(items, self.prompter, system.id)
        return out.progress(items, count)


def _answers_used(items, prompter, system_id: str):
    """The characters, then a word on stderr if --answers held answers that no question
    read (a recipe of another version or other options, most likely)."""
    yield from items
    total, left = prompter.unused()
    if left:
        from chargen.recipe import join_answers

        click.echo(
            f"chargen: {system_id}: --answers gave {total} answers and the questions read "
            f"{total - len(left)}: the last {len(left)} were not used ({join_answers(left)})",
            err=True,
        )


def _campaign_for(step, asked: str | None, path: str | None, tag: str | None):
    """The open campaign of a generating command, or None (and --tag needs one)."""
    from click.core import ParameterSource

    given = click.get_current_context().get_parameter_source("campaign_path")
    if path is None or (step is not None and given != ParameterSource.COMMANDLINE):
        if tag is not None:
            raise ChargenError("--tag labels what a campaign stores: give --campaign FILE too")
        return None  # (CHARGEN_CAMPAIGN does not apply to one step's part of a character)
    if step is not None:
        raise ChargenError(
            f"--campaign keeps whole characters; '{step.id}' makes one step's part: use pc or npc"
        )
    if asked:
        raise ChargenError(
            f"{asked} and --campaign do not go together yet: a name the campaign holds "
            "would ask every question again"
        )
    from chargen.campaign import open_campaign

    return open_campaign(path)


def emit(
    system, pack, items, count: int, fmt: str, output, step, width: int, export, export_values: dict
) -> None:
    """Write characters in format `fmt` (a registered `export`, html, pdf or a built-in
    one) to stdout or `-o FILE`."""
    from chargen import output as out

    if export is not None:
        return out.export(export, system, pack, items, count, export_values, output)
    if fmt == "html":
        from chargen import printable

        with out.destination(output) as stream:
            out.write([printable.html(system, pack, items, count, step)], stream)
        return
    if fmt == "pdf":
        from chargen import printable

        if output in (None, "-") and sys.stdout.isatty():
            raise ChargenError("a PDF is binary: write it with -o FILE, or pipe it")
        data = printable.pdf(system, pack, items, count, step)
        with out.destination(output) as stream:
            out.write_bytes(data, stream)
        return
    with out.destination(output) as stream:
        if fmt == "jsonl":
            out.write_jsonl(items, stream)
        else:
            out.write(out.render(system, pack, items, fmt, count, step, width), stream)


def where_odds_options(func: Callable) -> Callable:
    """--odds and --samples: how often a random character satisfies --where."""
    func = click.option(
        "--samples",
        type=click.IntRange(1, MAX_COUNT),
        default=ODDS_SAMPLES,
        show_default=True,
        help="With --where and --odds: how many random characters the estimate is made from.",
    )(func)
    return click.option(
        "--odds",
        is_flag=True,
        help="With --where: how often a random character matches, estimated from --samples "
        "characters, with its 95% interval.",
    )(func)


def where_odds(make, more: dict, condition, samples: int, seed: int, locale, count, fmt, output):
    """`--where EXPR --odds`: `samples` random characters, each made alone from its own
    seed (as --where makes them), counted as they stream; the share that matches with
    its Wilson interval."""
    from chargen import output as out
    from chargen import where as conditions
    from chargen.odds import wilson

    if condition is None:
        raise click.UsageError("--odds and --samples estimate how often --where EXPR matches")
    if count != 1:
        raise click.UsageError("--odds counts matches among --samples N characters; -n is not used")
    if fmt not in FORMATS:
        raise ChargenError(f"--where ... --odds prints a table, json, jsonl or markdown, not {fmt}")
    matches, first = 0, []
    items = make(samples, seed, locale, **more)
    for tried, char in enumerate(out.progress(items, samples), 1):
        if tried <= 200:
            first.append(char)
        if condition.holds(char):
            matches += 1
        if tried == min(200, samples):  # a path no character reaches is a mistake
            why = conditions.unreached(condition.paths, first)
            if why and not matches:
                raise ChargenError(why)
            if why:  # (under all or not, the condition holds without it)
                click.echo(f"chargen: note: {conditions.held_without(why, tried)}", err=True)
    estimate = wilson(matches, samples)
    row = {"where": condition.text, "seed": seed, **estimate.as_json()}
    if fmt in ("json", "jsonl"):
        chunks = out.json_array([row]) if fmt == "json" else out.jsonl([row])
    else:
        chunks = [_estimate_text(row, fmt == "markdown")]
    with out.destination(output) as stream:
        out.write(chunks, stream)


def _estimate_text(row: dict, markdown: bool) -> str:
    import math

    # one precision for the share and its interval: two decimals, more below 1% so that
    # the interval's top keeps three digits ("0.128%")
    high = row["high"] * 100
    places = 2 if high >= 1 or high == 0 else max(2, 2 - math.floor(math.log10(high)))

    def percent(share: float) -> str:
        return "0%" if share == 0 else "100%" if share == 1 else f"{share * 100:.{places}f}%"

    share = f"{percent(row['rate'])} ({percent(row['low'])} to {percent(row['high'])}, 95%)"
    line = f"{row['matches']:,} of {row['samples']:,} random characters matched: {share}"
    if markdown:
        return f"`--where {row['where']}`: {line}; seed {row['seed']}.\n"
    return f"--where {row['where']}\n{line}\nseed {row['seed']} (--seed gives the same sample)\n"


def where_tries(count: int) -> int:
    return max(WHERE_TRIES, 1000 * count)


def where_condition(system, kind: str, options: dict, text: str, asked: str | None, step=None):
    """The parsed --where, its paths checked against the fields the characters (or a
    step's parts, with `step`) have."""
    from chargen import recipe
    from chargen import where as conditions
    from chargen.procedure import ENVELOPE

    if asked:
        raise ChargenError(f"--where picks among random characters: it takes no {asked}")
    if recipe.whole_batch(system, kind, options):
        raise ChargenError(
            "--where picks single characters; a batch made one whole (a squad, a band) "
            "is kept or left whole"
        )
    condition = conditions.parse(text)
    if step is None:
        fields = {f for s in system.steps(kind) for f in s.fields}
    else:  # what a step's part holds (procedure.make_character)
        fields = {*step.fields, *system.step_context, "step"}
    fields |= set(ENVELOPE) | {"historik"}
    conditions.known(condition.paths, fields)
    return condition


def matching(items, condition, count: int, tries: int, taken=None, warn=None):
    """The characters that satisfy `condition`, until `count`; after `tries` characters
    (or when a path has not been met in the first ones, or none matched in the first
    WHERE_TRIES of a big batch), exit 2 saying how rare it was.
    Each is made from its own seed as it is alone (the batch's names are left as they
    come), and one whose name a kept character has is passed by, so that no name
    repeats and every match's recipe makes it again; when RENAME_TRIES such matches
    come in a row, their names have run out (a dozen epithets for the wolves asked)
    and the match is kept with a number, as a batch numbers them. `taken`: a
    campaign's names, passed by too. `warn` hears of a path that the characters which
    matched do not have (a condition under `all` or `not` holds without it: a typo,
    most likely)."""
    from chargen import where as conditions
    from chargen.procedure import RENAME_TRIES, numbered

    found = tried = passed = in_a_row = 0
    first: list = []  # the first 200 tried: what the messages tell of

    def unreached_hint() -> None:
        why = conditions.unreached(condition.paths, first) if warn is not None else None
        if why:
            warn(conditions.held_without(why, len(first)))

    names: set = set()  # of the characters kept: a match whose name is taken is passed by

    def is_taken(name: str) -> bool:
        return name in names or (taken is not None and taken.taken(name))

    for char in items:
        tried += 1
        if tried <= 200:
            first.append(char)
            if tried == 200 and found:
                unreached_hint()
        if condition.holds(char):
            if is_taken(char["name"]):
                in_a_row += 1
                if in_a_row < RENAME_TRIES:
                    passed += 1
                    continue
                char["name"] = numbered(char["name"], is_taken)[0]
            in_a_row = 0
            if len(names) >= NAMES_KEPT:
                names.clear()
            names.add(char["name"])
            found += 1
            if found == 1 and count == 1 and tried < 200:
                unreached_hint()  # (said before the character, while it is all there is)
            yield char
            if found == count:
                if tried < 200 and count > 1:
                    unreached_hint()
                return
        elif not found:
            if tried == 200:
                why = conditions.unreached(condition.paths, first)
                if why:
                    raise ChargenError(why)
            elif tried >= WHERE_TRIES:  # none in the first 50,000: no more of a big -n
                break
    raise ChargenError(
        f"{found:,} of {tried:,} characters matched --where {condition.text!r}"
        + (f" ({count:,} asked)" if count > 1 or found else "")
        + (f", and {passed:,} more whose names were taken" if passed else "")
        + ("" if found else conditions.unmet(condition.literals, first))
        + ": loosen the condition, or give the choices it asks for as options"
    )


def reroll_variants(system, kind: str, step, words) -> dict[str, int]:
    """`--reroll STEP[=K]` words as generate's variants: step id -> K. `name` is the
    naming step; a step given twice adds up (`--reroll x --reroll x` is x=2)."""
    from chargen.procedure import step_walk
    from chargen.recipe import reroll_word

    if step is None:
        steps = system.steps(kind)
    else:  # the steps up to it, and the naming step a step alone also walks for its name
        upto = system.pc[: system.pc.index(step) + 1]
        steps = upto + [s for s in step_walk(system, step)[len(upto) :] if s.naming]
    ids = [s.id for s in steps]
    naming = next((s.id for s in steps if s.naming), None)
    variants: dict[str, int] = {}
    for word in words:
        name, k = reroll_word(word)
        name = name.replace("-", "_")
        if name == "name" and naming is not None:
            name = naming
        if name not in ids:
            valid = ids + (["name"] if naming not in (None, "name") else [])
            raise ChoiceError("--reroll step", name, valid)
        variants[name] = variants.get(name, 0) + k
    return variants


def show_templates(system, pack, fmt, output, width: int = 80) -> None:
    """`SYSTEM npc --list`: the table behind the system's --template, a row each."""
    from chargen import output as out

    option = next((o for o in system.npc_options if o.name == "template" and o.table), None)
    if option is None:
        raise ChargenError(f"{system.id} has no NPC templates to list")
    with out.destination(output) as stream:
        out.write(out.templates_listing(pack[option.table], fmt, pack, width), stream)


def show_step_tables(system, step, pack, fmt, output, width: int = 80) -> None:
    import fnmatch

    from chargen import output as out

    names = [n for pattern in step.lists for n in pack.names() if fnmatch.fnmatchcase(n, pattern)]
    if not names:
        raise ChargenError(f"step '{step.id}' has no tables to list")
    with out.destination(output) as stream:
        out.write(out.listing([pack[n] for n in dict.fromkeys(names)], fmt, pack, width), stream)


# -- roll ------------------------------------------------------------------


class RollFormat(SlugChoice):
    """roll's four formats; a character format is refused saying what it is for."""

    def __init__(self) -> None:
        super().__init__(FORMATS)

    def convert(self, value, param, ctx):
        from chargen.slugs import normalize

        slug = normalize(value)
        if slug in PRINT_FORMATS:
            raise ChargenError(
                f"-f {slug} prints characters; a roll takes table, json, jsonl or markdown"
            )
        if slug in formats.names():
            formats.lookup(slug, None)  # exit 2 naming the systems that have it
        return super().convert(value, param, ctx)


def roll_options(func: Callable) -> Callable:
    """The options `roll` takes: only those it uses (no names, tables or printables)."""
    options = [
        count_option("How many times to roll each expression (1 to 1,000,000); streams."),
        seed_option("Integer seed: the same seed and version give the same rolls."),
        click.option(
            "-f",
            "--format",
            "fmt",
            type=RollFormat(),
            default="table",
            show_default=True,
            help="table, json (array), jsonl (one object per line), markdown.",
        ),
        click.option(
            "-o",
            "--output",
            type=click.Path(),
            default=None,
            help="Write to FILE (atomically) instead of stdout.",
        ),
        width_option,
        click.option(
            "--odds",
            is_flag=True,
            help="Instead of rolling: each total's exact chance, at least and at most, the mean.",
        ),
        click.option(
            "--depth",
            type=click.IntRange(0, 100),
            default=None,
            help="How many extra rolls one aceing die may add (default: 100 when rolling, "
            "3 for --odds).",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


@click.command("roll")
@click.argument("expressions", nargs=-1, required=True)
@roll_options
def roll_command(expressions, count, seed, fmt, output, width, odds, depth) -> None:
    """Roll dice: 2T10, 3d6, 2k6, d66, d6! (aces), 4d6kh3, 2d20kl1, 1T6-1.

    Each roll is one object {"expression", "total", "dice"}; -n rolls each
    expression that many times. --odds prints each expression's exact
    distribution instead.
    """
    import random

    from chargen import output as out
    from chargen.dice import MAX_ACES, parse
    from chargen.seeds import draw_seed

    parsed = [parse(e) for e in expressions]
    if odds:
        return _roll_odds(parsed, fmt, output, width, depth)
    rng = random.Random(draw_seed() if seed is None else seed)
    most = MAX_ACES if depth is None else depth
    rolls = (d.roll(rng, most).as_json() for _ in range(count) for d in parsed)
    if fmt in ("json", "jsonl"):
        chunks = out.json_array(rolls) if fmt == "json" else out.jsonl(rolls)
    else:
        chunks = _roll_rows(rolls, fmt == "markdown", parsed)
    with out.destination(output) as stream:
        out.write(chunks, stream)


def _roll_odds(parsed, fmt: str, output, width, depth) -> None:
    """`roll --odds`: one exact table per expression (chargen/odds.py)."""
    from chargen import output as out
    from chargen.odds import DEFAULT_DEPTH, odds, odds_text

    tables = [odds(d, DEFAULT_DEPTH if depth is None else depth) for d in parsed]
    if fmt in ("json", "jsonl"):
        rows = (t.as_json() for t in tables)
        chunks = out.json_array(rows) if fmt == "json" else out.jsonl(rows)
    else:
        chunks = [odds_text(tables, fmt == "markdown", width or out.terminal_width())]
    with out.destination(output) as stream:
        out.write(chunks, stream)


def _roll_rows(rolls, markdown: bool, parsed=(), chunk: int = 1000):
    """Rolls as a table, written `chunk` rows at a time so a million rolls stream:
    the column widths come from the expressions and their ranges, not the rows."""
    from itertools import islice

    heads = ("expression", "total", "dice")
    width = max([len(heads[0]), *(len(d.text) for d in parsed)])
    digits = max([len(heads[1]), *(len(str(v)) for d in parsed for v in _total_range(d))])
    if markdown:
        yield f"| {heads[0]:<{width}} | {heads[1]:>{digits}} | {heads[2]} |\n"
        yield f"|{'-' * (width + 2)}|{'-' * (digits + 1)}:|------|\n"
        line = "| {:<" + str(width) + "} | {:>" + str(digits) + "} | {} |\n"
    else:
        yield f"{heads[0]:<{width}}  {heads[1]:>{digits}}  {heads[2]}\n"
        yield f"{'-' * width}  {'-' * digits}  {'-' * 6}\n"
        line = "{:<" + str(width) + "}  {:>" + str(digits) + "}  {}\n"
    rolls = iter(rolls)
    while True:
        block = islice(rolls, chunk)
        text = "".join(
            line.format(r["expression"], r["total"], " ".join(map(str, r["dice"]))) for r in block
        )
        if not text:
            return
        yield text


def _total_range(dice) -> tuple[int, int]:
    low, high = dice.span
    if dice.aces:  # an aceing die has no top: leave room for a long run
        high = high * 10
    return low, high


# -- systems ---------------------------------------------------------------


@click.command("systems")
@format_option
@width_option
def systems_command(fmt: str, width: int | None) -> None:
    """The systems, their language, commands and creation steps."""
    from chargen import output as out

    rows = []
    for system in loadable(
        available(), lambda text: click.echo(f"chargen: warning: {text}", err=True)
    ):
        steps = [s.id for s in system.pc if s.command]
        rows.append(
            {
                "id": system.id,
                "name": system.name,
                "language": system.language,
                "locale": system.locale,
                "commands": ["pc", "npc", *steps],
                "steps": [
                    {"id": s.id, "label": s.label or s.id, "fields": list(s.fields)}
                    for s in system.pc
                    if s.command
                ],
                "pc_options": [f"--{o.name}" for o in system.pc_options],
                "npc_options": [f"--{o.name}" for o in system.npc_options],
            }
        )
    if fmt == "json":
        chunks = out.json_array(rows)
    elif fmt == "jsonl":
        chunks = out.jsonl(rows)
    else:
        table = [
            [
                r["id"],
                r["name"],
                r["language"],
                " ".join(r["commands"][:2]),
                " > ".join(s["id"] for s in r["steps"]),
            ]
            for r in rows
        ]
        heads = ["system", "name", "language", "commands", "steps (each also a command)"]
        chunks = [out.grid(table, heads, fmt == "markdown", width or out.terminal_width())]
    out.write(chunks, sys.stdout)


# -- tables ----------------------------------------------------------------


@click.group("tables")
def tables_group() -> None:
    """Inspect and lint the TOML tables, the user's own included."""


def _systems_for(system_id: str | None) -> list[str]:
    if system_id is None:
        return available()
    if system_id not in available():
        raise ChoiceError("system", system_id, available())
    return [system_id]


@tables_group.command("list")
@click.option("--system", "system_id", default=None, help="Only this system's tables.")
@tables_option
@format_option
@width_option
def tables_list(system_id, tables_dirs, fmt, width) -> None:
    """Every table per system: its kind, die and size, and where it comes from."""
    from chargen import output as out

    rows = []
    for sid in _systems_for(system_id):
        pack = load(sid).tables(_overlay_paths(tables_dirs), tuple(available()))
        builtin = pack.dirs[0]
        own = "built-in" if sid in BUILTIN else "plugin"  # (a plugin's own tables)
        for name in pack.names():
            table = pack[name]
            rows.append(
                {
                    "system": sid,
                    "table": name,
                    "kind": table.kind,
                    "die": table.die.text if table.die else None,
                    "entries": len(table.entries),
                    "source": own if pack.files[name].parent == builtin else str(pack.files[name]),
                    "description": table.description,
                }
            )
    if fmt in ("json", "jsonl"):
        chunks = out.json_array(rows) if fmt == "json" else out.jsonl(rows)
    else:
        body = [
            [r["system"], r["table"], r["kind"], r["die"] or "", r["entries"], r["source"]]
            for r in rows
        ]
        heads = ["system", "table", "kind", "die", "entries", "source"]
        chunks = [out.grid(body, heads, fmt == "markdown", width or out.terminal_width())]
    out.write(chunks, sys.stdout)


@tables_group.command("show")
@click.argument("name")
@click.option(
    "--system", "system_id", default=None, help="The system, when NAME is not SYSTEM/NAME."
)
@tables_option
@format_option
@width_option
def tables_show(name, system_id, tables_dirs, fmt, width) -> None:
    """One table's rows with their ranges and each row's chance in percent."""
    from chargen import output as out

    if "/" in name:
        system_id, name = name.split("/", 1)
    found = []
    for sid in _systems_for(system_id):
        pack = load(sid).tables(_overlay_paths(tables_dirs), tuple(available()))
        if name in pack:
            found.append(pack[name])
    if not found:
        every = sorted(
            f"{sid}/{n}"
            for sid in _systems_for(system_id)
            for n in load(sid).tables(_overlay_paths(tables_dirs), tuple(available())).names()
        )
        raise ChoiceError("table", name, every)
    if len(found) > 1:
        raise ChargenError(
            f"table '{name}' exists in several systems; name one: "
            + ", ".join(f"{t.path.parent.name}/{name}" for t in found)
        )
    out.write(
        out.listing(found, fmt, _pack_of(found[0], tables_dirs), width or out.terminal_width()),
        sys.stdout,
    )


def _pack_of(table, tables_dirs):
    """The pack a table was found in (for the names and words of its listing)."""
    for sid in available():
        pack = load(sid).tables(_overlay_paths(tables_dirs), tuple(available()))
        if table.name in pack and pack.files[table.name] == table.path:
            return pack
    raise ChargenError(f"no system holds {table.path}")


@tables_group.command("check")
@click.argument("directory", required=False, type=click.Path(exists=True, file_okay=False))
@click.option(
    "--system", "system_id", default=None, help="The system a folder of bare *.toml files is for."
)
def tables_check(directory, system_id) -> None:
    """Lint tables: syntax, schema, gaps, overlaps, ranges, references, cycles, effect keys.

    Without DIR the built-in tables are checked; DIR is a pack laid out as
    DIR/SYSTEM/*.toml (or a folder of one system's tables with --system), checked
    together with the built-in tables it is laid over.
    """
    from pathlib import Path

    from chargen.tables import pack_problems

    overlays = [Path(directory)] if directory else []
    systems = _systems_for(system_id)
    known = tuple(available())
    if directory and pack_problems(Path(directory), known):
        raise TableError(pack_problems(Path(directory), known))
    if directory and system_id is None:
        systems = [
            s for s in systems if (Path(directory) / s).is_dir() or Path(directory).name == s
        ]
        if not systems:
            raise ChargenError(
                f"{directory} holds no system's tables: lay it out as {directory}/SYSTEM/*.toml "
                f"(SYSTEM one of {', '.join(available())}) or name the system with --system"
            )
    problems = []
    checked = 0
    unloadable: list[str] = []  # plugins that cannot be imported: the others are checked
    loaded = loadable(systems, unloadable.append) if system_id is None else [load(system_id)]
    fine = 0  # the systems whose tables were checked
    for system in loaded:
        try:
            pack = system.tables(overlays, known)
        except TableError:
            raise
        except ChargenError as exc:  # a plugin without its tables: the others are checked
            if system_id is not None:
                raise
            unloadable.append(str(exc))
            continue
        pack.thorough = True  # a trial of every entry of the user's tables
        problems += pack.check()
        checked += len(pack.names())
        fine += 1
    if problems:
        raise TableError(problems)
    if unloadable:
        raise ChargenError(
            "; ".join(unloadable) + f" (the other {fine} system(s) have no problems)"
        )
    click.echo(f"ok: {checked} tables in {len(systems)} system(s), no problems", err=True)


# -- campaign --------------------------------------------------------------

campaign_option = click.option(
    "--campaign",
    "campaign_path",
    type=click.Path(dir_okay=False),
    required=True,
    envvar="CHARGEN_CAMPAIGN",
    help="The campaign file (also CHARGEN_CAMPAIGN).",
)
output_option = click.option(
    "-o", "--output", type=click.Path(), default=None, help="Write to FILE (atomically)."
)


def selection_options(func: Callable) -> Callable:
    """The filters of `campaign list` and `campaign export`: each given must hold."""
    options = [
        click.option("--system", "system_id", default=None, help="Only this system's."),
        click.option("--kind", type=click.Choice(["pc", "npc"]), default=None, help="pc or npc."),
        click.option("--template", default=None, help="Only this template (an id)."),
        click.option("--tag", default=None, help="Only those stored with this tag."),
        click.option("--name", default=None, help="Names containing this text."),
        click.option("--since", default=None, help="Made on or after this day (YYYY-MM-DD, UTC)."),
        click.option("--until", default=None, help="Made on or before this day (YYYY-MM-DD, UTC)."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _selection(
    ids=(), system_id=None, kind=None, template=None, tag=None, name=None, since=None, until=None
):
    from chargen.campaign import Selection, day

    if system_id is not None and system_id not in available():
        raise ChoiceError("system", system_id, available())
    return Selection(
        ids,
        system_id,
        kind,
        template,
        tag,
        name,
        day(since) if since is not None else None,
        day(until) if until is not None else None,
    )


def _open_campaign(path: str, write: bool = False):
    from chargen.campaign import open_campaign

    return open_campaign(path, write=write)


@click.group("campaign")
def campaign_group() -> None:
    """What a campaign file holds: list, show, export, forget, stats, check.

    A campaign file is made and filled by generating commands given --campaign FILE
    (or CHARGEN_CAMPAIGN); no name comes twice within it, per system.
    """


LIST_COLUMNS = ("id", "system", "kind", "template", "name", "tag", "at", "seed")


@campaign_group.command("list")
@campaign_option
@selection_options
@format_option
@width_option
@output_option
def campaign_list(campaign_path, fmt, width, output, **filters) -> None:
    """The characters stored, one row each (filter by system, kind, template, tag,
    name, date)."""
    from chargen import output as out
    from chargen.sheet import Column

    where = _selection(**filters)
    with _open_campaign(campaign_path) as campaign:
        rows = (
            {k: row[k] for k in (*LIST_COLUMNS, "recipe")}
            for row in campaign.select(where, ", ".join((*LIST_COLUMNS, "recipe")))
        )
        if fmt == "json":
            chunks = out.json_array(rows)
        elif fmt == "jsonl":
            chunks = out.jsonl(rows)
        else:
            columns = [Column(c, priority=9 if c in ("id", "name") else 5) for c in LIST_COLUMNS]
            columns[LIST_COLUMNS.index("at")] = Column("at", lambda r: r["at"][:10], priority=3)
            chunks = out.roster(
                columns, rows, fmt == "markdown", width=width or out.terminal_width()
            )
        with out.destination(output) as stream:
            out.write(chunks, stream)


def _pack_for(campaign, row):
    """The system and pack a stored character was drawn from (its run's overlays)."""
    from pathlib import Path

    from chargen.campaign import tables_of

    if row["system"] not in available():
        raise ChargenError(
            f"character {row['id']} is of system '{row['system']}', which is not installed"
        )
    system = load(row["system"])
    folders = tables_of(campaign, row)
    gone = [f for f in folders if not Path(f).is_dir()]
    if gone:
        raise ChargenError(
            f"character {row['id']} was drawn with the tables in {', '.join(gone)}, "
            "which are gone: its sheet needs them (its JSON does not: -f json)"
        )
    return system, load_tables(system, folders)


every_format_option = click.option(
    "-f",
    "--format",
    "fmt",
    type=SlugChoice(FORMATS + PRINT_FORMATS + formats.names()),
    default="table",
    show_default=True,
    help="Any format of a generating command: table, json, jsonl, markdown, html, pdf, "
    + ", ".join(formats.names())
    + " (where the system has it).",
)
latin1_option = click.option(
    "--latin1", is_flag=True, help="-f statblock: write ő ű as õ û (Latin-1)."
)


@campaign_group.command("show")
@click.argument("key", metavar="ID|NAME")
@campaign_option
@click.option("--system", "system_id", default=None, help="The system, when NAME is ambiguous.")
@every_format_option
@width_option
@output_option
@latin1_option
def campaign_show(key, campaign_path, system_id, fmt, width, output, latin1) -> None:
    """One stored character, in any format, exactly as when it was made.

    The sheet and every other format are rendered from the JSON the campaign stored
    (with the tables it was drawn from), so they are byte for byte what the run
    printed for it (at the same --width).
    """
    from chargen import output as out
    from chargen.campaign import character

    with _open_campaign(campaign_path) as campaign:
        row = campaign.find(key, system_id)
        if fmt == "jsonl":  # the stored line itself
            with out.destination(output) as stream:
                out.write([row["json"] + "\n"], stream)
            return
        char = character(row)
        system, pack = _pack_for(campaign, row)
    export = formats.lookup(fmt, system.id)
    values = formats.values_for(export, system.id, {"latin1": latin1})
    values |= {"width": width or out.terminal_width()}
    emit(system, pack, [char], 1, fmt, output, None, width or out.terminal_width(), export, values)


@campaign_group.command("export")
@click.argument("ids", nargs=-1, type=int, metavar="[ID]...")
@campaign_option
@selection_options
@every_format_option
@width_option
@output_option
@latin1_option
def campaign_export(ids, campaign_path, fmt, width, output, latin1, **filters) -> None:
    """A selection of stored characters (IDs, filters, or all) as JSON, JSONL, their
    sheets (table, Markdown), HTML or PDF, or a system's own format.

    JSON and JSONL may mix systems; the other formats take one system's characters
    drawn from the same tables (narrow with --system or --tag).
    """
    from chargen import output as out
    from chargen.campaign import character

    where = _selection(ids, **filters)
    width = width or out.terminal_width()
    with _open_campaign(campaign_path) as campaign:
        if fmt in ("json", "jsonl"):
            lines = (row["json"] for row in campaign.select(where, "json"))
            chunks = (
                (line + "\n" for line in lines)
                if fmt == "jsonl"
                else out.json_array(character({"json": line}) for line in lines)
            )
            with out.destination(output) as stream:
                out.write(chunks, stream)
            return
        kinds = list(campaign.select(where, "DISTINCT system, run"))
        if not kinds:
            raise ChargenError("no stored character matches: nothing to export")
        runs = {r["run"]: campaign.run(r["run"])["tables"] for r in kinds}
        if len({r["system"] for r in kinds}) > 1 or len(set(runs.values())) > 1:
            raise ChargenError(
                f"-f {fmt} takes one system's characters drawn from the same tables; this "
                "selection mixes them: narrow it with --system (or --tag), or use -f json"
            )
        first = next(campaign.select(where, "id, system, run"))
        system, pack = _pack_for(campaign, first)
        count = next(campaign.select(where, "COUNT(*)"))[0]
        items = (character(row) for row in campaign.select(where, "id, json"))
        export = formats.lookup(fmt, system.id)
        values = formats.values_for(export, system.id, {"latin1": latin1}) | {"width": width}
        if export is None and fmt in FORMATS:  # each character's whole sheet, one after another
            sheets = (
                "".join(out.render(system, pack, [char], fmt, 1, None, width)) for char in items
            )
            chunks = (("\n" if i else "") + sheet for i, sheet in enumerate(sheets))
            with out.destination(output) as stream:
                out.write(chunks, stream)
            return
        emit(system, pack, items, count, fmt, output, None, width, export, values)


@campaign_group.command("forget")
@click.argument("ids", nargs=-1, type=int, metavar="ID...")
@campaign_option
@click.option("--run", "run_id", type=int, default=None, help="Every character of this run.")
def campaign_forget(ids, campaign_path, run_id) -> None:
    """Remove these characters (all, or none when one is not there): their names are
    free again."""
    if not ids and run_id is None:
        raise click.UsageError("name the characters to forget (ID...) or a run (--run R)")
    import os

    # (write: it removes rows; a missing file is "no campaign", never made empty here)
    exists = campaign_path is not None and os.path.exists(campaign_path)
    with _open_campaign(campaign_path, write=exists) as campaign:
        done = campaign.forget(list(ids)) if ids else 0
        if run_id is not None:
            done += campaign.forget_run(run_id)
    click.echo(f"forgot {done} character(s)", err=True)


@campaign_group.command("stats")
@campaign_option
@format_option
@width_option
def campaign_stats(campaign_path, fmt, width) -> None:
    """How many characters, per system, kind and tag."""
    from chargen import output as out

    with _open_campaign(campaign_path) as campaign:
        rows = campaign.stats()
    if fmt in ("json", "jsonl"):
        chunks = out.json_array(rows) if fmt == "json" else out.jsonl(rows)
    else:
        body = [[r["system"], r["kind"], r["tag"] or "", r["count"]] for r in rows]
        body.append(["", "", "", sum(r["count"] for r in rows)])
        heads = ["system", "kind", "tag", "characters"]
        chunks = [out.grid(body, heads, fmt == "markdown", width or out.terminal_width())]
    out.write(chunks, sys.stdout)


@campaign_group.command("check")
@campaign_option
def campaign_check(campaign_path) -> None:
    """Integrity: SQLite's own check, then every character's JSON against what is
    stored beside it, and no name twice. Problems: exit 2."""
    with _open_campaign(campaign_path) as campaign:
        count, problems = campaign.check()
    if problems:
        shown = "\n".join(f"  {p}" for p in problems[:50])
        more = f"\n  ... and {len(problems) - 50} more" if len(problems) > 50 else ""
        raise ChargenError(f"campaign {campaign_path}: {len(problems)} problem(s):\n{shown}{more}")
    click.echo(f"ok: {count:,} characters, no problems", err=True)


# the commands beside the games, by name (chargen.cli lists them with SHORT_HELP)
COMMANDS: dict[str, click.Command] = {
    "campaign": campaign_group,
    "roll": roll_command,
    "systems": systems_command,
    "tables": tables_group,
}
