"""The win/draw/loss model of chess (engine/wdl.py), written by engine/tune/wdl.py -- do not edit by hand.

a: the score (centipawns, the side to move's) at which a win is 50% likely; b: the logistic's width;
each at ply 0, PLY_CAP / 2 and PLY_CAP, a quadratic in the ply between them.
"""

PROVENANCE = {'command': 'python -m engine.tune wdl --game chess --games 1000 --seed 2 --workers 1',
 'data': 'tune/wdl-chess-1000g-seed2-3000n.txt.gz: 1000 self-play games (engine.tune.selfplay, seed 2, 3000 '
         'nodes a move), reused: the file these settings write (the games depend on them alone), played '
         'earlier; sha256 of the text 3647101a4df49d5c',
 'positions': '83151 fitted (win/draw/loss 0.323 / 0.343 / 0.334), 9239 held out',
 'ply_cap': '220: the ply 95% of the positions have not passed, rounded up to a multiple of 10',
 'loss': 'mean -log(chance of the result): 0.910196 at the start, 0.685653 after 17 sweeps; held out '
         '0.708766',
 'date': '2026-11-26'}

PLY_CAP = 220
A = (73.58, 223.77, 776.85)
B = (141.39, 129.06, 218.39)
