"""Tuning the evaluation on the project's own data (issue 13): ``selfplay`` makes the training positions."""
