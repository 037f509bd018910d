"""The coach: hints from a seat's view, who is winning, and the analysis of a finished game.

```python
from powergrid.coach import hint, win_chances, analyse
advice = hint(state.view(seat), seed=1)          # advice.action, advice.reason, advice.alternatives
chances = win_chances(state)                     # each seat's estimated chance to win
report = analyse(config, state.actions_taken())  # chances by round, costliest decisions
```

Imports only ``powergrid.rules`` and ``powergrid.bots``; see docs/coach.md.
"""

from .analysis import Analyser, Analysis, Decision, analyse
from .hint import HINT_LEVELS, Choice, Hint, NoHint, hint
from .winchance import WinModel, win_chances, win_model

__all__ = ["HINT_LEVELS", "Analyser", "Analysis", "Choice", "Decision", "Hint", "NoHint", "WinModel",
           "analyse", "hint", "win_chances", "win_model"]
