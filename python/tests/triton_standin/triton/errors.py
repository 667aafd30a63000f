"""Stand-in for triton.errors: the base of Triton's exceptions."""


class TritonError(Exception):
    pass
