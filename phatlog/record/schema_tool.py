"""Regenerate the published schema files from the models: ``python -m phatlog.record.schema_tool``."""

from __future__ import annotations

from pathlib import Path

from phatlog.record.schema import SCHEMA_FILE, build_schema, dumps_schema


def main() -> None:
    text = dumps_schema(build_schema())
    root = Path(__file__).resolve().parent
    for target in (root / "schemas" / SCHEMA_FILE, root.parent / "schemas" / SCHEMA_FILE):
        if target.parent.is_dir():
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target}")


if __name__ == "__main__":
    main()
