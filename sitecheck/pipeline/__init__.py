"""The one way a run is made: read, measure, check, screen runoff, write the documents.

The command line, the panel's worker and every Dask partition task call
:func:`~sitecheck.pipeline.run.screen`; the command line and the Dask driver
write through :mod:`~sitecheck.pipeline.outputs`.
"""
