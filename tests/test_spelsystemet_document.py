"""Spelsystemet (document 001): the weapon and armour tables, transcribed and checked.

`DOCUMENT` is the document's own text from "Inget vapen kan göra mindre än 1T2" to the
end of the helmet notes ("Kroppspansar", "Vapenlistor"), verbatim. The tests parse its
rows and compare every built-in table row with them: name as spelled, damage code,
type, L, Eh, Sv, SP H/K/S, the Enhands/Tvåhands grouping and each quoted note.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from chargen.systems import load

SEED = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "001_66db17633cb0378a.txt"

DOCUMENT = """\
Inget vapen kan göra mindre än 1T2 i skada, oavsett hur svag användaren är. De vapen som har ett * efter skadekoden gör som minst 1T6, och de vilka är markerade med * gör som mest 1T10.
Den första tabellen tar upp närstridsvapen, den andra avståndsvapen. "L" betyder relativ längd. "Eh" är Eldhastighet, ett + efter siffran betyder att vapnet kan skjuta automateld. "Sv" står för Skottvidd.

Vapen Skada Typ L
Obeväpnad Grund-3* Kross 0
Enhands:
Dolk Grund-2 Stick 0
Kortsvärd Grund-1* Stick 1
Värja Grund-1 Stick 1
Svärd Grund Hugg 1
Vedyxa Grund Hugg 1
Stridsyxa Grund+1 Hugg 1
Knogjärn Grund-2* Kross 0
Träklubba Grund-2 Kross 1
Stridsklubba Grund-1 Kross 1
Stridsgissel Grund-1 Kross 1
Korpnäbb Grund Stick 1
Spjut Grund-1* Stick 2
Lans (Special) Stick 3
Sköld Grund-1 Kross 0
Tvåhands:
Långspjut Grund* Stick 3
Slagsvärd Grund+1 Hugg 2
Storyxa Grund+2 Hugg 2
Stav Grund-1 Kross 2
Stridsslägga Grund Kross 2

Anmärkningar:
Vissa svärd har vässade spetsar och skulle i princip kunna användas som stickvapen. En sådan manöver ger en modifikation på -5.
Värdet för knogjärn gäller även cesti och andra bepansrade handskar.
En "stridsklubba" kan vara en hjälmkrossare, morgonstjärna, stridshammare eller annat dylikt vapen.
Ett stridsgissel (och andra flexibla vapen ni kan tänkas hitta på) ignorerar motståndarens sköld, om sådan finnes. När en attack med ett sådant vapen fumlas betyder det att användaren träffat sig själv.
En lans som används i en kavellerichock gör hästens grundskada. Den räknas som ett långspjut om den används i normal närstrid.
Om du dänger till någon med din sköld kan du inte använda den till att parera under den stridsronden (inga extra SP, alltså).
De stora (tvåhands-) svärden, yxorna och klubborna (inte stavar eller spjut) behöver man ha minst STO och STY 9 för att kunna använda.
Den som vill komplicera saker i realismens namn kan räkna stavar som svärd när modifikationer delas ut.

Vapen Skada Typ Eh Sv
Sten G-3 Kross 2 STY
Kastkniv G-2* Stick 2 STY
Kastyxa G Hugg 1 STY
Kastspjut G-1* Stick 1 STY
Slunga 1T6 Kross 1 50
Stavslunga 1T8 Kross 1/2 60
Pilbåge, L 1T4 Stick 1 60
Pilbåge, M 1T6 Stick 1 60
Pilbåge, T 1T8 Stick 1 60
S.båge, L 1T6 Stick 1 60
S.båge, M 1T8 Stick 1 60
S.båge, T 1T10 Stick 1 60
Långbåge, L 1T6 Stick 1 80
Långbåge, M 1T8 Stick 1 80
Långbåge, T 1T10 Stick 1 80
Armborst, L 1T10 Stick 1/2 40
Armborst, M 2T6 Stick 1/3 60
Armborst, T 2T8 Stick 1/4 80
Flintlåspistol 1T8 Kross 1/4 10
Pistol, L 1T8 Kross 3 15
Pistol, M 1T10 Kross 2 20
Pistol, T 2T6 Kross 1 15
Musköt 2T6 Kross 1/4 60
Gevär 2T8 Kross 1/2 110
Karbin 2T6 Kross 2 90
Hagelgevär 4/2/1T6 Kross 2 20
Automatkarbin 2T6 Kross 2+ 90
K-pist 1T10 Kross 2+ 60
Laserpistol 2T8 Stick 1 30
Laserkarbin 2T10 Stick 1 90
Lasergevär 3T8 Stick 1 120

Anmärkningar:
Värdena för "kastkniv" kan också användas till andra små, välbalanserade vapen, som exempelvis kastpilar.
Många av de ovanstående vapnen finns i lätta, medeltunga och tunga varianter; det krävs fortfarande bara en färdighet för dessa.
För att kunna spänna en pilbåge, sammansatt båge eller långbåge krävs en minimal STY på 5, 9 respektive 13 för de olika tyngderna. Den som är intresserad av att extrapolera andra bågar kan hitta lämpliga värden genom att titta på grundskadetabellen med STYx2 istället för STO+STY, och sedan minska ett steg för de enkla pilbågarna.
Att spänna ett lätt armborst tar STY 9 -- de större spänns med olika redskap, vilket inte kräver någon märkvärdig styrka.
De moderna vapnen går mycket väl att dela in på ett mer detaljerat och 'realistiskt' sätt, men det sparar vi till vapenfetischist-supplementet (vilket jag aldrig tänker skriva).
En lätt pistol är en revolver eller automatpistol av kaliber .32 eller 7.65mm, en medeltung .38, .41 eller 9mm och en tung .44 eller .45.
Geväret är av exempelvis .30-06 eller .303 kaliber och kräver en mantelrörelse mellan varje avfyrning; karbinen är en halvautomatisk modell, kaliber .30.
Hagelgeväret är 12-kalibrigt och dubbelpipigt. De två skotten kan avlossas simultant eller ett och ett. Vapnet gör den först angivna skadan på kort avstånd, den andra på normalt och den tredje på långt skotthåll.
Automatkarbinen motsvarar ungefär en AK-47, k-pisten en Uzi.
Särskilda typer av ammunition kan användas i skjutvapen: dum-dum kulor fördubblar den del av skadan som finns kvar efter eventuellt pansar har penetrerats, mot pansarbrytande kulor räknas allt pansar som halva sitt normala värde.
Kikarsikten minskar avståndet för beräkning av träffmodifikation (enligt förstärkningsgraden, det vill säga att om du har ett x4 sikte räknas alla avstånd som en fjärdedel av sina egentliga värden), men påverkar inte minskningen av skada.
Skador från ett laservapen blöder aldrig.

Kroppspansar

Den allra viktigaste egenskapen hos pansar är hur många skyddspoäng (SP) det har. Varje SP stoppar ett poäng skada. Olika pansartyper har varierande effektivitet mot olika vapentyper; detta reflekteras i reglerna med tre olika SP-värden, ett för varje typ av skada (Hugg, Kross och Stick).
En tabell ges för rustningsmaterial (till kropp och lemmar), en annan för hjälmar (till huvudet). Det är fullt möjligt, ja till och med ganska vanligt, att bära olika typer av pansar på olika kroppsdelar.

Rustning SP: H K S
Tyg 1 0 0
Tjockt Tyg 2 1 1
Kvilt 2 2 1
Stoppning 2 3 1
Mjukt Läder 1 1 1
Hårt Läder 2 1 2
Cuir-bouilli 3 1 3
Nitläder 2 2 1
Ringpansar 3 2 2
Besant 3 2 3
Fjäll 4 2 4
Brigant 5 3 4
Ringbrynja 4 1 2
Förstärkt ringbrynja 5 2 3
Lamell 5 1 4
Laminat 5 2 5
Metall 6 3 6
Kevlar 3 6 2
Tung Kevlar 4 8 3
Kroppspansar 8 10 6
Tungt kroppspansar 10 12 8
Reflek 1 1 1(12)
Stridspansar 12 12 12

Anmärkningar:
Alla typer upp till och med mjukt läder kan bäras under annat pansar (även under hjälmar); de olika SP-värdena summeras då för de relevanta kroppsdelarna.
Kvilt är flera lager av tyg som sytts samman.
Stoppning är ett ett tjockt (4-8 cm) lager filt.
Läder som kokats i olja, formats till pansarstycken och sedan stelnat kallas cuir-boilli.
Nitläder, ringpansar, besant och fjäll är olika typer av metallstycken fästa på ett underlag av tyg och/eller läder.
Brigantpansar görs genom att nita fast metallfjäll mellan två lager av läder.
En förstärkt ringbrynja har läderremsor trädda genom länkarna.
Lamell är metallstycken (av varierande form och storlek) som snörats ihop.
Laminat består av överlappande, artikulerade metallremsor.
"Metall" är hela plåtstycken, formade efter bärarens kropp.
En kevlar-väst kan döljas under en jacka; kevlar kan också specialtillverkas för att se ut (ungefär) som vanliga kläder. Tung kevlar går inte att dölja.
Kroppspansar är kevlar, förstärkt med något metalliskt eller keramiskt material på strategiska punkter.
Reflek har 12 SP enbart mot laserstrålar, 1 mot alla andra typer av vapen.
Stridspansar är en helrustning (inklusive hjälm) i något futuristiskt material. Det finns även i en förseglad variant (med internt luftförråd), för användning i rymden eller andra fientliga miljöer. Om en intern kraftälla och servomotorer läggs till får man en Kraftrustning, som fördubblar användarens effektiva STY och inte orsakar några extra trötthetsslag (vanligt stridspansar ger ju 2 sådana, för tung rustning + hjälm).

Hjälm SP: H K S
Läderhuva 1 1 1
Läderhätta 2 1 2
Nitläderhuva 2 2 1
Komposithjälm 3 2 2
Polishjälm 3 3 3
Ringbrynjehuva 4 1 2
Öppen Hjälm 4 2 3
Arméhjälm 4 2 2
Sluten Hjälm 5 2 4
Tunnhjälm 6 3 6

Anmärkningar:
En läderhätta är gjord av tjockare skinn än en huva.
Komposithjälmen är härdat läder med några metallbitar på.
Polishjälmar är gjorda av något icke-metalliskt material och har ett genomskinligt visir.
En öppen hjälm är av metall, med skydd för nacken och kinderna. Arméhjälmen täcker ofta inte lika stor del av huvudet, men är av bättre material.
Den slutna hjälmen har även skydd för ögon och näsa.
En tunnhjälm täcker hela huvudet, bortsett från ögonslitsarna. Den kan ha ett visir -- om ett sådant lämnas öppet minskas SP mot Stick till 3.
"""

TABLES = load("spelsystemet").tables()


# The sheet spells the document's weights out ("Pilbåge, L" is "Lätt pilbåge", "S.båge, M"
# "Medeltung sammansatt båge", "Armborst, T" "Tungt armborst"); `printed` gives the name
# the document prints.
_WEIGHTS = {"Lätt": "L", "Medeltung": "M", "Medeltungt": "M", "Tung": "T", "Tungt": "T"}
_KINDS = {
    "pilbåge": "Pilbåge",
    "sammansatt båge": "S.båge",
    "långbåge": "Långbåge",
    "armborst": "Armborst",
    "pistol": "Pistol",
}


def printed(name: str) -> str:
    weight, _, kind = name.partition(" ")
    if weight in _WEIGHTS and kind in _KINDS:
        return f"{_KINDS[kind]}, {_WEIGHTS[weight]}"
    return name


def _block(header: str) -> list[str]:
    """The rows under a table header, up to its "Anmärkningar:" line."""
    lines = DOCUMENT.splitlines()
    start = lines.index(header) + 1
    stop = lines.index("Anmärkningar:", start)
    return [line for line in lines[start:stop] if line.strip()]


def melee_rows() -> list[tuple[str, str, str, str, str]]:
    """(name, Skada, Typ, L, grepp) for the first table; "Enhands:"/"Tvåhands:" group rows."""
    rows, grepp = [], ""
    for line in _block("Vapen Skada Typ L"):
        if line.endswith(":"):
            grepp = line[:-1]
            continue
        name, skada, typ, length = re.fullmatch(r"(.+?) (\S+) (\S+) (\S+)", line).groups()
        rows.append((name, skada, typ, length, grepp))
    return rows


def ranged_rows() -> list[tuple[str, str, str, str, str]]:
    """(name, Skada, Typ, Eh, Sv) for the second table."""
    return [
        re.fullmatch(r"(.+?) (\S+) (\S+) (\S+) (\S+)", line).groups()
        for line in _block("Vapen Skada Typ Eh Sv")
    ]


def armour_rows(header: str) -> list[tuple[str, str, str, str]]:
    """(name, H, K, S) as printed; S may be "1(12)"."""
    return [re.fullmatch(r"(.+?) (\S+) (\S+) (\S+)", line).groups() for line in _block(header)]


def _printed_s(entry: dict) -> str:
    s = str(entry["sp"]["s"])
    return f"{s}({entry['sp_laser']})" if "sp_laser" in entry else s


def test_the_excerpt_is_the_documents_own_text():
    if not SEED.exists():
        pytest.skip(f"{SEED} is not in this checkout")
    assert DOCUMENT in SEED.read_text(encoding="utf-8")


def test_the_document_prints_20_melee_31_ranged_23_armour_and_10_helmet_rows():
    # Guards the parsers below: a parser that found nothing would make the rest vacuous.
    assert (len(melee_rows()), len(ranged_rows())) == (20, 31)
    assert len(armour_rows("Rustning SP: H K S")) == 23
    assert len(armour_rows("Hjälm SP: H K S")) == 10


def test_vapenlistor_narstridsvapen_every_row_identical_in_order():
    entries = TABLES["narstridsvapen"].entries
    assert len(entries) == len(melee_rows())
    for entry, (name, skada, typ, length, grepp) in zip(entries, melee_rows(), strict=True):
        assert entry["name"] == name
        assert entry["skada"] == skada, name
        assert entry["typ"] == typ, name
        assert str(entry["langd"]) == length, name
        assert entry.get("grepp", "") == grepp, name


def test_vapenlistor_avstandsvapen_every_row_identical_in_order():
    entries = TABLES["avstandsvapen"].entries
    assert len(entries) == len(ranged_rows())
    for entry, (name, skada, typ, eh, sv) in zip(entries, ranged_rows(), strict=True):
        assert (printed(entry["name"]), entry["skada"], entry["typ"]) == (name, skada, typ)
        assert (entry["eldhastighet"], entry["skottvidd"]) == (eh, sv), name


@pytest.mark.parametrize(
    ("table", "header"), [("rustningar", "Rustning SP: H K S"), ("hjalmar", "Hjälm SP: H K S")]
)
def test_kroppspansar_every_row_identical_in_order(table, header):
    entries = TABLES[table].entries
    rows = armour_rows(header)
    assert len(entries) == len(rows)
    for entry, (name, h, k, s) in zip(entries, rows, strict=True):
        # as printed, but in Swedish capitals: the first word only ("Hårt läder", not the
        # document's "Hårt Läder")
        assert entry["name"] == name[0] + name[1:].lower()
        assert (str(entry["sp"]["h"]), str(entry["sp"]["k"]), _printed_s(entry)) == (h, k, s)


def test_reflek_has_12_sp_against_laser_only():
    # "Reflek har 12 SP enbart mot laserstrålar, 1 mot alla andra typer av vapen."
    reflek = TABLES["rustningar"].get("reflek")
    assert reflek["sp"] == {"h": 1, "k": 1, "s": 1} and reflek["sp_laser"] == 12
    assert [e["id"] for e in TABLES["rustningar"].entries if "sp_laser" in e] == ["reflek"]


@pytest.mark.parametrize("table", ["narstridsvapen", "avstandsvapen", "rustningar", "hjalmar"])
def test_every_quoted_note_is_the_documents_text(table):
    notes = [e["anmarkning"] for e in TABLES[table].entries if "anmarkning" in e]
    assert notes
    for note in notes:
        # the document's "--" is written as the Swedish dash "–", its "kavellerichock"
        # spelled right
        printed_note = note.replace(" – ", " -- ").replace("kavallerichock", "kavellerichock")
        assert printed_note in DOCUMENT, note


@pytest.mark.parametrize("table", ["narstridsvapen", "avstandsvapen", "rustningar", "hjalmar"])
def test_each_rows_description_shows_its_printed_columns(table):
    # `chargen tables show` prints the description: it must say what the row says.
    for entry in TABLES[table].entries:
        d = entry["description"]
        if table == "narstridsvapen":
            assert d.startswith(f"Skada {entry['skada']}, Typ {entry['typ']}, L {entry['langd']}")
        elif table == "avstandsvapen":
            assert d.startswith(
                f"Skada {entry['skada']}, Typ {entry['typ']}, "
                f"Eh {entry['eldhastighet']}, Sv {entry['skottvidd']}"
            )
        else:
            assert d == f"SP H {entry['sp']['h']}, K {entry['sp']['k']}, S {_printed_s(entry)}"


def test_bow_and_crossbow_strength_notes():
    # "För att kunna spänna en pilbåge, sammansatt båge eller långbåge krävs en minimal STY
    # på 5, 9 respektive 13 för de olika tyngderna." "Att spänna ett lätt armborst tar STY 9"
    assert "minimal STY på 5, 9 respektive 13" in DOCUMENT
    assert "lätt armborst tar STY 9" in DOCUMENT
    weights = {"L": 5, "M": 9, "T": 13}
    for entry in TABLES["avstandsvapen"].entries:
        kind, _, weight = printed(entry["name"]).partition(", ")
        if kind in ("Pilbåge", "S.båge", "Långbåge"):
            assert entry["min_sty"] == weights[weight], entry["name"]
        elif printed(entry["name"]) == "Armborst, L":
            assert entry["min_sty"] == 9
        else:
            assert "min_sty" not in entry, entry["name"]
        assert "min_sto" not in entry


def test_great_weapons_need_sto_and_sty_9_but_not_staves_or_spears():
    # "De stora (tvåhands-) svärden, yxorna och klubborna (inte stavar eller spjut) behöver
    # man ha minst STO och STY 9 för att kunna använda."
    assert "minst STO och STY 9" in DOCUMENT
    great = {"Slagsvärd", "Storyxa", "Stridsslägga"}
    for entry in TABLES["narstridsvapen"].entries:
        if entry["name"] in great:
            assert (entry["min_sto"], entry["min_sty"]) == (9, 9)
        else:
            assert "min_sto" not in entry and "min_sty" not in entry, entry["name"]


def test_only_types_up_to_soft_leather_go_under_other_armour():
    # "Alla typer upp till och med mjukt läder kan bäras under annat pansar"
    names = [e["name"] for e in TABLES["rustningar"].entries]
    upto = names[: names.index("Mjukt läder") + 1]
    assert [e["name"] for e in TABLES["rustningar"].entries if e.get("under")] == upto


def test_stridspansar_includes_the_helmet():
    # "Stridspansar är en helrustning (inklusive hjälm)"
    assert [e["id"] for e in TABLES["rustningar"].entries if e.get("med_hjalm")] == ["stridspansar"]


def test_the_lans_counts_as_a_langspjut_in_normal_melee():
    # "Den räknas som ett långspjut om den används i normal närstrid."
    lans = TABLES["narstridsvapen"].get("lans")
    assert lans["skada"] == "(Special)" and lans["som"] == "langspjut"
