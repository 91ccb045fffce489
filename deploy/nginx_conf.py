"""Write the proxy's configuration from deploy/nginx.conf.template and the environment.

Every ``${STUD_...}`` in the template is replaced by that variable (deploy/room.env, read
by honcho); nginx's own ``$variables`` are left alone. The configuration, nginx's pid and
its temporary files go to ``$STUD_NGINX_DIR`` (made if missing), outside the checkout.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

TEMPLATE = Path(__file__).with_name("nginx.conf.template")
SETTING = re.compile(r"\$\{(STUD_[A-Z0-9_]+)\}")


def render(text: str, env: dict[str, str]) -> str:
    """``text`` with each ``${STUD_...}`` replaced (SystemExit naming any that is unset)."""
    missing = sorted({name for name in SETTING.findall(text) if not env.get(name)})
    if missing:
        raise SystemExit(f"set {', '.join(missing)} (deploy/room.env) first")
    return SETTING.sub(lambda match: env[match.group(1)], text)


def main() -> None:
    env = dict(os.environ)
    folder = Path(render("${STUD_NGINX_DIR}", env))
    (folder / "tmp").mkdir(parents=True, exist_ok=True)
    target = folder / "nginx.conf"
    target.write_text(render(TEMPLATE.read_text(), env))
    print(f"wrote {target}", file=sys.stderr)


if __name__ == "__main__":
    main()
