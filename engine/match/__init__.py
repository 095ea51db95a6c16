"""The match runner (``shuai match``): engines over UCCI/UCI/xboard, adjudication, PGN, Elo, SPRT."""
