"""The bad-input corpus: a case a class of fault a careless or hostile user makes.

Each case prepares its own folder (a copy of a small sample village and its DEM),
runs one command line, and says what must follow: ``error`` (exit 2, one line
naming every one of ``names``) or ``answer`` (exit 0, the files it asks for
written, and its own check of them). Nothing else in the folder may change.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import geopandas as gpd
import pandas as pd

from sitecheck.rules.pack import bundled_pack_path
from sitecheck.schema.options import CHECK_OPTIONS, MEASURE_OPTIONS, RUNOFF_OPTIONS

Argv = Callable[[Path], list[str]]


@dataclass(frozen=True)
class Case:
    """One bad input and what must come of it.

    Attributes
    ----------
    name : str
    kind : str
        ``error`` or ``answer``.
    argv : callable
        The command line, given the case's folder.
    names : tuple of str
        What the error line must name (options, layers, fields, lines).
    prepare : callable, optional
        Writes the case's own inputs into the folder before the snapshot.
    writes : tuple of str
        Files an answer case asks for (relative to the folder).
    check : callable, optional
        An answer case's check of its outputs: (folder, stdout, stderr) -> None.
    before_work : bool
        An error found before any measuring: no progress line may precede it.
    slow : bool
        Seconds of work before the error (a Dask cluster restarting its workers): left out of
        ``make test-fast``.
    """

    name: str
    kind: str
    argv: Argv
    names: tuple[str, ...] = ()
    prepare: Callable[[Path], None] | None = None
    writes: tuple[str, ...] = ()
    check: Callable[[Path, str, str], None] | None = None
    before_work: bool = True
    slow: bool = False


def village(folder: Path) -> str:
    return str(folder / "village.gpkg")


def check_argv(*extra: str, pack: str = "scarsdale", out: str | None = "o.gpkg") -> Argv:
    """``check`` on the village's parcels and disturbance, with ``extra`` arguments."""

    def argv(folder: Path) -> list[str]:
        gpkg = village(folder)
        chosen = pack.replace("{f}", str(folder))
        words = ["check", "--ordinance", chosen, "--parcels", f"{gpkg}:parcels"]
        words += ["--disturbance", f"{gpkg}:disturbance"]
        words += [word.replace("{f}", str(folder)) for word in extra]
        return words + (["--out", str(folder / out)] if out else [])

    return argv


def steep_slopes_argv(*extra: str) -> Argv:
    """``steep-slopes`` on the village's DEM, with ``extra`` arguments."""

    def argv(folder: Path) -> list[str]:
        return [
            "steep-slopes",
            "--dem",
            str(folder / "dem.tif"),
            *extra,
            "--out",
            str(folder / "s.tif"),
        ]

    return argv


def notify_argv(*extra: str, lot: str = "1.1-2-6") -> Argv:
    def argv(folder: Path) -> list[str]:
        words = ["notify", "--parcels", f"{village(folder)}:parcels", "--lot", lot]
        return words + [word.replace("{f}", str(folder)) for word in extra]

    return argv


def plain_argv(*words: str) -> Argv:
    return lambda folder: [word.replace("{f}", str(folder)) for word in words]


# --- inputs a case writes for itself ---------------------------------------------------


def link_to_village(folder: Path) -> None:
    (folder / "link.gpkg").symlink_to(folder / "village.gpkg")


def hard_link_to_village(folder: Path) -> None:
    os.link(folder / "village.gpkg", folder / "hard.gpkg")


def larchmont_text() -> str:
    return bundled_pack_path("larchmont").read_text(encoding="utf-8")


def write_pack(name: str, text: Callable[[], str | bytes]) -> Callable[[Path], None]:
    def prepare(folder: Path) -> None:
        content = text()
        path = folder / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")

    return prepare


def pack_with_rules_of_numbers() -> str:
    return 'rules = [1, 2]\n[pack]\nid = "x"\nname = "X"\nchapter = "Ch. 1"\nversion = "1"\n'


def pack_with_parameters_a_number() -> str:
    text = larchmont_text()
    start, end = text.index("[parameters]"), text.index("[[rules]]")
    return (
        "parameters = 5\n"
        + text[: text.index("[pack]")]
        + text[text.index("[pack]") :].replace(text[start:end], "")
    )


def pack_with_a_huge_storm() -> str:
    return re.sub(
        r"design_storm_years = \d+", f"design_storm_years = {10**30}", larchmont_text(), count=1
    )


def pack_with_rainfall(depth: str) -> Callable[[], str]:
    """Larchmont's pack with its own 50-year depth ``depth`` (TOML: ``nan``, ``inf``)."""

    def text() -> str:
        table = f'[runoff]\nrainfall = {{ source = "test", depths_in = {{ 50 = {depth} }} }}\n\n'
        pack = larchmont_text()
        return pack.replace("[parameters]", table + "[parameters]", 1)

    return text


def pack_with_a_review_without_its_reason() -> str:
    first = 'id = "larchmont.exempt.agricultural"\n'
    return larchmont_text().replace(first, first + 'review_when = "disturbed_area_sqft > 0 sqft"\n')


def pack_not_utf8() -> bytes:
    return larchmont_text().encode("utf-8").replace("§".encode(), b"\xa7", 1)


def pack_nested_deeply() -> str:
    return "x = " + "[" * 5000 + "]" * 5000 + "\n"


def disturbance_with(column: str, value: object) -> Callable[[Path], None]:
    """The village's disturbance layer with one field set to ``value`` on every feature."""

    def prepare(folder: Path) -> None:
        gpkg = village(folder)
        frame = gpd.read_file(gpkg, layer="disturbance")
        frame[column] = pd.Series([value] * len(frame), dtype=object)
        frame.to_file(folder / "work.gpkg", layer="disturbance", driver="GPKG")

    return prepare


def parcels_with(parcel_id: str, owner: str | None = None) -> Callable[[Path], None]:
    """The village's parcels, the first lot with work renamed ``parcel_id`` (and its owner set)."""

    def prepare(folder: Path) -> None:
        gpkg = village(folder)
        parcels = gpd.read_file(gpkg, layer="parcels")
        disturbance = gpd.read_file(gpkg, layer="disturbance")
        first = disturbance["parcel_id"].iloc[0]
        row = parcels["parcel_id"] == first
        parcels.loc[row, "parcel_id"] = parcel_id
        if owner is not None:
            parcels["owner"] = owner
        disturbance["parcel_id"] = disturbance["parcel_id"].replace(first, parcel_id)
        parcels.to_file(folder / "hostile.gpkg", layer="parcels", driver="GPKG")
        disturbance.to_file(folder / "hostile.gpkg", layer="disturbance", driver="GPKG")

    return prepare


# --- answer checks ---------------------------------------------------------------------


def strict_json(path: Path) -> dict:
    """A JSON document read as strict readers read it: NaN and Infinity refused."""

    def refuse(constant: str) -> None:
        raise AssertionError(f"{path.name} holds {constant}, which JSON does not have")

    return json.loads(path.read_text(encoding="utf-8"), parse_constant=refuse)


def reason_names_the_value(folder: Path, out: str, err: str) -> None:
    document = strict_json(folder / "o.json")  # the compact layout: reasons from their facts
    reasons = [
        t.get("reason") or "; ".join(p["facts"][i] for i in t["facts"])
        for p in document["parcels"]
        for t in p.get("triggers", [])
    ]
    assert any("'maybe' is not a yes/no value" in r for r in reasons), reasons[:5]
    assert not any("larger common plan not given" in r.lower() for r in reasons)


def summary_lines_are_whole(folder: Path, out: str, err: str) -> None:
    assert not any(
        line.startswith("sitecheck: error:") for line in out.splitlines() + err.splitlines()
    )
    assert "lot\\nsitecheck: error: forged" in out  # the id, escaped, on its parcel's line
    document = strict_json(folder / "o.json")
    assert "lot\nsitecheck: error: forged" in {p["parcel_id"] for p in document["parcels"]}


def notify_summary_keeps_the_id_on_its_line(folder: Path, out: str, err: str) -> None:
    lines = out.splitlines()
    assert len(lines) == 2, lines  # the count and the outputs
    assert lines[0].endswith("of line1\\nline2 (Scarsdale § 254-10.1)"), lines[0]
    assert not any(line.startswith("line2") for line in lines + err.splitlines())


def formulas_are_text(folder: Path, out: str, err: str) -> None:
    table = pd.read_csv(folder / "n.csv", dtype=str)
    assert len(table) > 0
    assert set(table["owner"]) == {'\'=HYPERLINK("http://x.example","click")'}


NUMERIC_FLAGS = [
    option.flag
    for option in (*MEASURE_OPTIONS, *CHECK_OPTIONS, *RUNOFF_OPTIONS)
    if option.kind == "number"
]


def option_cases() -> list[Case]:
    """Every number option given nan, inf or a value below its bounds, by the vocabulary's list."""
    cases = []
    for flag in NUMERIC_FLAGS:
        for value in ("nan", "inf", "-5"):
            cases.append(
                Case(
                    f"option {flag} {value}",
                    "error",
                    check_argv(flag, value, "--default-hsg", "B"),
                    (flag,),
                )
            )
    for value in ("15,inf", "nan,25", "25,15"):
        cases.append(
            Case(
                f"slope thresholds {value}",
                "error",
                steep_slopes_argv("--slope-thresholds", value),
                ("--slope-thresholds",),
            )
        )
    for value in ("nan", "inf", "0", "-5"):
        cases.append(
            Case(
                f"notify distance {value}",
                "error",
                notify_argv("--distance-ft", value, "--out", "{f}/n.gpkg"),
                ("--distance-ft",),
            )
        )
    cases.append(Case("threads 0", "error", check_argv("--threads", "0"), ("--threads",)))
    return cases


SITE_GRID = (
    'LOCAL_CS["Site grid",LOCAL_DATUM["Site datum",32767],'
    'UNIT["US survey foot",0.304800609601219],AXIS["X",EAST],AXIS["Y",NORTH]]'
)


def parcels_in_srs(srs_id: int, definition: str | None = None) -> Callable[[Path], None]:
    """The village's parcels in ``crs.gpkg``, their srs_id set as GDAL or a CAD export leaves it."""

    def prepare(folder: Path) -> None:
        import sqlite3

        frame = gpd.read_file(village(folder), layer="parcels")
        target = folder / "crs.gpkg"
        frame.to_file(target, layer="parcels", driver="GPKG")
        with sqlite3.connect(target) as db:
            if definition is not None:
                db.execute(
                    "INSERT INTO gpkg_spatial_ref_sys (srs_name, srs_id, organization, "
                    "organization_coordsys_id, definition) VALUES ('site', ?, 'NONE', ?, ?)",
                    (srs_id, srs_id, definition),
                )
            db.execute(
                "UPDATE gpkg_geometry_columns SET srs_id = ? WHERE table_name = 'parcels'",
                (srs_id,),
            )
            db.execute(
                "UPDATE gpkg_contents SET srs_id = ? WHERE table_name = 'parcels'", (srs_id,)
            )

    return prepare


def crs_cases() -> list[Case]:
    argv = plain_argv(
        "check",
        "--ordinance",
        "scarsdale",
        "--parcels",
        "{f}/crs.gpkg:parcels",
        "--disturbance",
        "{f}/village.gpkg:disturbance",
        "--out",
        "{f}/o.gpkg",
    )
    return [
        Case(
            "parcels of srs_id 0",
            "error",
            argv,
            ("parcels layer", "no CRS"),
            prepare=parcels_in_srs(0),
            before_work=False,
        ),
        Case(
            "parcels of srs_id -1",
            "error",
            argv,
            ("parcels layer", "no CRS"),
            prepare=parcels_in_srs(-1),
            before_work=False,
        ),
        Case(
            "parcels in a local engineering CRS",
            "error",
            argv,
            ("parcels layer", "local engineering CRS"),
            prepare=parcels_in_srs(910001, SITE_GRID),
            before_work=False,
        ),
        Case(
            "crs not known",
            "error",
            check_argv("--crs", "EPSG:999999"),
            ("--crs",),
            before_work=False,
        ),
        Case(
            "adjoining rear setback inf",
            "error",
            plain_argv(
                "adjoining-buffer",
                "--parcels",
                "{f}/village.gpkg:parcels",
                "--rear-setback-ft",
                "inf",
                "--out",
                "{f}/a.gpkg",
            ),
            ("--rear-setback-ft",),
        ),
        Case(
            "sample village seed -1",
            "error",
            plain_argv("sample-village", "{f}/sv", "--seed", "-1"),
            ("--seed",),
        ),
        Case(
            "dask workers 0",
            "error",
            check_argv("--engine", "dask", "--workers", "0"),
            ("--workers",),
        ),
        Case(
            "dask worker memory abc",
            "error",
            check_argv("--engine", "dask", "--worker-memory", "abc"),
            ("--worker-memory",),
        ),
        Case(
            "dask worker memory 1B",
            "error",
            check_argv("--engine", "dask", "--worker-memory", "1B"),
            ("--worker-memory", "256MiB"),
        ),
        Case(
            # At 256MiB Dask's nanny restarts a worker past 95% of it (243 MiB), as it samples
            # it; with this village's parcels and work alone a worker peaked at 263-268 MiB,
            # briefly, and the partition got through in 6 runs of 18. With the impervious
            # cover, floodplain, wetlands and DEM too it peaks at 305 MiB, and was restarted
            # each time it took the partition, until Dask gave up on it, in 26 runs of 26.
            "dask workers that die on their partition",
            "error",
            check_argv(
                *("--engine", "dask", "--workers", "1", "--worker-memory", "256MiB"),
                *("--impervious-existing", "{f}/village.gpkg:impervious_existing"),
                *("--floodplain", "{f}/village.gpkg:floodplain"),
                *("--wetlands", "{f}/village.gpkg:wetlands", "--dem", "{f}/dem.tif"),
            ),
            ("--worker-memory", "--partition-size", "10,000 parcels"),
            before_work=False,
            slow=True,
        ),
        Case(
            "dask partition size 0",
            "error",
            check_argv("--engine", "dask", "--partition-size", "0"),
            ("--partition-size",),
        ),
    ]


def parcels_as(name: str, driver: str) -> Callable[[Path], None]:
    """The village's parcels written as a shapefile or a File Geodatabase, as published."""

    def prepare(folder: Path) -> None:
        frame = gpd.read_file(village(folder), layer="parcels")
        frame.to_file(folder / name, layer="parcels", driver=driver)

    return prepare


def make_fifo(folder: Path) -> None:
    os.mkfifo(folder / "pipe.json")


def format_cases() -> list[Case]:
    def argv(parcels: str, *extra: str) -> Argv:
        return plain_argv(
            "check",
            "--ordinance",
            "scarsdale",
            "--parcels",
            parcels,
            "--disturbance",
            "{f}/village.gpkg:disturbance",
            "--out",
            "{f}/o.gpkg",
            *extra,
        )

    return [
        Case(
            "json into a named pipe",
            "error",
            check_argv("--json", "{f}/pipe.json"),
            ("--json", "not a regular file"),
            prepare=make_fifo,
        ),
        Case(
            "json over a shapefile's dbf",
            "error",
            argv("{f}/lots.shp", "--json", "{f}/lots.dbf"),
            ("--json", "--parcels"),
            prepare=parcels_as("lots.shp", "ESRI Shapefile"),
        ),
        Case(
            "report over a shapefile's prj",
            "error",
            argv("{f}/lots.shp", "--report", "{f}/lots.prj"),
            ("--report", "--parcels"),
            prepare=parcels_as("lots.shp", "ESRI Shapefile"),
        ),
        Case(
            "json inside a file geodatabase",
            "error",
            argv("{f}/v.gdb:parcels", "--json", "{f}/v.gdb/r.json"),
            ("--json", "inside", "--parcels"),
            prepare=parcels_as("v.gdb", "OpenFileGDB"),
        ),
    ]
