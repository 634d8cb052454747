"""A throwaway PostgreSQL + PostGIS server for the tests, from Debian's packages.

``make test`` installs ``postgresql`` and ``postgresql-postgis``; this starts a
cluster of its own in a temporary folder (trust authentication, a free TCP
port on localhost, no fsync), creates a database with the PostGIS extension
and loads layers into it with Debian's ``ogr2ogr``, the way a county loads its
parcels. Run as root, the server runs as the ``postgres`` user, since
PostgreSQL refuses to run as root. The engine and the QGIS tests both use it.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

DATABASE = "village"
USER = "sitecheck"


def _bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
    if not found:
        raise RuntimeError(
            "no PostgreSQL server (/usr/lib/postgresql/*/bin/pg_ctl): `make test` installs "
            "Debian's postgresql and postgresql-postgis"
        )
    return found[-1].parent


def missing() -> list[str]:
    """One line for each part of the server the tests need that this machine lacks."""
    lines = []
    if not sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl")):
        lines.append(
            "PostgreSQL server missing (no /usr/lib/postgresql/*/bin/pg_ctl): `make test` "
            "installs Debian's postgresql"
        )
    elif not sorted(Path("/usr/share/postgresql").glob("*/extension/postgis.control")):
        lines.append(
            "PostGIS missing (no /usr/share/postgresql/*/extension/postgis.control): "
            "`make test` installs Debian's postgresql-postgis"
        )
    if shutil.which("ogr2ogr") is None:
        lines.append("ogr2ogr missing (loads the test layers): `make test` installs gdal-bin")
    return lines


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class PostGIS:
    """A running server: its folder, port and the connection string of its database."""

    folder: Path
    port: int
    as_server_user: list[str]

    @property
    def conninfo(self) -> str:
        return f"host=127.0.0.1 port={self.port} dbname={DATABASE} user={USER}"

    def sql(self, statement: str) -> str:
        """Run SQL with Debian's psql; its output."""
        done = subprocess.run(
            [
                str(_bin() / "psql"),
                "-X",
                "-q",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1",
                "-d",
                f"{self.conninfo}",
                "-c",
                statement,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode:
            raise RuntimeError(f"psql: {done.stderr.strip()}")
        return done.stdout.strip()

    def load(self, source: str, layer: str, table: str, *options: str) -> str:
        """Load a layer of a file into ``table`` with ogr2ogr; the engine's spec of it."""
        done = subprocess.run(
            [
                "ogr2ogr",
                "-f",
                "PostgreSQL",
                f"PG:{self.conninfo}",
                source,
                layer,
                "-nln",
                table,
                "-lco",
                "SPATIAL_INDEX=GIST",
                "-overwrite",
                *options,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode:
            raise RuntimeError(f"ogr2ogr: {done.stderr.strip()}")
        return f"PG:{self.conninfo} tables={table}"

    def stop(self) -> None:
        subprocess.run(
            [
                *self.as_server_user,
                str(_bin() / "pg_ctl"),
                "-D",
                str(self.folder / "data"),
                "-m",
                "immediate",
                "stop",
            ],
            capture_output=True,
            check=False,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


def start() -> PostGIS:
    """Start a server with a PostGIS database; stop it with :meth:`PostGIS.stop`."""
    folder = Path(tempfile.mkdtemp(prefix="postgis-for-tests-"))
    as_server_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        as_server_user = ["runuser", "-u", "postgres", "--"]
    bin_dir = _bin()

    def run(*argv: str) -> None:
        done = subprocess.run([*as_server_user, *argv], capture_output=True, text=True)
        if done.returncode:
            log = folder / "server.log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"{argv[0]}: {done.stderr.strip() or done.stdout.strip()}\n{tail}")

    run(
        str(bin_dir / "initdb"),
        "-D",
        str(folder / "data"),
        "-U",
        USER,
        "-A",
        "trust",
        "-E",
        "UTF8",
        "--locale=C.UTF-8",
        "--no-sync",
    )
    port = _free_port()
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
    run(
        str(bin_dir / "pg_ctl"),
        "-D",
        str(folder / "data"),
        "-o",
        options,
        "-l",
        str(folder / "server.log"),
        "-w",
        "start",
    )
    server = PostGIS(folder, port, as_server_user)
    try:
        run(str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", USER, DATABASE)
        server.sql("CREATE EXTENSION postgis")
    except Exception:
        server.stop()
        raise
    return server
