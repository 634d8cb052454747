"""The HTML report's table of every listed parcel, sortable and filterable in the page.

A county run lists thousands of parcels; the report gives each a row here (severity,
design storm, the sections it triggers, its questions) and a detailed section only to
the most demanding. A small script in the page sorts a column when its heading is
pressed and filters the rows by text, severity and review; without the script the
table still reads, in the report's order. Each sortable cell carries its sort value
in ``data-v``, so numbers sort as numbers and severities by their rank.
"""

from __future__ import annotations

from collections.abc import Collection

from sitecheck.reports.html_format import (
    ParcelCells,
    anchor,
    esc,
    is_missing,
    natural_key,
    outcome_badge,
    severity_rank,
    sqft_cell,
    text_or_dash,
)
from sitecheck.rules.outcome import NEEDS_REVIEW, TRIGGERED, ParcelOutcome
from sitecheck.rules.review_groups import review_groups
from sitecheck.schema.severities import SEVERITIES
from sitecheck.screening.check import CheckResult

TABLE_ID = "parcel-table"
_NUM_CLASS = ' class="num"'

# Heading, how it sorts, whether its cells are figures (right-aligned).
_COLUMNS: tuple[tuple[str, str, bool], ...] = (
    ("Parcel", "num", False),  # sorted by the parcel ids' natural order, kept in data-v
    ("Address", "text", False),
    ("Owner", "text", False),
    ("Disturbed sq ft", "num", True),
    ("Net impervious sq ft", "num", True),
    ("Highest severity", "num", False),  # sorted by rank
    ("Design storm, years", "num", True),
    ("Sections triggered", "text", False),
    ("Rules under review", "num", True),
    ("Questions", "num", True),
)


def parcel_table(
    result: CheckResult, rows: list[int], detailed: Collection[int], cells: ParcelCells
) -> str:
    """The filter bar and the table of every listed parcel (``detailed``: rows with a section)."""
    cells.take_whole("parcel_id", "address", "owner")
    ids = result.measured.parcels["parcel_id"].astype(str).to_numpy()
    by_id = sorted(rows, key=lambda row: natural_key(ids[row]))
    natural = {row: position for position, row in enumerate(by_id)}
    head = "".join(
        f'<th data-type="{kind}" aria-sort="none"{_NUM_CLASS if figures else ""}>'
        f'<button type="button">{esc(title)}</button></th>'
        for title, kind, figures in _COLUMNS
    )
    body = "".join(_row(result, row, natural[row], row in detailed, cells) for row in rows)
    return (
        '<section id="parcel-list">\n<h2>Every listed parcel</h2>\n'
        + _filters(len(rows))
        + f'<div class="wide"><table class="summary" id="{TABLE_ID}"><thead><tr>{head}</tr>'
        f"</thead><tbody>\n{body}</tbody></table></div>\n</section>\n"
    )


def _filters(count: int) -> str:
    options = "".join(
        f'<option value="{esc(severity.key)}">{esc(severity.label)}</option>'
        for severity in reversed(SEVERITIES)
    )
    return (
        '<div class="filters" role="search">'
        '<label>Filter <input type="search" id="filter-text" '
        'placeholder="parcel, address, owner, section"></label> '
        '<label>Highest severity <select id="filter-severity"><option value="">any</option>'
        f'{options}<option value="none">none triggered</option></select></label> '
        '<label><input type="checkbox" id="filter-review"> with rules needing review</label> '
        f'<span id="filter-count" aria-live="polite">{count:,} of {count:,} parcels</span>'
        '<p class="muted">Press a column heading to sort by it; press again to reverse. '
        "A parcel's id links to its detailed section where it has one.</p></div>\n"
    )


def _row(result: CheckResult, row: int, natural: int, detailed: bool, cells: ParcelCells) -> str:
    outcome = result.outcomes[row]
    parcel_id = esc(cells(row, "parcel_id"))
    link = f'<a href="#{anchor(row)}">{parcel_id}</a>' if detailed else parcel_id
    severity = outcome.highest_severity if outcome is not None else None
    triggered = outcome.of(TRIGGERED) if outcome is not None else []
    review = outcome.of(NEEDS_REVIEW) if outcome is not None else []
    questions = len(review_groups(outcome)) if outcome is not None and review else 0
    sections = ", ".join(dict.fromkeys(t.rule.citation for t in triggered))
    disturbed = cells(row, "disturbed_area_sqft")
    net = cells(row, "impervious_net_change_sqft")
    return (
        f'<tr data-severity="{esc(severity or "none")}" data-review="{len(review)}">'
        f'<td data-v="{natural}">{link}</td>'
        f"<td>{text_or_dash(cells(row, 'address'))}</td>"
        f"<td>{text_or_dash(cells(row, 'owner'))}</td>"
        f'<td class="num"{_value(disturbed)}>{sqft_cell(disturbed)}</td>'
        f'<td class="num"{_value(net)}>{sqft_cell(net, signed=True)}</td>'
        f'<td data-v="{severity_rank(outcome)}">{outcome_badge(outcome)}</td>'
        f"{_storm_cell(outcome)}"
        f'<td class="sections">{esc(sections) or "—"}</td>'
        f'<td class="num">{len(review)}</td><td class="num">{questions}</td></tr>\n'
    )


def _value(number: object) -> str:
    return "" if is_missing(number) else f' data-v="{float(number):.2f}"'  # type: ignore[arg-type]


def _storm_cell(outcome: ParcelOutcome | None) -> str:
    if outcome is None or not outcome.triggers or outcome.design_storm == "none":
        return '<td class="num" data-v="-1">—</td>'
    years = outcome.design_storm_years or max(outcome.design_storm_review_years, default=0)
    return f'<td class="num" data-v="{years}">{esc(outcome.design_storm)}</td>'


TABLE_SCRIPT = """
(function () {
  var table = document.getElementById("parcel-table");
  if (!table) { return; }
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var order = rows.slice();
  var texts = null;
  var text = document.getElementById("filter-text");
  var severity = document.getElementById("filter-severity");
  var review = document.getElementById("filter-review");
  var count = document.getElementById("filter-count");
  var headings = table.tHead.rows[0].cells;
  function sortValue(row, column, numeric) {
    var cell = row.cells[column];
    var given = cell.getAttribute("data-v");
    if (numeric) { return given === null ? -Infinity : parseFloat(given); }
    return (given === null ? cell.textContent : given).toLowerCase();
  }
  function sortBy(column) {
    var heading = headings[column];
    var numeric = heading.getAttribute("data-type") === "num";
    var ascending = heading.getAttribute("aria-sort") !== "ascending";
    var keyed = order.map(function (row, position) {
      return [sortValue(row, column, numeric), position, row];
    });
    keyed.sort(function (a, b) {
      if (a[0] < b[0]) { return ascending ? -1 : 1; }
      if (a[0] > b[0]) { return ascending ? 1 : -1; }
      return a[1] - b[1];
    });
    order = keyed.map(function (item) { return item[2]; });
    var fragment = document.createDocumentFragment();
    order.forEach(function (row) { fragment.appendChild(row); });
    body.appendChild(fragment);
    for (var i = 0; i < headings.length; i++) { headings[i].setAttribute("aria-sort", "none"); }
    heading.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  }
  function filter() {
    if (texts === null) {
      texts = rows.map(function (row) { return row.textContent.toLowerCase(); });
    }
    var wanted = text.value.trim().toLowerCase();
    var level = severity.value;
    var reviewOnly = review.checked;
    var shown = 0;
    rows.forEach(function (row, index) {
      var keep = (!wanted || texts[index].indexOf(wanted) >= 0) &&
        (!level || row.getAttribute("data-severity") === level) &&
        (!reviewOnly || row.getAttribute("data-review") !== "0");
      row.hidden = !keep;
      if (keep) { shown += 1; }
    });
    count.textContent = shown.toLocaleString("en-US") + " of " +
      rows.length.toLocaleString("en-US") + " parcels";
  }
  Array.prototype.forEach.call(headings, function (heading, column) {
    heading.querySelector("button").addEventListener("click", function () { sortBy(column); });
  });
  text.addEventListener("input", filter);
  severity.addEventListener("change", filter);
  review.addEventListener("change", filter);
})();
"""
"""Sorts and filters the parcel table; the report's only script, inline (nothing is fetched)."""
