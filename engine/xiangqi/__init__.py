"""Xiangqi rules: board and Zobrist keys (board), move generation (movegen), Position and FEN (position),
move notation (notation)."""
