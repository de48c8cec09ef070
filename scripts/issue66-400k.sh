#!/usr/bin/env bash
# Issue 66's goals on the 400,000-game network, end to end, each step resumable: run it again after any stop
# (Ctrl-C, a killed session, a new machine with DIR copied over) and it goes on where it stopped — a learning
# run or a tuning run from its database, a comparison from its --db; a step whose output exists is skipped.
#
#   bash scripts/issue66-400k.sh DIR [STEP …]
#
# DIR holds restarts.sqlite (the learning run of configs/learn-ntuple-restarts.json, run 1); everything is
# written there. STEPs (default: all, in this order; each compare adds the players found so far):
#   network   train to 400,000 games (learn resume), export net-400000.bin and the hand-set player files
#   baseline  plain depth 2, depth 1 + the rule, the hand-set deep point and nneonneo@d3 on 300 pairs
#   screened  budget-network-screened (≈ 1,250 games), then the compare
#   model     budget-network (2,500 games: the model, raced, confirmed), then the compare
#   plain     the model with no race and no second set (its 3 finalists on 150 held-out seeds each): the model
#             run's generations copied (tune --fitness-from model.sqlite), only the validation played
#   3ply      budget-network-3ply, plain and screened (over depth 1-2: the depth-3 judge), then the compare
#   front     front-network-deep at 4 and at 16 games a candidate (its strongest point within 1,500), then the compare
#   1ms       budget-network-1ms, then the compare (last: its games are the dearest, ~15 s each)
#   timing    every player's ms a move side by side: all of them on 24 new seeds (9,400,000+) in one run, every
#             game played fresh (the 300 pairs' games were stored over many sessions, each under its own load)
#   screen    the decision screen against the 300 pairs' means, over every network player above (the issue's
#             part 4 on this network: Spearman ≥ 0.8 over ≥ 8 settings?), 8 own games each from seed 9,200,000
#   d2cost    the goal at plain depth 2's cost decided on 1,000 new pairs (9,500,000+): depth 3 at cprob 0.1, the
#             best measured within 465 positions on the 300 pairs (chosen there, so judged on other seeds), against
#             plain depth 2; 1,000 pairs tell +5 % at p < 0.05 where 300 cannot (the difference's sd is ~228,000)
# A model run that hands back its start also exports its race's winner (X-winner.json), compared beside it.
# Each step prints its wall time; `tune2048 show 1 --db DIR/<step>.sqlite` tells a run's games and finalists.
# ISSUE66_PAIRS=2 runs the compares on 2 pairs: a smoke run (`baseline` took 4 min so, with the player files made);
# ISSUE66_TIMING and ISSUE66_SCREEN_GAMES set the timing step's seeds (24) and the screen's own games a setting (8).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
T=(node "$here/dist/cli/main.js")
[ $# -ge 1 ] || { echo "usage: bash scripts/issue66-400k.sh DIR [network|baseline|screened|model|plain|3ply|front|1ms|timing|screen|d2cost …]" >&2; exit 2; }
dir=$1; shift
[ -f "$dir/restarts.sqlite" ] || { echo "issue66-400k: $dir/restarts.sqlite not found (the learning run: tune2048 learn start -c learn-ntuple-restarts --db $dir/restarts.sqlite)" >&2; exit 2; }
dir=$(cd "$dir" && pwd); cd "$dir"
ALL=(network baseline screened model plain 3ply front 1ms timing screen d2cost)
steps=("$@"); [ ${#steps[@]} -gt 0 ] || steps=("${ALL[@]}")
for step in "${steps[@]}"; do
  [[ " ${ALL[*]} " == *" $step "* ]] || { echo "issue66-400k: unknown step \"$step\" (${ALL[*]})" >&2; exit 2; }
done
NET=net-400000.bin
# The issue's 300 pairs (ISSUE66_PAIRS=2 for a smoke run of the compare steps).
SEEDS=(-n "${ISSUE66_PAIRS:-300}" -s 9100000)

# The first run's status in a tuning database ("none" when there is none yet).
status() {
  [ -f "$1" ] || { echo none; return; }
  "${T[@]}" runs --db "$1" --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const r=JSON.parse(s);console.log(r.length?r[0].status:"none")})'
}
# A tuning run to its end: started (with any further tune options), or resumed where it stopped.
tune() {
  local db=$1 config=$2; shift 2
  case $(status "$db") in
    finished) ;;
    none) "${T[@]}" tune -c "$config" --network "$NET" --db "$db" --workers 2 "$@" ;;
    *) "${T[@]}" resume 1 --db "$db" --workers 2 ;;
  esac
}
# A run's best as a network player file (a front's strongest point within 1,500 positions with --max-cost 1500).
export_best() {
  local db=$1 out=$2; shift 2
  [ -f "$out" ] || "${T[@]}" export 1 --db "$db" --out "$out" "$@"
}
# A run that handed back its start: its race's winner as well (export --candidate), to be measured on the 300
# pairs beside what the run handed back (the second set's verdict rests on 150 games).
export_rival() {
  local db=$1 out=$2 rival
  [ -f "$out" ] && return
  rival=$("${T[@]}" show 1 --db "$db" --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=JSON.parse(s).start;if(v&&v.best.candidate===v.start.candidate&&v.rival)console.log(v.rival.candidate)})')
  [ -z "$rival" ] || "${T[@]}" export 1 --db "$db" --candidate "$rival" --out "$out"
}
# A config of the repository with some fields changed (node: JSON in, JSON out), written to DIR.
variant() {
  local from=$1 to=$2 edit=$3
  node -e 'const fs=require("fs");const c=JSON.parse(fs.readFileSync(process.argv[1],"utf8"));(new Function("c",process.argv[3]))(c);fs.writeFileSync(process.argv[2],JSON.stringify(c,null,2)+"\n")' "$here/configs/$from.json" "$to" "$edit"
}
# The hand-set players and every player found so far.
players() {
  local list=(network:$NET@d2 network:rule400000.json@d1 network:d2r2-400000.json@d2 nneonneo@d3)
  for f in screened.json model.json plain.json 3ply.json 3ply-screened.json 1ms.json front.json front16.json; do
    [ -f "$f" ] && list+=("network:$f")
    [ -f "${f%.json}-winner.json" ] && list+=("network:${f%.json}-winner.json")
  done
  echo "${list[@]}"
}
# Every player found so far against the hand-set ones, on the issue's 300 pairs (only missing games are played).
compare() {
  "${T[@]}" compare $(players) "${SEEDS[@]}" --workers 2 --db cmp400000.sqlite --csv cmp400000.csv --force
}

for step in "${steps[@]}"; do
  started=$(date +%s)
  echo "== $step ($(date -u +%H:%M))" >&2
  case $step in
    network)
      "${T[@]}" learn resume 1 --db restarts.sqlite
      [ -f "$NET" ] || "${T[@]}" learn export 1 --at 400000 --out "$NET" --db restarts.sqlite
      [ -f rule400000.json ] || "${T[@]}" learn player-file "$NET" -o rule400000.json --deeper-at-empty 4 --shallower-at-empty 14
      [ -f d2r2-400000.json ] || "${T[@]}" learn player-file "$NET" -o d2r2-400000.json --deeper-at-empty 2 --shallower-at-empty 10 --cprob 0.0076
      ;;
    baseline) compare ;;
    screened) tune screened.sqlite budget-network-screened; export_best screened.sqlite screened.json; export_rival screened.sqlite screened-winner.json; compare ;;
    model) tune model.sqlite budget-network; export_best model.sqlite model.json; export_rival model.sqlite model-winner.json; compare ;;
    plain)
      [ -f plain-config.json ] || variant budget-network plain-config.json 'c.name="budget-network-plain"; c.validation={finalists:3,games:150}'
      tune plain.sqlite plain-config.json --fitness-from model.sqlite; export_best plain.sqlite plain.json; compare ;;
    3ply)
      tune 3ply.sqlite budget-network-3ply; export_best 3ply.sqlite 3ply.json; export_rival 3ply.sqlite 3ply-winner.json
      [ -f 3ply-screened-config.json ] || variant budget-network-3ply 3ply-screened-config.json 'c.name="budget-network-3ply-screened"; c.fitness.budget=600; c.fitness.screen={depth:3,every:20}; c.space.params.depth.max=2'
      tune 3ply-screened.sqlite 3ply-screened-config.json; export_best 3ply-screened.sqlite 3ply-screened.json; export_rival 3ply-screened.sqlite 3ply-screened-winner.json; compare ;;
    1ms) tune 1ms.sqlite budget-network-1ms; export_best 1ms.sqlite 1ms.json; export_rival 1ms.sqlite 1ms-winner.json; compare ;;
    front)
      tune front.sqlite front-network-deep; export_best front.sqlite front.json --max-cost 1500
      [ -f front16-config.json ] || variant front-network-deep front16-config.json 'c.name="front-network-deep-16"; c.fitness.games=16'
      tune front16.sqlite front16-config.json; export_best front16.sqlite front16.json --max-cost 1500; compare ;;
    timing)
      if [ ! -f timing.txt ]; then
        "${T[@]}" compare $(players) -n "${ISSUE66_TIMING:-24}" -s 9400000 --workers 2 --csv timing.csv --force > timing.txt.part
        mv timing.txt.part timing.txt
      fi ;;
    screen)
      if [ ! -f screen.txt ]; then
        # The 300 pairs as stored (nothing played: every game is there), the network players only.
        "${T[@]}" compare $(players | tr ' ' '\n' | grep '^network:' | tr '\n' ' ') "${SEEDS[@]}" --workers 2 --db cmp400000.sqlite --json > screen-cmp.json
        (cd "$here" && npx tsx scripts/decision-screen.ts --comparison "$dir/screen-cmp.json" --network "$dir/$NET" --games "${ISSUE66_SCREEN_GAMES:-8}" --every 20) > screen.txt.part
        mv screen.txt.part screen.txt
      fi ;;
    d2cost)
      if [ ! -f d2cost.txt ]; then
        "${T[@]}" compare network:$NET@d2 network:$NET@d3@c0.1 -n 1000 -s 9500000 --workers 2 --db d2cost.sqlite --csv d2cost.csv > d2cost.txt.part
        mv d2cost.txt.part d2cost.txt
      fi ;;
  esac
  echo "== $step done in $(( ($(date +%s) - started) / 60 )) min" >&2
done
