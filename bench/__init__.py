"""The benchmark: synthetic registries, build and Hugo timings (see bench/README.md)."""
