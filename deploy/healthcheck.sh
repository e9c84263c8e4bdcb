#!/bin/sh
# healthcheck.sh PORT...: ask each app process's /_stcore/health (Streamlit's endpoint, the one nginx
# passes on too); a process that fails twice in a row is restarted. Run by sloat-health.timer.
set -u
state="${RUNTIME_DIRECTORY:-/run}/sloat-health"
mkdir -p "$state"
for port in "$@"; do
  if curl -fsS -m 5 -o /dev/null "http://127.0.0.1:$port/_stcore/health"; then
    rm -f "$state/$port"
    continue
  fi
  if [ -e "$state/$port" ]; then
    echo "health: the process on port $port did not answer twice; restarting sloat-dashboard@$port"
    rm -f "$state/$port"
    systemctl restart "sloat-dashboard@$port.service"
  else
    echo "health: the process on port $port did not answer"
    touch "$state/$port"
  fi
done
