"""Karmasystemet (document 002): a d6 pool game with Kontroll and karma dice.

The document fixes seven Egenskaper of 2-7 dice each, Särdrag on a list of
their own, one or more Bakgrunder with dice, a hand of karma dice whose size
the campaign decides, and one sentence per character with a vice and a virtue
("Desmond super som ett svin men han håller sitt ord"); some important enemies
have karma of their own, "antingen per person eller gemensamt i gruppen".
Everything else (the budget of extra dice and how a Bakgrund steers it, how many
Bakgrunder, the tables, the names) is chargen's reading, kept in tables/karma/.

Coherence lives in the tables, through the engine's conditions: a virtue names
the kinds of vice it cannot stand beside (`excludes`), two Särdrag that cannot
share a body exclude each other, a template or Bakgrund is gendered
(`{ male = "Hovman", female = "Hovdam" }`) or drawn only for one gender (`when`).
"""

from __future__ import annotations

from chargen.dice import parse
from chargen.errors import ChargenError, Problem
from chargen.labels import builtin_labels
from chargen.procedure import Column, Context, Option, Part, Section, Step, System
from chargen.tables import NAME_SPEC, Spec, Tables, key_line, parse_range

EGENSKAPER = ("stark", "talig", "smidig", "uppmarksam", "overtygande", "stridsvan", "traffsaker")

SPECS = {
    "regler": Spec(
        "settings",
        fields={
            "grundvarde": "int[0..10]!",
            "tak": "int[1..20]!",
            "extra_tarningar": "int[0..100]!",
            "antal_bakgrunder": "dice[1..10]!",
            "bakgrund_tarningar": "dice[0..20]!",
            "antal_sardrag": "dice[0..10]!",
            "karma": "int[0..100]!",
            "bakgrund_vikt": "num[1..100]!",
            "karma_hogst": "int[1..100]!",
            "mening": "str!",
            "namntabell": "table!",
        },
        order=(("grundvarde", "tak"),),
    ),
    "bakgrunder": Spec(
        "definitions",
        fields={"egenskaper": "list[str]"},
    ),
    "sardrag": Spec("definitions", fields={"typ": "one:fordel|nackdel|neutral!"}),
    "laster": Spec("roll"),
    "dygder": Spec("roll"),
    "lastertyper": Spec("definitions"),
    "mallar": Spec(
        "definitions",
        fields={
            "egenskaper": "dict[str]!",
            "bakgrunder": "list[id:bakgrunder]!",
            "bakgrund_tarningar": "re:^\\d{1,2}(-\\d{1,2})?$!",
            "karma": "re:^\\d{1,2}(-\\d{1,2})?$!",
            "karma_typ": "one:ingen|egen|grupp!",
            "sardrag": "int[0..20]!",
            "foljare": "list[id:mallar]",
        },
    ),
    "namn_*": NAME_SPEC,
}

# Display words live in tables/karma/etiketter.toml (chargen.labels).
LABELS = builtin_labels("karma")
KARMA_TYP = {"egen": "egen", "grupp": "gemensam i gruppen"}


def karmatarningar(count: int) -> str:
    """ "1 karmatärning", "3 karmatärningar"."""
    return f"{count} karmatärning" + ("" if count == 1 else "ar")


def _first_name(name: str) -> str:
    return name.split()[0]


def _name(char: dict, ctx: Context) -> None:
    """A name of the Bakgrunder's medieval Nordic world; Faker's modern names with --locale."""
    if ctx.locale:
        char["name"], char["kon"] = ctx.person_name()
    else:
        char["name"], char["kon"] = ctx.authored_name(ctx.setting("regler", "namntabell"))


def _favoured(char: dict, ctx: Context) -> set[str]:
    table = ctx.table("bakgrunder")
    return {e for b in char.get("bakgrunder", ()) for e in table.get(b["id"]).get("egenskaper", ())}


def egenskaper(char: dict, ctx: Context) -> None:
    """Every Egenskap starts at grundvärdet; the extra dice land one at a time, on an
    Egenskap the character's Bakgrunder favour `bakgrund_vikt` times as often."""
    rules = ctx.table("regler")
    base, cap, budget = (
        rules.setting("grundvarde"),
        rules.setting("tak"),
        rules.setting("extra_tarningar"),
    )
    weight = rules.setting("bakgrund_vikt")
    favoured = _favoured(char, ctx)
    values = dict.fromkeys(EGENSKAPER, base)
    placed = []
    for _ in range(budget):
        open_ = [e for e in EGENSKAPER if values[e] < cap]
        if not open_:
            break
        weights = [weight if e in favoured else 1 for e in open_]
        point = ctx.rng.random() * sum(weights)
        chosen = open_[-1]
        for e, w in zip(open_, weights, strict=True):
            if point < w:
                chosen = e
                break
            point -= w
        values[chosen] += 1
        placed.append(chosen)
    char["egenskaper"] = values
    ctx.log(grundvarde=base, tak=cap, gynnade=sorted(favoured), extra_tarningar=placed)


def _sardrag_rows(entries: list[dict], ctx: Context) -> list[dict]:
    return [{"id": e["id"], "namn": ctx.text(e["name"]), "typ": e["typ"]} for e in entries]


def sardrag(char: dict, ctx: Context) -> None:
    """Physical Särdrag, all different, none beside one it excludes."""
    count = ctx.roll(ctx.setting("regler", "antal_sardrag"), "antal Särdrag").total
    drawn = ctx.draw("sardrag", count)
    char["sardrag"] = _sardrag_rows(drawn, ctx)
    ctx.log(sardrag=[e["id"] for e in drawn])


def bakgrunder(char: dict, ctx: Context) -> None:
    """One or more Bakgrunder (--bakgrund, repeatable), each with its own dice."""
    dice = ctx.setting("regler", "bakgrund_tarningar")
    how_many = ctx.setting("regler", "antal_bakgrunder")
    given = ctx.option("bakgrund") or ()
    count = len(given) or ctx.roll(how_many, "antal Bakgrunder").total
    span = (parse(how_many).minimum, parse(how_many).maximum)  # what a player may pick
    chosen = ctx.choose_many("bakgrund", "bakgrunder", count, span=span)
    rows = []
    for entry in chosen:
        name = ctx.text(entry["name"])
        rows.append({"id": entry["id"], "namn": name, "tarningar": ctx.roll(dice, name).total})
    char["bakgrunder"] = rows


def karma(char: dict, ctx: Context) -> None:
    """The hand of karma dice: --karma N, the prompt, or the campaign's default."""
    default = ctx.setting("regler", "karma")
    high = ctx.setting("regler", "karma_hogst")
    ask = getattr(ctx, "ask_number", None)
    if ask is not None:
        char["karma"] = ask("karma", 0, high, default)
    else:  # an engine without prompts for numbers: the option or the default
        char["karma"] = ctx.option("karma", default)
        ctx.log(karma=char["karma"], by="option" if ctx.option("karma") is not None else "regler")


def _sentence(char: dict, ctx: Context, template: dict | None = None) -> None:
    """The vice-and-virtue sentence (regler.toml `mening`: "{namn} {last} men {han} {dygd}"):
    the virtue drawn among those that do not exclude the vice.

    A player character rolls through ctx.roll_table (the historik records both rows); an
    NPC draws from pools kept per batch: the vices that fit the gender, and the virtues
    that fit beside a vice, its template and the gender (what ctx.pool gives then)."""
    if template is None:
        vice = ctx.roll_table("laster")[0]
        virtue = ctx.roll_table("dygder")[0]
    else:
        vice = ctx.pool("laster").pick(ctx.rng)
        if ctx.fits(vice):
            ctx.note(vice, "laster")
        else:  # something drawn before excludes it: the engine's own draw
            vice = ctx.pick("laster")
        # a row without an id is known by its text (gendered text is a dict: made a string)
        key = ("dygder", template["id"], vice.get("id") or str(vice.get("result")), ctx.gender())
        virtues = ctx.cache.get(key)
        if virtues is None:
            virtues = ctx.cache[key] = ctx.pool("dygder")
        if not virtues:
            raise ctx._none_fit(ctx.table("dygder"))
        virtue = virtues.pick(ctx.rng)
        ctx.note(virtue, "dygder")
    char["last"] = ctx.text(vice["result"])
    char["dygd"] = ctx.text(virtue["result"])
    char["last_id"], char["dygd_id"] = vice.get("id"), virtue.get("id")
    char["mening"] = ctx.text(
        ctx.setting("regler", "mening"),
        namn=_first_name(char["name"]),
        last=char["last"],
        dygd=char["dygd"],
    )


def mening(char: dict, ctx: Context) -> None:
    """The one sentence every player writes about the character."""
    _sentence(char, ctx)


PC_STEPS = [
    Step("namn", _name, fields=("name", "kon"), command=False),
    Step(
        "bakgrunder",
        bakgrunder,
        fields=("bakgrunder",),
        lists=("bakgrunder",),
        label="Bakgrunder",
        help="One or more Bakgrunder (--bakgrund), each with its dice.",
    ),
    Step(
        "egenskaper",
        egenskaper,
        fields=("egenskaper",),
        lists=("regler",),
        label="Egenskaper",
        help="The seven Egenskaper: each starts at 2, extra dice spread up to 7, "
        "more often on those the Bakgrunder favour.",
    ),
    Step(
        "sardrag",
        sardrag,
        fields=("sardrag",),
        lists=("sardrag",),
        label="Särdrag",
        help="Physical Särdrag, on their own list.",
    ),
    Step(
        "karma",
        karma,
        fields=("karma",),
        lists=("regler",),
        label="Karma",
        help="The hand of karma dice (--karma N).",
    ),
    Step(
        "mening",
        mening,
        fields=("last", "dygd", "mening"),
        lists=("laster", "dygder"),
        label="Last och dygd",
        help="The one-sentence vice and virtue.",
    ),
]


# -- NPCs --------------------------------------------------------------------------------


def _plan(ctx: Context, template: dict) -> tuple:
    """A template's ranges, parsed once per batch."""
    plan = ctx.cache.get(("mall", template["id"]))
    if plan is None:
        ranges = [(e, parse_range(template["egenskaper"][e])) for e in EGENSKAPER]
        plan = ctx.cache[("mall", template["id"])] = (
            ranges,
            [ctx.table("bakgrunder").get(b) for b in template["bakgrunder"]],
            parse_range(template["bakgrund_tarningar"]),
            parse_range(template["karma"]),
        )
    return plan


def _between(rand, low: int, high: int) -> int:
    return low + int(rand() * (high - low + 1))


def _karma_typ(template: dict) -> str:
    return template.get("karma_typ", "ingen")


def _batch_checks(ctx: Context) -> None:
    """What a batch's options ask of its templates, checked once."""
    if ctx.cache.get("checked"):
        return
    ctx.cache["checked"] = True
    given = ctx.options.get("template")
    if given and ctx.option("karma") is not None and not ctx.option("band"):
        template = ctx.table("mallar").get(str(given).strip().lower().replace("-", "_"))
        if _karma_typ(template) == "ingen":
            raise ChargenError(
                f"--karma: the template '{template['id']}' has no karma (karma_typ = ingen); "
                "only important enemies have karma of their own or their group's "
                "(templates with karma: "
                + ", ".join(
                    e["id"] for e in ctx.table("mallar").entries if _karma_typ(e) != "ingen"
                )
                + ")"
            )
    if ctx.option("band") and ctx.count < 2:
        raise ChargenError(
            "--band needs -n 2 or more: a band is a leader and the followers who share "
            "the leader's karma"
        )


def _band_leader(ctx: Context) -> tuple[dict, int, str]:
    """The band's leader template, its shared karma pool and the band's id (once a batch)."""
    found = ctx.shared.get("band")
    if found is None:
        leaders = [e for e in ctx.table("mallar").entries if _karma_typ(e) == "grupp"]
        template = ctx.choose(
            "template",
            "mallar",
            allowed=leaders,
            why="--band: the band's leader must be a template whose karma the group shares "
            "(karma_typ = grupp)",
        )
        low, high = _plan(ctx, template)[3]
        pool = ctx.option("karma")
        if pool is None:
            pool = _between(ctx.rng.random, low, high)
        found = ctx.shared["band"] = (template, pool, f"{template['id']}-{ctx.batch_seed}")
    return found


def npc(char: dict, ctx: Context) -> None:
    """An NPC from a template: its ranges rolled evenly, its karma its own or its group's.

    With --band the batch is one band: the first is its leader (a template with
    karma_typ = grupp), the rest its followers (the leader's `foljare`), and the band
    shares one declared karma pool, the leader's.
    """
    _batch_checks(ctx)
    band = None
    if ctx.option("band"):
        leader, pool, band_id = _band_leader(ctx)
        if ctx.index == 0:
            template = leader
            ctx.note(template, "mallar")
        else:
            followers = [ctx.table("mallar").get(f) for f in leader.get("foljare", ())]
            if not followers:
                raise ChargenError(f"mallar.toml: '{leader['id']}' leads a band but has no foljare")
            template = ctx.pick("mallar", among=followers)
        band = (leader, pool, band_id)
    else:
        template = ctx.choose("template", "mallar")
    ranges, backgrounds, dice_range, karma_range = _plan(ctx, template)
    rand = ctx.rng.random
    char["template"] = template["id"]
    if ctx.locale:
        char["name"], char["kon"] = ctx.person_name()
    else:
        char["name"], char["kon"] = ctx.authored_name(ctx.setting("regler", "namntabell"))
    char["mall_namn"] = ctx.text(template["name"])
    char["egenskaper"] = {e: _between(rand, lo, hi) for e, (lo, hi) in ranges}
    lo, hi = dice_range
    char["bakgrunder"] = [
        {"id": b["id"], "namn": ctx.text(b["name"]), "tarningar": _between(rand, lo, hi)}
        for b in backgrounds
    ]
    for b in backgrounds:  # their ids count for what excludes them (an enarmad bågskytt)
        ctx.note(b, "bakgrunder")
    _sentence(char, ctx, template)  # before the Särdrag: their exclusions concern only them
    count = template["sardrag"]
    char["sardrag"] = _sardrag_rows(ctx.draw("sardrag", count), ctx) if count else []
    kind = _karma_typ(template)
    if band is not None:
        leader, pool, band_id = band
        char["band"] = band_id
        char["bandkarma"] = pool
        char["karma_typ"] = "grupp"
        char["karma"] = pool if ctx.index == 0 else 0
    elif kind == "ingen":
        char["karma_typ"] = kind
        char["karma"] = 0  # no karma, --karma or not
    else:
        char["karma_typ"] = kind
        forced = ctx.option("karma")
        char["karma"] = forced if forced is not None else _between(rand, *karma_range)
    for key in ("last", "dygd", "last_id", "dygd_id", "mening"):
        char[key] = char.pop(key)  # the sentence last in the JSON, as on the sheet


# -- the sheet ---------------------------------------------------------------------------


def _karma_line(char: dict) -> str | None:
    """How a character's karma reads on the sheet; None for one without karma."""
    if char.get("band"):
        return f"{karmatarningar(char['bandkarma'])}, gemensamma för bandet"
    kind = char.get("karma_typ")
    if kind == "ingen" or (kind is None and char["kind"] == "npc"):
        return None
    text = karmatarningar(char["karma"])
    if kind in KARMA_TYP and char["kind"] == "npc":
        text += f" ({KARMA_TYP[kind]})"
    return text


def sheet(char: dict, tables: Tables) -> list[Section]:
    """The sheet; every word from tables/karma/etiketter.toml."""
    L = tables.labels
    head = [[L("name"), char["name"]]]
    if char.get("template"):
        head.append([L("mall"), char.get("mall_namn") or char["template"]])
    line = _karma_line(char)
    if line is not None:
        head.append([L("karma"), line])
    title = L("rollperson") if char["kind"] == "pc" else L("spelledarperson")
    sections = [Section(title, rows=head)]
    sections += _egenskaper(char, tables) + _bakgrunder(char, tables)
    sections += _sardrag(char, tables) + _mening(char, tables)
    rules = L("regel_slag") if line is None else L("regel_slag") + "\n" + L("regel_karma")
    sections.append(Section(L("slag"), text=rules))
    return sections


def _egenskaper(char: dict, tables: Tables) -> list[Section]:
    L, eg = tables.labels, char["egenskaper"]
    return [Section(L("egenskaper"), rows=[[L(e), L.dice(eg[e], 6)] for e in EGENSKAPER])]


def _bakgrunder(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    rows = [[b["namn"], L.dice(b["tarningar"], 6)] for b in char["bakgrunder"]]
    return [Section(L("bakgrunder"), rows=rows)]


def _sardrag(char: dict, tables: Tables) -> list[Section]:
    """Each Särdrag with its typ and what it does in play (sardrag.toml `rules`)."""
    L, table = tables.labels, tables["sardrag"]
    items = []
    for s in char["sardrag"]:
        entry = table.get(s["id"]) if s["id"] in table else {}
        items.append((f"{s['namn']} ({L(s['typ'])})", entry.get("rules", "")))
    if not items:
        return [Section(L("sardrag"), text=L.word("none").capitalize())]
    return [Section(L("sardrag"), items=items)]


def _mening(char: dict, tables: Tables) -> list[Section]:
    return [Section(tables.labels("mening"), text=char["mening"] + ".")]


def _karma_part(char: dict, tables: Tables) -> list[Section]:
    L = tables.labels
    return [Section(L("karma"), rows=[[L("karma"), L.count(char["karma"], "karmatarning")]])]


# a step alone (`chargen karma sardrag`) shows its piece of the sheet
PARTS = [
    Part(("bakgrunder",), _bakgrunder),
    Part(("egenskaper",), _egenskaper),
    Part(("sardrag",), _sardrag),
    Part(("karma",), _karma_part),
    Part(("last", "dygd", "mening"), _mening),
]


def batch_sheet(chars: list[dict], tables: Tables) -> list[Section] | None:
    """A band: its shared karma once, then one row per member."""
    if not chars or not chars[0].get("band"):
        return None
    if any(c.get("band") != chars[0]["band"] for c in chars):
        return None
    leader = chars[0]
    head = [
        ["Ledare", f"{leader['name']}, {leader['mall_namn']}"],
        ["Medlemmar", len(chars)],
        ["Gemensam karma", karmatarningar(leader["bandkarma"])],
    ]
    rows = [
        [
            c["name"],
            c["mall_namn"],
            *(c["egenskaper"][e] for e in EGENSKAPER),
            ", ".join(f"{b['namn']} {b['tarningar']}" for b in c["bakgrunder"]),
        ]
        for c in chars
    ]
    L = tables.labels
    headers = [L("name"), L("mall"), *((L.short(e) or [L(e)])[-1] for e in EGENSKAPER)]
    headers.append(L("bakgrunder"))
    legend = ", ".join(f"{(L.short(e) or [L(e)])[-1]} = {L(e)}" for e in EGENSKAPER)
    return [
        Section("Band", rows=head),
        Section("Medlemmar", headers=headers, rows=rows),
        Section(
            "Bandets karma",
            text="Bandet delar en näve karma, gemensamt i gruppen: varje medlem får lägga "
            "tärningar ur den, högst så många som Egenskapens eller Bakgrundens tärningar.\n"
            + L.word("legend").format(items=legend),
        ),
    ]


def _short(key: str):
    return lambda c: c["egenskaper"][key]


def _roster_karma(char: dict):
    line = _karma_line(char)
    return "" if line is None else char.get("bandkarma", char["karma"])


def check_pack(tables: Tables) -> list[Problem]:
    """What the specs cannot say: a Bakgrund's `egenskaper` are Egenskaper, a band
    leader has followers."""
    out = []
    table = tables["bakgrunder"]
    for index, entry in enumerate(table.entries):
        for name in entry.get("egenskaper", ()):
            if name not in EGENSKAPER:
                out.append(
                    Problem(
                        str(table.path),
                        key_line(table.text, "egenskaper", index),
                        f"'{entry['id']}': '{name}' is not an Egenskap ({', '.join(EGENSKAPER)})",
                    )
                )
    table = tables["mallar"]
    for index, entry in enumerate(table.entries):
        if _karma_typ(entry) == "grupp" and not entry.get("foljare"):
            out.append(
                Problem(
                    str(table.path),
                    key_line(table.text, "karma_typ", index),
                    f"'{entry['id']}' shares its karma with a group (karma_typ = grupp) "
                    "but names no foljare",
                )
            )
    return out


SYSTEM = System(
    id="karma",
    name="Karmasystemet",
    language="sv",
    locale="sv_SE",
    description="T6-pölar med Kontroll, Egenskaper, Bakgrunder och karmatärningar.",
    specs=SPECS,
    effect_keys=frozenset(),
    labels=LABELS,
    pc=PC_STEPS,
    npc=npc,
    placeholders=("namn", "last", "dygd"),
    pc_options=[
        Option(
            "karma",
            type=int,
            minimum=0,
            maximum=100,
            help="The hand of karma dice (default from regler.toml).",
        ),
        Option("bakgrund", table="bakgrunder", multiple=True, help="A Bakgrund (repeatable)."),
    ],
    npc_options=[
        Option("template", table="mallar", help="The NPC template (mallar.toml)."),
        Option(
            "karma",
            type=int,
            minimum=0,
            maximum=100,
            help="Karma dice for every NPC of the batch that has karma (a band: its pool).",
        ),
        Option(
            "band",
            flag=True,
            help="The batch is one band: a leader and followers sharing one karma pool.",
        ),
    ],
    sheet=sheet,
    parts=PARTS,
    batch_sheet=batch_sheet,
    check=check_pack,
    roster=[
        Column("name", priority=9, wrap=True),  # a long name wraps, the Egenskaper stay
        Column("mall_namn", priority=8),
        *[Column(e, _short(e), priority=6) for e in EGENSKAPER],
        Column("karma", _roster_karma, priority=7),
        Column(
            "bakgrunder",
            lambda c: ", ".join(f"{b['namn']} {b['tarningar']}" for b in c["bakgrunder"]),
            priority=4,
            wrap=True,
        ),
    ],
)
