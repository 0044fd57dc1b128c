"""Shared engine infrastructure: errors, session file schema and validation, information theory."""
from engines.core.errors import Cancelled, ContradictionError, EngineError, SessionFormatError, check_cancel
from engines.core.info import entropy_bits, kl_divergence_bits, mutual_information_bits
from engines.core.stats import wilson_interval
from engines.core.schema import Reader

__all__ = [
    "Cancelled", "ContradictionError", "EngineError", "SessionFormatError", "check_cancel",
    "entropy_bits", "kl_divergence_bits", "mutual_information_bits", "wilson_interval", "Reader",
]
