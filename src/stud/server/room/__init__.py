"""The room: its tables, its tournament desk, the bots it lends; its coordination runs them."""
