"""The files docs/deploy.md starts a room with, as a newcomer would use them (issue 34).

One file (deploy/room.env) names every port and address: the Procfile and the proxy's
template use only what it sets; the proxy's configuration is written outside the
checkout, with the ports the processes listen on; the ``cluster`` extra installs the
process manager the Procfile is written for; the database steps run one statement per
``psql -c``; and every line of the failure table names tests that exist.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from stud.testing.server import REPOSITORY

DEPLOY = REPOSITORY / "deploy"
DOCS = REPOSITORY / "docs" / "deploy.md"
SETTING = re.compile(r"\$\{?(STUD_[A-Z0-9_]+)\}?")


def room_env() -> dict[str, str]:
    pairs = {}
    for line in (DEPLOY / "room.env").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, value = line.split("=", 1)
            pairs[name] = value
    return pairs


def test_every_port_and_address_comes_from_room_env() -> None:
    settings = room_env()
    used = set(SETTING.findall((DEPLOY / "Procfile").read_text()))
    used |= set(SETTING.findall((DEPLOY / "nginx.conf.template").read_text()))
    assert used and used <= settings.keys(), used - settings.keys()
    for name in ("STUD_DATABASE_URL", "STUD_REDIS_URL", "STUD_PROXY_PORT", "STUD_NGINX_DIR"):
        assert name in settings
    # No port written anywhere but in room.env.
    for path in ("Procfile", "nginx.conf.template"):
        text = (DEPLOY / path).read_text()
        assert not re.search(r"(?<![\d.])(80\d\d)\b", text.split("# Another machine")[0]), path


def test_the_proxy_configuration_is_written_outside_the_checkout(tmp_path: Path) -> None:
    settings = {**room_env(), "STUD_NGINX_DIR": str(tmp_path / "nginx"), "STUD_PORT_2": "9102"}
    subprocess.run(
        [sys.executable, str(DEPLOY / "nginx_conf.py")], env=settings, check=True,
        capture_output=True,
    )  # fmt: skip
    conf = (tmp_path / "nginx" / "nginx.conf").read_text()
    assert (tmp_path / "nginx" / "tmp").is_dir()
    assert f"listen {settings['STUD_PROXY_PORT']};" in conf
    assert f"server 127.0.0.1:{settings['STUD_PORT_1']} " in conf
    assert "server 127.0.0.1:9102 " in conf
    assert "${STUD_" not in conf and "$http_upgrade" in conf  # nginx's own variables stay
    # pid and temporary files relative to nginx's prefix (-p $STUD_NGINX_DIR), none absolute.
    for directive in ("pid", "client_body_temp_path", "proxy_temp_path", "fastcgi_temp_path",
                      "uwsgi_temp_path", "scgi_temp_path"):  # fmt: skip
        found = re.search(rf"^\s*{directive} (\S+);", conf, re.MULTILINE)
        assert found is not None and not found.group(1).startswith("/"), directive
    procfile = (DEPLOY / "Procfile").read_text()
    assert '-p "$STUD_NGINX_DIR"' in procfile
    # A setting left out is named, and nothing is written.
    missing = {k: v for k, v in settings.items() if k != "STUD_PROXY_PORT"}
    missing["STUD_NGINX_DIR"] = str(tmp_path / "other")
    result = subprocess.run(
        [sys.executable, str(DEPLOY / "nginx_conf.py")], env=missing, capture_output=True,
        text=True, check=False,
    )  # fmt: skip
    assert result.returncode != 0 and "STUD_PROXY_PORT" in result.stderr
    assert not (tmp_path / "other" / "nginx.conf").exists()


def test_the_cluster_extra_installs_the_process_manager() -> None:
    project = tomllib.loads((REPOSITORY / "pyproject.toml").read_text())["project"]
    extra = " ".join(project["optional-dependencies"]["cluster"])
    assert "honcho" in extra and "redis" in extra
    docs = DOCS.read_text()
    assert "pip install -e '.[cluster]'" in docs
    assert "honcho -d . -e deploy/room.env -f deploy/Procfile start" in docs


def test_each_psql_command_runs_one_statement() -> None:
    commands = re.findall(r'psql -c "([^"]+)"', DOCS.read_text())
    assert any(c.startswith("CREATE ROLE") for c in commands)
    assert any(c.startswith("CREATE DATABASE") for c in commands)
    for command in commands:
        assert command.count(";") == 0, command  # CREATE DATABASE cannot share a transaction


def test_every_line_of_the_failure_table_names_tests_that_exist() -> None:
    text = DOCS.read_text()
    table = text.split("## What happens when a part fails", 1)[1]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) > 5
    for row in rows[1:]:  # (the header)
        checked_by = row.rstrip(" |").rsplit("|", 1)[1]
        named = re.findall(r"\b(tests/[\w/]+\.py)\b", checked_by)  # as a path or in a command
        assert named, f"no test named for: {row[:80]}"
        for path in named:
            assert (REPOSITORY / path).is_file(), path
