# shellcheck shell=bash
# A throw-away PostgreSQL server for the test suite.
#
#   . .ci/postgres.sh          (sourced by .ci/run) start it, export CQ_TEST_DATABASE_URL,
#                              and stop it when the sourcing shell exits
#   bash .ci/postgres.sh       start it and leave it running; prints the URL and the
#                              command that stops it
#
# Installs PostgreSQL with apt-get when no initdb is found. initdb refuses to run as root,
# so as root the cluster belongs to the `postgres` system user (created when missing).
# The cluster lives in a temporary directory, listens on 127.0.0.1 on a free port with its
# unix socket in that directory, and runs with fsync off (a test database: speed over
# durability). Tests get a role `cq` (password login, CREATEDB: tests/support/server.py
# creates one database per server it starts) and a database `cq_test`.
# Idempotent: when CQ_TEST_DATABASE_URL already answers, nothing is done. Sourcing it
# returns non-zero when no server could be started (under `set -e` that stops the caller;
# otherwise write `. .ci/postgres.sh || exit 1`). `cq_postgres_stop` stops it early.

_cq_pg_log() { printf 'postgres.sh: %s\n' "$*" >&2; }

_cq_pg_bindir() {
    local dir
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
            printf '%s\n' "$dir"
            return 0
        fi
    done
    if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(command -v initdb)"
        return 0
    fi
    return 1
}

_cq_pg_install() {
    if [ "$(id -u)" != 0 ]; then
        _cq_pg_log "PostgreSQL is not installed and we are not root: install it (apt-get install postgresql)"
        return 1
    fi
    _cq_pg_log "PostgreSQL not found: installing it with apt-get"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
}

# Run a command as the cluster's owner.
_cq_pg_as_owner() {
    if [ "$(id -u)" = 0 ]; then
        if command -v runuser >/dev/null 2>&1; then
            runuser -u postgres -- "$@"
        else
            su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
        fi
    else
        "$@"
    fi
}

_cq_pg_free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

cq_postgres_stop() {
    if [ -n "${CQ_TEST_POSTGRES_DIR:-}" ] && [ -d "$CQ_TEST_POSTGRES_DIR/data" ]; then
        _cq_pg_as_owner "$CQ_TEST_POSTGRES_BIN/pg_ctl" -D "$CQ_TEST_POSTGRES_DIR/data" \
            -m fast -w stop >/dev/null 2>&1 || true
        rm -rf "$CQ_TEST_POSTGRES_DIR"
        _cq_pg_log "stopped PostgreSQL and removed $CQ_TEST_POSTGRES_DIR"
    fi
    unset CQ_TEST_DATABASE_URL CQ_TEST_POSTGRES_DIR CQ_TEST_POSTGRES_BIN
}

cq_postgres_start() {
    local bindir tmp port password
    if [ -n "${CQ_TEST_DATABASE_URL:-}" ]; then
        bindir=$(_cq_pg_bindir) || bindir=""
        if [ -n "$bindir" ] && "$bindir/pg_isready" -q -d "$CQ_TEST_DATABASE_URL" -t 5; then
            _cq_pg_log "already running: CQ_TEST_DATABASE_URL=$CQ_TEST_DATABASE_URL"
            return 0
        fi
        _cq_pg_log "CQ_TEST_DATABASE_URL=$CQ_TEST_DATABASE_URL does not answer: starting a new server"
    fi
    bindir=$(_cq_pg_bindir) || { _cq_pg_install && bindir=$(_cq_pg_bindir); } || {
        _cq_pg_log "no PostgreSQL binaries after installation"
        return 1
    }
    if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
        _cq_pg_log "creating the postgres system user"
        useradd --system --user-group --home-dir /var/lib/postgresql --shell /bin/sh postgres ||
            return 1
    fi
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/cq-postgres.XXXXXX") || return 1
    chmod 700 "$tmp"
    [ "$(id -u)" = 0 ] && chown postgres: "$tmp"
    port=$(_cq_pg_free_port) || return 1
    password=$(python3 -c 'import secrets; print(secrets.token_hex(12))')

    if ! _cq_pg_as_owner "$bindir/initdb" -D "$tmp/data" -U postgres -E UTF8 --locale=C \
        --auth-local=trust --auth-host=scram-sha-256 >"$tmp/initdb.log" 2>&1; then
        _cq_pg_log "initdb failed:"
        cat "$tmp/initdb.log" >&2
        rm -rf "$tmp"
        return 1
    fi
    if ! _cq_pg_as_owner "$bindir/pg_ctl" -D "$tmp/data" -l "$tmp/server.log" -w -t 30 \
        -o "-p $port -k $tmp -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
        start >/dev/null; then
        _cq_pg_log "PostgreSQL did not start:"
        tail -n 20 "$tmp/server.log" >&2
        rm -rf "$tmp"
        return 1
    fi
    export CQ_TEST_POSTGRES_DIR="$tmp" CQ_TEST_POSTGRES_BIN="$bindir"
    if ! _cq_pg_as_owner "$bindir/psql" -q -h "$tmp" -p "$port" -U postgres -d postgres \
        -v ON_ERROR_STOP=1 \
        -c "CREATE ROLE cq LOGIN CREATEDB PASSWORD '$password'" \
        -c "CREATE DATABASE cq_test OWNER cq" >/dev/null; then
        _cq_pg_log "could not create the test role and database"
        cq_postgres_stop
        return 1
    fi
    export CQ_TEST_DATABASE_URL="postgresql://cq:$password@127.0.0.1:$port/cq_test"
    _cq_pg_log "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') running on 127.0.0.1:$port, data in $tmp"
    _cq_pg_log "exported CQ_TEST_DATABASE_URL=$CQ_TEST_DATABASE_URL"
}

# Add cq_postgres_stop to the EXIT trap of the sourcing shell, keeping any trap it had.
_cq_pg_register_cleanup() {
    local previous=""
    eval "set -- $(trap -p EXIT)"
    [ $# -ge 3 ] && previous=$3
    case "$previous" in
        *cq_postgres_stop*) ;;
        "") trap 'cq_postgres_stop' EXIT ;;
        *) trap "cq_postgres_stop; $previous" EXIT ;;
    esac
}

if [ "${BASH_SOURCE[0]}" != "$0" ]; then
    # sourced
    cq_postgres_start && _cq_pg_register_cleanup
else
    set -eu
    cq_postgres_start
    printf 'export CQ_TEST_DATABASE_URL=%s\n' "$CQ_TEST_DATABASE_URL"
    printf '# stop it with: runuser -u postgres -- %s/pg_ctl -D %s/data stop && rm -rf %s\n' \
        "$CQ_TEST_POSTGRES_BIN" "$CQ_TEST_POSTGRES_DIR" "$CQ_TEST_POSTGRES_DIR"
fi
