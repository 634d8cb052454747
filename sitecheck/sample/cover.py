"""Existing impervious cover of the district: houses, driveways, patios, lots of other uses."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
import shapely

from sitecheck.sample.layout import HOUSE, RESIDENTIAL


def frame_box(
    front_y: npt.ArrayLike,
    side: npt.ArrayLike,
    x0: npt.ArrayLike,
    x1: npt.ArrayLike,
    v0: npt.ArrayLike,
    v1: npt.ArrayLike,
) -> Any:
    """Boxes given in a lot's frame: ``v`` is the distance in from the front lot line.

    Works on scalars (returns one polygon) and on arrays (returns an array).
    ``v0 = 0`` puts the box's edge exactly on the front lot line.
    """
    front_y, side = np.asarray(front_y, dtype=float), np.asarray(side, dtype=float)
    ya = front_y + side * np.asarray(v0, dtype=float)
    yb = front_y + side * np.asarray(v1, dtype=float)
    return shapely.box(x0, np.minimum(ya, yb), x1, np.maximum(ya, yb))


def _house_lot(rng: np.random.Generator, lot: pd.Series) -> tuple[list, dict[str, float]]:
    """A house, its driveway (front lot line to the garage) and maybe a patio or garage."""
    width0, depth0, setback0 = HOUSE[str(lot.zone)]
    jitter = rng.uniform(0.9, 1.1, 3)
    inner = lot.x1 - lot.x0
    margin = max(6.0, 0.1 * inner)
    hw = round(min(width0 * jitter[0], inner - 2.0 * margin), 2)
    hv0 = round(setback0 * jitter[1], 2)
    hv1 = round(hv0 + depth0 * jitter[2], 2)
    dw = 14.0 if lot.zone == "AA-1" else 10.0 if lot.zone == "A-4" else 11.0
    left = bool(rng.random() < 0.5)
    garage = (
        bool(rng.random() < 0.25)
        and not lot.forced
        and inner - 2.0 * margin - hw >= dw + 4.0
        and lot.depth - hv1 >= 45.0
    )
    patio = bool(rng.random() < 0.5)
    slack = inner - 2.0 * margin - hw
    features: list[tuple[str, str, float, float, float, float]] = []
    if garage:
        lane = lot.x0 + margin if left else lot.x1 - margin - dw
        hx0 = lot.x0 + margin + dw + 4.0 if left else lot.x1 - margin - dw - 4.0 - hw
        gx0 = lot.x0 + margin if left else lot.x1 - margin - 22.0
        gv0 = hv1 + 6.0
        features += [
            ("driveway", "drive", lane, lane + dw, 0.0, gv0),
            ("building", "garage", gx0, gx0 + 22.0, gv0, gv0 + 22.0),
        ]
        drive = (lane, lane + dw, gv0)
    else:
        offset = 0.0 if lot.forced else float(rng.random()) * slack
        hx0 = round(lot.x0 + margin + offset, 2)
        dx0 = hx0 if left else hx0 + hw - dw
        features.append(("driveway", "drive", dx0, dx0 + dw, 0.0, hv0))
        drive = (dx0, dx0 + dw, hv0)
    hx1 = hx0 + hw
    features.append(("building", "house", hx0, hx1, hv0, hv1))
    if patio:
        pw, pd_ = min(0.45 * hw, 24.0), round(float(rng.uniform(12.0, 16.0)), 2)
        px0 = hx1 - 2.0 - pw if garage and left else hx0 + 2.0  # clear of the garage
        features.append(("patio", "patio", px0, px0 + pw, hv1, hv1 + pd_))
    frame = {
        "hx0": hx0,
        "hx1": hx1,
        "hv0": hv0,
        "hv1": hv1,
        "dx0": drive[0],
        "dx1": drive[1],
        "dv1": drive[2],
        "garage": garage,
        "drive_left": left,
    }
    return features, frame


def _other_lot(lot: pd.Series) -> list[tuple[str, str, float, float, float, float]]:
    """Buildings and parking of the non-residential lots; vacant lots have none."""
    x0, x1 = lot.x0, lot.x1
    if lot.use == "481":
        return [
            ("building", "building", x0 + 2.0, x1 - 2.0, 0.0, 68.0),
            ("driveway", "parking", x0 + 4.0, x1 - 4.0, 70.0, lot.depth - 4.0),
        ]
    if lot.use == "452":
        return [
            ("building", "building", x0 + 45.0, x1 - 45.0, 110.0, 185.0),
            ("driveway", "parking", x0 + 10.0, x1 - 10.0, 0.0, 100.0),
        ]
    if lot.use == "620":
        return [
            ("building", "building", x0 + 60.0, x0 + 150.0, 40.0, 100.0),
            ("driveway", "parking", x0 + 185.0, x0 + 285.0, 0.0, 90.0),
        ]
    if lot.use == "963":
        return [
            ("building", "building", x0 + 380.0, x0 + 410.0, 90.0, 120.0),
            ("driveway", "parking", x0 + 20.0, x0 + 100.0, 0.0, 50.0),
        ]
    return []


def district_impervious(rng: np.random.Generator, lots: pd.DataFrame) -> pd.DataFrame:
    """Existing impervious cover of every lot; adds the house frame columns to ``lots``."""
    rows: list[dict[str, object]] = []
    frames: list[dict[str, float]] = []
    for i, lot in enumerate(lots.itertuples(index=False)):
        series = pd.Series(lot._asdict())
        frame = dict.fromkeys(("hx0", "hx1", "hv0", "hv1", "dx0", "dx1", "dv1"), np.nan)
        frame.update(garage=False, drive_left=False)
        if lot.use in RESIDENTIAL:
            boxes, house = _house_lot(rng, series)
            frame.update(house)
        else:
            boxes = _other_lot(series)
        for kind, role, x0, x1, v0, v1 in boxes:
            geom = frame_box(lot.front_y, lot.side, x0, x1, v0, v1)
            rows.append({"geom": geom, "lot": i, "kind": kind, "role": role, "v1": v1})
        frames.append(frame)
    features = pd.DataFrame.from_records(rows)
    for key in frames[0]:
        lots[key] = [f[key] for f in frames]
    reach = features.groupby("lot")["v1"].max()
    lots["rear_free"] = reach.reindex(range(len(lots))).fillna(-6.0).to_numpy() + 6.0
    lots["has_house"] = lots["use"].isin(RESIDENTIAL).to_numpy()
    return features.drop(columns="v1")
