#!/usr/bin/env bash
# Fetch the front-end files the map needs from the npm registry into static/vendor/ (git-ignored).
#
# folium 0.20 and folium.plugins.Draw load Leaflet, Leaflet.draw and jQuery from public CDNs; the app
# points them at these local copies instead (app_support/mapping.py), so the map works with no internet.
# Streamlit serves ./static at /app/static/ (server.enableStaticServing in .streamlit/config.toml).
# folium's other defaults (bootstrap, glyphicons, font-awesome, awesome-markers) are not used by the app's
# maps and are dropped from the asset lists, so they are not fetched.
#
# Idempotent: packages already unpacked at the pinned version are kept; writes static/vendor/.stamp last.
set -euo pipefail
cd "$(dirname "$0")/.."

VENDOR=static/vendor
PACKAGES=("leaflet@1.9.3" "leaflet-draw@1.0.2" "jquery@3.7.1")
# Files the app links to; the run fails if one is missing after unpacking.
REQUIRED=(
  leaflet/dist/leaflet.js
  leaflet/dist/leaflet.css
  leaflet/dist/images/marker-icon.png
  leaflet-draw/dist/leaflet.draw.js
  leaflet-draw/dist/leaflet.draw.css
  leaflet-draw/dist/images/spritesheet.svg
  jquery/dist/jquery.min.js
)

command -v npm >/dev/null || { echo "fetch_assets: npm is needed (apt-get install npm)" >&2; exit 1; }
mkdir -p "$VENDOR"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for spec in "${PACKAGES[@]}"; do
  name=${spec%@*}
  version=${spec##*@}
  dest="$VENDOR/$name"
  if [[ -f "$dest/package.json" ]] && grep -q "\"version\": \"$version\"" "$dest/package.json"; then
    echo "fetch_assets: $spec already present"
    continue
  fi
  echo "fetch_assets: fetching $spec from the npm registry"
  tarball=$(cd "$tmp" && npm pack --silent "$spec" | tail -n 1)
  rm -rf "$dest" "$tmp/package"
  tar -xzf "$tmp/$tarball" -C "$tmp"
  mv "$tmp/package" "$dest"
done

for f in "${REQUIRED[@]}"; do
  [[ -s "$VENDOR/$f" ]] || { echo "fetch_assets: missing $VENDOR/$f after unpacking" >&2; exit 1; }
done

date -u +%Y-%m-%dT%H:%M:%SZ > "$VENDOR/.stamp"
echo "fetch_assets: done ($VENDOR)"
