"""``python3 -m xpu_codegen``: see ``python3 -m xpu_codegen --help``."""

import sys

from ._cli import main

sys.exit(main())
