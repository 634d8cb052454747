"""The documents of a run: the JSON document and audit block, the HTML report and its maps."""
