#!/usr/bin/env bash
# A PostgreSQL streaming replica (hot standby) of the primary, on this machine, for DATABASE_READ_URL.
#
#   deploy/replica.sh start <port> <dir>   copy the primary into <dir> and start a hot standby there
#   deploy/replica.sh stop  <port> <dir>   stop it (fast shutdown) and remove <dir>
#
# Then point the app at it: DATABASE_READ_URL=postgresql://postgres@127.0.0.1:<port>/<database>
# (several replicas: comma-separated). The replica follows the primary's WAL continuously; /readyz
# shows how far it lags (the `replicas` field, see the README).
#
# start runs `pg_basebackup -R -X stream -c fast` (a consistent copy plus the WAL written meanwhile,
# after an immediate checkpoint; -R writes standby.signal and primary_conninfo, so the copy starts as
# a standby streaming from the primary), then `pg_ctl start` with the socket in <dir>. <dir> must be
# absent or empty; it is made owned by the server's user with mode 0700. Run as root, the PostgreSQL
# commands run as `postgres`. The replica runs with hot_standby_feedback on: the primary's vacuum
# does not cancel long reads on it, at the cost of dead rows kept on the primary while they run.
#
# The primary must accept replication connections from this machine: a pg_hba.conf line such as
#   host replication all 127.0.0.1/32 trust    (or scram-sha-256 with a password in ~/.pgpass)
# followed by a reload (Debian: pg_ctlcluster <version> main reload), and have wal_level replica
# (the default) and a free WAL sender (max_wal_senders, default 10). No replication slot is made:
# a replica stopped for long may need a new start (stop, start) once the primary recycled its WAL.
#
# Environment (all optional):
#   PRIMARY_HOST  primary's host, default 127.0.0.1
#   PRIMARY_PORT  primary's port, default 5432
#   PRIMARY_USER  a role with REPLICATION, default postgres
#   PG_BIN        PostgreSQL's programs of the primary's major version, default /usr/lib/postgresql/<major>/bin
#   LISTEN        listen_addresses of the replica, default 127.0.0.1
set -euo pipefail

PRIMARY_HOST="${PRIMARY_HOST:-127.0.0.1}"
PRIMARY_PORT="${PRIMARY_PORT:-5432}"
PRIMARY_USER="${PRIMARY_USER:-postgres}"
LISTEN="${LISTEN:-127.0.0.1}"

usage() {
  echo "usage: $0 start|stop <port> <dir>" >&2
  exit 2
}

[ $# -eq 3 ] || usage
action="$1" port="$2" dir="$3"
case "$port" in '' | *[!0-9]*) usage ;; esac
[ -n "$dir" ] || usage

# Runs a command as the server's user: postgres when this script runs as root, else the caller.
as_server() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

primary_sql() {
  psql -h "$PRIMARY_HOST" -p "$PRIMARY_PORT" -U "$PRIMARY_USER" -d postgres -XAtqc "$1"
}

pg_bin() {
  if [ -n "${PG_BIN:-}" ]; then printf '%s\n' "$PG_BIN"; return; fi
  local major
  major=$(primary_sql 'SHOW server_version_num')
  printf '/usr/lib/postgresql/%s/bin\n' "$((major / 10000))"
}

# The settings a hot standby needs at least as high as the primary's, and a pg_hba.conf: a
# Debian primary keeps its configuration files outside its data directory, so the copy has none.
write_config() {
  local settings
  settings=$(primary_sql "SELECT name || ' = ' || setting FROM pg_settings WHERE name IN
    ('max_connections', 'max_worker_processes', 'max_wal_senders', 'max_prepared_transactions', 'max_locks_per_transaction')")
  if [ ! -e "$dir/postgresql.conf" ]; then
    as_server tee "$dir/postgresql.conf" >/dev/null <<EOF
# Written by deploy/replica.sh: a hot standby of $PRIMARY_HOST:$PRIMARY_PORT (primary_conninfo is in postgresql.auto.conf).
listen_addresses = '$LISTEN'
hot_standby = on
hot_standby_feedback = on
$settings
EOF
  fi
  if [ ! -e "$dir/pg_ident.conf" ]; then as_server touch "$dir/pg_ident.conf"; fi
  if [ ! -e "$dir/pg_hba.conf" ]; then
    as_server tee "$dir/pg_hba.conf" >/dev/null <<EOF
local all all trust
host all all 127.0.0.1/32 trust
EOF
  fi
}

start() {
  if [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
    echo "$dir is not empty: refusing to copy the primary into it" >&2
    exit 1
  fi
  local bin
  bin=$(pg_bin)
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$dir"; fi
  chmod 0700 "$dir"
  if ! as_server "$bin/pg_basebackup" -h "$PRIMARY_HOST" -p "$PRIMARY_PORT" -U "$PRIMARY_USER" -D "$dir" -R -X stream -c fast; then
    echo "pg_basebackup failed: does the primary's pg_hba.conf have a 'host replication ...' line for this host (then reload)?" >&2
    exit 1
  fi
  write_config
  as_server "$bin/pg_ctl" -D "$dir" -o "-p $port -k $dir" -l "$dir/log" -w -t 60 start >/dev/null
  "$bin/pg_isready" -q -h 127.0.0.1 -p "$port" -t 30
}

# Removes only what looks like a data directory this script made (PG_VERSION inside), or an empty one.
stop() {
  [ -d "$dir" ] || return 0
  if [ -f "$dir/postmaster.pid" ]; then
    local bin="${PG_BIN:-/usr/lib/postgresql/$(cat "$dir/PG_VERSION")/bin}"
    as_server "$bin/pg_ctl" -D "$dir" -m fast -w -t 60 stop >/dev/null || true
  fi
  if [ -f "$dir/PG_VERSION" ] || [ -z "$(ls -A "$dir")" ]; then
    rm -rf -- "$dir"
  else
    echo "$dir does not look like a data directory: left in place" >&2
    exit 1
  fi
}

case "$action" in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
