"""The projects of the village: the hand-placed ones in the first district, random ones elsewhere."""

from __future__ import annotations

from dataclasses import dataclass, field

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from sitecheck.sample.constants import CRS
from sitecheck.sample.cover import frame_box
from sitecheck.sample.grid import Plan
from sitecheck.sample.model import Template


@dataclass
class _ProjectRows:
    """Disturbance, proposed cover and project-table rows being collected."""

    dist_geoms: list[np.ndarray] = field(default_factory=list)
    dist_cols: dict[str, list[object]] = field(default_factory=dict)
    prop_geoms: list[np.ndarray] = field(default_factory=list)
    prop_lot: list[np.ndarray] = field(default_factory=list)
    prop_kind: list[np.ndarray] = field(default_factory=list)
    table: dict[str, list[str]] = field(
        default_factory=lambda: {"name": [], "parcel_id": [], "exercises": []}
    )

    def disturbance(self, geoms: np.ndarray, **columns: list[object]) -> None:
        self.dist_geoms.append(np.asarray(geoms, dtype=object))
        for key, values in columns.items():
            self.dist_cols.setdefault(key, []).extend(values)

    def proposed(self, geoms: np.ndarray, lots: np.ndarray, kinds: np.ndarray) -> None:
        self.prop_geoms.append(np.asarray(geoms, dtype=object))
        self.prop_lot.append(np.asarray(lots, dtype=np.int64))
        self.prop_kind.append(np.asarray(kinds, dtype=object))


def _shifted(geom: shapely.Geometry, offset: np.ndarray) -> shapely.Geometry:
    return shapely.transform(geom, lambda xy: xy + offset)


@dataclass(frozen=True)
class _Village:
    """The village the projects are drawn on: its district template, the plan of the
    district's repeats, and each lot's parcel id."""

    template: Template
    plan: Plan
    ids: list[str]


def _add_hand_placed(rows: _ProjectRows, village: _Village) -> list[int]:
    """The hand-placed projects of the first district; returns the lots they use."""
    template, plan, ids = village.template, village.plan, village.ids
    offset = plan.offsets[0]
    features = template.features
    lots = []
    for p in template.projects:
        if p.lot >= plan.lots:
            continue
        lots += p.lots()
        pid = ids[p.lot]
        n = len(p.disturbance)
        rows.disturbance(
            np.array([_shifted(g, offset) for g, _ in p.disturbance], dtype=object),
            parcel_id=[pid] * n,
            project=[p.name] * n,
            phase=[ph for _, ph in p.disturbance],
            project_type=[p.project_type] * n,
            activity=[p.activity] * n,
            permit=[p.permit] * n,
            larger_common_plan=[p.project_type == "single_family_subdivision"] * n,
        )
        kept = features[(features.lot == p.lot) & ~features.index.isin(p.removed)]
        geoms = [_shifted(g, offset) for g in kept.geom] + [_shifted(g, offset) for g, _ in p.added]
        kinds = list(kept.kind) + [k for _, k in p.added]
        rows.proposed(np.array(geoms, dtype=object), np.full(len(geoms), p.lot), np.array(kinds))
        rows.table["name"].append(p.name)
        rows.table["parcel_id"].append(pid)
        rows.table["exercises"].append(p.exercises)
    return lots


def _random_lots(
    template: Template, plan: Plan, rng: np.random.Generator, share: float, exclude: list[int]
) -> np.ndarray:
    """Lots drawn for random projects: houses with room behind them."""
    lots, per = template.lots, len(template.lots)
    t = np.arange(plan.lots) % per
    eligible = (lots.has_house.to_numpy() & (lots.depth - lots.rear_free >= 25.0).to_numpy())[t]
    eligible[np.asarray(exclude, dtype=np.int64)] = False
    candidates = np.flatnonzero(eligible)
    count = min(len(candidates), round(share * plan.lots))
    return np.sort(rng.choice(candidates, size=count, replace=False))


@dataclass
class _RandomWork:
    """Geometry of random projects: one added feature each, one or two disturbance polygons."""

    added: np.ndarray
    added_kind: np.ndarray
    first: np.ndarray
    second: np.ndarray
    front: np.ndarray
    phased: np.ndarray


def _random_work(
    template: Template, plan: Plan, chosen: np.ndarray, rng: np.random.Generator
) -> _RandomWork:
    """Draw the work on each chosen lot, in the lot's frame, as arrays.

    Most projects add a rear addition beyond the existing cover (a quarter of
    them in two phases); a fifth widen the driveway beside the existing one,
    their disturbance running 10 ft into the street.
    """
    n, per = len(chosen), len(template.lots)
    col = {
        k: template.lots[k].to_numpy()[chosen % per].astype(float)
        for k in (
            "x0",
            "x1",
            "front_y",
            "side",
            "depth",
            "dx0",
            "dx1",
            "dv1",
            "rear_free",
            "drive_left",
        )
    }
    off = plan.offsets[chosen // per]
    x0, x1 = col["x0"] + off[:, 0], col["x1"] + off[:, 0]
    dx0, dx1 = col["dx0"] + off[:, 0], col["dx1"] + off[:, 0]
    front_y, side = col["front_y"] + off[:, 1], col["side"]
    front = rng.random(n) < 0.2
    phased = ~front & (rng.random(n) < 0.25)
    # a rear addition beyond everything already built
    depth = np.minimum(rng.uniform(12.0, 30.0, n), col["depth"] - col["rear_free"] - 10.0)
    width = np.minimum(rng.uniform(16.0, 40.0, n), x1 - x0 - 16.0)
    ax0 = x0 + 8.0 + rng.random(n) * (x1 - x0 - 16.0 - width)
    av0 = col["rear_free"] + 2.0
    grow = rng.uniform(6.0, 14.0, n)
    # or a strip on the outer side of the driveway, from the front lot line
    left = col["drive_left"] > 0
    sx0 = np.where(left, np.maximum(x0 + 2.0, dx0 - 8.0), dx1)
    sx1 = np.where(left, dx0, np.minimum(x1 - 2.0, dx1 + 8.0))
    added = frame_box(
        front_y,
        side,
        np.where(front, sx0, ax0),
        np.where(front, sx1, ax0 + width),
        np.where(front, 0.0, av0),
        np.where(front, col["dv1"], av0 + depth),
    )
    w0 = np.where(front, sx0 - 2.0, np.maximum(x0 + 1.0, ax0 - grow))
    w1 = np.where(front, sx1 + 2.0, np.minimum(x1 - 1.0, ax0 + width + grow))
    v0 = np.where(front, -10.0, av0 - 4.0)
    v1 = np.where(front, col["dv1"] + 2.0, np.minimum(col["depth"] - 1.0, av0 + depth + grow))
    mid = np.where(phased, (w0 + w1) / 2.0, w1)
    first = frame_box(front_y, side, w0, mid, v0, v1)
    p = phased
    second = frame_box(front_y[p], side[p], mid[p], w1[p], v0[p], v1[p])
    kind = np.where(front, "driveway", "building").astype(object)
    return _RandomWork(added, kind, first, second, front, phased)


def _add_random(
    rows: _ProjectRows,
    village: _Village,
    rng: np.random.Generator,
    share: float,
    exclude: list[int],
    existing: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> None:
    """Random projects on a share of the lots; proposed cover = existing plus the addition."""
    template, plan, ids = village.template, village.plan, village.ids
    chosen = _random_lots(template, plan, rng, share, exclude)
    n = len(chosen)
    if n == 0:
        return
    work = _random_work(template, plan, chosen, rng)
    names = [
        f"R{k + 1:06d} {'driveway widening' if f else 'rear addition'}"
        for k, f in enumerate(work.front.tolist())
    ]
    pids = [ids[g] for g in chosen.tolist()]
    twice = np.flatnonzero(work.phased)
    project = np.r_[np.arange(n), twice]
    phase = np.r_[np.where(work.phased, 1, 0), np.full(len(twice), 2)]
    order = np.lexsort((phase, project))
    count = len(order)
    rows.disturbance(
        np.concatenate([work.first, work.second])[order],
        parcel_id=[pids[k] for k in project[order].tolist()],
        project=[names[k] for k in project[order].tolist()],
        phase=[None if p == 0 else int(p) for p in phase[order].tolist()],
        project_type=["single_family_home"] * count,
        activity=["construction"] * count,
        permit=["building"] * count,
        larger_common_plan=[False] * count,
    )
    keep = np.isin(existing[1], chosen)
    lots = np.r_[existing[1][keep], chosen]
    by_lot = np.argsort(lots, kind="stable")
    rows.proposed(
        np.concatenate([existing[0][keep], work.added])[by_lot],
        lots[by_lot],
        np.concatenate([existing[2][keep], work.added_kind])[by_lot],
    )
    rows.table["name"] += names
    rows.table["parcel_id"] += pids
    rows.table["exercises"] += ["random bench project"] * n


def project_frames(
    template: Template,
    plan: Plan,
    ids: list[str],
    rng: np.random.Generator,
    share: float | None,
    existing: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> tuple[gpd.GeoDataFrame, gpd.GeoDataFrame, pd.DataFrame]:
    """Disturbance, proposed impervious cover and the project table."""
    rows = _ProjectRows()
    village = _Village(template, plan, ids)
    hand = _add_hand_placed(rows, village)
    if share:
        _add_random(rows, village, rng, share, hand, existing)
    cols = rows.dist_cols
    disturbance = gpd.GeoDataFrame(
        {
            "parcel_id": cols.get("parcel_id", []),
            "project": cols.get("project", []),
            "phase": pd.array(cols.get("phase", []), dtype="Int32"),
            "project_type": cols.get("project_type", []),
            "activity": cols.get("activity", []),
            "permit": cols.get("permit", []),
            "larger_common_plan": pd.array(cols.get("larger_common_plan", []), dtype="boolean"),
        },
        geometry=_concat(rows.dist_geoms),
        crs=CRS,
    )
    lot = np.concatenate(rows.prop_lot) if rows.prop_lot else np.empty(0, dtype=np.int64)
    proposed = gpd.GeoDataFrame(
        {"parcel_id": [ids[g] for g in lot.tolist()], "kind": _concat(rows.prop_kind)},
        geometry=_concat(rows.prop_geoms),
        crs=CRS,
    )
    return disturbance, proposed, pd.DataFrame(rows.table)


def _concat(parts: list[np.ndarray]) -> np.ndarray:
    return np.concatenate(parts) if parts else np.empty(0, dtype=object)
