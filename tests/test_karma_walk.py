"""karma --interactive asks what the document has the players decide (issue 25): the
Bakgrunder, the Egenskaper distribution, the Särdrag, the karma hand and the sentence
they agree on; a refused answer says why (three Bakgrunder when two is the limit, two
Särdrag that exclude each other) and is asked again."""

from __future__ import annotations

import json

from pty_walk import walk

EGENSKAPER = ["Stark", "Tålig", "Smidig", "Uppmärksam", "Övertygande", "Stridsvan"]


def test_karma_walk_asks_every_choice_and_says_why_an_answer_is_refused():
    run = walk(
        ["karma", "pc", "--interactive", "--seed", "4", "-f", "json"],
        answers=[
            ("Bakgrunder", "1,2,3"),
            ("Bakgrunder", "jagare, munk"),
            ("Behåll", "nej"),
            *[(rf"{name} \(", "3") for name in EGENSKAPER],
            ("Särdrag", "jattelik, liten_och_spenslig"),
            ("Särdrag", "jattelik, falkoga"),
            ("Karma", "7"),
            ("Last", "super som ett svin"),
            ("Dygd", "håller sitt ord"),
        ],
        env={"COLUMNS": "200", **__import__("os").environ},
    )
    assert run.code == 0, run.stderr
    assert "Välj 1 till 2, inte 3." in run.stderr
    assert "Egenskaperna? (ja/nej; tomt: ja)" in run.stderr  # the empty answer keeps them
    assert "”1,2,3” är inget av alternativen" not in run.stderr
    said = run.stderr.replace("\n", " ")
    pair = ("Jättelik, två huvuden längre än folk flest", "Liten och spenslig")
    assert any(f"{x} och {y} går inte att välja tillsammans" in said for x, y in (pair, pair[::-1]))
    [char] = json.loads(run.stdout)
    assert [b["id"] for b in char["bakgrunder"]] == ["jagare", "munk"]
    assert char["egenskaper"] == {
        "stark": 3,
        "talig": 3,
        "smidig": 3,
        "uppmarksam": 3,
        "overtygande": 3,
        "stridsvan": 3,
        "traffsaker": 6,  # the rest of the ten extra dice: no choice left
    }
    assert [s["id"] for s in char["sardrag"]] == ["jattelik", "falkoga"]
    assert char["karma"] == 7
    assert (char["last_id"], char["dygd_id"]) == ("super", "haller_sitt_ord")
    assert char["mening"].endswith("super som ett svin men han håller sitt ord")


def test_karma_walk_offers_no_virtue_that_contradicts_the_chosen_vice():
    run = walk(
        ["karma", "pc", "--interactive", "--seed", "4", "-f", "json"],
        answers=[("Last", "ljuger så fort det passar")],
        env={"COLUMNS": "200", **__import__("os").environ},
    )
    assert run.code == 0, run.stderr
    virtues = run.stderr.split("Dygd:")[1]
    assert "talar sanning även när det svider" not in virtues
    [char] = json.loads(run.stdout)
    assert char["last_id"] == "ljuger" and char["dygd_id"] != "talar_sanning"
