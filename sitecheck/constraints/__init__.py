"""Constraint geometry: FEMA flood classes, buffers, districts per lot, the adjoining property buffer."""
