#!/bin/sh
# Regenerates docs/balance/*.html: every game's balance report from self-play (records and printed tables in
# $OUT; a run whose archive is already there is not played again: same seed, same games; delete $OUT to redo).
# Usage: sh docs/balance/regenerate.sh [OUT=/tmp/arbiter-balance] [GAMES=1000]
set -e
A=${ARBITER:-.venv/bin/arbiter}
OUT=${1:-/tmp/arbiter-balance}
G=${2:-1000}
W=${WORKERS:-2}
sim() { name=$1; shift; [ -s "$OUT/$name.jsonl" ] && return 0; $A simulate --seed balance --workers "$W" --out "$OUT/$name.jsonl" "$@" > /dev/null; }

sim er-2p-revised   --game el-royale --players 2 --games "$G" --options '{"edition": "revised"}'
sim er-4p-revised   --game el-royale --players 4 --games "$G" --options '{"edition": "revised"}'
sim er-4p-classic   --game el-royale --players 4 --games "$G" --options '{"edition": "classic"}'
sim er-6p-revised   --game el-royale --players 6 --games "$G" --options '{"edition": "revised"}'
sim er-6p-classic   --game el-royale --players 6 --games "$G" --options '{"edition": "classic"}'
sim er-4p-mixed     --game el-royale --players 4 --games "$G" --bots heuristic,random --options '{"edition": "revised", "battle_limit": 200}'
# uniform random play, capped at 3000 moves: which edition ends on its own more often?
sim er-4p-random-revised --game el-royale --players 4 --games $((G / 5)) --bots random --options '{"edition": "revised"}'
sim er-4p-random-classic --game el-royale --players 4 --games $((G / 5)) --bots random --options '{"edition": "classic"}'
$A report "$OUT"/er-*.jsonl --html docs/balance/el-royale.html --command "sh docs/balance/regenerate.sh $OUT $G" > "$OUT/el-royale.txt"

sim ba-3p-base      --game batallion --players 3 --games "$G" --options '{"variants": []}'
sim ba-4p-base      --game batallion --players 4 --games "$G" --options '{"variants": []}'
sim ba-4p-scarcity  --game batallion --players 4 --games "$G" --options '{"variants": ["scarcity"]}'
sim ba-4p-guts-scarcity --game batallion --players 4 --games "$G" --options '{"variants": ["guts", "scarcity"]}'
sim ba-4p-jokers-blind --game batallion --players 4 --games "$G" --options '{"variants": ["jokers", "blind"]}'
sim ba-6p-five-six  --game batallion --players 6 --games "$G" --options '{"variants": ["five_six"]}'
sim ba-4p-mixed     --game batallion --players 4 --games "$G" --bots heuristic,random --options '{"variants": []}'
$A report "$OUT"/ba-*.jsonl --html docs/balance/batallion.html --command "sh docs/balance/regenerate.sh $OUT $G" > "$OUT/batallion.txt"

sim fv-300          --game four-virtues --players 2 --games "$G"
sim fv-100          --game four-virtues --players 2 --games "$G" --options '{"target": 100}'
sim fv-mixed        --game four-virtues --players 2 --games "$G" --bots heuristic,random
$A report "$OUT"/fv-*.jsonl --html docs/balance/four-virtues.html --command "sh docs/balance/regenerate.sh $OUT $G" > "$OUT/four-virtues.txt"

sim sb-heuristic    --game small-battle --players 2 --games "$G"
sim sb-random       --game small-battle --players 2 --games "$G" --bots random
sim sb-mixed        --game small-battle --players 2 --games "$G" --bots heuristic,random
$A report "$OUT"/sb-*.jsonl --html docs/balance/small-battle.html --command "sh docs/balance/regenerate.sh $OUT $G" > "$OUT/small-battle.txt"
