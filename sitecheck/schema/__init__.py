"""The engine's vocabulary, declared once: roles, options, metrics, flags, severities, packs.

Everything a user sees named (a layer role, an option with its default and
bounds, a metric with its unit and label, a flag kind or a severity with its
label and colour, a bundled pack) is declared here and nowhere else. The
command line, the worker, the reports and, through ``sitecheck describe
--json``, the QGIS plugin are built from it. This package imports nothing of
SiteCheck but :mod:`sitecheck.errors`.
"""
