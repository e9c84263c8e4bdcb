#!/bin/sh
# Restart the app processes one at a time, each healthy again before the next: visitors on the
# others are not disturbed, those on the restarted one reconnect (nginx sends them on meanwhile).
set -eu
for unit in $(systemctl list-units --plain --no-legend 'sloat-dashboard@*.service' | awk '{print $1}'); do
  port="${unit#sloat-dashboard@}"; port="${port%.service}"
  systemctl restart "$unit"
  i=0
  until curl -fs -m 2 -o /dev/null "http://127.0.0.1:$port/_stcore/health"; do
    i=$((i + 1)); [ "$i" -lt 60 ] || { echo "restart: $unit is not healthy after 60 s" >&2; exit 1; }
    sleep 1
  done
  echo "restart: $unit is back"
done
