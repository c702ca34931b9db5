"""Search: one ranking (engine.py) over one set of numbers, served three ways: the Whoosh index for the
CLI, and the static shards (shards.py, written by emit/search.py) for the site and for agents."""
