"""Imports run one way: every module of chargen in a declared layer, no cycles.

The layers, top first (the README's architecture section shows the same order):
a module may import only modules of layers below its own, never one of its own
layer or above, and the imports inside functions count as well as those at the
top. A game's package (`chargen.systems.<id>`) sits in the `systems.*` layer with
an order of its own (`SYSTEM_PACKAGE`), and never imports another game's package.
Modules loaded by name at run time (the registry's games, the formats' exporters)
are not imports: that is how an upper layer reaches a lower one lazily.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import chargen

ROOT = Path(chargen.__file__).resolve().parent

# Top first. A module of a layer imports only from the layers after it.
LAYERS: list[tuple[str, ...]] = [
    ("__main__",),
    ("launch",),  # the program: the CLI with the garbage collector set for a short run
    ("cli",),  # the root group and the exit codes
    ("commands",),  # each game's group and roll, systems, tables, campaign
    ("campaign",),  # campaign files (sqlite3): what a campaign holds, no name twice
    ("formats",),
    ("export.statblock",),
    ("export.swade", "export.worldbuilding", "export.brp"),  # the Foundry targets
    ("export.foundry",),
    ("export",),
    ("printable",),
    ("output",),
    ("saved",),  # characters saved as JSON, checked and drawn again
    ("systems",),  # the registry: games by id, built in or installed as plugins
    ("systems.*",),  # each game's package
    ("procedure",),  # System, Step, generate: the procedures and the loop over a batch
    ("prompts",),  # the questions of --interactive, and their answers replayed
    ("recipe",),  # the command line that makes a character again
    ("context",),  # Context: what a step works with
    ("steering",),  # the choices pinned by options, kept possible
    ("sheet",),  # Section, Part, Column: what a sheet is made of
    ("details",),  # a table entry in the game's words (--list, the questions)
    ("tables",),
    ("labels", "conditions", "names", "odds"),
    ("dice", "render", "encode", "tomlfile", "slugs", "where"),
    ("errors", "seeds", "cache", "typeset", "pdfjoin", "__init__"),
]
# Inside a game's package, top first: its declaration, its sheet and pack checks,
# its NPCs, its creation steps, and the rules and constants they all share.
SYSTEM_PACKAGE: list[tuple[str, ...]] = [
    ("__init__",),
    ("sheet", "checks"),
    ("npcs",),
    ("steps",),
    ("rules",),
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The chargen modules `name` imports anywhere in its file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def resolve(target: str) -> str | None:
        while target and target not in known:
            target = target.rpartition(".")[0]
        return target or None

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "chargen" or alias.name.startswith("chargen."):
                    found.add(resolve(alias.name.removeprefix("chargen").lstrip(".")) or "__init__")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".") if package else []
                base = base[: len(base) - node.level + 1] if node.level > 1 else base
                module = ".".join(base + ([node.module] if node.module else []))
            elif node.module == "chargen" or (node.module or "").startswith("chargen."):
                module = node.module.removeprefix("chargen").lstrip(".")
            else:
                continue
            for alias in node.names:
                target = f"{module}.{alias.name}" if module else alias.name
                found.add(resolve(target) or resolve(module) or "__init__")
    found.discard(name)
    return found


def rank(name: str) -> tuple[int, int, str]:
    """(layer, place inside a game's package, the game) of a module."""
    parts = name.split(".")
    if parts[0] == "systems" and len(parts) > 1:
        inner = parts[2] if len(parts) > 2 else "__init__"
        places = [i for i, layer in enumerate(SYSTEM_PACKAGE) if inner in layer]
        assert places, (
            f"chargen/{'/'.join(parts)}: a game's modules are {SYSTEM_PACKAGE}; "
            "name it for its concern and add it to SYSTEM_PACKAGE in tests/test_layers.py"
        )
        layer = next(i for i, names in enumerate(LAYERS) if "systems.*" in names)
        return layer, places[0], parts[1]
    places = [i for i, layer in enumerate(LAYERS) if name in layer]
    assert places, f"chargen/{name}: a module in no layer: add it to LAYERS in tests/test_layers.py"
    return places[0], 0, ""


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imports(name, path, known) for name, path in found.items()}


def test_every_module_is_in_a_layer():
    for name in modules():
        rank(name)


def test_imports_run_down_the_layers():
    wrong = []
    for name, targets in graph().items():
        mine = rank(name)
        for target in sorted(targets):
            theirs = rank(target)
            if mine[0] == theirs[0] and mine[2] and theirs[2]:  # two modules of games
                if mine[2] != theirs[2]:
                    wrong.append(f"{name} imports {target}: games never import each other")
                elif theirs[1] <= mine[1]:
                    wrong.append(f"{name} imports {target}, which is not below it in its game")
            elif theirs[0] <= mine[0]:
                wrong.append(f"{name} imports {target}, which is not in a layer below it")
    assert not wrong, "\n".join(wrong)


def test_no_import_cycles():
    edges = graph()
    state: dict[str, int] = {}
    cycles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(path[path.index(nxt) :] + [nxt]))
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node, [node])
    assert not cycles, "\n".join(cycles)


def test_the_reader_sees_the_imports_it_should():
    """The test's own reader: relative, aliased and function-level imports count."""
    edges = graph()
    assert "tables" in edges["procedure"]
    assert "procedure" in edges["commands"]  # imported inside a function
    assert "errors" in edges["tables"]


def test_the_readme_shows_the_layers_in_their_order():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Architecture") :]
    block = section[section.index("```\n") + 4 : section.index("\n```", section.index("```\n"))]
    shown: list[str] = []
    for line in block.splitlines():
        head = re.split(r"\s{2,}", line.strip())[0]
        if line.startswith(" " * 20) or not head:
            continue  # a description's second line
        shown += [w.strip() for w in head.split("·")]
    spelled = {"systems.*": "systems/<id>/"}
    for names in LAYERS:
        for name in names:
            if name.startswith("export."):
                name = "export/*"
            name = spelled.get(name, name)
            if name in ("__main__", "__init__", "export") or name in shown:
                continue
            raise AssertionError(f"the README's architecture leaves out {name}")
    order = []
    for word in shown:
        module = {v: k for k, v in spelled.items()}.get(word, word)
        if module == "export/*":
            module = "export.foundry"
        order.append(next(i for i, names in enumerate(LAYERS) if module in names))
    assert order == sorted(order), list(zip(shown, order, strict=True))
