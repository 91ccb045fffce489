"""The room: its tables and tournament desk, the bots it lends, how it coordinates with others."""
