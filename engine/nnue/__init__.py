"""The evaluation network (NNUE, issue 33): a position's pieces, seen from each side, summed into an accumulator
per side; the accumulators clipped and squared, weighed into one score.

* :mod:`.features` which input a piece on a square is, from either side's view -- one rule for both games
* :mod:`.network`  the network file (format, checks, provenance) and the numpy reference every kernel must equal
* :mod:`.kernels`  the same arithmetic compiled with numba for the search

The network is the project's own, trained on its own games (``engine.tune.nnue_train``).
"""
