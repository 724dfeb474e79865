"""Laying out an answer once for every surface: Discord embeds, the console, ``tracebot ask``."""
