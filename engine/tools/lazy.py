"""A click group whose commands live in modules imported only when one of them runs (click's documented
lazy-loading pattern): the tools import numba kernels, reference engines' adapters and python-chess."""
import importlib

import click


class LazyGroup(click.Group):
    """``lazy``: command name -> "module:attribute", the module relative to ``engine.tools``."""

    def __init__(self, *args, lazy: dict = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx, name):
        if name in self.lazy:
            module, attribute = self.lazy[name].split(":")
            return getattr(importlib.import_module(f"engine.tools.{module}"), attribute)
        return super().get_command(ctx, name)
