#!/usr/bin/env bash
# Regenerate every example in this folder from the installed chargen (run from the repository root).
# Each line is the command a game master or script would type; the file beside it is its real output.
set -euo pipefail
cd "$(dirname "$0")"
c=${CHARGEN:-chargen}

# karma: a sheet, the same in Markdown, a roster, and JSON Lines through jq
$c karma pc --seed 1 > karma_pc_seed1.txt
$c karma pc --seed 1 -f markdown > karma_pc_seed1.md
$c karma npc -n 8 --seed 2 > karma_npc_roster.txt
$c karma npc -n 5 --seed 3 -f jsonl | jq -c '{name, template, karma, karma_typ, mening}' > karma_npc_jq.txt
$c karma npc --template rovare -n 6 --seed 4 -f jsonl | jq -r '[.name, .egenskaper.stridsvan, .bakgrunder[0].tarningar] | @tsv' > karma_rovare.tsv
$c karma pc --tables my-pack --seed 3 > karma_pc_my_pack.txt
$c karma npc --band -n 6 --seed 21 > karma_npc_band.txt

# matinee
$c matinee pc --seed 1 > matinee_pc_seed1.txt
$c matinee pc --seed 1 -f json > matinee_pc_seed1.json
$c matinee pc --seed 7 --spend-hjaltepoang -f markdown > matinee_pc_seed7_spend.md
$c matinee npc --template namnlos --megakorporation capitol -n 6 --seed 5 > matinee_npc_squad.txt
$c matinee npc --template nekromutant --seed 3 > matinee_npc_nekromutant.txt
$c matinee npc -n 40 --seed 9 -f jsonl | jq -r 'select(.template == "namngiven") | "\(.name) (\(.megakorporation_namn // "-"))"' > matinee_npc_namngivna_jq.txt
$c matinee pc --arketyp mystiker --seed 4 > matinee_pc_mystiker.txt
$c matinee npc -n 8 --seed 11 > matinee_npc_roster.txt

# spelsystemet
$c spelsystemet pc --seed 1 > spelsystemet_pc_seed1.txt
$c spelsystemet pc --seed 1 -f json > spelsystemet_pc_seed1.json
$c spelsystemet npc -n 8 --seed 2 > spelsystemet_npc_roster.txt
$c spelsystemet npc --template soldat --genre framtid --seed 4 -f markdown > spelsystemet_npc_soldat_framtid.md
$c spelsystemet pc --yrke munk --art alv --seed 3 > spelsystemet_pc_alvmunk.txt
$c spelsystemet pc --yrke riddare --seed 1 > spelsystemet_pc_riddare.txt

# lef
$c lef pc --seed 1 > lef_pc.txt
$c lef npc -n 8 --seed 2 > lef_npc_roster.txt
$c lef npc --template hedeheks --seed 3 -f markdown > lef_npc_hedeheks.md

# savage
$c savage pc --seed 1 > savage_pc_seed1.txt
$c savage pc --seed 1 -f json > savage_pc_seed1.json
$c savage npc -n 8 --seed 2 > savage_npc_roster.txt
$c savage npc --template katona -n 6 --squad --seed 3 > savage_npc_squad_katona.txt
$c savage npc --template troll --wild-card --seed 4 -f markdown > savage_npc_troll_wild_card.md

# savage for Foundry VTT (SWADE) and as stat blocks
$c savage pc --seed 1 -f foundry > savage_pc_seed1_foundry.json
rm -rf savage_squad_katona_foundry
$c savage npc --template katona -n 6 --squad --seed 3 -f foundry -o savage_squad_katona_foundry
$c savage npc --template katona -n 6 --squad --seed 3 -f statblock > savage_squad_katona_statblock.txt
$c savage npc --template troll --wild-card --seed 4 -f statblock --latin1 > savage_npc_troll_statblock_latin1.txt

# printable sheets and NPC cards (pip install 'chargen[pdf]' for PDF)
mkdir -p print
for s in matinee spelsystemet karma lef savage; do
  $c $s pc --seed 1 -f pdf -o print/${s}_pc_seed1.pdf
done
$c matinee npc --template namnlos -n 24 --seed 5 -f pdf -o print/matinee_namnlosa_24_cards.pdf
$c savage npc --template katona -n 6 --squad --seed 3 -f pdf -o print/savage_squad_card.pdf
$c lef pc --seed 1 -f html -o print/lef_pc_seed1.html

# this round: the other Foundry targets, a constraint, a reroll, exact odds
$c matinee pc --seed 1 -f foundry > matinee_pc_seed1_foundry.json
$c spelsystemet pc --seed 1 -f foundry > spelsystemet_pc_seed1_foundry.json
$c karma npc -n 4 --seed 5 --where '"munk" in bakgrunder' > karma_npc_munkar.txt
$c matinee pc --seed 1 --reroll beskrivningsord > matinee_pc_seed1_reroll.txt
$c roll 4d6kh3 --odds > roll_4d6kh3_odds.txt
