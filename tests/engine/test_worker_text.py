"""The panel's worker holds its tables' text as Python strings, not Arrow arrays
(``sitecheck.app.worker.TEXT_STORAGE``): its answers must be those Arrow gives, and the
caller's pandas setting is left as it was."""

from __future__ import annotations

import json

import pandas as pd
import shapely

import sitecheck.app.worker as worker

from .test_worker import DRAWN, _layer_payload, _open_request, _run, village  # noqa: F401
from .test_worker_kept import _answer


def _grown(payload: dict, lot_id: str, feet: float) -> dict:
    """The drawn disturbance with the work naming ``lot_id`` grown by ``feet`` all round."""
    features = []
    for feature in payload["features"]:
        if feature["properties"].get("parcel_id") == lot_id:
            shape = shapely.from_wkb(bytes.fromhex(feature["wkb"])).buffer(feet, 2)
            feature = {**feature, "wkb": shapely.to_wkb(shape, hex=True)}
        features.append(feature)
    return {**payload, "features": features}


def test_text_held_as_python_strings_answers_as_arrow_does(village, monkeypatch):  # noqa: F811
    """A lot of a project of several lots (its site measured and checked as well) and a
    lot with work of its own, each as drawn and with its work grown: every answer with
    the worker's text as Python strings equals the answer with pandas' Arrow default."""
    paths, full = village
    gpkg = paths["gpkg"]
    projects = json.loads((gpkg.parent / "full.json").read_text()).get("projects", [])
    on_sites = {lot for site in projects if len(site["lots"]) > 1 for lot in site["lots"]}
    site_lot = sorted(on_sites)[0]
    alone = sorted(
        parcel_id
        for parcel_id, entry in full.items()
        if (entry["metrics"]["disturbed_area_sqft"] or 0) > 0 and parcel_id not in on_sites
    )[0]
    layers = {role: _layer_payload(gpkg, role) for role in DRAWN}
    requests = [_open_request(paths)]
    for lot_id in (site_lot, alone):
        for feet in (0.0, 6.0):
            drawn = {**layers, "disturbance": _grown(layers["disturbance"], lot_id, feet)}
            requests.append({"op": "evaluate", "parcel_id": lot_id, "layers": drawn})

    held: list[str] = []  # the storage of the lots' ids as each session read them
    opened = worker.Session.open.__func__  # type: ignore[attr-defined]

    def recorded(cls, request):
        session = opened(cls, request)
        held.append(session.cache["parcels"]["parcel_id"].dtype.storage)
        return session

    monkeypatch.setattr(worker.Session, "open", classmethod(recorded))
    with pd.option_context("mode.string_storage", "pyarrow"):
        as_python = _run(requests)[1:]
        assert pd.get_option("mode.string_storage") == "pyarrow"  # the caller's, kept
        monkeypatch.setattr(worker, "TEXT_STORAGE", "pyarrow")
        as_arrow = _run(requests)[1:]
    assert held == ["python", "pyarrow"]
    assert all(reply["ok"] for reply in as_python), as_python
    on_site = as_python[0]["projects"]
    assert any(len(project["lots"]) > 1 for project in on_site), on_site
    assert (
        as_python[1]["metrics"]["disturbed_area_sqft"]
        > as_python[0]["metrics"]["disturbed_area_sqft"]
    )
    assert [_answer(reply) for reply in as_python] == [_answer(reply) for reply in as_arrow]
