#!/bin/sh
# Copy the case database with sqlite3's online backup (consistent while the app processes write),
# check the copy (PRAGMA integrity_check), keep the newest $SLOAT_BACKUP_KEEP copies (default 60).
# Run by sloat-backup.timer; by hand: sudo -u sloat env $(cat /etc/sloat-dashboard/env) deploy/backup.sh
set -eu
data="${SLOAT_DATA_DIR:?SLOAT_DATA_DIR is not set}"
dest="${SLOAT_BACKUP_DIR:-$data/backups}"
keep="${SLOAT_BACKUP_KEEP:-60}"
db="$data/cases.sqlite3"
if [ ! -s "$db" ]; then
  echo "backup: no case database yet at $db (nothing to back up)"
  exit 0
fi
mkdir -p "$dest"
stamp="$(date -u +%Y%m%dT%H%M%S.%3NZ)"  # milliseconds: two runs in one second keep two copies
part="$dest/.cases-$stamp.sqlite3.part"
final="$dest/cases-$stamp.sqlite3"
trap 'rm -f "$part"' EXIT
sqlite3 "$db" ".timeout 10000" ".backup '$part'"
check="$(sqlite3 "$part" 'PRAGMA integrity_check')"
if [ "$check" != "ok" ]; then
  echo "backup: the copy failed its integrity check: $check" >&2
  exit 1
fi
cases="$(sqlite3 "$part" 'SELECT count(*) FROM cases')"
mv "$part" "$final"
# the newest $keep copies stay (names sort by time)
ls -1 "$dest"/cases-*.sqlite3 | sort | head -n "-$keep" | while read -r old; do rm -f -- "$old"; done
kept="$(ls -1 "$dest"/cases-*.sqlite3 | wc -l)"
[ "$cases" = 1 ] && c=case || c=cases
[ "$kept" = 1 ] && k=copy || k=copies
echo "backup: $final ($cases $c, $(wc -c < "$final") bytes); $kept $k kept"
