"""Screening many parcels on a Dask cluster, with the single-process engine's answers.

The parcels are cut into compact partitions along a Hilbert curve
(:mod:`~sitecheck.distributed.plan`); each partition is measured and checked by a Dask
task that reads only a window around its lots, with large constraint polygons
cut to the window (:mod:`~sitecheck.distributed.window`); results stream back to the
driver and are appended to the outputs as they arrive
(:mod:`~sitecheck.distributed.sink`). :mod:`~sitecheck.distributed.run` ties it together.
"""
