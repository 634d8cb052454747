"""Open a page in Debian's headless Chromium, run a probe script in it, read what it found.

The probe is appended to a copy of the page, after the page's own scripts, so it runs
once the page has run its own; it writes its findings as JSON into an element
``#probe-result``, which Chromium's ``--dump-dom`` prints. Used by the report's browser
test and by ``make bench`` (the time to open and sort a county report).
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",  # the tests run as root in CI
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--dump-dom",
)
_RESULT = re.compile(r'<pre id="probe-result">(.*?)</pre>', re.S)


def chromium() -> str:
    """The Chromium binary; the test set-up (``make test``) installs Debian's."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        raise RuntimeError("Debian's chromium is not installed (make test installs it)")
    return found


def probe(page: Path, script: str, budget_ms: int | None = 60_000) -> dict:
    """Load ``page`` with ``script`` run after it; return the JSON the script wrote.

    The script ends by calling ``report(value)``, which the probe defines. ``budget_ms``
    lets the page's timers run in virtual time; None keeps real time (for timing).
    """
    text = page.read_text(encoding="utf-8")
    harness = (
        "<script>function report(value) {"
        "var pre = document.createElement('pre'); pre.id = 'probe-result';"
        "pre.textContent = JSON.stringify(value); document.body.appendChild(pre); }\n"
        f"{script}\n</script>"
    )
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / page.name
        copy.write_text(text.replace("</body>", harness + "\n</body>", 1), encoding="utf-8")
        run = subprocess.run(
            [
                chromium(),
                *CHROMIUM_FLAGS,
                f"--user-data-dir={Path(folder) / 'profile'}",
                *([f"--virtual-time-budget={budget_ms}"] if budget_ms else []),
                copy.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
    found = _RESULT.search(run.stdout)
    if found is None:
        raise AssertionError(f"the probe wrote nothing; chromium said: {run.stderr[-2000:]}")
    return json.loads(html.unescape(found.group(1)))
