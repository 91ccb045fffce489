# Sourced by .ci/run: install and start PostgreSQL from Debian's packages, make a role and a
# database for the tests, and export STUD_TEST_DATABASE_URL so the storage and crash tests also
# run on PostgreSQL (each test makes its own database through it).
pg_setup() {
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq postgresql >/dev/null
    local ver cluster port
    read -r ver cluster port _ < <(pg_lsclusters -h | head -n 1)
    pg_ctlcluster "$ver" "$cluster" start 2>/dev/null || true
    for _ in $(seq 1 60); do
        pg_isready -q -h 127.0.0.1 -p "$port" && break
        sleep 0.5
    done
    pg_isready -h 127.0.0.1 -p "$port"
    local psql=(su postgres -c)
    if ! "${psql[@]}" "psql -p $port -tAc \"SELECT 1 FROM pg_roles WHERE rolname = 'stud'\"" | grep -q 1; then
        "${psql[@]}" "psql -q -p $port -c \"CREATE ROLE stud LOGIN CREATEDB PASSWORD 'stud'\""
    fi
    # Dropping a test's database WITH (FORCE) may have to end an autovacuum worker's session.
    "${psql[@]}" "psql -q -p $port -c \"GRANT pg_signal_backend TO stud\""
    if ! "${psql[@]}" "psql -p $port -tAc \"SELECT 1 FROM pg_database WHERE datname = 'stud'\"" | grep -q 1; then
        "${psql[@]}" "createdb -p $port -O stud stud"
    fi
    export STUD_TEST_DATABASE_URL="postgresql://stud:stud@127.0.0.1:$port/stud"
    echo "PostgreSQL $ver ($cluster) on port $port for the tests"
}
pg_setup
