"""Stand-in for triton.backends.intel (third_party/intel/backend)."""
