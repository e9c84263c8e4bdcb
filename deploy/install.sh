#!/bin/sh
# Install the dashboard as the Village's service on one Debian host (run as root from the checkout
# that is to be served, e.g. /opt/sloat-dashboard):
#   deploy/install.sh [--ports 8501,8502,8503] [--server-name dashboard.sloatsburgny.gov]
# Debian packages (nginx, sqlite3, curl, python3-venv), a "sloat" system user, the data folder
# /var/lib/sloat-dashboard outside the code, /etc/sloat-dashboard/env with one cookie secret shared by
# every process (made once, kept on later runs), the units and the nginx site rendered from
# deploy/render.py, the timers enabled. HTTPS is set up by hand afterwards (README).
set -eu
# The code, its venv and the map's files are read by the service user: made readable to all, whatever root's
# umask is (a host hardened to 027 would leave them to root alone). The env file alone is kept from others.
umask 022
app="$(cd "$(dirname "$0")/.." && pwd)"
etc=/etc/sloat-dashboard
data=/var/lib/sloat-dashboard
user=sloat
ports=8501,8502
server_name=_
# a later run (and upgrade.sh) keeps what the first was given
[ ! -r "$etc/deploy.conf" ] || . "$etc/deploy.conf"
while [ $# -gt 0 ]; do
  case "$1" in
    --ports) ports="$2"; shift 2 ;;
    --server-name) server_name="$2"; shift 2 ;;
    *) echo "usage: install.sh [--ports P1,P2,...] [--server-name NAME]" >&2; exit 2 ;;
  esac
done
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx sqlite3 curl python3-venv make \
  libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0  # WeasyPrint's text layout (the PDFs)
install -d -m 0750 "$data"  # before the user, whose home it is
id "$user" >/dev/null 2>&1 || adduser --system --group --home "$data" --no-create-home "$user"
install -d -o "$user" -g "$user" -m 0750 "$data" "$data/backups" "$data/layers"
[ -e "$data/layers/current" ] || ln -s "$app/data/sample" "$data/layers/current"  # until the first refresh
install -d -m 0750 -g "$user" "$etc"
printf 'ports=%s\nserver_name=%s\n' "$ports" "$server_name" > "$etc/deploy.conf"
if [ ! -e "$etc/env" ]; then
  (umask 027; : > "$etc/env")  # the cookie secret: root and the service's group only
  cat > "$etc/env" <<ENV
SLOAT_DATA_DIR=$data
SLOAT_LAYERS=$data/layers/current/layers.yaml
# One secret for every app process (signed cookies must verify on whichever process gets them).
STREAMLIT_SERVER_COOKIE_SECRET=$(python3 -c 'import secrets; print(secrets.token_urlsafe(48))')
SLOAT_BACKUP_KEEP=60
# Extra options for fetch-official (the office's zoning map): SLOAT_FETCH_ARGS=--zoning $etc/zoning.gpkg
SLOAT_FETCH_ARGS=
ENV
  chgrp "$user" "$etc/env"
fi
(cd "$app" && make setup)  # the venv and the map's front-end files, as `make run` makes them
if ! su -s /bin/sh "$user" -c "cd / && $app/.venv/bin/python -c 'import streamlit' && test -r $app/app.py"; then
  echo "install: the $user user cannot read $app or run its .venv (made under another umask?): chmod -R go+rX $app" >&2
  exit 1
fi
"$app/.venv/bin/python" -m pip install -q -r "$app/requirements-official.txt" || \
  echo "install: the fetch-official extra did not install; the layer refresh will fail until it does" >&2
out="$(mktemp -d)"
"$app/.venv/bin/python" "$app/deploy/render.py" --out "$out" --app-dir "$app" --etc-dir "$etc" \
  --data-dir "$data" --user "$user" --ports "$ports" --server-name "$server_name" >/dev/null
for f in "$out"/*.service "$out"/*.timer "$out"/*.path "$out"/*.target; do install -m 0644 "$f" /etc/systemd/system/; done
install -m 0644 "$out/sloat-dashboard.conf" /etc/nginx/sites-available/sloat-dashboard.conf
ln -sfn /etc/nginx/sites-available/sloat-dashboard.conf /etc/nginx/sites-enabled/sloat-dashboard.conf
rm -f /etc/nginx/sites-enabled/default
rm -rf "$out"
set -a; . "$etc/env"; set +a
sudo_migrate() { su -s /bin/sh "$user" -c "set -a; . $etc/env; set +a; $app/.venv/bin/python $app/deploy/migrate.py"; }
sudo_migrate
systemctl daemon-reload
systemctl enable --now sloat-dashboard.target sloat-backup.timer sloat-refresh.timer sloat-health.timer sloat-answers.timer \
  sloat-answers.path  # an edited setting: the answers made again
for p in $(echo "$ports" | tr , ' '); do systemctl enable --now "sloat-dashboard@$p.service"; done
nginx -t && systemctl reload-or-restart nginx
systemctl start --no-block sloat-answers.service  # the tax parcels' answers worked out ahead, for today
echo "install: the dashboard answers on port 80 (processes on $ports); see README, Running it for the Village"
