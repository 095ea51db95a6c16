"""The win/draw/loss model of xiangqi (engine/wdl.py), written by engine/tune/wdl.py -- do not edit by hand.

a: the score (centipawns, the side to move's) at which a win is 50% likely; b: the logistic's width;
each at ply 0, PLY_CAP / 2 and PLY_CAP, a quadratic in the ply between them.
"""

PROVENANCE = {'command': 'python -m engine.tune wdl --game xiangqi --games 1000 --seed 2 --workers 1',
 'data': 'tune/wdl-xiangqi-1000g-seed2-3000n.txt.gz: 1000 self-play games (engine.tune.selfplay, seed 2, '
         '3000 nodes a move), reused: the file these settings write (the games depend on them alone), played '
         'earlier; sha256 of the text 331ab454624de916',
 'positions': '105845 fitted (win/draw/loss 0.278 / 0.454 / 0.268), 11761 held out',
 'ply_cap': '290: the ply 95% of the positions have not passed, rounded up to a multiple of 10',
 'loss': 'mean -log(chance of the result): 1.099664 at the start, 0.628538 after 16 sweeps; held out '
         '0.547029',
 'date': '2026-11-26'}

PLY_CAP = 290
A = (112.64, 401.11, 1143.17)
B = (218.25, 162.46, 299.06)
