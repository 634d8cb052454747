"""The engine's front doors: the ``sitecheck`` command line and the panel's worker."""
