"""LEF's terms and the small rules its steps, NPCs, sheet and checks share.

Nothing here draws: these are the document's lists (the six talenter, the six
kundskaber, the tilstande) and what follows from a character's ekspertiser and
lofts without dice (`ekspertise_sums`), worked out the same way for a player
character and an NPC.
"""

from __future__ import annotations

from typing import Any

from chargen.dice import Dice

TALENTER = ("fysik", "karisma", "sanse", "sind", "snilde", "styrke")
KUNDSKABER = ("bioalkymi", "feltkunst", "kultur", "mytologi", "okkultisme", "teknologi")
EVNER = TALENTER + KUNDSKABER
TILSTANDE = ("helbred", "kraft", "psyke", "liv", "udbytte", "sjael")
# The character's `kon` in the JSON, by the engine's gender.
GENDER = {"male": "mand", "female": "kvinde"}


def ekspertise_row(entry: dict, kilde: str) -> dict:
    """An ekspertise as the character holds it: id, name, the header line the sheet
    shows (which agrees with the effect applied), and
    where it comes from (blodarv, personlighed, skabelon or the evne)."""
    return {
        "id": entry["id"],
        "navn": entry.get("name", entry["id"]),
        "virkning": entry["overskrift"],
        "kilde": kilde,
    }


def grej_item(entry: dict) -> dict:
    """A grej as the character carries it: id, name, udgift, and holdbar when it cannot break."""
    item = {"id": entry["id"], "navn": entry.get("name", entry["id"]), "udgift": entry["udgift"]}
    if entry.get("holdbar"):
        item["holdbar"] = True
    return item


def ekspertise_sums(
    ekspertiser: Any, spor: tuple[str, ...], held: list[str], fokus: list[str], lofts: dict
) -> tuple[dict, list[str], dict[str, int], list[str]]:
    """What the base lofts and the held ekspertiser (ids, in order; `ekspertiser` their
    table) fix without dice: the tilstande rows (loft with the ekspertise bonus, value
    full), the fokus tilstande in the document's order, stjerner per track (`spor`), and
    one ekspertise id per free stjerne still to place (Alsidig's two)."""
    bonus = dict.fromkeys(TILSTANDE, 0)
    fokus = list(fokus)
    stjerner = dict.fromkeys(spor, 0)
    free: list[str] = []
    for eks_id in held:
        entry = ekspertiser.get(eks_id, "ekspertise")
        for tilstand, n in entry.get("loftbonus", {}).items():
            bonus[tilstand] += n
        fokus += entry.get("fokus", [])
        for track, n in entry.get("stjerner", {}).items():
            stjerner[track] += n
        free += [eks_id] * entry.get("frie_stjerner", 0)
    tilstande = {}
    for tilstand in TILSTANDE:
        if lofts.get(tilstand, 0) <= 0:
            continue
        loft = lofts[tilstand] + bonus[tilstand]
        row = {"vaerdi": loft, "loft": loft}
        if bonus[tilstand]:
            row["bonus"] = bonus[tilstand]
        tilstande[tilstand] = row
    return tilstande, [t for t in TILSTANDE if t in fokus], stjerner, free


def plain_dice(dice: Dice) -> tuple[int, tuple[int, ...]] | None:
    """A sum of plain dice, ready to roll: (base, signed sides of each die in the order
    `Dice.roll` rolls them). Rolling is `base + sum(int(rand() * s))`: a die of `s` sides
    shows `int(rand() * s) + 1` and the ones are in `base`, a die taken away (`s` < 0)
    shows `int(rand() * s) - 1` (truncation is symmetric), so the total and the numbers
    drawn are `Dice.roll`'s. None for aces, keep or d66, which only `Dice.roll` rolls."""
    if any(t.aces or t.keep or t.d66 for t in dice.terms):
        return None
    sides = tuple(t.sign * t.sides for t in dice.terms for _ in range(t.count))
    return dice.modifier + sum(1 if s > 0 else -1 for s in sides), sides


# At most this many outcomes are read from one random number (so that drawing it evenly
# from a float in [0, 1) leaves each outcome's chance within 2**32 / 2**53 of its share).
ONE_DRAW = 2**32


def dice_groups(dice: list[tuple[int, int]]) -> tuple[tuple[int, tuple], ...]:
    """Plain dice as `roll_groups` rolls them: the dice, each (owner, signed sides) in
    order, in groups of (outcomes, dice) whose outcomes (the product of their sides) stay
    within ONE_DRAW."""
    groups: list[tuple[int, tuple]] = []
    current: list[tuple[int, int]] = []
    outcomes = 1
    for owner, sides in dice:
        if current and outcomes * abs(sides) > ONE_DRAW:
            groups.append((outcomes, tuple(current)))
            current, outcomes = [], 1
        current.append((owner, sides))
        outcomes *= abs(sides)
    if current:
        groups.append((outcomes, tuple(current)))
    return tuple(groups)


def roll_groups(rand, groups: tuple[tuple[int, tuple], ...], values: list[int]) -> None:
    """Roll grouped dice (`dice_groups`) into `values`, the owners' totals so far.

    A group is one number `u`, drawn evenly from 0 to outcomes - 1, read as the digits
    of a mixed radix, one per die: every combination of faces is one `u`, so each die
    shows each face with equal chance, independently of the others, as if rolled alone.
    A die of `s` sides adds its digit (its face less one: the ones are in the totals'
    bases, as `plain_dice` gives them), one taken away (`s` < 0) subtracts it."""
    for outcomes, dice in groups:
        u = int(rand() * outcomes)
        if u == outcomes:  # rand() * outcomes rounded up to outcomes
            u -= 1
        for owner, sides in dice:
            if sides > 0:
                u, digit = divmod(u, sides)
                values[owner] += digit
            else:
                u, digit = divmod(u, -sides)
                values[owner] -= digit
