"""Games in play: frames and views of each version, the cache of live games, snapshots,
taking back, seats and the lobby, the bot turn a game needs next, and the service that
applies actions."""
