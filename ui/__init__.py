"""The SiteCheck dock panel (user interface)."""
