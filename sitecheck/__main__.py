"""Allow ``python -m sitecheck``: the plugin starts the engine this way."""

from sitecheck.app.cli import main

raise SystemExit(main())
