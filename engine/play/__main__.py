"""``python -m engine.play``: the same as ``shuai play``."""
from .cli import play

play(prog_name="shuai play")
