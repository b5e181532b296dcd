"""Rout: army and battle manager for rank-and-flank miniatures games."""

__version__ = "0.1.0"
