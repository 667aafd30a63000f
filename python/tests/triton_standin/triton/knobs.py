"""Stand-in for triton.knobs: only the runtime stage hook."""


class _RuntimeKnobs:
    # Triton: Optional[Callable]. compile() and JITFunction.run call it
    # with no arguments and use the (key, hash) it returns; a backend's
    # add_stages calls hook(backend, stages, options, language, capability)
    # to let it edit the stages.
    add_stages_inspection_hook = None


runtime = _RuntimeKnobs()
