# Sourced by .ci/run: install Redis from Debian's packages if it is missing, start a throwaway
# server on a loopback port, and export STUD_TEST_REDIS_URL for the shared-room tests
# (tests/test_cluster_*.py), which fail in CI rather than skip without it.
redis_setup() {
    if ! command -v redis-server >/dev/null; then
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq redis-server >/dev/null
    fi
    local port dir
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    dir=$(mktemp -d)
    redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
        --dir "$dir" --daemonize yes --pidfile "$dir/redis.pid" >/dev/null
    for _ in $(seq 1 100); do
        redis-cli -p "$port" ping 2>/dev/null | grep -q PONG && break
        sleep 0.1
    done
    redis-cli -p "$port" ping | grep -q PONG
    export STUD_TEST_REDIS_URL="redis://127.0.0.1:$port/0"
    echo "Redis $(redis-server --version | awk '{print $3}') on port $port for the tests"
}
redis_setup
