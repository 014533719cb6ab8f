"""Write the visual regression test's reference pictures, on purpose, after looking at them:

    .venv/bin/python tests/update_printable_reference.py

The test (tests/test_printable_layout.py) only compares; it never writes them.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from printable_pictures import SYSTEMS, pictures  # noqa: E402


def main() -> None:
    target = HERE / "printable_reference"
    target.mkdir(exist_ok=True)
    for system_id in SYSTEMS:
        for name, png in pictures(system_id).items():
            (target / name).write_bytes(png)
            print(target / name)


if __name__ == "__main__":
    main()
