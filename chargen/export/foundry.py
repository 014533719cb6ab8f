"""`-f foundry`: characters as Foundry VTT Actor documents, for every system with a target.

A system declares its target, the Foundry game system its characters go into
(`System.foundry`: "swade", "worldbuilding", "brp"); the target is the module
`chargen.export.<target>`, which turns one character into the Actor's type, `system`
data and Items, reading its side of the game's fields from a TOML mapping beside it.
What every target shares is here:

- one character is one Actor object, the JSON that Foundry's "Import Data" takes;
  several are a JSON array, or with `-o DIR` a folder with one file per actor;
- each file is also a source file of the official Foundry command-line tool (`_id`,
  and `_key` "!actors!<id>" on the actor and "!actors.items!<actor>.<item>" on each
  embedded Item), so `fvtt package pack` turns the folder into a compendium;
- ids come from the character and its seed: the same seed gives the same bytes;
- `_stats` names the Foundry core and the target's release (its TOML pins them);
- `flags.chargen` carries the system, kind, template, seed, recipe and chargen's
  version, and for the members of a squad or a band (the same `squad` or `band` id,
  one after another in a batch) the group, its leader (the first member) and the
  member's place; a target may add its own (a squad's shared action card) and a
  notes file for the group's folder.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import re
import unicodedata
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from chargen import __version__
from chargen.export import group_of, squad_runs

ID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
ACTOR_IMG = "icons/svg/mystery-man.svg"
ITEM_IMG = "icons/svg/item-bag.svg"
# What is not part of who the character is: its id stays when these change.
NOT_IN_ID = ("historik", "recipe")

_pretty = json.JSONEncoder(ensure_ascii=False, check_circular=False, indent=2).encode


@cache
def load_mapping(name: str) -> dict[str, Any]:
    """A target's TOML mapping, chargen/export/<name>.toml."""
    from chargen import tomlfile

    return tomlfile.loads((Path(__file__).parent / f"{name}.toml").read_text(encoding="utf-8"))


# The targets, chargen.export.<target>; each says which games it maps (`mapped`).
TARGETS = ("swade", "brp", "worldbuilding")


def target(system) -> Any:
    """The target module of a system (chargen.export.<System.foundry>); a target chargen
    does not have, or one that has no mapping of the game, is exit 2 saying so."""
    from chargen.errors import ChargenError

    if system.foundry not in TARGETS:
        raise ChargenError(
            f"-f foundry: the game '{system.id}' declares foundry = {system.foundry!r}, "
            f"which is no target of chargen's (targets: {', '.join(TARGETS)})"
        )
    module = importlib.import_module(f"chargen.export.{system.foundry}")
    missing = module.unmapped(system)
    if missing:
        raise ChargenError(f"-f foundry: {missing}")
    return module


# -- small pieces ---------------------------------------------------------------------


def doc_id(*parts: Any) -> str:
    """A Foundry document id: 16 letters and digits derived from `parts`."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8")).digest()
    number = int.from_bytes(digest[:16], "big")
    out = []
    for _ in range(16):
        number, rest = divmod(number, 62)
        out.append(ID_ALPHABET[rest])
    return "".join(out)


def ascii_fold(text: str) -> str:
    """Text without its accents: Bőrvért -> Borvert, Färdigheter -> Fardigheter."""
    text = text.replace("æ", "ae").replace("Æ", "Ae").replace("ø", "o").replace("Ø", "O")
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def html(*paragraphs: str) -> str:
    """Paragraphs as the HTML of a Foundry rich-text field (empty ones left out)."""
    from html import escape

    return "".join(f"<p>{escape(str(p))}</p>" for p in paragraphs if p not in ("", None))


class Items:
    """The embedded Items of one actor, each with an id derived from the actor's and its
    own key (the same item twice, two daggers, gets an id of its own)."""

    def __init__(self, actor_id: str) -> None:
        self.actor_id = actor_id
        self.items: list[dict] = []
        self.seen: set[str] = set()

    def add(self, kind: str, name: str, key: str, system: dict, img: str = ITEM_IMG) -> dict:
        n = 0
        item_id = doc_id(self.actor_id, kind, key, n)
        while item_id in self.seen:
            n += 1
            item_id = doc_id(self.actor_id, kind, key, n)
        self.seen.add(item_id)
        item = {
            "_id": item_id,
            "name": name,
            "type": kind,
            "img": img,
            "system": system,
            "effects": [],
            "flags": {},
            "_key": f"!actors.items!{self.actor_id}.{item_id}",
        }
        self.items.append(item)
        return item


# -- the actor ------------------------------------------------------------------------


def actor_id(char: dict) -> str:
    """The actor's id: from its seed and what the seed and the options made of it, so the
    same seed and options give the same id, and another --tough or --wild-card another."""
    body = {k: v for k, v in char.items() if k not in NOT_IN_ID}
    canonical = json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return doc_id("chargen", char.get("system"), char.get("seed"), canonical)


def chargen_flags(char: dict) -> dict[str, Any]:
    """flags.chargen: where the character came from and how to make it again."""
    return {
        "system": char.get("system"),
        "kind": char.get("kind"),
        "template": char.get("template"),
        "seed": char.get("seed"),
        "recipe": char.get("recipe"),
        "squad": group_of(char),
        "version": __version__,
    }


def actor(system, tables, char: dict, group: dict | None = None) -> dict:
    """One character as an Actor document of its system's target (plain JSON data)."""
    module = target(system)
    versions = module.versions()
    the_id = actor_id(char)
    items = Items(the_id)
    body = module.actor(char, tables, items)
    flags = chargen_flags(char)
    if group is not None:
        flags |= group
        if hasattr(module, "group_flags"):
            flags |= module.group_flags(char)
    return {
        "_id": the_id,
        "name": char["name"],
        "type": body["type"],
        "img": body.get("img", ACTOR_IMG),
        "system": body["system"],
        "items": items.items,
        "effects": [],
        "folder": None,
        "prototypeToken": {"name": char["name"], "actorLink": bool(body.get("linked"))},
        "flags": {"chargen": flags},
        "_stats": {
            "coreVersion": versions["core"],
            "systemId": versions["system_id"],
            "systemVersion": versions["system"],
        },
        "_key": f"!actors!{the_id}",
    }


# -- batches, squads and bands --------------------------------------------------------


def actors(system, tables, items: Iterable[dict]) -> Iterator[dict]:
    """Actors in order; the members of a squad or band carry their place, the leader
    (the group's first member) and the target's group flags."""
    n = 0
    for run in squad_runs(items):
        leader = actor_id(run[0])
        for char in run:
            n += 1
            group = None
            if group_of(char):
                group = {
                    "leader": actor_id(char) == leader,
                    "leaderId": leader,
                    "leaderName": run[0]["name"],
                    "member": n,
                }
            yield actor(system, tables, char, group)


def render(system, tables, items: Iterable[dict], count: int, values: dict) -> Iterator[str]:
    """One Actor object for one character; a JSON array (streamed) for several."""
    docs = actors(system, tables, items)
    if count == 1:
        for doc in docs:
            yield _pretty(doc) + "\n"
        return
    from chargen.encode import json_array

    yield from json_array(docs)


def file_name(doc: dict) -> str:
    """`Biro_Zsombor_<id>.json`: the name in ASCII, then the id (unique in the folder)."""
    stem = re.sub(r"[^A-Za-z0-9]+", "_", ascii_fold(doc["name"])).strip("_") or "actor"
    return f"{stem}_{doc['_id']}.json"


def write_folder(system, tables, items: Iterable[dict], count: int, values: dict, path) -> None:
    """One file per actor (Import Data takes each; `fvtt package pack` the folder), and
    for a squad or band the target's notes file (leader, members, steps in Foundry)."""
    folder = Path(path)
    module = target(system)
    group_rows: list[tuple[dict, str]] = []
    for doc in actors(system, tables, items):
        name = file_name(doc)
        (folder / name).write_text(_pretty(doc) + "\n", encoding="utf-8")
        if doc["flags"]["chargen"].get("squad"):
            group_rows.append((doc, name))
    if group_rows and hasattr(module, "group_notes"):
        notes_name, text = module.group_notes(group_rows)
        (folder / notes_name).write_text(text, encoding="utf-8")
