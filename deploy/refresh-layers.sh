#!/bin/sh
# Fetch the official layers again into a new layer set, report what changed, switch to it if it loads
# and differs. Layer sets live in $SLOAT_DATA_DIR/layers/; "current" points at the one in use
# (SLOAT_LAYERS=$SLOAT_DATA_DIR/layers/current/layers.yaml). Extra fetch-official options (the
# office's zoning map: --zoning FILE) come from $SLOAT_FETCH_ARGS. Run by sloat-refresh.timer; the
# unit restarts the app processes one at a time when it switched (the .restart-needed flag).
set -eu
data="${SLOAT_DATA_DIR:?SLOAT_DATA_DIR is not set}"
app="$(cd "$(dirname "$0")/.." && pwd)"
python="${SLOAT_PYTHON:-$app/.venv/bin/python}"
layers="$data/layers"
mkdir -p "$layers"
stamp="$(date -u +%Y%m%dT%H%M%SZ)"
new="$layers/set-$stamp"
echo "refresh: fetching the official layers into $new"
# shellcheck disable=SC2086  # SLOAT_FETCH_ARGS is a list of options
if ! (cd "$app" && "$python" -m sloat_core fetch-official --out "$new" --quiet ${SLOAT_FETCH_ARGS:-}); then
  echo "refresh: fetch-official failed; the app keeps the current layers" >&2
  rm -rf -- "$new"
  exit 1
fi
set +e
(cd "$app" && "$python" deploy/layer_report.py "$layers/current/layers.yaml" "$new/layers.yaml")
status=$?
set -e
case "$status" in
  0)
    ln -sfn "set-$stamp" "$layers/current.next" && mv -T "$layers/current.next" "$layers/current"
    touch "$layers/.restart-needed"
    echo "refresh: now using $new"
    # the three newest sets stay (current among them)
    ls -1d "$layers"/set-* | sort | head -n -3 | while read -r old; do
      [ "$(readlink -f "$old")" = "$(readlink -f "$layers/current")" ] || rm -rf -- "$old"
    done ;;
  3) rm -rf -- "$new"; echo "refresh: nothing changed; the app keeps the current layers" ;;
  *) rm -rf -- "$new"; echo "refresh: the new layer set was not used" >&2; exit 1 ;;
esac
