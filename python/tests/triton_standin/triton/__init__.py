"""Stand-in for the parts of Triton that xpu_codegen.triton meets (tests).

Shapes read from triton-lang/triton and intel/intel-xpu-backend-for-triton;
see ../README.md for which file stands for which.
"""

__version__ = "0.0.0+standin"
