"""The `powergrid` command."""
