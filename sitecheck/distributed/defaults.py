"""Defaults of distributed runs, importable without Dask."""

DEFAULT_PARTITION_SIZE = 10_000
"""Parcels per Dask task: large enough to amortise reading, small enough to stream."""
