"""Exception classes raised by the fixture package."""


class CacheError(RuntimeError):
    """The cache is missing or unusable."""


class ConfigError(ValueError):
    """A configuration value is wrong."""


class StrictConfigError(ConfigError):
    """A configuration value is wrong, in strict mode."""


def check_cache(cache: object) -> None:
    """Raise if there is no cache."""
    if cache is None:
        raise CacheError("assisted decoding requires a cache")
    if cache == "static":
        raise StrictConfigError(f"static caches are not supported, got {cache!r}")
