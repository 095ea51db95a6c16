"""Standard chess, the second game on the shared search: bitboard move generation, evaluation, SEE and the
game interface (``kernels``), with FEN, UCI move names and the referee at the edges."""
