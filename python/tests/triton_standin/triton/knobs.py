"""Stand-in for triton.knobs: only the runtime stage hook."""


class _RuntimeKnobs:
    # Triton: Optional[Callable] called from a backend's add_stages as
    # hook(backend, stages, options, language, capability).
    add_stages_inspection_hook = None


runtime = _RuntimeKnobs()
