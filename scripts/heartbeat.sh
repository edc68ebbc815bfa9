#!/usr/bin/env bash
# Run a command and say every 20 s (HEARTBEAT_EVERY) that it is still running, so that a long install or compile is
# never silent. Usage: scripts/heartbeat.sh LABEL COMMAND [ARG...]   Exits with the command's own status.
set -u
label=$1
shift
"$@" &
child=$!
trap 'kill "$child" 2>/dev/null' INT TERM
every=${HEARTBEAT_EVERY:-20}
seconds=0
while sleep 1 && kill -0 "$child" 2>/dev/null; do
	seconds=$((seconds + 1))
	if ((seconds % every == 0)); then
		printf '\n... %s: still running after %d min %02d s\n' "$label" $((seconds / 60)) $((seconds % 60))
	fi
done
wait "$child"
