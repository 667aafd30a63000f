"""Stand-in for triton.backends: only the Intel backend."""
