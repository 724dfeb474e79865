"""Benchmarks: figures for speed and memory targets (run with ``make bench``)."""
