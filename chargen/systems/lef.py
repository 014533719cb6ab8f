"""LEF, the rules of Terminus Alfa (document 003, Danish): 2T6 + evne against a grade.

The document fixes six talenter and six kundskaber, each with a kampstil or
modeffekt, four forbedringer and an ekspertise; the tilstande helbred, kraft,
psyke, liv and udbytte (sjæl as a gift), each with a loft; fokus (+3 per
tilstandspoint) for the tilstand the blodarv decides, and for more through
ekspertiser; the six tracks a stjerne may be placed in. Everything else (the
blodarv list, the evne budget, personligheder, grej, NPCs) is chargen's reading,
kept in tables/lef/ with its numbers in regler.toml.

A PC is made in steps: name and hjemstat, blodarv, personlighed, evner (with the
forbedringer and ekspertiser their values reach), tilstande (lofts, fokus,
stjerner) and grej.
"""

from __future__ import annotations

import dataclasses
from bisect import bisect
from itertools import accumulate
from typing import Any

from chargen import names
from chargen.dice import Dice, parse
from chargen.errors import ChargenError, Problem, TableError
from chargen.labels import builtin_labels
from chargen.names import picker
from chargen.procedure import Column, Context, Option, Part, Section, Step, System
from chargen.seeds import character_seed
from chargen.tables import NAME_SPEC, Pool, Spec, Table, Tables, key_line

TALENTER = ("fysik", "karisma", "sanse", "sind", "snilde", "styrke")
KUNDSKABER = ("bioalkymi", "feltkunst", "kultur", "mytologi", "okkultisme", "teknologi")
EVNER = TALENTER + KUNDSKABER
TILSTANDE = ("helbred", "kraft", "psyke", "liv", "udbytte", "sjael")
GENDER = {"male": "mand", "female": "kvinde"}
# Each tilstand's loft, as the document compounds it ("helbredsloft", "livloftet").
LOFT = {
    "helbred": "helbredsloft",
    "kraft": "kraftloft",
    "psyke": "psykeloft",
    "liv": "livloft",
    "udbytte": "udbytteloft",
    "sjael": "sjæleloft",
}

SPECS = {
    "regler": Spec(
        "settings",
        fields={
            "evnepoint": "int[0..1000]!",
            "evne_start": "int[0..100]!",
            "evne_max_start": "int[0..100]!",
            "evne_max": "int[1..100]!",
            "forbedring_ved": "list[int[1..100]]!",
            "ekspertise_ved": "int[1..100]!",
            "loft_start": "int[1..20]!",
            "loft_max": "int[1..20]!",
            "sjael_pr_gave": "int[0..20]!",
            "fokus_bonus": "int[0..20]!",
            "fordeling_grund": "int[0..20]!",
            "fordeling_foretrukken": "int[0..20]!",
        },
        order=(
            ("evne_start", "evne_max_start"),
            ("evne_max_start", "evne_max"),
            ("loft_start", "loft_max"),
        ),
    ),
    "evner": Spec(
        "definitions",
        fields={
            "gruppe": "str!",
            "kampstil": "str",
            "modeffekt": "str",
            "forbedringer": "list[id:forbedringer]+!",
            "ekspertise": "id:ekspertiser!",
        },
    ),
    "forbedringer": Spec("definitions", fields={"virkning": "str!", "tilstand": "id:tilstande"}),
    "ekspertiser": Spec(
        "definitions",
        fields={
            "overskrift": "str!",
            "rettet_overskrift": "str",
            "loftbonus": "dict[int]",
            "fokus": "list[id:tilstande]",
            "stjerner": "dict[int]",
            "frie_stjerner": "int[0..20]",
            "bytte": "list[id:tilstande]",
        },
    ),
    "blodarv": Spec(
        "definitions",
        fields={"lore": "str!", "fokus": "id:tilstande!", "ekspertise": "id:ekspertiser!"},
    ),
    "personligheder": Spec(
        "definitions",
        fields={
            "ekspertiser": "list[id:ekspertiser]+!",
            "foretrukne_evner": "list[id:evner]",
            "startudstyr": "id:startudstyr!",
        },
    ),
    "tilstande": Spec("definitions", fields={"gave": "bool"}),
    "stjernespor": Spec("definitions"),
    "grej": Spec(
        "definitions", fields={"udgift": "int[0..1000000]!", "type": "str", "holdbar": "bool"}
    ),
    "startudstyr": Spec("definitions", fields={"grej": "list[id:grej]!", "penge": "dice!"}),
    "hjemstater": Spec("definitions", fields={"locale": "locale", "navne": "table"}),
    "navne_*": NAME_SPEC,
    "skabeloner": Spec(
        "definitions",
        fields={
            "evner": "dict[dice]!",
            "ovrige": "dice!",
            "tilstande": "dict[int]!",
            "blodarv": "list[id:blodarv]+",
            "vaesen": "bool",
            "fokus": "list[id:tilstande]",
            "ekspertiser": "list[id:ekspertiser]",
            "grej": "list[id:grej]",
            "penge": "dice",
            "kendetegn": "list[str]",
        },
    ),
}

# Display words live in tables/lef/etiketter.toml (chargen.labels).
LABELS = builtin_labels("lef")
SHORT = builtin_labels("lef", section="short")


# -- table checks the engine's types cannot express ------------------------------------------


def _fault(table: Table, index: int, key: str, text: str) -> TableError:
    return TableError([Problem(str(table.path), key_line(table.text, key, index), text)])


def _check_dict_keys(ctx: Context, table: Table, entry: dict, key: str, valid) -> None:
    """A dict field's keys (tilstande, spor, evner) must be ids of the named kind."""
    valid = tuple(valid)
    for name in entry.get(key, {}):
        if name not in valid:
            index = table.entries.index(entry)
            raise _fault(
                table,
                index,
                key,
                f"'{key}' of '{entry['id']}' names '{name}', not one of: {', '.join(valid)}",
            )


def _rules(ctx: Context) -> dict:
    """regler.toml, checked once per batch for what its types cannot say."""
    rules = ctx.cache.get("regler")
    if rules is None:
        table = ctx.table("regler")
        rules = dict(table.settings)
        if not 0 <= rules["evne_start"] <= rules["evne_max_start"] <= rules["evne_max"]:
            raise TableError(
                [Problem(str(table.path), 0, "need 0 <= evne_start <= evne_max_start <= evne_max")]
            )
        room = (rules["evne_max_start"] - rules["evne_start"]) * len(EVNER)
        if not 0 <= rules["evnepoint"] <= room:
            raise TableError(
                [
                    Problem(
                        str(table.path),
                        key_line(table.text, "evnepoint"),
                        f"evnepoint must be 0..{room} (twelve evner from evne_start "
                        f"to evne_max_start), not {rules['evnepoint']}",
                    )
                ]
            )
        if not 0 < rules["loft_start"] <= rules["loft_max"]:
            raise TableError([Problem(str(table.path), 0, "need 0 < loft_start <= loft_max")])
        rules["forbedring_ved"] = sorted(rules["forbedring_ved"])
        ctx.cache["regler"] = rules
    return rules


def _evner(ctx: Context) -> dict[str, dict]:
    """The twelve evner by id, checked: the contract's ids, four forbedringer each."""
    evner = ctx.cache.get("evner")
    if evner is None:
        table = ctx.table("evner")
        if set(table.ids) != set(EVNER):
            raise TableError(
                [Problem(str(table.path), 0, f"evner must be exactly: {', '.join(EVNER)}")]
            )
        for index, entry in enumerate(table.entries):
            want = "talent" if entry["id"] in TALENTER else "kundskab"
            stil = "kampstil" if want == "talent" else "modeffekt"
            if entry["gruppe"] != want or stil not in entry:
                raise _fault(
                    table, index, "gruppe", f"'{entry['id']}' is a {want} and needs a {stil}"
                )
        evner = ctx.cache["evner"] = {e["id"]: e for e in table.entries}
        spor = ctx.table("stjernespor").ids
        eks = ctx.table("ekspertiser")
        for entry in eks.entries:
            _check_dict_keys(ctx, eks, entry, "loftbonus", TILSTANDE)
            _check_dict_keys(ctx, eks, entry, "stjerner", spor)
    return evner


# -- the PC's steps --------------------------------------------------------------------------


def _name_from(ctx: Context, hjemstat: dict) -> tuple[str, str]:
    """(name, gender) in the style of the home state: a names table or a Faker locale."""
    key = ("navne", hjemstat["id"])
    namer = ctx.cache.get(key)
    if namer is None:
        namer = ctx.cache[key] = _namer(ctx, hjemstat)
    return _named(ctx.rng, namer, ctx.gender())


def _namer(ctx: Context, hjemstat: dict):
    """How a person of this home state is named: its authored names table, or Faker's
    picker for its locale (`--locale` overrides both)."""
    if "navne" in hjemstat and not ctx.locale:
        return names.table_picker(ctx.table(hjemstat["navne"]))
    return picker(ctx.locale or hjemstat.get("locale") or ctx.system.locale)


def _named(rng, namer, gender: str | None = None) -> tuple[str, str]:
    """(name, gender) drawn with a namer from `_namer` (the gender drawn evenly unless given)."""
    return namer.pick(rng, gender)


def navn(char: dict, ctx: Context) -> None:
    """The home state (by weight) and a name in its style."""
    hjemstat = ctx.pick("hjemstater")
    ctx.set_fact("hjemstat", hjemstat["id"])
    char["name"], gender = _name_from(ctx, hjemstat)
    char["kon"] = GENDER[gender]
    char["hjemstat"], char["hjemstat_navn"] = hjemstat["id"], hjemstat.get("name", hjemstat["id"])
    ctx.log(hjemstat=hjemstat["id"], name=char["name"])


def _ekspertise(ctx: Context, eks_id: str, kilde: str) -> dict:
    entry = ctx.table("ekspertiser").get(eks_id, "ekspertise")
    return {
        "id": entry["id"],
        "navn": entry.get("name", entry["id"]),
        "virkning": entry.get("rettet_overskrift", entry["overskrift"]),
        "kilde": kilde,
    }


def blodarv(char: dict, ctx: Context) -> None:
    """The blodarv (--blodarv): its lore, its exchange ekspertise, its fokus tilstand."""
    entry = ctx.choose("blodarv", "blodarv")
    char["blodarv"], char["blodarv_navn"] = entry["id"], entry.get("name", entry["id"])
    char["blodarv_lore"] = entry["lore"]
    char["ekspertiser"] = [_ekspertise(ctx, entry["ekspertise"], "blodarv")]
    char["fokus"] = [entry["fokus"]]


def personlighed(char: dict, ctx: Context) -> None:
    """The personlighed (--personlighed) and the one of its ekspertiser the character starts with."""
    entry = ctx.choose("personlighed", "personligheder")
    char["personlighed"] = entry["id"]
    char["personlighed_navn"] = entry.get("name", entry["id"])
    held = {e["id"] for e in char.get("ekspertiser", [])}
    table = ctx.table("ekspertiser")
    open_ = [e for e in entry["ekspertiser"] if e not in held]
    fitting = [e for e in open_ if ctx.fits(table.get(e))]
    open_ = fitting or open_  # a wasted pick only when nothing else fits
    if not open_:
        raise ChargenError(
            f"personlighed '{entry['id']}' has no ekspertise the character lacks "
            f"(personligheder.toml lists {', '.join(entry['ekspertiser'])})"
        )
    eks_id = _ask(ctx, "personlighed_ekspertise", "ekspertiser", [table.get(e) for e in open_])[
        "id"
    ]
    char.setdefault("ekspertiser", []).append(_ekspertise(ctx, eks_id, "personlighed"))
    ctx.log(ekspertise=eks_id, fra=entry["id"])


def _ask(ctx: Context, option: str, table: str, allowed: list[dict]) -> dict:
    """One pick the player makes during creation (a forbedring, where a stjerne goes):
    asked at `--interactive`, else drawn by weight among `allowed`. The question comes
    again for the next pick, so the answer is not kept for the batch as a choice is."""
    entry = ctx.choose(option, table, allowed=allowed)
    ctx.options.pop(option, None)
    return entry


def _spend(ctx: Context, rules: dict, favoured: set[str]) -> dict[str, int]:
    """Spend the evne budget one point at a time, by weight grund + value (+ foretrukken).

    Each point draws `rand() * total weight` and walks the open evner (those below the
    cap), taking the first whose weight the walk cannot pay."""
    start, cap = rules["evne_start"], rules["evne_max_start"]
    base, bonus = rules["fordeling_grund"], rules["fordeling_foretrukken"]
    if base + start + min(bonus, 0) > 0:
        return _spend_by_sums(ctx, rules, favoured)
    values = dict.fromkeys(EVNER, start)
    rand = ctx.rng.random
    for _ in range(rules["evnepoint"]):
        open_ = [e for e in EVNER if values[e] < cap]
        weights = [base + values[e] + (bonus if e in favoured else 0) for e in open_]
        point = rand() * sum(weights)
        chosen = open_[-1]
        for evne, weight in zip(open_, weights, strict=True):
            point -= weight
            if point < 0:
                chosen = evne
                break
        values[chosen] += 1
    return values


def _spend_by_sums(ctx: Context, rules: dict, favoured: set[str]) -> dict[str, int]:
    """`_spend` when every open evne weighs at least 1: one bisect over running sums.

    A full evne weighs 0 here, so it is never the first sum above the point; the sums are
    whole numbers and the point stays exact while the walk pays them, so the evne found is
    the walk's, and so is the random stream."""
    start, cap = rules["evne_start"], rules["evne_max_start"]
    base, bonus = rules["fordeling_grund"], rules["fordeling_foretrukken"]
    values = [start] * len(EVNER)
    weights = [
        (base + start + (bonus if e in favoured else 0)) if start < cap else 0 for e in EVNER
    ]
    rand = ctx.rng.random
    for _ in range(rules["evnepoint"]):
        sums = list(accumulate(weights))
        index = bisect(sums, rand() * sums[-1])
        if index == len(sums):  # rand() * total rounded up to the total: the last open evne
            index = max(i for i, w in enumerate(weights) if w)
        values[index] += 1
        weights[index] = weights[index] + 1 if values[index] < cap else 0
    return dict(zip(EVNER, values, strict=True))


def _player_spread(ctx: Context, rules: dict, drawn: dict[str, int]) -> dict[str, int]:
    """At `--interactive` the player sees the drawn spread of evnepoint and keeps it, or
    gives each evne its value (within what leaves the rest of the budget spendable; an
    empty answer keeps the drawn value where it still fits). Without a prompter: the draw."""
    if ctx.prompter is None:
        return drawn
    L = ctx.labels
    ctx.prompter.drawn(", ".join(f"{L(e)} {drawn[e]}" for e in EVNER))
    if ctx.ask_yes_no("behold_evner", True):
        return drawn
    start, room = rules["evne_start"], rules["evne_max_start"] - rules["evne_start"]
    left = rules["evnepoint"]
    values = {}
    for index, evne in enumerate(EVNER):
        rest = len(EVNER) - index - 1
        low, high = start + max(0, left - room * rest), start + min(room, left)
        if low == high:  # the budget leaves this evne no choice
            value = low
        else:
            value = ctx.ask_number(evne, low, high, min(max(drawn[evne], low), high))
        values[evne] = value
        left -= value - start
    return values


def evner(char: dict, ctx: Context) -> None:
    """Spend the evne budget; take a forbedring at each threshold reached and the ekspertise at
    ekspertise_ved."""
    rules = _rules(ctx)
    table = _evner(ctx)
    pers = char.get("personlighed")
    favoured = (
        set(ctx.table("personligheder").get(pers).get("foretrukne_evner", ())) if pers else set()
    )
    values = _player_spread(ctx, rules, _spend(ctx, rules, favoured))
    ctx.log(evnepoint=rules["evnepoint"], evner=values)
    char["talenter"] = {e: values[e] for e in TALENTER}
    char["kundskaber"] = {e: values[e] for e in KUNDSKABER}
    char["kampstile"] = {e: table[e]["kampstil"] for e in TALENTER}
    char["modeffekter"] = {e: table[e]["modeffekt"] for e in KUNDSKABER}

    forb_table = ctx.table("forbedringer")
    spor = ctx.table("stjernespor")
    grej = ctx.table("grej")
    held_grej = set()
    if pers:
        kit = ctx.table("startudstyr").get(ctx.table("personligheder").get(pers)["startudstyr"])
        held_grej = set(kit["grej"])
    lofts = dict.fromkeys(TILSTANDE, rules["loft_start"])
    lofts["sjael"] = 0
    forbedringer = []
    ekspertiser = char.setdefault("ekspertiser", [])
    for evne_id in EVNER:
        evne = table[evne_id]
        slots = list(evne["forbedringer"])
        for ved in rules["forbedring_ved"]:
            if values[evne_id] < ved:
                break
            pick = _forbedring(ctx, forb_table, evne, slots, lofts, rules, grej, held_grej, ved)
            slots.remove(pick["id"])
            gained: dict[str, Any] = {"evne": evne_id, "ved": ved, "forbedring": pick["id"]}
            if pick["virkning"] == "stjerne":
                track = _ask(ctx, "stjernespor_forbedring", "stjernespor", list(spor.entries))
                gained["spor"] = track["id"]
            elif pick["virkning"] in ("loft", "gave"):
                step = rules["sjael_pr_gave"] if pick["virkning"] == "gave" else 1
                lofts[pick["tilstand"]] += step
                gained["tilstand"] = pick["tilstand"]
            else:
                open_grej = [e for e in grej.entries if e["id"] not in held_grej]
                item = _ask(ctx, "grej_forbedring", "grej", open_grej)
                held_grej.add(item["id"])
                gained["grej"] = item["id"]
                gained["navn"] = item.get("name", item["id"])
            forbedringer.append(gained)
            ctx.log(forbedring=pick["id"], evne=evne_id, ved=ved, **_detail(gained))
        if values[evne_id] >= rules["ekspertise_ved"]:
            ekspertiser.append(_ekspertise(ctx, evne["ekspertise"], evne_id))
            ctx.log(ekspertise=evne["ekspertise"], evne=evne_id)
    char["forbedringer"] = forbedringer


def _detail(gained: dict) -> dict:
    return {k: v for k, v in gained.items() if k in ("spor", "tilstand", "grej")}


def _forbedring(ctx, forb_table, evne, slots, lofts, rules, grej, held_grej, ved) -> dict:
    """One of the evne's remaining forbedringer that can still apply, drawn evenly."""
    usable = []
    for slot in slots:
        pick = forb_table.get(slot, "forbedring")
        kind = pick["virkning"]
        if kind in ("loft", "gave"):
            if pick.get("tilstand") not in TILSTANDE:
                index = forb_table.entries.index(pick)
                raise _fault(forb_table, index, "tilstand", f"'{slot}' needs a tilstand")
            step = rules["sjael_pr_gave"] if kind == "gave" else 1
            if lofts[pick["tilstand"]] + step > rules["loft_max"]:
                continue
        elif kind == "grej":
            if held_grej.issuperset(grej.ids):  # nothing left to give
                continue
        elif kind != "stjerne":
            index = forb_table.entries.index(pick)
            raise _fault(
                forb_table,
                index,
                "virkning",
                f"virkning '{kind}' of '{slot}' is not stjerne, loft, gave or grej",
            )
        if pick not in usable:  # a kundskab's two stjerne slots are one answer
            usable.append(pick)
    if not usable:
        raise ChargenError(
            f"no forbedring of '{evne['id']}' can apply ({', '.join(slots)}): "
            "the lofts are full; lower regler.evnepoint or raise loft_max"
        )
    return _ask(ctx, f"forbedring_{evne['id']}_{ved}", "forbedringer", usable)


def _ekspertise_sums(
    ctx: Context, held: list[str], fokus: list[str], lofts: dict[str, int]
) -> tuple[dict, list[str], dict[str, int], list[str]]:
    """What the base lofts and the held ekspertiser (ids, in order) fix without dice:
    the tilstande rows (loft with the ekspertise bonus, value full), the fokus tilstande
    in their order, stjerner per track, and one ekspertise id per free stjerne to draw."""
    eks_table = ctx.table("ekspertiser")
    bonus = dict.fromkeys(TILSTANDE, 0)
    fokus = list(fokus)
    stjerner = dict.fromkeys(ctx.table("stjernespor").ids, 0)
    free: list[str] = []
    for eks_id in held:
        entry = eks_table.get(eks_id, "ekspertise")
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


def _apply_ekspertiser(ctx: Context, char: dict, lofts: dict[str, int]) -> None:
    """tilstande, fokus and stjerner from the base lofts, the ekspertiser and the forbedringer."""
    held = [e["id"] for e in char.get("ekspertiser", ())]
    tilstande, fokus, stjerner, free = _ekspertise_sums(ctx, held, char.get("fokus", ()), lofts)
    for gained in char.get("forbedringer", ()):
        if "spor" in gained:
            stjerner[gained["spor"]] += 1
    spor = list(ctx.table("stjernespor").entries)
    for eks_id in free:  # Alsidig: "to stjerner, der kan placeres valgfrit"
        track = _ask(ctx, f"fri_stjerne_{eks_id}", "stjernespor", spor)["id"]
        stjerner[track] += 1
        ctx.log(stjerne=track, fra=eks_id)
    char["tilstande"] = tilstande
    char["fokus"] = fokus
    char["stjerner"] = stjerner
    char["fokus_bonus"] = _rules(ctx)["fokus_bonus"]


def tilstande(char: dict, ctx: Context) -> None:
    """Lofts from loft_start and the forbedringer, ekspertise bonuses on top, values full;
    fokus from the blodarv and the ekspertiser; stjerner per track."""
    rules = _rules(ctx)
    _evner(ctx)
    lofts = dict.fromkeys(TILSTANDE, rules["loft_start"])
    lofts["sjael"] = 0
    for gained in char.get("forbedringer", ()):
        if "tilstand" in gained:
            kind = ctx.table("forbedringer").get(gained["forbedring"])["virkning"]
            lofts[gained["tilstand"]] += rules["sjael_pr_gave"] if kind == "gave" else 1
    _apply_ekspertiser(ctx, char, lofts)
    ctx.log(
        tilstande={k: v["loft"] for k, v in char["tilstande"].items()},
        fokus=char["fokus"],
    )


def _grej_item(entry: dict) -> dict:
    """A grej as the character carries it: id, name, udgift, and holdbar when it cannot break."""
    item = {"id": entry["id"], "navn": entry.get("name", entry["id"]), "udgift": entry["udgift"]}
    if entry.get("holdbar"):
        item["holdbar"] = True
    return item


def grej_step(char: dict, ctx: Context) -> None:
    """The personlighed's startudstyr, its penge, and the grej the forbedringer gave."""
    grej = ctx.table("grej")
    pers = char.get("personlighed")
    kit_id = ctx.table("personligheder").get(pers)["startudstyr"] if pers else None
    kit = ctx.table("startudstyr").get(kit_id) if kit_id else ctx.table("startudstyr").pick(ctx.rng)
    items = list(kit["grej"]) + [g["grej"] for g in char.get("forbedringer", ()) if "grej" in g]
    char["grej"] = [_grej_item(grej.get(i, "grej")) for i in items]
    char["startudstyr"] = kit["id"]
    char["penge"] = ctx.roll(kit["penge"], "penge").total


PC_STEPS = [
    Step("navn", navn, fields=("name", "kon", "hjemstat", "hjemstat_navn"), command=False),
    Step(
        "blodarv",
        blodarv,
        fields=("blodarv", "blodarv_navn", "blodarv_lore", "ekspertiser", "fokus"),
        lists=("blodarv",),
        label="Blodarv",
        help="The blodarv (--blodarv): its lore, exchange ekspertise and fokus tilstand.",
    ),
    Step(
        "personlighed",
        personlighed,
        fields=("personlighed", "personlighed_navn", "ekspertiser"),
        lists=("personligheder",),
        label="Personlighed",
        help="The personlighed (--personlighed) and its starting ekspertise.",
    ),
    Step(
        "evner",
        evner,
        fields=(
            "talenter",
            "kundskaber",
            "kampstile",
            "modeffekter",
            "forbedringer",
            "ekspertiser",
        ),
        lists=("evner", "forbedringer", "regler"),
        label="Evner",
        help="The twelve evner from the point budget, with the forbedringer and ekspertiser "
        "their values reach.",
    ),
    Step(
        "tilstande",
        tilstande,
        fields=("tilstande", "fokus", "fokus_bonus", "stjerner"),
        lists=("tilstande", "stjernespor", "ekspertiser"),
        label="Tilstande",
        help="Tilstande with value and loft, fokus and stjerner.",
    ),
    Step(
        "grej",
        grej_step,
        fields=("grej", "startudstyr", "penge"),
        lists=("startudstyr", "grej"),
        label="Grej",
        help="The starting kit, penge and the grej the forbedringer give.",
    ),
]


# -- NPCs --------------------------------------------------------------------------------------


def _plain(dice: Dice) -> tuple[int, tuple[int, ...]] | None:
    """A sum of plain dice, ready to roll fast: (base, signed sides of each die in the order
    `Dice.roll` rolls them). Rolling is `base + sum(int(rand() * s))`: a die of `s` sides shows
    `int(rand() * s) + 1` and the ones are in `base`, a die taken away (`s` < 0) shows
    `int(rand() * s) - 1` (truncation is symmetric), so the total and the random stream are
    `Dice.roll`'s. None for aces, keep or d66, which only `Dice.roll` rolls."""
    if any(t.aces or t.keep or t.d66 for t in dice.terms):
        return None
    sides = tuple(t.sign * t.sides for t in dice.terms for _ in range(t.count))
    return dice.modifier + sum(1 if s > 0 else -1 for s in sides), sides


class _Batch:
    """What every NPC of a batch shares, built once per batch (ctx.cache["npc"])."""

    __slots__ = (
        "skabeloner",
        "plans",
        "hjemstater",
        "namers",
        "kampstile",
        "modeffekter",
        "spor",
        "fokus_bonus",
    )

    def __init__(self, ctx: Context) -> None:
        rules = _rules(ctx)
        evne_table = _evner(ctx)
        self.skabeloner = ctx.table("skabeloner")
        self.plans: dict[str, _Plan] = {}
        self.hjemstater = ctx.table("hjemstater")
        self.namers: dict[str, Any] = {}  # by hjemstat id, made as each is first drawn
        self.kampstile = {e: evne_table[e]["kampstil"] for e in TALENTER}
        self.modeffekter = {e: evne_table[e]["modeffekt"] for e in KUNDSKABER}
        self.spor = ctx.table("stjernespor")
        self.fokus_bonus = rules["fokus_bonus"]


class _Plan:
    """One template, parsed and checked once per batch.

    The talenter, then the kundskaber, roll as their `base` plus one `int(rand() * sides)`
    per die of their `dice` (evne, sides), in the order of EVNER (see `_plain`), then are
    kept within 0..evne_max where a die could leave it; a template with aces, keep or d66
    rolls each evne through `Dice.roll` instead (`rolls`)."""

    __slots__ = (
        "id",
        "name",
        "base",
        "dice",
        "rolls",
        "clamp",
        "evne_max",
        "pool",
        "kin",
        "grej",
        "penge",
        "kendetegn",
        "ved",
    )

    def __init__(self, ctx: Context, template: dict) -> None:
        table = ctx.table("skabeloner")
        rules = _rules(ctx)
        _evner(ctx)
        _check_dict_keys(ctx, table, template, "evner", EVNER)
        _check_dict_keys(ctx, table, template, "tilstande", TILSTANDE)
        low, high = rules["loft_start"], rules["loft_max"]
        for tilstand, loft in template["tilstande"].items():
            if not low <= loft <= high:
                raise _fault(
                    table,
                    table.entries.index(template),
                    "tilstande",
                    f"loft of {tilstand} in '{template['id']}' must be {low}..{high} "
                    "(regler.loft_start..loft_max)",
                )
        if template.get("vaesen") and not template.get("kendetegn"):
            raise _fault(
                table,
                table.entries.index(template),
                "vaesen",
                f"væsen '{template['id']}' needs kendetegn to tell one from another",
            )
        self.kendetegn = tuple(template.get("kendetegn", ()))
        self.ved = rules["ekspertise_ved"]
        ovrige = parse(template["ovrige"])
        self.id, self.name = template["id"], template.get("name", template["id"])
        self.evne_max = cap = rules["evne_max"]
        evne_dice = [
            parse(template["evner"][e]) if e in template["evner"] else ovrige for e in EVNER
        ]
        plain = [_plain(d) for d in evne_dice]
        self.rolls: list[Dice] | None = None
        self.base: tuple[dict[str, int], dict[str, int]] = ({}, {})
        self.dice: tuple[list, list] = ([], [])
        if all(plain):
            for evne, (base, sides) in zip(EVNER, plain, strict=True):
                group = 0 if evne in TALENTER else 1  # EVNER lists every talent first
                self.base[group][evne] = base
                self.dice[group].extend((evne, s) for s in sides)
            values = [v for d in evne_dice for v in d.possible_values()]
            self.clamp = min(values) < 0 or max(values) > cap
        else:
            self.rolls, self.clamp = evne_dice, True
        self.pool = Pool(ctx.table("blodarv").get(b) for b in template.get("blodarv") or ())
        # by (blodarv id or None for a væsen, the evner at ekspertise_ved or more)
        self.kin: dict[tuple, _Kin] = {}
        grej = ctx.table("grej")
        self.grej = [_grej_item(grej.get(i, "grej")) for i in template.get("grej", ())]
        self.penge = None
        if "penge" in template:
            dice = parse(template["penge"])
            self.penge = _plain(dice) or dice


class _Kin:
    """What a template and a blodarv (or none) fix without dice: the ekspertiser, the
    tilstande, fokus, stjerner before the free ones, and how many free stjerner to draw."""

    __slots__ = ("ekspertiser", "tilstande", "fokus", "stjerner", "free")

    def __init__(
        self, ctx: Context, template: dict, arv: dict | None, reached: tuple[str, ...]
    ) -> None:
        fokus: list[str] = list(template.get("fokus", ()))
        ekspertiser = []
        if arv is not None:
            fokus.insert(0, arv["fokus"])
            ekspertiser.append(_ekspertise(ctx, arv["ekspertise"], "blodarv"))
        held = {e["id"] for e in ekspertiser}
        for eks_id in template.get("ekspertiser", ()):
            if eks_id not in held:
                ekspertiser.append(_ekspertise(ctx, eks_id, "skabelon"))
                held.add(eks_id)
        evner = _evner(ctx)
        for evne in reached:  # an evne at ekspertise_ved has its ekspertise, as a PC's has
            eks_id = evner[evne]["ekspertise"]
            if eks_id not in held:
                ekspertiser.append(_ekspertise(ctx, eks_id, evne))
                held.add(eks_id)
        lofts = {t: template["tilstande"].get(t, 0) for t in TILSTANDE}
        self.ekspertiser = ekspertiser
        self.tilstande, self.fokus, self.stjerner, free = _ekspertise_sums(
            ctx, [e["id"] for e in ekspertiser], fokus, lofts
        )
        self.free = len(free)


def _choose_template(ctx: Context, batch: _Batch) -> dict:
    """The template by --template, the prompt or weight; --blodarv keeps to persons of it."""
    options = ctx.options
    if ctx.prompter is None and options.get("template") is None and options.get("blodarv") is None:
        return ctx.pick("skabeloner")  # rows that fit the character (a hedeheks is a woman)
    wanted = ctx.option("blodarv")
    allowed = None
    if wanted is not None:
        allowed = [t for t in batch.skabeloner.entries if wanted in t.get("blodarv", ())]
    return ctx.choose(
        "template",
        "skabeloner",
        allowed=allowed,
        why=lambda t: f"a {t.get('name', t['id'])} cannot be of blodarv '{wanted}'",
    )


_ENVELOPE = ("system", "kind", "template", "seed", "name")
_RESEEDS = 60


def npc(char: dict, ctx: Context) -> None:
    """A bifigur or væsen from a template (--template); persons get a blodarv (--blodarv).

    A væsen is named by its template and one of its kendetegn ("Ulv med revet øre"). So
    that the væsner of a batch can be told apart, one whose name another of the batch
    already has is made again from a new seed, which it records: that seed alone gives
    it back, name included. Once every kendetegn of a template is taken, they are free
    again before any redraw (a batch of thirty wolves repeats after the list, and a
    mixed batch is not left without væsner after one round). Drawing the kendetegn
    among those still free instead would save the redraw, but then a member's own
    seed alone would not give it back."""
    batch = ctx.cache.get("npc")
    if batch is None:
        batch = ctx.cache["npc"] = _Batch(ctx)
    _npc(char, ctx, batch)
    if char["blodarv"] is not None:
        return
    seen = ctx.shared.setdefault("lef_vaesner", {})
    for attempt in range(1, _RESEEDS + 1):
        taken = seen.setdefault(char["template"], set())
        if len(taken) >= len(batch.plans[char["template"]].kendetegn):
            taken.clear()  # every kendetegn is taken: they are free again, no redraw
        if char["name"] not in taken:
            break
        seed = character_seed(ctx.seed, attempt)
        ctx.start(seed, ctx.index)
        for key in [k for k in char if k not in _ENVELOPE]:
            del char[key]
        char["seed"] = seed
        _npc(char, ctx, batch)
        if char["blodarv"] is not None:
            return
    taken = seen.setdefault(char["template"], set())
    taken.add(char["name"])


def _npc(char: dict, ctx: Context, batch: _Batch) -> None:
    """One NPC, drawn from the character's stream.

    The tables are read once per batch (`_Batch`, `_Plan`, `_Kin`); each NPC then only
    draws: template, home state, name and blodarv (a væsen: its kendetegn), the evner,
    free stjerner, penge, in that order, with the numbers `ctx.choose`, `Table.pick` and
    `Dice.roll` would use."""
    rng = ctx.rng
    rand = rng.random
    template = _choose_template(ctx, batch)
    plan = batch.plans.get(template["id"])
    if plan is None:
        plan = batch.plans[template["id"]] = _Plan(ctx, template)
    char["template"] = plan.id
    char["skabelon_navn"] = plan.name
    if plan.pool:
        hjemstat = batch.hjemstater.pick(rng)
        namer = batch.namers.get(hjemstat["id"])
        if namer is None:
            namer = batch.namers[hjemstat["id"]] = _namer(ctx, hjemstat)
        char["name"], gender = _named(rng, namer, ctx.gender())
        char["kon"] = GENDER[gender]
        char["hjemstat"] = hjemstat["id"]
        char["hjemstat_navn"] = hjemstat.get("name", hjemstat["id"])
        if ctx.prompter is None and ctx.options.get("blodarv") is None:
            arv = plan.pool.pick(ctx.rng)
        else:
            arv = ctx.choose("blodarv", "blodarv", allowed=list(plan.pool.entries))
        char["blodarv"], char["blodarv_navn"] = arv["id"], arv.get("name", arv["id"])
        char["blodarv_lore"] = arv["lore"]
    else:
        arv = None
        mark = plan.kendetegn[int(rand() * len(plan.kendetegn))]
        char["name"] = f"{plan.name} {mark}"
        char["kendetegn"] = mark
        char["blodarv"] = None
    if plan.rolls is None:
        talenter = plan.base[0].copy()
        for evne, sides in plan.dice[0]:
            talenter[evne] += int(rand() * sides)
        kundskaber = plan.base[1].copy()
        for evne, sides in plan.dice[1]:
            kundskaber[evne] += int(rand() * sides)
    else:
        talenter = {e: d.roll(rng).total for e, d in zip(TALENTER, plan.rolls[:6], strict=True)}
        kundskaber = {e: d.roll(rng).total for e, d in zip(KUNDSKABER, plan.rolls[6:], strict=True)}
    if plan.clamp:
        cap = plan.evne_max
        talenter = {e: 0 if v < 0 else cap if v > cap else v for e, v in talenter.items()}
        kundskaber = {e: 0 if v < 0 else cap if v > cap else v for e, v in kundskaber.items()}
    char["talenter"] = talenter
    char["kundskaber"] = kundskaber
    ved = plan.ved
    reached = tuple(e for e, v in (*talenter.items(), *kundskaber.items()) if v >= ved)
    key = (arv["id"] if arv else None, reached)
    kin = plan.kin.get(key)
    if kin is None:
        kin = plan.kin[key] = _Kin(ctx, template, arv, reached)
    char["kampstile"] = batch.kampstile.copy()
    char["modeffekter"] = batch.modeffekter.copy()
    char["ekspertiser"] = [e.copy() for e in kin.ekspertiser]
    char["fokus"] = kin.fokus.copy()
    char["forbedringer"] = []
    char["tilstande"] = {t: row.copy() for t, row in kin.tilstande.items()}
    stjerner = kin.stjerner.copy()
    for _ in range(kin.free):
        stjerner[batch.spor.pick(rng)["id"]] += 1
    char["stjerner"] = stjerner
    char["fokus_bonus"] = batch.fokus_bonus
    char["grej"] = [item.copy() for item in plan.grej]
    penge = plan.penge
    if penge is None:
        char["penge"] = 0
    elif type(penge) is tuple:
        total, sides = penge
        for s in sides:
            total += int(rand() * s)
        char["penge"] = total
    else:
        char["penge"] = penge.roll(rng).total


# -- the sheet ---------------------------------------------------------------------------------
# Every word comes from the labels file (tables/lef/etiketter.toml); each Part is one piece of
# the sheet, and a step alone shows the pieces its fields fill.


def _head(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    rows = [[L("navn"), char["name"]]]
    if char.get("template"):
        rows.append([L("skabelon"), char.get("skabelon_navn", char["template"])])
    if char.get("kendetegn"):
        rows.append([L("kendetegn"), char["kendetegn"]])
    if char.get("kon"):
        rows.append([L("kon"), char["kon"]])
    if char.get("hjemstat"):
        rows.append([L("hjemstat"), char.get("hjemstat_navn", char["hjemstat"])])
    if char.get("blodarv"):
        rows.append([L("blodarv"), char.get("blodarv_navn", char["blodarv"])])
    if char.get("personlighed"):
        rows.append([L("personlighed"), char.get("personlighed_navn", char["personlighed"])])
    kind = "karakter" if char["kind"] == "pc" else "vaesen" if "kendetegn" in char else "bifigur"
    return [Section(L(kind), rows=rows)]


def _blodarv_part(char: dict, tables: Tables) -> list[Section]:
    if not char.get("blodarv"):
        return []
    L = tables.labels
    text = f"{char['blodarv_navn']}: {char['blodarv_lore']}"
    return [Section(L("blodarv"), text=text, fields=("blodarv_navn", "blodarv_lore"))]


def _personlighed_part(char: dict, tables: Tables) -> list[Section]:
    table = tables["personligheder"]
    entry = table.get(char["personlighed"]) if char["personlighed"] in table else {}
    text = char["personlighed_navn"]
    if entry.get("description"):
        text += f": {entry['description']}"
    return [Section(tables.labels("personlighed"), text=text, fields=("personlighed",))]


def _evne_part(group: str, styles: str):
    def build(char: dict, tables: Tables) -> list[Section]:
        L = tables.labels
        one = "talent" if group == "talenter" else "kundskab"
        rows = [[L(e), v, char[styles].get(e, "")] for e, v in char[group].items()]
        headers = [L(one), L("vaerdi"), L("kampstil" if one == "talent" else "modeffekt")]
        return [Section(L(group), headers=headers, rows=rows, fields=(group, styles))]

    return build


def _tilstand_cell(row: dict, L) -> str:
    text = f"{row['vaerdi']}/{row['loft']}"
    if row.get("bonus"):
        text += f" ({L('bonus').lower()} +{row['bonus']})"
    return text


def _tilstande_part(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    mark = f"+{char['fokus_bonus']}"
    table = tables["tilstande"]
    rows = [
        [
            L(t),
            _tilstand_cell(row, L),
            mark if t in char["fokus"] else "",
            table.get(t).get("description", "") if t in table else "",
        ]
        for t, row in char["tilstande"].items()
    ]
    headers = [L("tilstand"), L("vaerdi_loft"), L("fokus"), L("beskrivelse")]
    text = L("fokus_regel").format(bonus=char["fokus_bonus"])
    return [
        Section(
            L("tilstande"),
            headers=headers,
            rows=rows,
            text=text,
            fields=("tilstande", "fokus", "fokus_bonus"),
        )
    ]


def _stjerner_part(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    rows = [[L(k), "★" * n if n else "-"] for k, n in char["stjerner"].items()]
    return [Section(L("stjerner"), rows=rows, fields=("stjerner",))]


def _ekspertiser_part(char: dict, tables: Tables) -> list[Section]:
    """Each ekspertise with where it comes from, its header line and its full text."""
    if not char["ekspertiser"]:
        return []
    L = tables.labels
    table = tables["ekspertiser"]
    items = []
    for held in char["ekspertiser"]:
        entry = table.get(held["id"]) if held["id"] in table else {}
        text = f"{held['virkning']}. {entry.get('description', '')}".strip()
        items.append((f"{held['navn']} ({L(held['kilde'])})", text))
    return [Section(L("ekspertiser"), items=items, fields=("ekspertiser",))]


def _forbedringer_part(char: dict, tables: Tables) -> list[Section]:
    if not char["forbedringer"]:
        return []
    L = tables.labels
    rows = [[L(f["evne"]), f["ved"], _forbedring_text(f, L)] for f in char["forbedringer"]]
    headers = [L("evne"), L("ved"), L("forbedring")]
    return [Section(L("forbedringer"), headers=headers, rows=rows, fields=("forbedringer",))]


def _grej_part(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    if not char["grej"]:
        if "kendetegn" in char:  # a væsen carries nothing
            return []
        return [Section(L("grej"), text=L.word("none").capitalize(), fields=("grej",))]
    table = tables["grej"]
    # the Holdbar column only where some grej cannot break (most grej can: "nej" in every
    # row would tell the player nothing); the slid rule says what it means
    holdbar = any(item.get("holdbar") for item in char["grej"])
    rows = []
    for item in char["grej"]:
        entry = table.get(item["id"]) if item["id"] in table else {}
        row = [item["navn"], item["udgift"], entry.get("description", "")]
        if holdbar:
            row.insert(2, L.word("yes") if item.get("holdbar") else "")
        rows.append(row)
    headers = [L("grej"), L("udgift"), L("beskrivelse")]
    if holdbar:
        headers.insert(2, L("holdbar"))
    text = L("slid_regel") + (" " + L("holdbar_regel") if holdbar else "")
    return [Section(L("grej"), headers=headers, rows=rows, text=text, fields=("grej",))]


def _penge_part(char: dict, tables: Tables) -> list[Section]:
    if "kendetegn" in char and not char["penge"]:  # a væsen has no purse
        return []
    L = tables.labels
    text = f"{char['penge']} {L('penge').lower()}"
    if char.get("startudstyr"):
        kit = tables["startudstyr"]
        name = kit.get(char["startudstyr"]).get("name") if char["startudstyr"] in kit else ""
        text += f"\n{L('startudstyr')}: {name}" if name else ""
    return [Section(L("penge"), text=text, fields=("penge",))]


def _part(fields: tuple[str, ...], build) -> Part:
    """A Part that the sheet leaves out where the character lacks its fields (an NPC has
    no personlighed, a væsen no blodarv)."""

    def guarded(char: dict, tables: Tables) -> list[Section]:
        return build(char, tables) if all(f in char for f in fields) else []

    return Part(fields, guarded)


PARTS = [
    _part(("name",), _head),
    _part(("blodarv", "blodarv_navn", "blodarv_lore"), _blodarv_part),
    _part(("personlighed", "personlighed_navn"), _personlighed_part),
    _part(("talenter", "kampstile"), _evne_part("talenter", "kampstile")),
    _part(("kundskaber", "modeffekter"), _evne_part("kundskaber", "modeffekter")),
    _part(("tilstande", "fokus", "fokus_bonus"), _tilstande_part),
    _part(("stjerner",), _stjerner_part),
    _part(("ekspertiser",), _ekspertiser_part),
    _part(("forbedringer",), _forbedringer_part),
    _part(("grej",), _grej_part),
    _part(("penge",), _penge_part),
]


def _forbedring_text(gained: dict, L) -> str:
    if "spor" in gained:
        return f"{L('stjerne')} i {L(gained['spor']).lower()}"
    if "tilstand" in gained:
        return f"+1 {LOFT[gained['tilstand']]}"
    if "grej" in gained:
        return f"{L('grej').lower()}: {gained.get('navn', gained['grej'])}"
    return L(gained["forbedring"])


def _fokus_short(char: dict) -> str:
    return ", ".join(LABELS.get(t, t) for t in char["fokus"])


def _evner_short(char: dict) -> str:
    """The three strongest evner in their short forms ("Sind 10, Okku 9, Kult 4"): what a
    game master rolls with most; the sheet and the JSON have every value."""
    values = {**char["talenter"], **char["kundskaber"]}
    ranked = sorted((e for e in EVNER if values[e]), key=lambda e: -values[e])[:3]
    return ", ".join(f"{SHORT.get(e, e)} {values[e]}" for e in ranked)


def _ekspertiser_short(char: dict) -> str:
    return ", ".join(e["navn"] for e in char["ekspertiser"])


def _tilstande_short(char: dict) -> str:
    """ "Helbred 2/2, Kraft 4/4, ..." """
    return ", ".join(
        f"{LABELS.get(t, t)} {row['vaerdi']}/{row['loft']}" for t, row in char["tilstande"].items()
    )


def _stjerner_short(char: dict) -> str:
    return ", ".join(f"{LABELS.get(k, k)} {n}" for k, n in char["stjerner"].items() if n)


_NAVN = Column("navn", "name", priority=9, wrap=True)
# a step of a batch (`chargen lef tilstande -n 5`): the columns of that part of the sheet
STEP_ROSTERS: dict[str, tuple[Column, ...]] = {
    "blodarv": (
        _NAVN,
        Column("blodarv", "blodarv_navn", priority=8),
        Column("fokus", _fokus_short, priority=7),
        Column("ekspertiser", _ekspertiser_short, priority=6, wrap=True),
    ),
    "personlighed": (
        _NAVN,
        Column("personlighed", "personlighed_navn", priority=8),
        Column("ekspertiser", _ekspertiser_short, priority=7, wrap=True),
    ),
    "evner": (
        _NAVN,
        Column("staerkeste_evner", _evner_short, priority=8, legend=EVNER),
        Column("ekspertiser", _ekspertiser_short, priority=7, wrap=True),
    ),
    "tilstande": (
        _NAVN,
        Column("tilstande", _tilstande_short, priority=8, wrap=True),
        Column("fokus", _fokus_short, priority=7),
        Column("stjerner", _stjerner_short, priority=6, wrap=True),
    ),
    "grej": (
        _NAVN,
        Column("startudstyr", priority=7),
        Column("grej", lambda c: ", ".join(i["navn"] for i in c["grej"]), priority=8, wrap=True),
        Column("penge", priority=8),
    ),
}
PC_STEPS = [
    dataclasses.replace(s, roster=STEP_ROSTERS[s.id]) if s.id in STEP_ROSTERS else s
    for s in PC_STEPS
]


SYSTEM = System(
    id="lef",
    name="LEF, Terminus Alfa",
    language="da",
    locale="da_DK",
    description="2T6 + evne mod en grad; talenter, kundskaber, tilstande, fokus og blodarv.",
    specs=SPECS,
    effect_keys=frozenset(),
    labels=LABELS,
    facts={"blodarv": "blodarv", "hjemstat": "hjemstater"},
    pc=PC_STEPS,
    npc=npc,
    pc_options=[
        Option("blodarv", table="blodarv", help="The blodarv (blodarv.toml)."),
        Option("personlighed", table="personligheder", help="The personlighed."),
    ],
    npc_options=[
        Option("template", table="skabeloner", help="The NPC template (skabeloner.toml)."),
        Option("blodarv", table="blodarv", help="The blodarv of every NPC of the batch."),
    ],
    sheet=None,
    parts=PARTS,
    roster=[
        Column("navn", "name", priority=9, wrap=True),
        Column("skabelon", "skabelon_navn", priority=8),
        Column("blodarv", "blodarv_navn", priority=7),
        Column("personlighed", "personlighed_navn", priority=6),
        Column("staerkeste_evner", _evner_short, priority=5, legend=EVNER),
        Column("fokus", _fokus_short, priority=4, wrap=True),
    ],
)
