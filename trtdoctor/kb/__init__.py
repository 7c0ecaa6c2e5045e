"""The knowledge base: signature files, their schema, loading, the compiled cache and the gate."""
