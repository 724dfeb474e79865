"""A fixture package for the miner tests (read as source, never imported)."""
