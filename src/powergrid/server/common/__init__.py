"""What every part of the server shares: settings and limits, named errors, ids and tokens,
client addresses, the collector and the metrics. Imports nothing of the server."""
