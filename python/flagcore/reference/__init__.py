"""Pure-Python twins of every compiled hot path: the same results, bit for bit.

They are the parity oracle in tests and the baseline in benchmarks.
"""
