"""Screening measured parcels: choosing packs, evaluating their rules, the runoff screen, notices."""
