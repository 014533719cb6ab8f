"""Matinee Chronicles' terms and small rules, shared by its steps, NPCs, sheet and checks.

The grundegenskaper and the document's färdigheter under them ("spelarresurser:
färdigheter"), the effect keys a table row may carry, and the few formulas more
than one module needs: a value kept within its range, the band a value falls in,
the T10 that reads its ten as 0, which utrustning file an item of a färdighet is
in, the arketyp's Konsten mode. And the game's names for its terms, which the sheet
and the prompts of the steps both show: a färdighet (every Kunskap inriktning is a
färdighet of its own, `kunskap_<inriktning>`, "Kunskap (sprängämnen)"), a bonus
("+2", "±0") and an item with its bonus.
"""

from __future__ import annotations

from bisect import bisect

from chargen.errors import Problem
from chargen.tomlfile import key_line

GRUNDEGENSKAPER = ("fysik", "smidighet", "intelligens", "psyke", "personlighet", "vaksamhet")
# The document's färdigheter under their grundegenskap ("spelarresurser: färdigheter").
GRUPPER = {
    "fysik": ("kasta", "narstrid", "enkelskott", "automateld"),
    "smidighet": ("akrobatik", "fingerfardighet", "lonndom", "sakerhetssystem"),
    "intelligens": ("bioteknik", "codex_cardinalus", "konsten", "kunskap", "medicin", "mekanik"),
    "personlighet": ("etikett", "fixare", "media", "valtalighet"),
    "vaksamhet": ("djurvana", "flygfarkoster", "markfordon", "overlevnad"),
}
FARDIGHETER = tuple(f for group in GRUPPER.values() for f in group)
GRUND_FOR = {f: g for g, group in GRUPPER.items() for f in group}
# Kunskap is "Egenpåhittade färdigheter": one färdighet per inriktning, kept in
# `fardigheter` as KUNSKAP + the inriktning's id (kunskap_sprangamnen), never bare.
KUNSKAP = "kunskap_"
FASTA = tuple(f for f in FARDIGHETER if f != "kunskap")  # every färdighet but Kunskap
WEAPON_SKILLS = GRUPPER["fysik"]
RESURSER = ("tillgangar", "k_marker", "korruption")
EFFECT_KEYS = frozenset(GRUNDEGENSKAPER + FASTA + RESURSER)
# The character fields a row's effects change (and so read: each adds to what is there).
EFFECT_FIELDS = ("grundegenskaper", "fardigheter", "tillgangar", "k_marker", "korruption")
KON = {"male": "man", "female": "kvinna"}
KONSTEN_MODES = ("en", "psyke")  # an inkvisitor's one inriktning, a mystiker's as many as Psyke
KUNSKAP_TABLES = ("arketyper", "karriarer", "karriarhandelser_*", "uppvaxthandelser*")


def konsten_faults(arketyper) -> list[Problem]:
    """An arketyp's `konsten` is "en" (an inkvisitor's one inriktning) or "psyke" (a
    mystiker's as many as Psyke): the problems of arketyper.toml where it is not."""
    return [
        Problem(
            str(arketyper.path),
            key_line(arketyper.text, "konsten", index),
            f"konsten = {entry['konsten']!r}: it must be one of {', '.join(KONSTEN_MODES)}",
        )
        for index, entry in enumerate(arketyper.entries)
        if entry.get("konsten", KONSTEN_MODES[0]) not in KONSTEN_MODES
    ]


def clamp(value: int, low: int, high: int | None = None) -> int:
    value = max(low, value)
    return value if high is None else min(high, value)


def grund_for(skill: str) -> str:
    """The grundegenskap a färdighet belongs to (every Kunskap inriktning: Intelligens)."""
    return GRUND_FOR.get(skill) or GRUND_FOR["kunskap"]


def t10_reading(dice) -> list[int]:
    """The document's T10: "Noll på tärningen är alltid noll", the ten reads 0."""
    return [0 if d == 10 else d for d in dice]


def sorted_bands(entries) -> tuple[list[int], list[dict]]:
    """A band table's entries (each with `min`) sorted by `min`, and their mins."""
    ordered = sorted(entries, key=lambda e: e["min"])
    return [e["min"] for e in ordered], ordered


def band_of(bands: tuple[list[int], list[dict]], value: int) -> dict:
    """The band `value` falls in: the last by `min` that it reaches, the lowest when it
    reaches none."""
    mins, entries = bands
    return entries[max(bisect(mins, value) - 1, 0)]


def item_file(skill: str) -> str:
    """The utrustning file of a färdighet; every Kunskap inriktning shares utrustning_kunskap."""
    return "utrustning_kunskap" if skill.startswith(KUNSKAP) else f"utrustning_{skill}"


def is_weapon(item: dict) -> bool:
    return "vapen" in item.get("tags", ())


def corp_allows(entry: dict, corporation: str) -> bool:
    """Whether an entry's own megakorporation condition lets `corporation` have it
    (for the linter, which has no character: other facts are not looked at)."""
    when = (entry.get("when") or {}).get("megakorporation")
    unless = (entry.get("unless") or {}).get("megakorporation")
    if isinstance(when, str):
        when = [when]
    if isinstance(unless, str):
        unless = [unless]
    return (when is None or corporation in when) and corporation not in (unless or ())


def signed(value: int) -> str:
    """A bonus as the sheet writes it: +2, -1, ±0."""
    return f"{value:+d}" if value else "±0"


def skill_label(key: str, tables) -> str:
    """A färdighet as the game names it (labels file); a Kunskap inriktning as
    "Kunskap (sprängämnen)", by its name in kunskap.toml."""
    L = tables.labels
    if key.startswith(KUNSKAP):
        inriktning = key[len(KUNSKAP) :]
        names = tables["kunskap"]
        shown = names.get(inriktning)["name"] if inriktning in names else inriktning
        return f"{L('kunskap')} ({shown})"
    return L(key)


def item_text(tables):
    """How an item reads at a prompt and on a card: "Machete (Närstrid +2)"."""

    def show(item: dict) -> str:
        return f"{item['namn']} ({skill_label(item['fardighet'], tables)} {signed(item['bonus'])})"

    return show
