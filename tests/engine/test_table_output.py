"""``--table``: the parcel table also as FlatGeobuf or GeoParquet, for state runs.

The reference is the GeoPackage the same run writes, read back with GDAL: the
table file must hold the same parcels with the same values, and say how it was
made (the run's audit block) as the GeoPackage does.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pyogrio
import pytest

from sitecheck.app.cli import main

from .conftest import SharedVillage
from .village_runs import village_check_argv


@pytest.fixture(scope="module")
def village(shared_village: SharedVillage) -> dict[str, Path]:
    return shared_village()


def _same_table(gpkg: Path, table: Path) -> None:
    expected = pyogrio.read_dataframe(gpkg, layer="parcels").sort_values("parcel_id")
    found = pyogrio.read_dataframe(table).sort_values("parcel_id")
    assert list(found.columns) == list(expected.columns)
    assert len(found) == len(expected) > 100
    for column in expected.columns:
        if column == "geometry":
            assert np.allclose(found.area.to_numpy(), expected.area.to_numpy())
            continue
        left, right = expected[column].reset_index(drop=True), found[column].reset_index(drop=True)
        if pd.api.types.is_numeric_dtype(left) and not pd.api.types.is_bool_dtype(left):
            assert np.allclose(left.astype(float), right.astype(float), equal_nan=True), column
        else:
            assert left.astype("string").fillna("").equals(right.astype("string").fillna("")), (
                column
            )
    audit = json.loads(pyogrio.read_info(table)["layer_metadata"]["SITECHECK_AUDIT"])
    gpkg_audit = json.loads(
        pyogrio.read_info(gpkg, layer="parcels")["dataset_metadata"]["SITECHECK_AUDIT"]
    )
    assert audit["run_id"] == gpkg_audit["run_id"]


@pytest.mark.parametrize("command", ["measure", "check"])
def test_a_flatgeobuf_table_holds_the_geopackages_parcels(village, tmp_path, command):
    argv = village_check_argv(village)
    if command == "measure":
        at = argv.index("--ordinance")
        argv = ["measure", *argv[1:at], *argv[at + 2 :]]
        argv = [a for a in argv if "soils" not in a]
    gpkg, table = tmp_path / "out.gpkg", tmp_path / "out.fgb"
    assert main([*argv, "--out", str(gpkg), "--table", str(table)]) == 0
    _same_table(gpkg, table)


@pytest.mark.slow
def test_the_distributed_engine_writes_the_same_table(village, tmp_path):
    gpkg, table = tmp_path / "dask.gpkg", tmp_path / "dask.fgb"
    argv = village_check_argv(village)
    engine = ["--engine", "dask", "--workers", "1", "--partition-size", "100"]
    assert main([*argv, "--out", str(gpkg), "--table", str(table), *engine]) == 0
    _same_table(gpkg, table)


def test_a_table_format_the_gdal_cannot_write_is_refused_before_any_work(village, tmp_path, capsys):
    gpkg, table = tmp_path / "out.gpkg", tmp_path / "out.parquet"
    code = main([*village_check_argv(village), "--out", str(gpkg), "--table", str(table)])
    if "w" in pyogrio.list_drivers().get("Parquet", ""):  # a GDAL built with Arrow
        assert code == 0
        _same_table(gpkg, table)
        return
    assert code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines[-1].startswith("sitecheck: error: --table: the GDAL in use")
    assert "Parquet" in lines[-1]
    assert not gpkg.exists() and not table.exists()


def test_a_table_not_named_for_a_table_format_is_refused(village, tmp_path, capsys):
    gpkg, table = tmp_path / "out.gpkg", tmp_path / "out.csv"
    assert main([*village_check_argv(village), "--out", str(gpkg), "--table", str(table)]) == 2
    err = capsys.readouterr().err
    assert "--table: give a file ending in .fgb (FlatGeobuf), .parquet (Parquet)" in err
    assert not gpkg.exists()
