"""Confirmation: probes of the model, the GPU and a rebuild, that check a diagnosis."""

from trtdoctor.confirm.api import Confirmation, attach, confirm, confirm_report
from trtdoctor.confirm.findings import CONFIRMED, NOT_APPLICABLE, OUTCOMES, REFUTED, UNAVAILABLE, Finding

__all__ = ["CONFIRMED", "NOT_APPLICABLE", "OUTCOMES", "REFUTED", "UNAVAILABLE", "Confirmation", "Finding", "attach",
           "confirm", "confirm_report"]
