"""No password of a PostGIS connection reaches an output, a message or the audit block.

Each way a user can give a password to libpq is tried with a password of its
own: keyword/value with quotes and a backslash escape, a URI with
percent-encoding, a ``service=`` entry of a service file, and ``PGPASSWORD``.
The tests' server trusts its clients, so every form connects; then every file
the run wrote, everything it printed and the audit's input records are searched
for the password's words. The expected masked strings are written out by hand
from libpq's documented parsing rules (PostgreSQL manual, 34.1.1 and 34.1.2).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from shapely.geometry import box

from sitecheck.app.cli import main
from sitecheck.app.worker import serve
from sitecheck.io import conninfo, postgis

from .conftest import write_layer

# (the spec's connection part, the words of its password a leak would show, env)
KEYWORD_QUOTED = "se\\'cr et77"  # libpq reads se'cr et77


def _forms(server, folder: Path) -> dict[str, tuple[str, tuple[str, ...], dict[str, str]]]:
    base = server.conninfo
    service_file = folder / "pg_service.conf"
    service_file.write_text(
        f"[county]\nhost=127.0.0.1\nport={server.port}\ndbname=village\nuser=sitecheck\n"
        "password=svc-Secret-42\n"
    )
    return {
        "keyword, quoted, escaped": (
            f"{base} password='{KEYWORD_QUOTED}'",
            ("cr et77", "se'cr", "et77"),
            {},
        ),
        "keyword, spaces round the equals sign": (
            f"{base} password = 'kw spaced55'",
            ("kw spaced55", "spaced55"),
            {},
        ),
        "URI, percent-encoded": (
            f"postgresql://sitecheck:p%40ss%20w0rd%21@127.0.0.1:{server.port}/village",
            ("w0rd", "p%40ss", "p@ss"),
            {},
        ),
        "service file": (
            "service=county",
            ("svc-Secret-42",),
            {"PGSERVICEFILE": str(service_file)},
        ),
        "PGPASSWORD": (base, ("env-Secret-99",), {"PGPASSWORD": "env-Secret-99"}),
    }


@pytest.fixture(scope="module")
def site(tmp_path_factory, postgis) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("secrets")
    gpkg = folder / "site.gpkg"
    write_layer(gpkg, "lots", [{"parcel_id": "L1", "geometry": box(0, 0, 200, 200)}])
    write_layer(gpkg, "work", [{"parcel_id": "L1", "geometry": box(50, 50, 150, 150)}])
    postgis.load(str(gpkg), "lots", "public.secret_lots")
    postgis.load(str(gpkg), "work", "public.secret_work")
    yield folder
    # other modules count the database's tables
    postgis.sql("DROP TABLE public.secret_lots, public.secret_work")


def _leaks(text: bytes | str, words: tuple[str, ...]) -> list[str]:
    data = text if isinstance(text, bytes) else text.encode()
    return [word for word in words if word.encode() in data]


@pytest.mark.parametrize(
    "form",
    [
        "keyword, quoted, escaped",
        "keyword, spaces round the equals sign",
        "URI, percent-encoded",
        "service file",
        "PGPASSWORD",
    ],
)
def test_no_output_message_or_audit_shows_the_password(
    form, site, postgis, tmp_path, capsys, monkeypatch
):
    connection, words, environment = _forms(postgis, tmp_path)[form]
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    out = tmp_path / "o"
    argv = ["check", "--ordinance", "scarsdale"]
    argv += ["--parcels", f"PG:{connection} tables=secret_lots"]
    argv += ["--disturbance", f"PG:{connection} tables=secret_work"]
    argv += ["--out", f"{out}.gpkg", "--json", f"{out}.json", "--jsonl", f"{out}.jsonl"]
    argv += ["--json-layout", "full", "--report", f"{out}.html"]
    assert main(argv) == 0
    printed = capsys.readouterr()
    written = sorted(tmp_path.glob("o.*"))
    assert len(written) == 4
    for path in written:
        assert _leaks(path.read_bytes(), words) == [], path.name
    assert _leaks(printed.out + printed.err, words) == []
    document = json.loads(Path(f"{out}.json").read_text())
    parcels = next(r for r in document["inputs"] if r["name"] == "parcels")
    assert parcels["path"].startswith("PG:") and parcels["layer"] == "secret_lots"
    if "password" in connection or "://" in connection:
        assert "password=***" in parcels["path"]
    assert document["parcels"][0]["metrics"]["disturbed_area_sqft"] == pytest.approx(100 * 100)


@pytest.mark.parametrize("command", ["check", "adjoining-buffer"])
def test_the_hint_to_name_a_table_shows_no_password(command, site, postgis, tmp_path, capsys):
    spec = f"PG:{postgis.conninfo} password='{KEYWORD_QUOTED}'"
    argv = [command, "--parcels", spec, "--out", str(tmp_path / "o.gpkg")]
    if command == "check":
        argv += ["--disturbance", f"{spec} tables=secret_work", "--ordinance", "scarsdale"]
    assert main(argv) == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1
    assert "name the one to read" in error[0] and "password=***" in error[0]
    assert _leaks(error[0], ("cr et77", "et77", "se'cr")) == []


def test_the_workers_reply_shows_no_password(site, postgis):
    spec = f"PG:{postgis.conninfo} password='{KEYWORD_QUOTED}'"
    lines = [
        json.dumps({"op": "open", "inputs": {"parcels": spec}}),
        json.dumps({"op": "open", "inputs": {"parcels": f"{spec} tables=nothing_here"}}),
    ]
    out = io.StringIO()
    serve(io.StringIO("\n".join(lines) + "\n"), out)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["ok"] for r in replies] == [False, False]
    assert "name the one to read" in replies[0]["error"]
    assert "is not a table with geometry" in replies[1]["error"]
    assert _leaks(out.getvalue(), ("cr et77", "et77", "se'cr")) == []


def test_a_connection_string_libpq_cannot_read_is_refused_quoting_none_of_it(tmp_path, capsys):
    # Unquoted, libpq reads the password as 'zq9x' and stops at 'cr77', which its own
    # message quotes ('missing "=" after "cr77"').
    spec = "PG:host=127.0.0.1 port=1 dbname=x password=zq9x cr77 tables=lots"
    argv = ["measure", "--quiet", "--parcels", spec, "--disturbance", spec]
    assert main([*argv, "--out", str(tmp_path / "o.gpkg")]) == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1
    assert "single quotes" in error[0] and "parcels layer" in error[0]
    assert _leaks(error[0], ("zq9x", "cr77")) == []


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        # keyword/value: libpq unescapes \' inside quotes; the rebuilt string quotes again
        (
            "dbname=county host=gis user=analyst password='se\\'cr et77'",
            "host=gis dbname=county user=analyst password=***",
        ),
        # a URI: percent-encoding decoded, then shown as keyword/value
        (
            "postgresql://analyst:p%40ss@gis:5433/county?sslmode=require",
            "host=gis port=5433 dbname=county user=analyst sslmode=require password=***",
        ),
        # a value holding a space and a quote is written back in quotes, escaped
        (
            "host=gis dbname='my county' application_name='o\\'hare'",
            "host=gis dbname='my county' application_name='o\\'hare'",
        ),
        ("service=county", "service=county"),
    ],
)
def test_a_connection_is_shown_as_libpq_read_it_without_its_password(given, expected):
    assert conninfo.shown(given) == expected
    assert postgis.shown(f"PG:{given} tables=public.lots") == f"PG:{expected} tables=public.lots"


def test_a_quoted_password_holding_a_space_is_masked_whole():
    shown = postgis.shown("PG:host=gis password='a b\\'c d' dbname=x")
    assert shown == "PG:host=gis dbname=x password=***"


def test_a_qgis_layer_source_naming_a_password_is_not_shown_by_a_guess():
    # QGIS's own options (table=, key=) are not libpq's, so libpq cannot read the
    # whole source; the password's end cannot be known, so none of it is shown.
    source = (
        "dbname='v' host=gis user='u' password='se\\'cr et77' key='fid' table=\"public\".\"lots\""
    )
    assert "et77" not in conninfo.shown_source(source)
    assert (
        conninfo.shown_source("/data/lots.gpkg|layername=lots") == "/data/lots.gpkg|layername=lots"
    )
