"""NYS statewide tax parcels, in their full field names and as a shapefile truncates them.

The NYS GIS Program Office publishes the parcels with PARCEL_ADDR, PRIMARY_OWNER,
PRINT_KEY, SBL, SWIS and PROP_CLASS; exported to a shapefile the names are cut
to ten characters (PARCEL_ADD, PRIMARY_OW, ...). The § 254-10.1 notification
list must carry each owner and address either way.
"""

from __future__ import annotations

import csv
import warnings
from pathlib import Path

import geopandas as gpd
import pyogrio
import pytest
from shapely.geometry import box

from sitecheck.app.cli import main

from .conftest import STATE_PLANE_EAST

OWNERS = {"1.1-2-6": "SMITH JOHN", "1.1-2-7": "JONES MARY", "1.1-2-8": "GARCIA ANA"}


def _parcels(path: Path, with_owners: bool = True) -> Path:
    rows = []
    for index, (sbl, owner) in enumerate(OWNERS.items()):
        row = {
            "SWIS": "552600",
            "SBL": sbl,
            "PRINT_KEY": sbl,
            "PROP_CLASS": "210",
            "geometry": box(index * 100.0, 0, index * 100.0 + 100, 100),
        }
        if with_owners:
            row["PARCEL_ADDR"] = f"{10 + index} Fox Meadow Rd"
            row["PRIMARY_OWNER"] = owner
        rows.append(row)
    frame = gpd.GeoDataFrame(rows, geometry="geometry", crs=STATE_PLANE_EAST)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # GDAL says it truncated the names: that is the point
        frame.to_file(path)
    return path


@pytest.mark.parametrize("suffix", [".shp", ".gpkg"])
def test_the_notification_list_carries_owners_and_addresses(tmp_path, capsys, suffix):
    parcels = _parcels(tmp_path / f"NYS_Tax_Parcels{suffix}")
    if suffix == ".shp":
        names = pyogrio.read_info(parcels)["fields"]
        assert "PARCEL_ADD" in names and "PRIMARY_OW" in names  # as the shapefile has them
    out, listing = tmp_path / "notice.gpkg", tmp_path / "notice.csv"
    argv = ["notify", "--parcels", str(parcels), "--lot", "1.1-2-7"]
    assert main([*argv, "--out", str(out), "--csv", str(listing)]) == 0
    with listing.open(newline="", encoding="utf-8") as handle:
        rows = {row["parcel_id"]: row for row in csv.DictReader(handle)}
    assert set(rows) == {"1.1-2-6", "1.1-2-8"}  # the neighbours, each sharing a lot line
    for sbl, row in rows.items():
        assert row["owner"] == OWNERS[sbl]
        assert row["address"].endswith("Fox Meadow Rd")
    assert "have no owner" not in capsys.readouterr().err


def test_a_list_without_owners_says_so(tmp_path, capsys):
    parcels = _parcels(tmp_path / "parcels.shp", with_owners=False)
    argv = ["notify", "--parcels", str(parcels), "--lot", "1.1-2-7"]
    assert main([*argv, "--out", str(tmp_path / "notice.gpkg")]) == 0
    err = capsys.readouterr().err
    assert "notification list: 2 of 2 parcel(s) have no owner" in err
    assert "PRIMARY_OW" in err
    assert "notification list: 2 of 2 parcel(s) have no address" in err
