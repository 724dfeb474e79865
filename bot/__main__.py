"""Allow ``python -m bot`` as a synonym of the ``tracebot`` command."""

import sys

from bot.cli import main

sys.exit(main())
