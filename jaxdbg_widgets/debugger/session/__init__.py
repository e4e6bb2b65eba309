"""The debugger's models: one hit, the shards of a run, the hits of every process of a job;
their commands and what they print. No view, front end or kernel is imported here."""
