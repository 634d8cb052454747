"""JSON text as the outputs write it: strict JSON (no NaN or Infinity, RFC 8259 section 6),
NumPy numbers and pandas' NA as plain values, whichever way a value is encoded."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from sitecheck.io.writers import Streamed, json_lines, json_ready, json_text, ready_text


def _strict(text: str) -> object:
    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.integers(2**63, 2**80),  # past orjson's 64 bits: written by the json module
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.integers(-1000, 1000).map(np.int64),
    st.floats(allow_nan=True, width=32).map(np.float32),
    st.floats(allow_nan=True).map(np.float64),
    st.booleans().map(np.bool_),
    st.just(pd.NA),
)
values = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(st.text(max_size=5), inner, max_size=4),
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(values)
def test_a_value_reads_back_as_its_plain_value_with_nothing_but_json_in_it(value):
    text = ready_text(value)
    assert _strict(text) == _strict(json_text(json_ready(value)))
    assert _strict(text) == _strict(json.dumps(json_ready(value), allow_nan=False))


def test_a_small_float_reads_back_as_the_same_number_however_it_is_spelled():
    for number in (1e-05, 7.04918075011784e-05, -3.4065361109858515e-07, 5e-324, 1e22):
        assert _strict(ready_text([number])) == [number]


def test_text_that_is_not_unicode_is_written_as_the_json_module_writes_it():
    lone = "lot \ud800"  # a lone surrogate, as a broken attribute table may hold
    assert ready_text({"owner": lone}) == json_text({"owner": lone})


def test_nan_and_infinity_are_null_and_numpy_numbers_are_plain():
    row = {"a": math.nan, "b": [np.float64(1.5), np.int64(7), np.bool_(True), pd.NA, -math.inf]}
    assert ready_text(row) == '{"a":null,"b":[1.5,7,true,null,null]}'
    assert ready_text({"lot": "Ö-1", "area": 5216.0}) == '{"lot":"Ö-1","area":5216.0}'


def test_a_document_has_a_member_a_line_and_a_parcel_a_line():
    document = {"crs": "EPSG:2263", "parcels": [{"id": 1, "x": np.nan}, {"id": 2}], "n": 2}
    text = "".join(json_lines(document))
    assert text.splitlines() == [
        "{",
        '  "crs": "EPSG:2263",',
        '  "parcels": [',
        '    {"id":1,"x":null},',
        '    {"id":2}',
        "  ],",
        '  "n": 2',
        "}",
    ]
    assert _strict(text) == {
        "crs": "EPSG:2263",
        "parcels": [{"id": 1, "x": None}, {"id": 2}],
        "n": 2,
    }


def test_a_streamed_array_is_written_as_the_same_list_would_be():
    """Streamed parcels (made a chunk at a time as they are written) give the text of
    the held list, none included; made again each time they are read."""
    made = []

    def chunks():
        made.append(1)
        yield [{"id": 1, "x": np.nan}]
        yield []
        yield [{"id": 2}, {"id": 3}]

    rows = [{"id": 1, "x": np.nan}, {"id": 2}, {"id": 3}]
    for held, streamed in ((rows, Streamed(chunks)), ([], Streamed(lambda: iter([[]])))):
        expected = "".join(json_lines({"crs": "EPSG:2263", "parcels": held, "n": 3}))
        assert "".join(json_lines({"crs": "EPSG:2263", "parcels": streamed, "n": 3})) == expected
    assert [row["id"] for row in Streamed(chunks)] == [1, 2, 3]
    assert len(made) == 2
