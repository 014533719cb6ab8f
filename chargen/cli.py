"""The command line: a thin click layer over the engine, and its exit codes.

The root group lists the systems from the registry and the other commands from
`SHORT_HELP` without importing them; chargen.commands, which builds them, is
loaded when one runs, so `chargen --help` imports neither the systems nor Faker.
Errors are mapped to exit codes in one place, `main`: 2 for bad usage or input, 1
for a bug, and a closed pipe ends quietly.
"""

from __future__ import annotations

import contextlib
import os
import sys

import click

from chargen import __version__
from chargen.errors import (
    DEBUG,
    ChargenError,
    OutputError,
    PipeClosed,
    Terminated,
    did_you_mean,
)
from chargen.systems import available, describe, load

# The first line of each command's help, as `chargen --help` lists it (a test holds it
# to the command's own help)
SHORT_HELP = {
    "campaign": "What a campaign file holds: list, show, export, forget, stats, check.",
    "roll": "Roll dice: 2T10, 3d6, 2k6, d66, d6! (aces), 4d6kh3, 2d20kl1, 1T6-1.",
    "systems": "The systems, their language, commands and creation steps.",
    "tables": "Inspect and lint the TOML tables, the user's own included.",
}


class RootGroup(click.Group):
    """Lists the systems from the registry without importing them; loads one when named."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # each system's group, built once: resolving a command asks for it more than once
        self.loaded: dict[str, click.Group] = {}

    def list_commands(self, ctx):
        return available() + sorted(SHORT_HELP)

    def get_command(self, ctx, name):
        if name in SHORT_HELP:
            from chargen.commands import COMMANDS

            return COMMANDS[name]
        if name in available():
            if name not in self.loaded:
                from chargen.commands import build_system_group

                self.loaded[name] = build_system_group(load(name))
            return self.loaded[name]
        return None

    def format_commands(self, ctx, formatter):
        rows = [(sid, describe(sid)) for sid in available()]
        if rows:
            with formatter.section("Systems"):
                formatter.write_dl(rows)
        rows = sorted(SHORT_HELP.items())
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def resolve_command(self, ctx, args):
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            valid = self.list_commands(ctx)
            raise click.UsageError(
                f"unknown system or command '{name}'{did_you_mean(name, valid)}. "
                f"Valid: {', '.join(valid)}",
                ctx,
            )
        return super().resolve_command(ctx, args)


@click.group(cls=RootGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="chargen")
@click.option("--debug", is_flag=True, help="Show Python tracebacks for errors.")
def cli(debug: bool) -> None:
    """Tabletop role-playing characters and NPCs, made by each game's own
    creation procedure over TOML random tables.

    \b
    Examples:
      chargen karma pc                    a character sheet
      chargen karma npc -n 20 -f jsonl    twenty NPCs, one JSON object per line
      chargen systems                     the systems, their commands and steps
    """
    if debug:
        DEBUG["on"] = True


# -- entry point -------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    """Run the CLI and map every outcome to an exit status."""
    DEBUG["on"] = os.environ.get("CHARGEN_DEBUG") == "1"
    if sys.stdout is None:  # started with stdout closed (`>&-`)
        sys.stdout = _ClosedStdout()
    try:
        result = cli.main(args=argv, prog_name="chargen", standalone_mode=False)
        if sys.stdout is not None:
            try:
                sys.stdout.flush()
            except OSError as exc:  # a full disk behind `>`: say so, exit 2
                raise OutputError(f"cannot write standard output: {exc.strerror}", True) from None
        sys.exit(result if isinstance(result, int) else 0)
    except Terminated as exc:  # SIGTERM / SIGHUP while writing a file: it is cleaned up
        sys.exit(exc.code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("chargen: interrupted", err=True)
        sys.exit(130)
    except ChargenError as exc:
        if DEBUG["on"]:
            raise
        if isinstance(exc, OutputError) and exc.stdout:
            _quiet_stdout()  # nothing more to write there, and no error again at exit
        click.echo(f"chargen: {exc.error_word}: {exc}", err=True)
        sys.exit(2)
    except (PipeClosed, BrokenPipeError):
        _quiet_stdout()
        sys.exit(0)
    except SystemExit as exc:
        # click answers a closed pipe under --help or --version with exit 1 and puts
        # its PacifyFlushWrapper in place of stdout: a closed pipe is exit 0 here
        if exc.code == 1 and type(sys.stdout).__name__.endswith("PacifyFlushWrapper"):
            _quiet_stdout()
            sys.exit(0)
        raise
    except KeyboardInterrupt:
        sys.exit(130)
    except UnicodeEncodeError as exc:  # the output's encoding, not a bug of chargen
        if DEBUG["on"]:
            raise
        _quiet_stdout()
        click.echo(
            f"chargen: error: the output encoding ({exc.encoding}) cannot hold the text "
            f"({exc.object[exc.start : exc.end]!a}): use a UTF-8 locale or set "
            "PYTHONIOENCODING=utf-8",
            err=True,
        )
        sys.exit(2)
    except OSError as exc:  # the machine's fault (a full disk, a lost device), not a bug
        if DEBUG["on"]:
            raise
        where = f" ({exc.filename})" if exc.filename else ""
        click.echo(f"chargen: error: {exc.strerror or exc}{where}", err=True)
        sys.exit(2)
    except Exception as exc:  # a bug: say so briefly, exit 1
        if DEBUG["on"]:
            raise
        click.echo(_internal_error(exc), err=True)
        sys.exit(1)


def _internal_error(exc: Exception) -> str:
    """What a bug's report says: where a character was being made when it happened (the
    game, step and seed, chargen.procedure.generate), and whom to tell: chargen, or for a
    plugin game the authors of its package."""
    from chargen.systems import BUILTIN, registry

    where, whom = "", "report it"
    found = getattr(exc, "chargen_where", None)
    if found is not None:
        system_id, step, seed = found  # (step None: the game's sheet)
        place = f"step '{step}'" if step else "its sheet" if step is None else ""
        where = f" in the game '{system_id}', {place} (--seed {seed})" if place else ""
        if system_id not in BUILTIN:
            package = registry().get(system_id, "?").partition(":")[0]
            where += f", a plugin ({package})"
            whom = "report it to the authors of that package"
    return (
        f"chargen: internal error{where}: {type(exc).__name__}: {exc}\n"
        "Run it again as `chargen --debug ...` (--debug before the game's name) or with "
        f"CHARGEN_DEBUG=1 for the traceback, and {whom}."
    )


class _ClosedStdout:
    """Stands in for a stdout that was closed before chargen started: writing to it
    is exit 2 with that cause (give -o FILE instead)."""

    encoding = "utf-8"

    def write(self, text: str) -> int:
        raise OutputError("standard output is closed: give -o FILE to write elsewhere")

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise OSError("standard output is closed")


def _quiet_stdout() -> None:
    """After a closed pipe: point stdout at devnull so the exit-time flush stays silent."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    with contextlib.suppress(OSError, ValueError):
        os.dup2(devnull, sys.stdout.fileno())
