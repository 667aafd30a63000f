"""Stand-in for triton.runtime.errors.OutOfResources."""


class OutOfResources(Exception):

    def __init__(self, required, limit, name):
        self.required = required
        self.limit = limit
        self.name = name
        super().__init__(f"{name}: required {required}, limit {limit}")
