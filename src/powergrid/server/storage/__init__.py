"""The database: tables and migrations, the event-sourced store of games, the job queue, the
group commit of appends and the per-client game quotas."""
