"""Chat at a game's table: messages stored with the game, their limits, and the sockets they go to."""
