"""Confirmation: probes of the model, the GPU and a rebuild, that check a diagnosis."""
