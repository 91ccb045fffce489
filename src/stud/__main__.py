"""``python -m stud`` runs the ``stud`` command."""

import sys

from stud.cli import main

sys.exit(main())
