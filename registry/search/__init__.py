"""Search: one ranking (tiers, trust, risk, freshness, squat gate) served three ways: a Whoosh
index for the CLI, Pagefind for the static site, and token shards for agents without a CLI."""
