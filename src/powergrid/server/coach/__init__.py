"""The coach on the server: hint and analysis jobs (registered with the bot workers) and
what they store."""
