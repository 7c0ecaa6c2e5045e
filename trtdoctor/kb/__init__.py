"""The knowledge base as data: the signature schema, loading and validation, the compiled cache, literals."""
