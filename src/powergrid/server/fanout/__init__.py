"""Telling other processes: the doorbell's datagrams, pub/sub between web processes, and
each game's owner among the web processes."""
