#!/usr/bin/env bash
# Server time of the token protocol's acquire script, against the floor's plain SET NX PX.
#
#   benchmarks/script-cost.sh [REVISION ...]
#
# Starts its own redis-server on a free loopback port and runs redis-benchmark (both must be
# on the PATH) against it. Every variant runs once per round, interleaved, so drift of the
# machine hits all alike; the figure is the median over the rounds of Redis's own
# usec_per_call (INFO commandstats): time spent executing the command, without network or
# parsing. Each script ends an acquisition by deleting the lock key again, so every call on
# the 8 keys finds its lock free and takes the path of an uncontended acquire. That DEL is
# in every script; the first row is the SET NX PX inside the smallest one, which is what the
# floor's acquire costs as a command of its own.
# Given revisions (git commits), their acquire script is measured beside the working tree's.
# ROUNDS (default 9) and CALLS per variant and round (default 100000) can be set.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-9}
calls=${CALLS:-100000}
scripts=lock-core/src/main/resources/io/github/setnxlock/redis
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
	--logfile "$work/redis.log" --pidfile "$work/redis.pid"
trap 'kill "$(cat "$work/redis.pid")" 2>/dev/null; rm -rf "$work"' EXIT
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.1; done

# The acquire script as the registry loads it, at a revision ('' for the working tree), with
# the lock key deleted again before an acquisition's reply.
acquire_script() {
	local revision=$1 part
	for part in read.lua fence.lua token-acquire.lua; do
		if [ -z "$revision" ]; then cat "$scripts/$part"; else git show "$revision:$scripts/$part"; fi
	done | sed "s/^\( *\)return {1, token}$/\1redis.call('DEL', KEYS[1])\n\1return {1, token}/"
}

names=("SET NX PX on a free key" "script: SET NX PX, DEL")
files=("$work/minimal.lua" "$work/minimal.lua")
printf '%s\n' "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then" \
	"  redis.call('DEL', KEYS[1])" "  return {1, '1'}" "end" "return {0, 1}" >"$work/minimal.lua"
for revision in "" "$@"; do
	file="$work/acquire-${revision:-working-tree}.lua"
	acquire_script "$revision" >"$file"
	grep -q "redis.call('DEL', KEYS\[1\])" "$file" || { echo "no acquired reply found in $file" >&2; exit 1; }
	names+=("acquire script, DEL (${revision:-working tree})")
	files+=("$file")
done

# Runs a script CALLS times; prints the usec_per_call of EVALSHA and of the SETs inside.
measure() {
	local sha
	sha=$(redis-cli -p "$port" script load "$(cat "$1")")
	redis-cli -p "$port" config resetstat >/dev/null
	redis-benchmark -p "$port" -c 2 -r 8 -n "$calls" -q EVALSHA "$sha" 2 'lock:__rand_int__' \
		'{lock:__rand_int__}:fence' 0123456789abcdef:0123456789abcdef 30000 90000 0 >/dev/null 2>&1
	redis-cli -p "$port" info commandstats | tr -d '\r' |
		sed -n 's/^cmdstat_\(evalsha\|set\):.*usec_per_call=\([0-9.]*\).*/\1 \2/p'
}

declare -A figures
for ((round = 1; round <= rounds; round++)); do
	for i in "${!names[@]}"; do
		command=evalsha
		[ "$i" = 0 ] && command=set
		value=$(measure "${files[$i]}" | sed -n "s/^$command //p")
		figures[$i]="${figures[$i]:-} $value"
	done
done

echo "| Command | µs per call, median of $rounds rounds | min | max |"
echo "|---|---:|---:|---:|"
for i in "${!names[@]}"; do
	sorted=$(echo "${figures[$i]}" | tr ' ' '\n' | grep . | sort -n)
	count=$(echo "$sorted" | wc -l)
	median=$(echo "$sorted" | sed -n "$(((count + 1) / 2))p")
	echo "| ${names[$i]} | $median | $(echo "$sorted" | head -1) | $(echo "$sorted" | tail -1) |"
done
echo
echo "Redis $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/'), $calls calls per variant and round, 2 clients, 8 keys."
