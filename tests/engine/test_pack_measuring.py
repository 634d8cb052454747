"""A pack's ``[measuring]`` table: the districts the adjoining property buffer applies in
come from the law's pack, not from the engine (issue 29: village defaults in the packs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitecheck.io.readers import LayerSource
from sitecheck.measure.inputs import MeasureInputs
from sitecheck.pipeline.run import screen
from sitecheck.pipeline.spec import RunSpec
from sitecheck.rules.pack import load_pack_file
from sitecheck.rules.pack_model import PackError
from sitecheck.screening.packs import PackChoice

from .conftest import write_layer
from .test_measure_inputs import LOTS, WORK
from .test_pack_loading import HEADER
from .test_pack_validation import rule, write

BUFFER_RULE = rule("testville.buffer", "disturbed_in_adjoining_buffer_sqft > 0 sqft")


def _pack(tmp_path: Path, districts: list[str] | None, table: str | None = None) -> Path:
    parameters = ""
    if districts is not None:
        parameters = f"business = {{ value = {districts!r}, label = 'business districts' }}\n"
    measuring = (
        table if table is not None else '\n[measuring]\nadjoining_buffer_districts = "business"\n'
    )
    return write(tmp_path, parameters + (measuring if districts is not None else "") + BUFFER_RULE)


def _buffer_by_lot(tmp_path: Path, pack: Path) -> dict[str, float]:
    gpkg = tmp_path / "in.gpkg"
    inputs = MeasureInputs(
        parcels=LayerSource.parse("parcels", write_layer(gpkg, "parcels", LOTS)),
        disturbance=LayerSource.parse("disturbance", write_layer(gpkg, "work", WORK)),
    )
    result = screen(RunSpec(inputs=inputs, ordinance=str(pack)))
    rows = result.measured.parcels.to_dict("records")
    return {row["parcel_id"]: row["disturbed_in_adjoining_buffer_sqft"] for row in rows}


def test_the_buffer_lies_in_the_districts_the_pack_names(tmp_path):
    # The work (x from 60 to 140, y from 20 to 60) crosses the line W | E at x = 100; each
    # lot's 30-ft strip along that line holds 30 x 40 sq ft of it. The pack names only B-1,
    # E's district: W has no buffer.
    buffers = _buffer_by_lot(tmp_path, _pack(tmp_path, ["B-1"]))
    assert buffers == {"W": 0, "E": pytest.approx(1_200)}


def test_a_pack_naming_no_districts_gives_every_lot_its_buffer(tmp_path):
    buffers = _buffer_by_lot(tmp_path, _pack(tmp_path, None))
    assert buffers == {"W": pytest.approx(1_200), "E": pytest.approx(1_200)}


def test_packs_of_a_jurisdiction_run_buffer_the_districts_any_of_them_names(tmp_path):
    one = load_pack_file(_pack(tmp_path, ["B-1"]))
    other_dir = tmp_path / "other"
    other_dir.mkdir()
    header = HEADER.replace('id = "testville"', 'id = "otherville"')
    other = load_pack_file(write(other_dir, BUFFER_RULE, header))
    assert PackChoice(by_value={"a": one, "b": other}).adjoining_buffer_districts == ("B-1",)
    assert PackChoice(by_value={"b": other}).adjoining_buffer_districts is None


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (
            '\n[measuring]\nadjoining_buffer_districts = "threshold"\n',
            "adjoining_buffer_districts names a list parameter of district codes "
            "(got 'threshold'; lists of texts: business)",
        ),
        (
            '\n[measuring]\nadjoining_buffer_districts = ["B-1"]\n',
            "adjoining_buffer_districts names a list parameter",
        ),
        ('\n[measuring]\nbuffer_districts = "business"\n', "unknown key(s) buffer_districts"),
    ],
)
def test_a_wrong_measuring_table_is_refused_naming_the_key(tmp_path, table, message):
    with pytest.raises(PackError) as caught:
        load_pack_file(_pack(tmp_path, ["B-1"], table))
    assert message in str(caught.value)
