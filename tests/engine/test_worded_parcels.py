"""A run that words some parcels only (the panel words the parcel it shows): the others'
outcomes are the fully worded run's, without reasons until a report asks for them."""

from __future__ import annotations

from dataclasses import replace

from sitecheck.pipeline.run import screen
from sitecheck.pipeline.spec import RunSpec

from .village_runs import village_inputs


def _shown(outcome) -> list[tuple]:
    return [(t.rule.id, t.outcome, t.facts, t.note, t.causes) for t in outcome.triggers]


def test_the_parcels_not_worded_keep_their_outcomes_and_are_worded_when_asked(shared_village):
    village = shared_village(parcels=400)
    spec = RunSpec(village_inputs(village), ordinance="scarsdale")
    full = screen(spec)
    ids = full.measured.parcels["parcel_id"].astype(str).tolist()
    with_work = [row for row, outcome in enumerate(full.outcomes) if outcome and outcome.triggers]
    shown = with_work[len(with_work) // 2]
    part = screen(replace(spec, worded_parcels=frozenset({ids[shown]})))
    assert len(with_work) >= 5
    assert part.unworded == set(with_work) - {shown}
    assert _shown(part.outcomes[shown]) == _shown(full.outcomes[shown])
    for row in with_work:
        got, expected = part.outcomes[row], full.outcomes[row]
        assert [(t.rule.id, t.outcome) for t in got.triggers] == [
            (t.rule.id, t.outcome) for t in expected.triggers
        ]
        assert (got.design_storm_years, got.highest_severity) == (
            expected.design_storm_years,
            expected.highest_severity,
        )
        if row != shown:  # decided, not worded: an exemption's note alone, as the evaluator's
            assert not any(t.facts or t.causes for t in got.triggers)
    # The projects' sites: the same outcomes, none worded.
    assert part.projects is not None and part.projects.site_result is not None
    sites, full_sites = part.projects.site_result, full.projects.site_result
    assert sites.unworded and sites.unworded == {
        row for row, outcome in enumerate(full_sites.outcomes) if outcome and outcome.triggers
    }
    for got, expected in zip(sites.outcomes, full_sites.outcomes, strict=True):
        if expected is not None:
            assert [t.outcome for t in got.triggers] == [t.outcome for t in expected.triggers]
    # A report's detailed sections word what they show: as the full run worded it.
    part.with_every_reason(with_work)
    for row in with_work:
        assert _shown(part.outcomes[row]) == _shown(full.outcomes[row])
