#!/bin/sh
# Upgrade in place (run as root in the checkout, after `git pull` or unpacking the new release there):
# a backup first, the new requirements, the case database's schema migrated once (deploy/migrate.py:
# refused, and nothing restarted, when the database is newer than this code), the units and the
# nginx site rendered again, then the app processes restarted one at a time and the tax parcels' answers
# worked out ahead again (sloat-answers.service).
set -eu
app="$(cd "$(dirname "$0")/.." && pwd)"
etc=/etc/sloat-dashboard
user=sloat
run_as() { su -s /bin/sh "$user" -c "set -a; . $etc/env; set +a; $*"; }
run_as "$app/deploy/backup.sh"
(cd "$app" && make setup)
run_as "$app/.venv/bin/python $app/deploy/migrate.py"
. "$etc/deploy.conf"  # ports and server_name, as install.sh was given them
out="$(mktemp -d)"
"$app/.venv/bin/python" "$app/deploy/render.py" --out "$out" --app-dir "$app" --etc-dir "$etc" --ports "$ports" \
  --server-name "$server_name" >/dev/null
for f in "$out"/*.service "$out"/*.timer "$out"/*.path "$out"/*.target; do install -m 0644 "$f" /etc/systemd/system/; done
install -m 0644 "$out/sloat-dashboard.conf" /etc/nginx/sites-available/sloat-dashboard.conf
rm -rf "$out"
systemctl daemon-reload
systemctl enable --now sloat-answers.path  # new in 2026-12: an edited setting makes the answers again
nginx -t && systemctl reload nginx
"$app/deploy/rolling-restart.sh"
# new code: the answers worked out ahead are made again by it (the old ones are no longer used); restart, not
# start: a run under way is the old code's, and a start would only wait for it
systemctl restart --no-block sloat-answers.service
