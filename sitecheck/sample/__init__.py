"""The deterministic sample village, for demos, tests and benchmarks (:func:`village.generate_village`)."""
