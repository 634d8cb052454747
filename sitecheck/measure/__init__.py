"""Measuring every parcel: one measurer per stage and a small driver (:func:`driver.measure`)."""
