"""Stand-in for the parts of Triton that xpu_codegen.triton uses (tests)."""
