"""The player character's creation steps, in the order the procedure walks them.

Each step is a function ``(character, ctx) -> None`` drawing from its own stream
(`ctx.rng`); what a step reads of the character is declared beside it in the
system's declaration (chargen/systems/lef/__init__.py). The pack's faults that the
table specs cannot see are refused by checks.py before a user's pack is used.
"""

from __future__ import annotations

from bisect import bisect
from itertools import accumulate
from typing import Any

from chargen.errors import ChargenError
from chargen.procedure import Context
from chargen.systems.lef.rules import (
    EVNER,
    GENDER,
    KUNDSKABER,
    TALENTER,
    TILSTANDE,
    ekspertise_row,
    ekspertise_sums,
    grej_item,
)

# -- what a batch works out once ------------------------------------------------------------


def regler(ctx: Context) -> dict:
    """regler.toml's numbers, the forbedring thresholds in order (once per batch)."""
    return ctx.memo(("lef", "regler"), _regler, ctx.table("regler"))


def _regler(table) -> dict:
    rules = dict(table.settings)
    rules["forbedring_ved"] = sorted(rules["forbedring_ved"])
    return rules


def kampstile(ctx: Context) -> dict[str, str]:
    """Each talent's kampstil (one dict a batch shares)."""
    return ctx.memo(("lef", "kampstile"), _styles, ctx.table("evner"), TALENTER, "kampstil")


def modeffekter(ctx: Context) -> dict[str, str]:
    """Each kundskab's modeffekt (one dict a batch shares)."""
    return ctx.memo(("lef", "modeffekter"), _styles, ctx.table("evner"), KUNDSKABER, "modeffekt")


def _styles(table, evner: tuple[str, ...], key: str) -> dict[str, str]:
    return {e: table.get(e)[key] for e in evner}


def ekspertise(ctx: Context, eks_id: str, kilde: str) -> dict:
    return ekspertise_row(ctx.table("ekspertiser").get(eks_id, "ekspertise"), kilde)


def named(ctx: Context, hjemstat: dict) -> tuple[str, str]:
    """(name, gender) in the style of the home state: its authored names table, or Faker's
    names for its locale (`--locale` overrides both)."""
    if "navne" in hjemstat and not ctx.locale:
        return ctx.authored_name(hjemstat["navne"])
    return ctx.person_name(hjemstat.get("locale"))


def _ask(ctx: Context, option: str, table: str, allowed: list[dict]) -> dict:
    """One pick the player makes during creation (a forbedring, where a stjerne goes):
    asked at `--interactive`, else drawn by weight among `allowed`. The question comes
    again for the next pick, so the answer is not kept for the batch as a choice is."""
    entry = ctx.choose(option, table, allowed=allowed)
    ctx.options.pop(option, None)
    return entry


# -- the steps ------------------------------------------------------------------------------


def navn(char: dict, ctx: Context) -> None:
    """The home state (by weight) and a name in its style."""
    entry = ctx.pick("hjemstater")
    ctx.set_fact("hjemstat", entry["id"])
    char["name"], gender = named(ctx, entry)
    char["kon"] = GENDER[gender]
    char["hjemstat"], char["hjemstat_navn"] = entry["id"], entry.get("name", entry["id"])
    ctx.log(hjemstat=entry["id"], name=char["name"])


def blodarv(char: dict, ctx: Context) -> None:
    """The blodarv (--blodarv): its lore, its exchange ekspertise, its fokus tilstand."""
    entry = ctx.choose("blodarv", "blodarv")
    char["blodarv"], char["blodarv_navn"] = entry["id"], entry.get("name", entry["id"])
    char["blodarv_lore"] = entry["lore"]
    char["ekspertiser"] = [ekspertise(ctx, entry["ekspertise"], "blodarv")]
    ctx.note(ctx.table("ekspertiser").get(entry["ekspertise"]), "ekspertiser")  # held
    char["fokus"] = [entry["fokus"]]


def personlighed(char: dict, ctx: Context) -> None:
    """The personlighed (--personlighed) and the one of its ekspertiser the character
    starts with: one it lacks, and not one that only repeats its blodarv (`unless`)."""
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
    allowed = [table.get(e) for e in open_]
    eks_id = _ask(ctx, "personlighed_ekspertise", "ekspertiser", allowed)["id"]
    char.setdefault("ekspertiser", []).append(ekspertise(ctx, eks_id, "personlighed"))
    ctx.log(ekspertise=eks_id, fra=entry["id"])


def spend(
    ctx: Context, rules: dict, favoured: set[str], caps: dict[str, int] | None = None
) -> dict[str, int]:
    """Spend the evne budget one point at a time, by weight grund + value (+ foretrukken).

    Each point draws `rand() * total weight` and walks the open evner (those below the
    cap), taking the first whose weight the walk cannot pay."""
    start, cap = rules["evne_start"], rules["evne_max_start"]
    limit = {e: (caps or {}).get(e, cap) for e in EVNER}
    base, bonus = rules["fordeling_grund"], rules["fordeling_foretrukken"]
    if base + start + min(bonus, 0) > 0:
        return _spend_by_sums(ctx, rules, favoured, limit)
    values = dict.fromkeys(EVNER, start)
    rand = ctx.rng.random
    for _ in range(rules["evnepoint"]):
        open_ = [e for e in EVNER if values[e] < limit[e]]
        if not open_:
            break
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


def _spend_by_sums(
    ctx: Context, rules: dict, favoured: set[str], limit: dict[str, int]
) -> dict[str, int]:
    """`spend` when every open evne weighs at least 1: one bisect over running sums.

    A full evne weighs 0 here, so it is never the first sum above the point; the sums are
    whole numbers and the point stays exact while the walk pays them, so the evne found is
    the walk's, and so is the random stream."""
    start = rules["evne_start"]
    base, bonus = rules["fordeling_grund"], rules["fordeling_foretrukken"]
    caps = [limit[e] for e in EVNER]
    values = [start] * len(EVNER)
    weights = [
        (base + start + (bonus if e in favoured else 0)) if start < top else 0
        for e, top in zip(EVNER, caps, strict=True)
    ]
    rand = ctx.rng.random
    for _ in range(rules["evnepoint"]):
        if not any(weights):
            break
        sums = list(accumulate(weights))
        index = bisect(sums, rand() * sums[-1])
        if index == len(sums):  # rand() * total rounded up to the total: the last open evne
            index = max(i for i, w in enumerate(weights) if w)
        values[index] += 1
        weights[index] = weights[index] + 1 if values[index] < caps[index] else 0
    return dict(zip(EVNER, values, strict=True))


def evner(char: dict, ctx: Context) -> None:
    """Spend the evne budget; take a forbedring at each threshold reached and the
    ekspertise at ekspertise_ved."""
    rules = regler(ctx)
    table = ctx.table("evner")
    pers = char.get("personlighed")
    personlighed = ctx.table("personligheder").get(pers) if pers else {}
    favoured = set(personlighed.get("foretrukne_evner", ()))
    # no point spent to reach an ekspertise that only repeats one held (Ritual beside
    # Manakraft): the ekspertiser exclude each other in ekspertiser.toml
    eks = ctx.table("ekspertiser")
    repeats = {
        e["id"]: min(rules["ekspertise_ved"] - 1, rules["evne_max_start"])
        for e in table.entries
        if not ctx.fits(eks.get(e["ekspertise"]))
    }
    values = ctx.ask_spread(  # at --interactive the player may give each evne its value
        "behold_evner",
        spend(ctx, rules, favoured, repeats),
        rules["evne_start"],
        rules["evne_max_start"],
        rules["evnepoint"],
    )
    ctx.log(evnepoint=rules["evnepoint"], evner=values)
    char["talenter"] = {e: values[e] for e in TALENTER}
    char["kundskaber"] = {e: values[e] for e in KUNDSKABER}
    char["kampstile"] = kampstile(ctx)
    char["modeffekter"] = modeffekter(ctx)

    forb_table = ctx.table("forbedringer")
    spor = ctx.table("stjernespor")
    grej = ctx.table("grej")
    held_grej = set()
    if personlighed:
        held_grej = set(ctx.table("startudstyr").get(personlighed["startudstyr"])["grej"])
    lofts = dict.fromkeys(TILSTANDE, rules["loft_start"])
    lofts["sjael"] = 0
    forbedringer = []
    ekspertiser = char.setdefault("ekspertiser", [])
    for evne_id in EVNER:
        evne = table.get(evne_id)
        slots = list(evne["forbedringer"])
        for ved in rules["forbedring_ved"]:
            if values[evne_id] < ved:
                break
            pick = forbedring(ctx, forb_table, evne, slots, lofts, rules, grej, held_grej, ved)
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
            detail = {k: v for k, v in gained.items() if k in ("spor", "tilstand", "grej")}
            ctx.log(forbedring=pick["id"], evne=evne_id, ved=ved, **detail)
        if values[evne_id] >= rules["ekspertise_ved"]:
            ekspertiser.append(ekspertise(ctx, evne["ekspertise"], evne_id))
            ctx.log(ekspertise=evne["ekspertise"], evne=evne_id)
    char["forbedringer"] = forbedringer


def forbedring(ctx, forb_table, evne, slots, lofts, rules, grej, held_grej, ved) -> dict:
    """One of the evne's remaining forbedringer that can still apply, drawn evenly (or
    asked): a loft one not while that loft is at loft_max, a grej one not once every grej
    is held; a kundskab's two stjerne slots are one answer."""
    usable = []
    for slot in slots:
        pick = forb_table.get(slot, "forbedring")
        kind = pick["virkning"]
        if kind in ("loft", "gave"):
            step = rules["sjael_pr_gave"] if kind == "gave" else 1
            if lofts[pick["tilstand"]] + step > rules["loft_max"]:
                continue
        elif kind == "grej" and held_grej.issuperset(grej.ids):  # nothing left to give
            continue
        if pick not in usable:
            usable.append(pick)
    if not usable:
        raise ChargenError(
            f"no forbedring of '{evne['id']}' can apply ({', '.join(slots)}): "
            "the lofts are full; lower regler.evnepoint or raise loft_max"
        )
    return _ask(ctx, f"forbedring_{evne['id']}_{ved}", "forbedringer", usable)


def tilstande(char: dict, ctx: Context) -> None:
    """Lofts from loft_start and the forbedringer, ekspertise bonuses on top, values full;
    fokus from the blodarv and the ekspertiser; stjerner per track, Alsidig's free ones
    placed (asked at `--interactive`: "kan placeres valgfrit")."""
    rules = regler(ctx)
    forb_table = ctx.table("forbedringer")
    lofts = dict.fromkeys(TILSTANDE, rules["loft_start"])
    lofts["sjael"] = 0
    for gained in char.get("forbedringer", ()):
        if "tilstand" in gained:
            kind = forb_table.get(gained["forbedring"])["virkning"]
            lofts[gained["tilstand"]] += rules["sjael_pr_gave"] if kind == "gave" else 1
    spor = ctx.table("stjernespor")
    held = [e["id"] for e in char.get("ekspertiser", ())]
    rows, fokus, stjerner, free = ekspertise_sums(
        ctx.table("ekspertiser"), spor.ids, held, char.get("fokus", ()), lofts
    )
    for gained in char.get("forbedringer", ()):
        if "spor" in gained:
            stjerner[gained["spor"]] += 1
    for eks_id in free:
        track = _ask(ctx, f"fri_stjerne_{eks_id}", "stjernespor", list(spor.entries))["id"]
        stjerner[track] += 1
        ctx.log(stjerne=track, fra=eks_id)
    char["tilstande"] = rows
    char["fokus"] = fokus
    char["stjerner"] = stjerner
    char["fokus_bonus"] = rules["fokus_bonus"]
    ctx.log(tilstande={k: v["loft"] for k, v in rows.items()}, fokus=fokus)


def grej(char: dict, ctx: Context) -> None:
    """The personlighed's startudstyr, its penge, and the grej the forbedringer gave."""
    table = ctx.table("grej")
    pers = char.get("personlighed")
    kits = ctx.table("startudstyr")
    if pers:
        kit = kits.get(ctx.table("personligheder").get(pers)["startudstyr"])
    else:
        kit = ctx.pick("startudstyr")
    items = list(kit["grej"]) + [g["grej"] for g in char.get("forbedringer", ()) if "grej" in g]
    char["grej"] = [grej_item(table.get(i, "grej")) for i in items]
    char["startudstyr"] = kit["id"]
    char["penge"] = ctx.roll(kit["penge"], "penge").total
