"""LEF tier 1: the evner and their ekspertiser, transcribed from the rule document.

The built-in `tables/lef/evner.toml` and `ekspertiser.toml` are compared with a
transcription of seeds/003 ("Regler": talenter and kundskaber) kept in this file, and, where
the document itself is at hand (../shared/seeds in the workspace), with the document's own
text parsed block by block.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
TABLES = ROOT / "tables" / "lef"
DOCUMENT = ROOT.parent / "shared" / "seeds" / "003_29bc1571a8806ed9.txt"

# evne -> (gruppe, kampstil or modeffekt, printed forbedring line, ekspertise, header)
TRANSCRIPTION = {
    "Fysik": (
        "talent",
        "Står med begge ben solidt placeret i jorden for at udmatte modstanderen.",
        "stjerne, liv, helbred, grej",
        "Vital",
        "HELBREDLOFT +2 | AUTO",
    ),
    "Karisma": (
        "talent",
        "Udviser overmod og kækhed for at forvirre modstanderen.",
        "stjerne, kraft, psyke, helbred",
        "Mental",
        "KRAFTLOFT +2 | AUTO",
    ),
    "Sanse": (
        "talent",
        "Holder skarpt øje med fjenden for at undvige modstanderens udfald.",
        "stjerne, psyke, liv, udbytte",
        "Præcision",
        "HELBRED +1 | KRAFT",
    ),
    "Sind": (
        "talent",
        "Aflæser fjendens bevægelser for at gennemskue modstanderens strategi.",
        "stjerne, kraft, liv, psyke",
        "Hærdet",
        "PSYKELOFT +2 | AUTO",
    ),
    "Snilde": (
        "talent",
        "Flytter sig let på tå for at udmanøvrere modstanderen.",
        "stjerne, udbytte, helbred, grej",
        "Bæreevne",
        "UDBYTTELOFT +2 | AUTO",
    ),
    "Styrke": (
        "talent",
        "Tonser mod fjenden for at slå gennem modstanderens parader.",
        "stjerne, udbytte, liv, grej",
        "Slagkraftig",
        "PRYGL 2 STJERNER | AUTO",
    ),
    "Bioalkymi": (
        "kundskab",
        "Afværge giftskade",
        "stjerne, stjerne, helbred, sjæl",
        "Biomanipulation",
        "LAV FARMAKA OM | UDBYTTE",
    ),
    "Feltkunst": (
        "kundskab",
        "Afværge livskade",
        "stjerne, stjerne, grej, sjæl",
        "Overlevelse",
        "LIV +1 | HELBRED",
    ),
    "Kultur": (
        "kundskab",
        "Afværge kraftskade",
        "stjerne, stjerne, kraft, sjæl",
        "Alsidig",
        "TO STJERNER | AUTO",
    ),
    "Mytologi": (
        "kundskab",
        "Afværge psykeskade",
        "stjerne, stjerne, psyke, sjæl",
        "Stigmata",
        "TO STJERNER FOKUS LIV | AUTO",
    ),
    "Okkultisme": (
        "kundskab",
        "Afværge helbredskade",
        "stjerne, stjerne, liv, sjæl",
        "Ritual",
        "HELBRED +1 | PSYKE",
    ),
    "Teknologi": (
        "kundskab",
        "Afværge brudskade",
        "stjerne, stjerne, udbytte, sjæl",
        "Kreativ",
        "FREMSTIL GREJ | UDBYTTE",
    ),
}


# The document's plain typos, corrected in the tables for the reader: (printed, in the
# tables). Everything else is compared with the document word for word.
CORRECTIONS = (
    ("oldsprog, magii og", "oldsprog, magi og"),
    ("balanceeven.", "balanceevne."),
    ("udmanøvrere modstanderen", "udmanøvrere modstanderen."),
    ("Matematiske indsigt", "Matematisk indsigt"),
    ("håndtering af maskiner", "håndtering af maskiner."),
    ("om magii kan karakteren dløse fokus", "om magi kan karakteren udløse fokus"),
    ("de to stjerne nedenunder", "de to stjerner nedenunder"),
    ("Den mentale karaktere", "Den mentale karakter"),
    (
        "kan ikke opnår mere liv end livloftet tillader",
        "kan ikke opnå mere liv end livloftet tillader.",
    ),
    ("mere helbred en helbredloftet", "mere helbred end helbredsloftet"),
    ("fremstille grej varemagasinet", "fremstille grej fra varemagasinet"),
)


def _corrected(text: str, used: set[int]) -> str:
    for n, (printed, fixed) in enumerate(CORRECTIONS):
        if printed in text:
            text = text.replace(printed, fixed)
            used.add(n)
    return text


def _load(name: str) -> dict:
    with open(TABLES / f"{name}.toml", "rb") as fh:
        return tomllib.load(fh)


def _by_id(name: str) -> dict:
    return {e["id"]: e for e in _load(name)["entries"]}


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


EVNER = _load("evner")["entries"]
EKSPERTISER = _by_id("ekspertiser")
FORBEDRINGER = _by_id("forbedringer")


def _forbedring_line(evne: dict) -> str:
    return ", ".join(FORBEDRINGER[f]["name"] for f in evne["forbedringer"])


def test_regler_six_talenter_and_six_kundskaber_in_printed_order():
    assert [e["name"] for e in EVNER] == list(TRANSCRIPTION)
    groups = [e["gruppe"] for e in EVNER]
    assert groups == ["talent"] * 6 + ["kundskab"] * 6


@pytest.mark.parametrize("evne", EVNER, ids=lambda e: e["id"])
def test_regler_evne_matches_transcription(evne):
    gruppe, stil, line, ekspertise, header = TRANSCRIPTION[evne["name"]]
    assert evne["gruppe"] == gruppe
    if gruppe == "talent":
        assert evne["kampstil"] == stil and "modeffekt" not in evne
    else:
        assert evne["modeffekt"] == stil and "kampstil" not in evne
    assert len(evne["forbedringer"]) == 4
    assert _forbedring_line(evne) == line
    eks = EKSPERTISER[evne["ekspertise"]]
    assert eks["name"] == ekspertise
    assert eks.get("trykt_overskrift", eks["overskrift"]) == header
    assert evne["source"].startswith("003")


def test_regler_every_evne_ekspertise_is_used_once():
    used = [e["ekspertise"] for e in EVNER]
    assert len(set(used)) == 12


def _document_blocks(text: str) -> dict[str, dict]:
    """Parse each evne block of the document: name, description, stil, forbedringer,
    then the ekspertise's name, header line and text (up to the next blank line)."""
    lines = text.splitlines()
    blocks = {}
    for i, line in enumerate(lines):
        if line.strip() not in TRANSCRIPTION:
            continue
        name = line.strip()
        desc, stil, forb = lines[i + 1], lines[i + 2], lines[i + 3]
        assert stil.startswith(("Kampstil: ", "Modeffekt: ")), (name, stil)
        assert forb.startswith("Forbedring: "), (name, forb)
        j = i + 4
        while not lines[j].strip():
            j += 1
        eks_name, header = lines[j].strip(), lines[j + 1].strip()
        body = []
        k = j + 2
        while k < len(lines) and lines[k].strip() and not lines[k].startswith("Rettet af"):
            body.append(lines[k])
            k += 1
        blocks[name] = {
            "description": desc.strip(),
            "stil": stil.split(": ", 1)[1].strip(),
            "forbedringer": forb.split(": ", 1)[1].strip(),
            "eks_name": eks_name,
            "header": header,
            "eks_text": _squash(" ".join(body)),
        }
    return blocks


@pytest.mark.skipif(not DOCUMENT.exists(), reason="the rule document is not in this workspace")
def test_regler_tables_match_the_document_text():
    blocks = _document_blocks(DOCUMENT.read_text(encoding="utf-8"))
    assert set(blocks) == set(TRANSCRIPTION)
    used: set[int] = set()
    for evne in EVNER:
        block = blocks[evne["name"]]
        assert evne["description"] == _corrected(block["description"], used)
        assert evne.get("kampstil", evne.get("modeffekt")) == _corrected(block["stil"], used)
        assert _forbedring_line(evne) == block["forbedringer"]
        eks = EKSPERTISER[evne["ekspertise"]]
        assert eks["name"] == block["eks_name"]
        assert eks.get("trykt_overskrift", eks["overskrift"]) == block["header"]
        assert eks["description"] == _corrected(block["eks_text"], used)
    # every correction mends a typo the document really prints
    assert used == set(range(len(CORRECTIONS)))


def test_regler_corrected_typos_are_gone_from_every_table():
    text = " ".join(p.read_text(encoding="utf-8") for p in TABLES.glob("*.toml"))
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    for word in ("magii", "dløse", "stjerne nedenunder", "karaktere", "helbredloftet"):
        assert not re.search(rf"\b{word}\b", body), word


@pytest.mark.skipif(not DOCUMENT.exists(), reason="the rule document is not in this workspace")
def test_regler_stjerne_tracks_and_fokus_bonus_match_the_document():
    text = _squash(DOCUMENT.read_text(encoding="utf-8"))
    spor = [e["name"].lower() for e in _load("stjernespor")["entries"]]
    assert "placeres valgfrit i " + ", ".join(spor[:-1]) + " eller " + spor[-1] in text
    bonus = _load("regler")["fokus_bonus"]
    assert f"får karakteren +{bonus} til sit evnerul" in text


def test_regler_transcription_matches_the_document_quotes():
    # The quoted ekspertiser carry the document citation; the authored ones say so.
    for eks in EKSPERTISER.values():
        assert eks["source"].startswith(("003", "public", "authored")), eks["id"]
    quoted = {e["ekspertise"] for e in EVNER}
    assert {k for k, e in EKSPERTISER.items() if e["source"].startswith("003")} == quoted
