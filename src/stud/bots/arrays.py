"""The NumPy array types the bots' batched code shares: cards and counts, shares and weights."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
"""Cards (0..51) and counts, one row per hand or run-out."""
FloatArray = npt.NDArray[np.float64]
"""Strengths, shares and weights."""
