"""A parcel's values as the rules read them (``parcel_value_rows``): each project field
read as its attribute reads it alone, however often a value repeats down the column."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd

from sitecheck.rules.attributes import ATTRIBUTES, UNREADABLE, attribute_value, unreadable
from sitecheck.schema.metrics import METRICS, PARTLY_MEASURED
from sitecheck.screening.values import parcel_value_rows

PLAN = ["yes", 1, True, 1.0, "1", None, "maybe", "no", 0, False, "maybe", np.nan, "yes"]
# 1 and True are equal dictionary keys; as an activity each is its own unknown text.
ACTIVITY = [
    "construction", "Construction ", "mowing", 1, "construction", "mowing",
    "construction", "Construction ", "mowing", True, "construction", "mowing", "landscaping",
]  # fmt: skip


def _measured() -> SimpleNamespace:
    count = len(PLAN)
    frame = pd.DataFrame({metric.name: np.full(count, np.nan) for metric in METRICS})
    for partial in PARTLY_MEASURED:
        frame[partial.coverage] = 1.0
    frame["larger_common_plan"] = pd.Series(PLAN, dtype=object)
    frame["activity"] = pd.Series(ACTIVITY, dtype=object)
    return SimpleNamespace(parcels=frame, log=SimpleNamespace(kept=None))  # no session


def test_repeated_and_equal_looking_values_read_as_each_reads_alone():
    rows = parcel_value_rows(_measured(), list(range(len(PLAN))), warn=False)
    plan = next(a for a in ATTRIBUTES if a.name == "larger_common_plan")
    activity = next(a for a in ATTRIBUTES if a.name == "activity")
    for row, (raw_plan, raw_activity) in enumerate(zip(PLAN, ACTIVITY, strict=True)):
        assert rows[row]["larger_common_plan"] == attribute_value(plan, raw_plan)
        assert rows[row]["activity"] == attribute_value(activity, raw_activity)
        held = {
            attribute.label: str(raw).strip()
            for attribute, raw in ((plan, raw_plan), (activity, raw_activity))
            if unreadable(attribute, raw)
        }
        assert rows[row].get(UNREADABLE, {}) == held
    # 1 and True read alike as "yes"; "maybe" and "mowing" are not values the rules know
    assert [rows[i]["larger_common_plan"] for i in (1, 2)] == [True, True]
    assert rows[6][UNREADABLE] == {"part of a larger common plan": "maybe"}
    assert rows[8][UNREADABLE] == {"activity": "mowing"}
    assert UNREADABLE not in rows[0] and rows[1]["activity"] == rows[0]["activity"]
    assert rows[3][UNREADABLE]["activity"] == "1" and rows[9][UNREADABLE]["activity"] == "True"
