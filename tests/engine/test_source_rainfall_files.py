"""The site's design-storm depths from the files engineers download: NOAA PFDS and NRCC.

The files are built to their publishers' layouts (the PFDS "export CSV" of
depths, partial-duration and annual-maximum; the NRCC "Extreme Precipitation in
New York & New England" table); the depths are this test's own, so each one
read can be checked against what was written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shapely.geometry import box

from sitecheck.app.cli import main
from sitecheck.errors import InputError
from sitecheck.runoff.rainfall_files import read_rainfall_file

from .conftest import write_layer

PERIODS = (1, 2, 5, 10, 25, 50, 100, 200, 500, 1000)
DEPTHS_24HR = (2.81, 3.42, 4.43, 5.27, 6.43, 7.30, 8.21, 9.26, 10.8, 12.1)


def _pfds(series: str = "Partial duration", unit: str = "inches", aep: bool = False) -> str:
    header = (
        "by duration for AEP (1/years):, " + ",".join(f"1/{p}" for p in PERIODS[1:])
        if aep
        else "by duration for ARI (years):, " + ",".join(map(str, PERIODS))
    )
    depths = DEPTHS_24HR[1:] if aep else DEPTHS_24HR
    scale = 25.4 if unit == "millimeters" else 1.0

    def row(label: str, factor: float) -> str:
        return f"{label}:, " + ",".join(f"{d * factor * scale:.3g}" for d in depths)

    return "\n".join(
        [
            f"Point precipitation frequency estimates ({unit})",
            "NOAA Atlas 14 Volume 10 Version 3",
            "Data type: Precipitation depth",
            f"Time series type: {series}",
            "Project area: Northeastern States",
            "Location name (ESRI Maps): Scarsdale, New York, USA",
            "Station Name: -",
            "Latitude: 40.9890 Degree",
            "Longitude: -73.7960 Degree",
            "Elevation (USGS): 62.0 m",
            "",
            "",
            "PRECIPITATION FREQUENCY ESTIMATES",
            header,
            row("5-min", 0.12),
            row("60-min", 0.4),
            row("12-hr", 0.85),
            row("24-hr", 1.0),
            row("2-day", 1.15),
            "",
            "",
            "Upper bound of 90% confidence interval",
            header,
            row("24-hr", 1.3),
            "",
            "Date/time (GMT):  Tue Dec 1 13:00:00 2026",
        ]
    )


def _nrcc() -> str:
    durations = ["1hr", "2hr", "3hr", "6hr", "12hr", "24hr", "48hr", "", "1day", "2day"]
    rows = []
    for years, depth in zip(PERIODS[:9], DEPTHS_24HR[:9], strict=True):
        cells = [0.35, 0.45, 0.55, 0.7, 0.85, 1.0, 1.15, None, 0.9, 1.12]
        rows.append(
            f"{years}yr," + ",".join("" if f is None else f"{depth * f:.2f}" for f in cells)
        )
    return "\n".join(
        [
            "Extreme Precipitation Tables",
            "Northeast Regional Climate Center",
            "Data represents point estimates calculated from partial duration series. "
            "All precipitation amounts are displayed in inches.",
            "Smoothing,Yes",
            "State,New York",
            "Location,Scarsdale",
            "Longitude,73.796 degrees West",
            "Latitude,40.989 degrees North",
            "",
            "Extreme Precipitation Estimates",
            "," + ",".join(durations),
            *rows,
            "",
            "Lower Confidence Limits",
            "," + ",".join(durations),
            *(row.replace(".", ".0", 0) for row in rows),
        ]
    )


def test_a_pfds_csv_gives_its_24_hour_depths_location_and_series(tmp_path):
    path = tmp_path / "PF_Depth_English_PDS.csv"
    path.write_text(_pfds())
    read = read_rainfall_file(str(path))
    assert read.depths_in == dict(zip(PERIODS, DEPTHS_24HR, strict=True))
    assert read.source == "NOAA Atlas 14 Volume 10 Version 3"
    assert read.series == "partial duration"
    assert "Scarsdale, New York, USA" in read.location and "40.9890" in read.location


def test_the_annual_maximum_series_and_millimetres(tmp_path):
    path = tmp_path / "PF_Depth_Metric_AMS.csv"
    path.write_text(_pfds(series="Annual maximum", unit="millimeters", aep=True))
    read = read_rainfall_file(str(path))
    assert read.series == "annual maximum"
    expected = dict(zip(PERIODS[1:], DEPTHS_24HR[1:], strict=True))
    assert read.depths_in.keys() == expected.keys()
    for years, depth in expected.items():
        assert read.depths_in[years] == pytest.approx(depth, rel=0.01)  # 3 figures in mm


def test_an_nrcc_table_gives_its_24hr_column(tmp_path):
    path = tmp_path / "nrcc.csv"
    path.write_text(_nrcc())
    read = read_rainfall_file(str(path))
    assert read.depths_in == dict(zip(PERIODS[:9], DEPTHS_24HR[:9], strict=True))
    assert read.series == "partial duration"
    assert "73.796 degrees West" in read.location
    tabbed = tmp_path / "nrcc.txt"
    tabbed.write_text(_nrcc().replace(",", "\t"))
    assert read_rainfall_file(str(tabbed)).depths_in == read.depths_in


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Point precipitation frequency estimates (inches/hour)\nData type: "
         "Precipitation intensity\nby duration for ARI (years):, 1,2\n24-hr:, 0.1,0.2", "intensities"),
        ("Point precipitation frequency estimates (inches)\nby duration for ARI (years):, 1,2\n"
         "60-min:, 1.0,1.2", "no 24-hr row"),
        ("just,some,numbers\n3,4,5", "neither a NOAA Atlas 14 PFDS CSV"),
        ("Point precipitation frequency estimates (inches)\nby duration for ARI (years):, 1,2\n"
         "24-hr:, 3.1,2.9", "the 2-year depth 2.9 in is less than the 1-year depth 3.1 in"),
    ],
)  # fmt: skip
def test_files_that_are_not_depth_tables_are_refused_in_one_line(tmp_path, text, words):
    path = tmp_path / "rain.csv"
    path.write_text(text)
    with pytest.raises(InputError, match=words) as error:
        read_rainfall_file(str(path))
    assert "--rainfall-file" in str(error.value) and str(path) in str(error.value)


def test_a_check_uses_the_files_depths_and_the_audit_says_where_they_came_from(tmp_path):
    gpkg = tmp_path / "site.gpkg"
    rain = tmp_path / "PF_Depth_English_PDS.csv"
    rain.write_text(_pfds())
    out = tmp_path / "out"
    lot = [{"parcel_id": "L1", "geometry": box(0, 0, 200, 200)}]
    work = [{"parcel_id": "L1", "geometry": box(20, 20, 120, 120)}]
    house = [{"parcel_id": "L1", "geometry": box(30, 30, 90, 90)}]
    argv = [
        "check", "--quiet", "--ordinance", "scarsdale", "--default-hsg", "B",
        "--parcels", write_layer(gpkg, "parcels", lot),
        "--disturbance", write_layer(gpkg, "work", work),
        "--impervious-proposed", write_layer(gpkg, "new", house),
        "--rainfall-file", str(rain), "--rainfall", "100=9.0",
        "--out", f"{out}.gpkg", "--json-layout", "full", "--json", f"{out}.json",
    ]  # fmt: skip
    assert main(argv) == 0
    document = json.loads(Path(f"{out}.json").read_text())
    storms = document["runoff"]["rainfall"][0]
    assert storms["depths_in"]["25"] == 6.43  # from the file
    assert storms["depths_in"]["100"] == 9.0  # --rainfall replaces the file storm by storm
    assert storms["pack_defaults"] == [] and storms["confirm"] is None
    site = storms["site_file"]
    assert site["path"] == str(rain) and site["series"] == "partial duration"
    assert "Scarsdale, New York, USA" in site["location"]
    assert site["source"] == "NOAA Atlas 14 Volume 10 Version 3"
    audited = {record["name"]: record for record in document["inputs"]}
    assert audited["rainfall_file"]["path"] == str(rain) and audited["rainfall_file"]["sha256"]
