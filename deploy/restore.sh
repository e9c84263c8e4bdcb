#!/bin/sh
# Put a backup copy back as the case database:  deploy/restore.sh /var/lib/sloat-dashboard/backups/cases-....sqlite3
# The copy is checked first (an SQLite database, integrity ok, a case table); the app processes are
# stopped, the current database (with its -wal and -shm files) is kept aside as
# cases.sqlite3.before-restore-<time>, the copy goes in place, and the processes start again.
# $SYSTEMCTL (default systemctl) is what stops and starts them; the serving test sets it to "true"
# and stops its own processes.
set -eu
copy="${1:?usage: restore.sh BACKUP_FILE}"
data="${SLOAT_DATA_DIR:?SLOAT_DATA_DIR is not set}"
systemctl="${SYSTEMCTL:-systemctl}"
db="$data/cases.sqlite3"
[ -f "$copy" ] || { echo "restore: $copy is not a file" >&2; exit 2; }
check="$(sqlite3 -readonly "$copy" 'PRAGMA integrity_check' 2>&1 || true)"
if [ "$check" != "ok" ]; then
  echo "restore: $copy is not a sound SQLite database ($check); nothing changed" >&2
  exit 1
fi
if ! cases="$(sqlite3 -readonly "$copy" 'SELECT count(*) FROM cases' 2>/dev/null)"; then
  echo "restore: $copy holds no case table; nothing changed" >&2
  exit 1
fi
$systemctl stop sloat-dashboard.target
stamp="$(date -u +%Y%m%dT%H%M%SZ)"
for suffix in "" -wal -shm; do
  if [ -e "$db$suffix" ]; then mv -- "$db$suffix" "$db.before-restore-$stamp$suffix"; fi
done
cp -- "$copy" "$db.restoring"
mv -- "$db.restoring" "$db"
[ "$(id -u)" != 0 ] || chown "$(stat -c %u:%g "$data")" "$db"  # run as root: the app's user owns it
$systemctl start sloat-dashboard.target
echo "restore: $db now holds $cases cases from $copy; the previous database is $db.before-restore-$stamp"
