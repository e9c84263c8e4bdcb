"""Fill in the deploy templates (deploy/systemd/*, deploy/nginx/sloat-dashboard.conf) for one host.

``python deploy/render.py --out DIR [--app-dir ...] [--ports 8501,8502] [--listen 80] ...`` writes the
units and the nginx site into DIR; install.sh copies them into place. The serving test renders the same
files for loopback (tests/service/test_deploy.py), so what it runs is what the Village runs.

Every value is declared once: the upload limit is read from ``.streamlit/config.toml``
(``server.maxUploadSize``, which Streamlit itself applies); the ports, from ``--ports``, name both the
unit instances (``sloat-dashboard@PORT``) and nginx's upstream servers.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
TEMPLATES = [HERE / "nginx" / "sloat-dashboard.conf", *sorted((HERE / "systemd").iterdir())]
#: Streamlit accepts this much multipart framing on an upload request beyond server.maxUploadSize
#: (streamlit/web/server/starlette/starlette_routes.py, _MAX_UPLOAD_MULTIPART_OVERHEAD_BYTES).
MULTIPART_MARGIN_BYTES = 1024 * 1024
DEFAULTS = {"app_dir": "/opt/sloat-dashboard", "etc_dir": "/etc/sloat-dashboard",
            "data_dir": "/var/lib/sloat-dashboard", "user": "sloat", "ports": "8501,8502",
            "listen": "80", "server_name": "_"}


def max_upload_mb(config_toml: Path = ROOT / ".streamlit" / "config.toml") -> int:
    """``server.maxUploadSize`` (MB) from the app's Streamlit configuration (Streamlit's default: 200)."""
    with open(config_toml, "rb") as f:
        return int(tomllib.load(f).get("server", {}).get("maxUploadSize", 200))


def values(app_dir: str, etc_dir: str, data_dir: str, user: str, ports: list[int], listen: str,
           server_name: str) -> dict[str, str]:
    mb = max_upload_mb()  # this checkout's: install.sh renders from the code it installs
    return {
        "APP_DIR": app_dir, "ETC_DIR": etc_dir, "DATA_DIR": data_dir, "USER": user,
        "PORTS": " ".join(str(p) for p in ports),
        "INSTANCES": " ".join(f"sloat-dashboard@{p}.service" for p in ports),
        "UPSTREAM_SERVERS": "\n".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=10s;" for p in ports),
        "ROUTE_MAP": "\n".join(f'    "127.0.0.1:{p}" sloat_{p};' for p in ports),
        "STICKY_UPSTREAMS": "\n".join(
            f"upstream sloat_{p} {{\n    server 127.0.0.1:{p} max_fails=1 fail_timeout=10s;\n"
            + "".join(f"    server 127.0.0.1:{q} backup;\n" for q in ports if q != p) + "    keepalive 8;\n}"
            for p in ports),
        "MAX_UPLOAD_MB": str(mb), "MAX_BODY_BYTES": str(mb * 1024 * 1024 + MULTIPART_MARGIN_BYTES),
        "LISTEN": listen, "SERVER_NAME": server_name,
    }


def render(out: Path, **kw) -> dict[str, Path]:
    """Write every template into ``out``; return name -> path. Refuses to leave a placeholder unfilled."""
    vals = values(**kw)
    out.mkdir(parents=True, exist_ok=True)
    written = {}
    for template in TEMPLATES:
        text = template.read_text()
        text = re.sub(r"@([A-Z_]+)@", lambda m: vals[m.group(1)], text)
        left = re.findall(r"@[A-Z_]+@", text)
        if left:
            raise SystemExit(f"{template.name}: unfilled {left}")
        target = out / template.name
        target.write_text(text)
        written[template.name] = target
    return written


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, type=Path)
    for key, default in DEFAULTS.items():
        ap.add_argument("--" + key.replace("_", "-"), dest=key, default=default, help=f"default: {default}")
    a = ap.parse_args(argv)
    ports = [int(p) for p in a.ports.split(",") if p.strip()]
    if not ports or any(not 1024 <= p <= 65535 for p in ports):
        ap.error("--ports: one or more ports from 1024 to 65535, comma-separated")
    written = render(a.out, app_dir=a.app_dir, etc_dir=a.etc_dir, data_dir=a.data_dir, user=a.user, ports=ports,
                     listen=a.listen, server_name=a.server_name)
    for name in written:
        print(a.out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
