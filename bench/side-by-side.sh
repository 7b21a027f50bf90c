#!/usr/bin/env bash
# One rename run (the shared bench kit's scenario: grep, then read + edit of N files) by this CLI or
# by Gemini CLI, against the kit's scripted endpoint, in the same environment, so the two can be
# timed side by side. Gemini CLI is not a dependency: install it anywhere and point GEMINI_CLI at
# its bundle/gemini.js (measured with @google/gemini-cli 0.61.0).
#
# Usage, from the project root after the build:  bench/side-by-side.sh unattended|gemini [N]
# Each run has a fresh HOME. This CLI keeps its code cache and the day's price answer beside the
# code once the installation has run (dist/cli/cache/; remove it to time an installation's very
# first run). SIDE_BY_SIDE_CACHE=DIR keeps XDG_CACHE_HOME in DIR across runs (Gemini CLI keeps
# nothing there), as for an installation this user does not own.
# Prints: RUNNER n=N rc=.. ok=K/N wall_s=.. cpu_s=.. maxrss_mb=.. requests=..
set -u
runner=$1
n=${2:-100}
project=$(pwd)
kit=${BENCH_KIT:-$project/../shared/bench}
work=$(mktemp -d)
trap 'kill "$fake" 2>/dev/null; rm -rf "$work"' EXIT
node "$kit/make-scenario.mjs" "$work" "$n" >/dev/null
dialect=$kit/dialect-unattended.json
[[ $runner == gemini ]] && dialect=$project/bench/dialect-gemini-cli.json
FAKE_LLM_LOG=$work/requests.log node "$kit/fake-llm.mjs" "$work/script.json" 0 "$dialect" >"$work/port" 2>/dev/null &
fake=$!
for _ in $(seq 50); do [[ -s $work/port ]] && break; sleep 0.1; done
cd "$work/ws" && git init -q . && git add -A && git -c user.email=b@b -c user.name=b commit -qm init
export HOME=$work/home GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:$(cat "$work/port") GEMINI_API_KEY=fake
mkdir -p "$HOME/.gemini"
[[ -n ${SIDE_BY_SIDE_CACHE:-} ]] && export XDG_CACHE_HOME=$SIDE_BY_SIDE_CACHE
# Gemini CLI: key auth, no usage statistics, no telemetry, no folder-trust prompt.
echo '{"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false},"security":{"auth":{"selectedType":"gemini-api-key"},"folderTrust":{"enabled":false}}}' >"$HOME/.gemini/settings.json"
prompt="Rename every oldName function to newName."
if [[ $runner == gemini ]]; then
  cmd=(node "${GEMINI_CLI:?set GEMINI_CLI to the bundle/gemini.js of Gemini CLI}" -p "$prompt" --yolo --model gemini-2.5-flash)
else
  cmd=(node "$project/dist/cli/unattended.cjs" run --prompt "$prompt" --provider gemini --model gemini-2.5-flash --approval auto-approve --out "$work/out")
fi
/usr/bin/time -f "%e %M %U %S" -o "$work/time" timeout 300 "${cmd[@]}" >"$work/stdout" 2>"$work/stderr" </dev/null
rc=$?
ok=$(grep -l "function newName" "$work"/ws/src/*.ts 2>/dev/null | wc -l)
read -r wall rss user sys < <(tail -1 "$work/time")
echo "$runner n=$n rc=$rc ok=$ok/$n wall_s=$wall cpu_s=$(awk "BEGIN{print $user+$sys}") maxrss_mb=$((rss / 1024)) requests=$(wc -l <"$work/requests.log")"
[[ $rc == 0 && $ok == "$n" ]] || { tail -n 20 "$work/stderr" >&2; exit 1; }
