"""PNG plots of a tournament (matplotlib, Agg backend; the ``plots`` extra)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .stats import BotSummary

#: Colours per bot kind, in the summary's order (colour-blind safe, Okabe-Ito).
#: Rounds reached by fewer than this share of a bot's games are not drawn.
MIN_SHARE = 0.2

PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError as exc:
        raise RuntimeError("plots need matplotlib: pip install 'powergrid[plots]'") from exc
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def plot_win_rates(summaries: Sequence[BotSummary], players: int, path: Path, title: str) -> Path:
    """Bars of each bot's win rate with its 95% Wilson interval, and the par line (1 / players)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(max(5.0, 1.6 * len(summaries) + 2.5), 4.5), dpi=120)
    names = [s.spec for s in summaries]
    rates = [100 * s.win_rate for s in summaries]
    lows = [max(0.0, 100 * (s.win_rate - s.interval[0])) for s in summaries]
    highs = [max(0.0, 100 * (s.interval[1] - s.win_rate)) for s in summaries]
    colours = [PALETTE[i % len(PALETTE)] for i in range(len(summaries))]
    bars = ax.bar(names, rates, color=colours, width=0.6, yerr=[lows, highs], capsize=8,
                  error_kw={"elinewidth": 1.5, "ecolor": "#333333"})
    par = 100 / players
    ax.axhline(par, color="#888888", linestyle="--", linewidth=1)
    ax.text(len(names) - 0.5, par, f" par {par:.0f}%", va="bottom", ha="right", color="#666666", fontsize=9)
    for bar, s in zip(bars, summaries, strict=True):
        low, high = s.interval
        ax.annotate(f"{100 * s.win_rate:.1f}%\n[{100 * low:.0f}–{100 * high:.0f}]",
                    (bar.get_x() + bar.get_width() / 2, 100 * high), xytext=(0, 4),
                    textcoords="offset points", ha="center", va="bottom", fontsize=9)
    top = max([100 * s.interval[1] for s in summaries] + [par])
    ax.set_ylim(0, min(100.0, top) * 1.2 + 5)  # room for the labels above the bars
    ax.set_yticks([t for t in range(0, 101, 10 if top > 40 else 5) if t <= min(100.0, top * 1.2 + 5)])
    ax.set_ylabel("win rate (%), 95% Wilson interval")
    ax.set_xlabel("bot (seats played: " + ", ".join(str(s.games) for s in summaries) + ")")
    ax.set_title(title, fontsize=11)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def plot_by_round(summaries: Sequence[BotSummary], path: Path, title: str,
                  min_share: float = MIN_SHARE) -> Path:
    """Mean cities and mean money at the end of each round, one line per bot.

    A round is drawn while at least ``min_share`` of the bot's games still run it: past
    that, the few long games left make the means jump about.
    """
    plt = _pyplot()
    fig, (ax_cities, ax_money) = plt.subplots(1, 2, figsize=(11, 4.5), dpi=120)
    for i, s in enumerate(summaries):
        colour = PALETTE[i % len(PALETTE)]
        rows = [(r + 1, c / n, m / n) for r, (c, m, n) in enumerate(s.by_round)
                if n and n >= min_share * s.games]
        rounds = [r for r, _, _ in rows]
        ax_cities.plot(rounds, [c for _, c, _ in rows], marker="o", markersize=3, color=colour, label=s.spec)
        ax_money.plot(rounds, [m for _, _, m in rows], marker="o", markersize=3, color=colour, label=s.spec)
    ax_cities.set_title("cities (houses) at the end of each round")
    ax_money.set_title("money (Elektro) at the end of each round")
    fig.text(0.5, 0.01, f"means over the games still running; rounds that fewer than {100 * min_share:.0f}% "
             "of the games reach are left out", ha="center", fontsize=8, color="#666666")
    for ax in (ax_cities, ax_money):
        ax.set_xlabel("round")
        ax.grid(True, alpha=0.3)
        ax.spines[["top", "right"]].set_visible(False)
        ax.legend(frameon=False)
    ax_cities.set_ylabel("mean cities")
    ax_money.set_ylabel("mean money")
    fig.suptitle(title, fontsize=11)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path)
    plt.close(fig)
    return path
