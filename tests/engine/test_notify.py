"""The § 254-10.1 notification list: owners within 200 ft of the lot or of the activity."""

from __future__ import annotations

import csv

import pytest
from shapely.geometry import box

from sitecheck.app.cli import main

from .conftest import write_layer

X0, Y0 = 690_000.0, 787_000.0


def _street_of_lots(tmp_path):
    """A row of 100-ft lots; the applicant's lot is the third."""
    rows = [
        {
            "parcel_id": f"L{i}",
            "owner": f"Owner {i}",
            "address": f"{i} Elm St",
            "geometry": box(X0 + 100 * i, Y0, X0 + 100 * (i + 1), Y0 + 150),
        }
        for i in range(8)
    ]
    return write_layer(tmp_path / "in.gpkg", "parcels", rows)


def test_lots_within_200_ft_of_the_boundary(tmp_path, capsys):
    out, table = tmp_path / "notify.gpkg", tmp_path / "notify.csv"
    assert (
        main(
            [
                "notify",
                "--parcels",
                _street_of_lots(tmp_path),
                "--lot",
                "L3",
                "--out",
                str(out),
                "--csv",
                str(table),
            ]
        )
        == 0
    )
    rows = list(csv.DictReader(table.open()))
    # L3 spans x 300..400: L1 (x 100..200) is 100 ft away, L0 is 200 ft away (its
    # line at x = 100 is within 200 ft of x = 300), L6 starts 200 ft from x = 400.
    assert sorted(r["parcel_id"] for r in rows) == ["L0", "L1", "L2", "L4", "L5", "L6"]
    by_id = {r["parcel_id"]: r for r in rows}
    assert by_id["L1"]["owner"] == "Owner 1" and by_id["L1"]["address"] == "1 Elm St"
    assert float(by_id["L1"]["distance_ft"]) == pytest.approx(100.0)
    assert "lot boundary" in capsys.readouterr().out


def test_large_property_measures_from_the_activity(tmp_path):
    big = 15 * 43_560 + 1_000  # just over 15 acres
    depth = big / 1_000
    rows = [{"parcel_id": "BIG", "geometry": box(X0, Y0, X0 + 1_000, Y0 + depth)}]
    rows += [
        {
            "parcel_id": f"N{i}",
            "geometry": box(X0 + 100 * i, Y0 + depth, X0 + 100 * (i + 1), Y0 + depth + 100),
        }
        for i in range(10)
    ]
    gpkg = tmp_path / "in.gpkg"
    parcels = write_layer(gpkg, "parcels", rows)
    work = write_layer(
        gpkg,
        "work",
        [
            {
                "parcel_id": "BIG",
                "geometry": box(X0 + 20, Y0 + depth - 150, X0 + 60, Y0 + depth - 110),
            }
        ],
    )
    table = tmp_path / "n.csv"
    assert (
        main(
            [
                "notify",
                "--parcels",
                parcels,
                "--lot",
                "BIG",
                "--disturbance",
                work,
                "--out",
                str(tmp_path / "n.gpkg"),
                "--csv",
                str(table),
            ]
        )
        == 0
    )
    ids = [r["parcel_id"] for r in csv.DictReader(table.open())]
    # The work's corner (x 60, 110 ft below the north line) is sqrt(140^2 + 110^2) = 178 ft
    # from N2 and sqrt(240^2 + 110^2) = 264 ft from N3.
    assert sorted(ids) == ["N0", "N1", "N2"]
    assert (
        main(
            [
                "notify",
                "--parcels",
                parcels,
                "--lot",
                "BIG",
                "--from",
                "lot",
                "--out",
                str(tmp_path / "m.gpkg"),
                "--csv",
                str(table),
            ]
        )
        == 0
    )
    assert len(list(csv.DictReader(table.open()))) == 10


def test_unknown_lot_is_named(tmp_path, capsys):
    assert (
        main(
            [
                "notify",
                "--parcels",
                _street_of_lots(tmp_path),
                "--lot",
                "NOPE",
                "--out",
                str(tmp_path / "n.gpkg"),
            ]
        )
        == 2
    )
    assert "no parcel with id NOPE" in capsys.readouterr().err


def test_the_large_property_limit_is_scarsdales_pack_fifteen_acres():
    from sitecheck.screening.notify import scarsdale_large_property_sqft

    # § 254-10.1: "for properties larger than 15 acres in area"; an acre is 43,560 sq ft.
    assert scarsdale_large_property_sqft() == pytest.approx(15 * 43_560)
