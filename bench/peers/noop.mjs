// An empty module: what starting a peer process costs before any hook runs.
