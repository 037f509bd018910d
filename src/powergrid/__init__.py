"""Power Grid (Funkenschlag, 2004): rules engine, bots, server and clients."""

from .rules import *  # noqa: F403
from .rules import __all__ as _rules_all

__version__ = "0.1.0"
__all__ = list(_rules_all)
