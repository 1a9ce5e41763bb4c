import sys

from toolshape.cli import main

sys.exit(main())
