"""Building chess tables: the xiangqi ``Builder`` with chess's hooks (material names, ``.ctb`` files, the chess
generator), and the default chess set."""
from __future__ import annotations

from .build import Builder
from .chess_index import parse_chess_material
from .chess_probe import MAGIC, SUFFIX

#: The endings asked for by name; ``shuai tb build --game chess --default`` builds them and every table they
#: capture or promote into (KPvKP needs KQvKP, KRvKP, KBvKP, KNvKP and those need KQvKQ ... KNvKN).
CHESS_NAMED = ["KQvK", "KRvK", "KBNvK", "KBBvK", "KPvK", "KQvKR", "KRvKB", "KRvKN", "KQvKP", "KRvKP", "KPvKP"]
CHESS_DEFAULT_SET = list(CHESS_NAMED)


class ChessBuilder(Builder):
    suffix = SUFFIX
    magic = MAGIC

    @staticmethod
    def parse(name: str):
        return parse_chess_material(name)

    def __init__(self, directory="tablebases", chunk: int = 8192, threads: int = 2):
        super().__init__(directory, chunk=chunk, rule=False, threads=threads)

    def generate(self, material, progress):
        from .chess_generate import generate_chess_table
        return generate_chess_table(material, self.load, progress, threads=self.threads)

    def kept(self, names, log=None):
        """Materials where no side can mate (KvK, KNvK, KBvK) need no table: they are skipped."""
        kept = []
        for n in names:
            m = self.parse(n) if isinstance(n, str) else n
            if m.canonical()[0].trivial():
                if log:
                    log(f"{m.name}: no table needed (no side can mate: always a draw)")
                continue
            kept.append(n)
        return kept
