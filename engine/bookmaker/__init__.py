"""Making opening books (``shuai book build``, ``shuai book probe``): from games or the engine's own self-play.

A front end above the searcher, which it drives for self-play; the books themselves are read by ``engine.book``,
which the searcher uses (so the reading side stays below the search and this side above it).
"""
