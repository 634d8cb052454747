"""Allow ``python -m sitecheck``: the plugin starts the engine this way."""

from sitecheck.app.cli import run

raise SystemExit(run())
