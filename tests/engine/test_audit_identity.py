"""The audit identifies the data: the same features give the same hash on every run.

A file's bytes change when the same data are written again (QGIS's export for
the engine, a GeoPackage's timestamps), and layers of one file share its hash;
the hash of the features read does neither.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import geopandas as gpd
import pyogrio
import pytest
import shapely

from sitecheck.app.cli import main
from sitecheck.app.worker import serve

from .conftest import SharedVillage


@pytest.fixture(scope="module")
def village(shared_village: SharedVillage) -> Path:
    return shared_village(parcels=40)["gpkg"]


def copy_layers(source: Path, target: Path, description: str | None = None, move: bool = False):
    """The parcels and disturbance written again into a new file (new bytes, same data)."""
    for layer in ("parcels", "disturbance"):
        frame = gpd.read_file(source, layer=layer)
        if move and layer == "parcels":
            first = frame.geometry.iloc[0]
            frame.loc[frame.index[0], "geometry"] = shapely.affinity.translate(first, 0.5, 0)
        options = {"DESCRIPTION": description} if description and layer == "parcels" else {}
        pyogrio.write_dataframe(frame, target, layer=layer, layer_options=options)


def inputs_of(gpkg: Path, out: Path) -> dict[str, dict]:
    argv = ["check", "--ordinance", "scarsdale", "--quiet", "--parcels", f"{gpkg}:parcels"]
    argv += [
        "--disturbance",
        f"{gpkg}:disturbance",
        "--out",
        str(out.with_name(f"{out.stem}-out.gpkg")),
    ]
    assert main([*argv, "--json-layout", "full", "--json", str(out)]) == 0
    records = json.loads(out.read_text(encoding="utf-8"))["inputs"]
    names = [record["name"] for record in records]
    assert len(names) == len(set(names)), f"an input recorded twice: {names}"
    return {record["name"]: record for record in records}


def test_the_same_features_in_new_files_hash_alike(village: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "first.gpkg", tmp_path / "second.gpkg"
    copy_layers(village, first)
    copy_layers(village, second)
    assert first.read_bytes() != second.read_bytes()  # GeoPackages differ byte by byte
    one = inputs_of(first, tmp_path / "one.json")
    two = inputs_of(second, tmp_path / "two.json")
    for layer in ("parcels", "disturbance"):
        assert one[layer]["features_sha256"] == two[layer]["features_sha256"]
        assert len(one[layer]["features_sha256"]) == 64
    # Two layers of one file: one file hash, their own feature hashes.
    assert one["parcels"]["sha256"] == one["disturbance"]["sha256"]
    assert one["parcels"]["features_sha256"] != one["disturbance"]["features_sha256"]


def test_half_a_foot_of_one_vertex_changes_the_hash(village: Path, tmp_path: Path) -> None:
    copy_layers(village, tmp_path / "same.gpkg")
    copy_layers(village, tmp_path / "moved.gpkg", move=True)
    same = inputs_of(tmp_path / "same.gpkg", tmp_path / "same.json")
    moved = inputs_of(tmp_path / "moved.gpkg", tmp_path / "moved.json")
    assert same["parcels"]["features_sha256"] != moved["parcels"]["features_sha256"]
    assert same["disturbance"]["features_sha256"] == moved["disturbance"]["features_sha256"]


def test_a_layer_exported_by_the_plugin_says_where_qgis_had_it(village: Path, tmp_path: Path):
    origin = {
        "provider": "postgres",
        "uri": "dbname='gis' host=db user='analyst' table=\"public\".\"lots\" (geom)",
        "subset": "\"zone\" = 'A-1'",
        "selected_only": True,
        "feature_count": 40,
    }
    copy_layers(village, tmp_path / "inputs.gpkg", json.dumps({"sitecheck_origin": origin}))
    records = inputs_of(tmp_path / "inputs.gpkg", tmp_path / "run.json")
    assert records["parcels"]["origin"] == origin
    assert records["disturbance"]["origin"] is None


def test_the_panels_report_names_every_layer_and_the_whole_parcel_layer(
    village: Path, tmp_path: Path
) -> None:
    square = shapely.box(0, 0, 1, 1)
    disturbance = {
        "crs": "EPSG:2260",
        "features": [{"wkb": shapely.to_wkb(square, hex=True), "properties": {}}],
    }
    parcels = gpd.read_file(village, layer="parcels")
    target = parcels[parcels["parcel_id"] == "1.1-2-6"].geometry.iloc[0].centroid
    disturbance["features"][0]["wkb"] = shapely.to_wkb(target.buffer(10), hex=True)
    requests = [
        {"op": "open", "inputs": {"parcels": f"{village}:parcels"}, "ordinance": "scarsdale"},
        {
            "op": "report",
            "parcel_id": "1.1-2-6",
            "layers": {"disturbance": disturbance},
            "path": str(tmp_path / "panel.html"),
        },
    ]
    out = io.StringIO()
    serve(io.StringIO("\n".join(json.dumps(r) for r in requests) + "\n"), out)
    reply = json.loads(out.getvalue().splitlines()[1])
    assert reply["ok"], reply
    names = [record["name"] for record in reply["inputs"]]
    assert sorted(names) == ["disturbance", "parcels"]
    drawn = next(r for r in reply["inputs"] if r["name"] == "disturbance")
    assert drawn["path"] == "edited in QGIS" and drawn["feature_count"] == 1
    assert drawn["features_sha256"]
    html = (tmp_path / "panel.html").read_text(encoding="utf-8")
    assert f"of {len(parcels):,} in the parcel layer" in html
