"""The chess kernels the Python edge calls beyond the search's (``engine.warmup`` calls ``warm``): none -- exchange
values, check tests and legality are the search's own kernels, loaded with it."""


def warm(pos) -> None:
    """Nothing to load."""
