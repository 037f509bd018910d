"""Bot workers: processes that claim jobs from the queue and run them with the handler
registered for each job kind (bot turns here; the coach registers its own)."""
