"""Replay analysis: who protects which building (the hidden-card inference), each
player's chance to win after every turn (playouts), and the turning points.
``docs/analysis.md`` describes the model and what it was measured to do."""
from __future__ import annotations

from drunter_notation.analysis.inference import STYLES, Inference, Model, Posterior, Style, hypotheses, marginals
from drunter_notation.analysis.record import Settings, analyze_bytes, analyze_record, analyze_text

__all__ = ["STYLES", "Inference", "Model", "Posterior", "Settings", "Style", "analyze_bytes", "analyze_record",
           "analyze_text", "hypotheses", "marginals"]
