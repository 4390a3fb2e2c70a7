#!/bin/sh
# Does every heuristic self-play game end? For each table: games finished within the move cap, and the longest
# finished game in moves (docs/bots.md). One `arbiter simulate --json` per table; nothing is written.
# Usage: sh docs/balance/progress.sh [GAMES=500] [MAX_MOVES=3000]
A=${ARBITER:-.venv/bin/arbiter}
G=${1:-500}
M=${2:-3000}
row() {
    label=$1; shift
    $A simulate --seed progress --workers "${WORKERS:-1}" --games "$G" --max-moves "$M" --json "$@" 2>/dev/null |
    python3 -c "import json, sys
for line in sys.stdin:
    r = json.loads(line)

    print(f\"| $label | {r['finished']} / {r['games']} | {r['moves']['p90'] if r.get('moves') else '-'} | {r['moves']['max'] if r.get('moves') else '-'} |\")"
}
echo "| table | finished within $M moves | p90 moves (finished) | longest finished |"
echo "|---|---|---|---|"
for ed in revised classic; do
    for p in 2 3 4 5 6 7 8; do row "El Royale $ed, $p seats" --game el-royale --players $p --options "{\"edition\": \"$ed\"}"; done
    row "El Royale $ed, 4 seats, teams A,B,A,B" --game el-royale --players 4 --teams A,B,A,B --options "{\"edition\": \"$ed\"}"
    row "El Royale $ed, 6 seats, teams A,B,C,A,B,C" --game el-royale --players 6 --teams A,B,C,A,B,C --options "{\"edition\": \"$ed\"}"
done
for p in 3 4; do row "Batallion, $p seats" --game batallion --players $p --options '{"variants": []}'; done
row "Batallion, 4 seats, guts+scarcity" --game batallion --players 4 --options '{"variants": ["guts", "scarcity"]}'
row "Batallion, 6 seats, five_six" --game batallion --players 6 --options '{"variants": ["five_six"]}'
row "Four Virtues, target 300" --game four-virtues --players 2
row "Four Virtues, target 100" --game four-virtues --players 2 --options '{"target": 100}'
row "Small Battle" --game small-battle --players 2
