"""The Simple Worldbuilding target of `-f foundry`: matinee, karma and lef characters as
Actors of Foundry's generic "worldbuilding" system.

That system has no fixed fields: an Actor holds free attributes in named groups and
Items with descriptions and attributes of their own. chargen/export/worldbuilding.toml
says, per game, which of the character's fields become which groups, resources (a value
with its maximum), Items and lines of the biography; this module only follows it. Every
label is the game's own word (its labels file), so the sheet stays in its language.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from chargen.export.foundry import Items, html, load_mapping

NUMBER, STRING, RESOURCE = "Number", "String", "Resource"


def mapping() -> dict[str, Any]:
    return load_mapping("worldbuilding")


OWN_FILE = "chargen/export/worldbuilding.toml"
PLUGIN_FILE = "worldbuilding.toml"  # a plugin game's mapping, beside its tables/ folder
SECTION_KEYS = {"groups", "items", "biography"}


def game_mapping(system) -> tuple[dict[str, Any], str]:
    """A game's section of the mapping and the file it is in: chargen's own for the
    built-in games, else `worldbuilding.toml` in the plugin's package, beside its
    tables folder, with a `[<id>]` section shaped as chargen's ({}: none)."""
    return _game_mapping(system.id, system.tables_root)


@cache
def _game_mapping(system_id: str, tables_root: Path | None) -> tuple[dict[str, Any], str]:
    own = mapping()
    where = OWN_FILE
    if system_id in own or tables_root is None:
        return own.get(system_id, {}), where
    from chargen import tomlfile
    from chargen.errors import ChargenError

    path = Path(tables_root).parent / PLUGIN_FILE
    if not path.is_file():
        return {}, str(path)
    text, why = tomlfile.read_text(path)
    if why:
        raise ChargenError(f"{path}: {why}")
    try:
        data = tomlfile.loads(text)
    except tomlfile.TOMLError as exc:
        raise ChargenError(f"{path}: {exc}") from None
    section = data.get(system_id, {})
    problem = _shape_problem(section) if isinstance(section, dict) else "is not a table"
    if problem:
        raise ChargenError(f"{path}: [{system_id}] {problem}")
    return section, str(path)


def _shape_problem(section: dict) -> str:
    """What is wrong with a game's section ("": nothing), so that a plugin's mapping
    fails at its file, not as a KeyError inside the export."""
    unknown = sorted(set(section) - SECTION_KEYS)
    if unknown:
        return f"has unknown keys {', '.join(unknown)} (known: {', '.join(sorted(SECTION_KEYS))})"
    if not all(isinstance(f, str) for f in section.get("biography", [])):
        return "biography must be a list of field names"
    for n, group in enumerate(section.get("groups", []), start=1):
        if not isinstance(group, dict) or "key" not in group:
            return f"groups entry {n} needs a key"
        if ("from" in group) == ("fields" in group):
            return f"groups entry {n} ({group['key']}) needs either from or fields"
        for field in group.get("fields", []):
            if not isinstance(field, dict) or "key" not in field:
                return f"groups entry {n} ({group['key']}): each of fields needs a key"
            if ("from" in field) == ("value" in field):
                return f"groups entry {n}, field {field['key']}: needs either from or value"
    for n, item in enumerate(section.get("items", []), start=1):
        if not isinstance(item, dict) or not {"from", "name"} <= set(item):
            return f"items entry {n} needs from and name"
        if "table" in item and "id" not in item:
            return f"items entry {n} names a table: it needs the id field too"
    return ""


def unmapped(system) -> str:
    """Why the game cannot go into Simple Worldbuilding ("" when it can)."""
    section, where = game_mapping(system)
    if section:
        return ""
    return (
        f"the game '{system.id}' declares foundry = 'worldbuilding' but {where} "
        f"has no [{system.id}] section saying which fields go where"
    )


def versions() -> dict[str, str]:
    """The Foundry core and Simple Worldbuilding versions the export targets."""
    return dict(mapping()["versions"])


def _value(value: Any, labels, tables, field: str) -> Any:
    """A value as an attribute holds it: numbers stay numbers, the rest reads as text."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return labels.value(field, value, tables)
    return value


def _attribute(label: str, value: Any, maximum: Any = None, group: str = "") -> dict:
    """One attribute: a Number, a String, or a Resource when it has a maximum."""
    if maximum is not None:
        out = {"value": value, "min": 0, "max": maximum, "label": label, "dtype": RESOURCE}
    else:
        dtype = NUMBER if isinstance(value, int | float) else STRING
        out = {"value": value, "label": label, "dtype": dtype}
    if group:
        out["group"] = group
    return out


def _number(char: dict, spec: Any) -> Any:
    """A `max` or `value` of the mapping: a field of the character, or a number."""
    return char.get(spec) if isinstance(spec, str) else spec


def _group(char: dict, spec: dict, labels, tables) -> dict[str, dict]:
    """The attributes of one group, as the mapping's `from` or `fields` say."""
    key = spec["key"]
    found: dict[str, dict] = {}
    if "fields" in spec:
        for field in spec["fields"]:
            if "from" in field and field["from"] not in char:
                continue
            if isinstance(field.get("max"), str) and field["max"] not in char:
                continue
            value = char[field["from"]] if "from" in field else field["value"]
            label = field.get("label") or labels.key(field["key"], tables)
            value = _value(value, labels, tables, field.get("from", field["key"]))
            found[field["key"]] = _attribute(label, value, _number(char, field.get("max")), key)
        return found
    source = char.get(spec["from"])
    if isinstance(source, dict):
        for name, raw in source.items():
            value = raw[spec["value"]] if "value" in spec else raw
            maximum = raw[spec["max"]] if "max" in spec else None
            found[name] = _attribute(labels.key(name, tables), value, maximum, key)
    elif isinstance(source, list):
        for entry in source:
            found[entry[spec["id"]]] = _attribute(
                entry[spec["name"]], entry[spec["value"]], None, key
            )
    return found


def _items(items: Items, char: dict, spec: dict, labels, tables) -> None:
    """An Item per entry of a list of the character's, with its texts and values."""
    table = tables[spec["table"]] if "table" in spec else None
    for n, entry in enumerate(char.get(spec["from"]) or ()):
        text = []
        if table is not None and entry.get(spec["id"]) in table:
            row = table.get(entry[spec["id"]])
            text += [row.get(f, "") for f in spec.get("table_text", ("description",))]
        text += [str(entry[f]) for f in spec.get("text", ()) if entry.get(f) not in (None, "")]
        attributes = {}
        for attr in spec.get("attributes", ()):
            if entry.get(attr["from"]) in (None, ""):
                continue
            label = attr.get("label") or labels.key(attr["key"], tables)
            value = _value(entry[attr["from"]], labels, tables, attr["from"])
            attributes[attr["key"]] = _attribute(label, value)
        name = str(entry[spec["name"]])
        items.add(
            "item",
            name,
            f"{spec['from']}:{n}:{name}",
            {
                "description": html(*text),
                "quantity": 1,
                "weight": 0,
                "attributes": attributes,
                "groups": {},
            },
        )


def _biography(char: dict, fields: list, labels, tables) -> str:
    """The biography: a paragraph per field the character has, label and value."""
    lines = []
    for field in fields:
        label_key, _, name = field.rpartition("=") if "=" in field else (field, "", field)
        if char.get(name) in (None, "", []):
            continue
        value = labels.value(name, char[name], tables)
        lines.append(f"{labels.key(label_key, tables)}: {value}")
    return html(*lines)


def actor(char: dict, tables, items: Items) -> dict:
    """One character's side of a Simple Worldbuilding Actor: its groups, attributes,
    biography and Items, as worldbuilding.toml maps its game."""
    spec, where = _game_mapping(char["system"], tables.dirs[0])  # the game's own tables
    if where != OWN_FILE:
        try:  # a plugin's mapping naming a field its characters lack is its file's fault
            return _actor(char, spec, tables, items)
        except (KeyError, TypeError, AttributeError) as exc:
            from chargen.errors import ChargenError

            raise ChargenError(
                f"{where}: [{char['system']}] does not fit a character of the game: "
                f"{type(exc).__name__}: {exc}"
            ) from None
    return _actor(char, spec, tables, items)


def _actor(char: dict, spec: dict, tables, items: Items) -> dict:
    labels = tables.labels
    groups: dict[str, dict] = {}
    attributes: dict[str, dict] = {}
    for group in spec.get("groups", ()):
        found = _group(char, group, labels, tables)
        if found:
            key = group["key"]
            groups[key] = {"label": group.get("label") or labels.key(key, tables)}
            attributes[key] = found
    for entry in spec.get("items", ()):
        _items(items, char, entry, labels, tables)
    system = {
        "biography": _biography(char, spec.get("biography", []), labels, tables),
        "attributes": attributes,
        "groups": groups,
    }
    return {"type": "character", "system": system, "linked": char.get("kind") == "pc"}
