"""Processing provider and algorithms of the SiteCheck plugin (one algorithm a file)."""
