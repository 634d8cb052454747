"""The adjoining property buffer (§ 254-4) derived from lot lines."""

from __future__ import annotations

import numpy as np
import pytest
from shapely.geometry import box

from sitecheck.constraints.adjoining import AdjoiningSettings, adjoining_buffers
from sitecheck.rules.pack import load_pack

# Three lots on a street (south of y = 0) backed by one deep lot to the north.
WEST, MIDDLE, EAST = box(0, 0, 100, 150), box(100, 0, 200, 150), box(200, 0, 300, 150)
BACK = box(0, 150, 300, 300)
LOTS = np.array([WEST, MIDDLE, EAST, BACK], dtype=object)
# § 254-4 as amended by L.L. 2-2023 (shared/ordinances/README.md): "Residence A districts
# are AA-1, A-1, A-2, A-2a, A-3, A-4 and A-5".
RESIDENCE_A = ("AA-1", "A-1", "A-2", "A-2a", "A-3", "A-4", "A-5")
SETTINGS = AdjoiningSettings(
    rear_setback_ft=30,
    side_setbacks_ft={"A-3": 10},
    default_side_setback_ft=30,
    districts=RESIDENCE_A,
)


def test_mid_block_lot_gets_side_strips_and_a_rear_strip():
    districts = np.array(["A-3"] * 4, dtype=object)
    middle = adjoining_buffers(LOTS, districts, SETTINGS, feet_per_unit=1.0)[1]
    expected = box(100, 0, 110, 150).union(box(190, 0, 200, 150)).union(box(100, 120, 200, 150))
    assert middle.symmetric_difference(expected).area == pytest.approx(0, abs=1e-6)
    assert middle.area == pytest.approx(10 * 150 * 2 + 30 * 100 - 2 * 10 * 30)


def test_lots_outside_residence_a_get_no_buffer():
    districts = np.array(["A-3", "B-1", "A-3", "A-3"], dtype=object)
    buffers = adjoining_buffers(LOTS, districts, SETTINGS, feet_per_unit=1.0)
    assert buffers[1].is_empty
    assert not buffers[0].is_empty


def test_without_a_district_list_every_district_gets_a_buffer():
    districts = np.array(["A-3", "B-1", "A-3", "A-3"], dtype=object)
    no_list = AdjoiningSettings(rear_setback_ft=30, default_side_setback_ft=10)
    middle = adjoining_buffers(LOTS, districts, no_list, feet_per_unit=1.0)[1]
    assert middle.area == pytest.approx(10 * 150 * 2 + 30 * 100 - 2 * 10 * 30)


def test_scarsdales_pack_names_the_residence_a_districts_of_254_4():
    measuring = load_pack("scarsdale").measuring
    assert measuring.adjoining_buffer_districts == RESIDENCE_A
    assert measuring.adjoining_buffer_label == "Residence A districts"


def test_unknown_zoning_gives_every_lot_a_buffer():
    buffers = adjoining_buffers(LOTS, None, SETTINGS, feet_per_unit=1.0)
    assert all(not b.is_empty for b in buffers)


def test_a_district_without_a_configured_side_setback_uses_the_default():
    districts = np.array(["A-1"] * 4, dtype=object)
    middle = adjoining_buffers(LOTS, districts, SETTINGS, feet_per_unit=1.0)[1]
    assert middle.area == pytest.approx(30 * 150 * 2 + 30 * 100 - 2 * 30 * 30)


def test_a_small_digitising_gap_still_reads_as_a_shared_line():
    gapped = np.array([box(0, 0, 100, 150), box(100.4, 0, 200, 150)], dtype=object)
    buffers = adjoining_buffers(gapped, None, SETTINGS, feet_per_unit=1.0)
    assert buffers[0].area == pytest.approx(30 * 150, rel=0.01)


def test_setbacks_convert_to_metres_in_a_metric_crs():
    metres = np.array([box(0, 0, 30.48, 45.72), box(30.48, 0, 60.96, 45.72)], dtype=object)
    buffers = adjoining_buffers(metres, None, SETTINGS, feet_per_unit=1 / 0.3048)
    # one shared side line, 30 ft = 9.144 m wide, 150 ft = 45.72 m long
    assert buffers[0].area == pytest.approx(9.144 * 45.72, rel=1e-6)


def test_only_limits_the_work_to_the_lots_asked_for():
    buffers = adjoining_buffers(LOTS, None, SETTINGS, feet_per_unit=1.0, only=np.array([2]))
    assert [b.is_empty for b in buffers] == [True, True, False, True]


def test_disturbance_in_buffer_equals_the_buffer_cut_by_the_disturbance():
    from sitecheck.constraints.adjoining import disturbance_in_buffer

    # One drawing per lot of LOTS; the first spills onto its neighbour, which must not count.
    disturbed = np.array(
        [
            box(60, 10, 120, 40),
            box(150, 100, 195, 160),
            box(250, 120, 290, 149),
            box(250, 160, 290, 200),
        ],
        dtype=object,
    )
    districts = np.array(["A-3"] * 4, dtype=object)
    active = np.arange(4)
    fast = disturbance_in_buffer(LOTS, disturbed, districts, SETTINGS, 1.0, active)
    full = adjoining_buffers(LOTS, districts, SETTINGS, 1.0)
    for i in active:
        expected = full[i].intersection(disturbed[i])
        assert fast[i].symmetric_difference(expected).area == pytest.approx(0, abs=1e-6), i
    # West: corner lot, its east line is a rear line (30 ft); middle: 10-ft sides and a
    # 30-ft rear; east: corner lot; back: its south line faces away from its frontage.
    assert [round(f.area, 6) for f in fast] == [900.0, 1450.0, 1160.0, 800.0]
