"""The fast path: a msgspec decoder compiled from the published schema.

Checking a record with a general JSON Schema validator costs far more than parsing it. This module
compiles the schema (the subset that the models generate: objects with fixed keys, arrays with length
bounds, enums, integer ranges, strings, booleans, nullable values, free extension objects and the
top-level union on ``game``) into msgspec types, so that parsing and checking are one pass in C.

The compiled decoder accepts only what the schema accepts; it may refuse more (``3.0`` for an integer,
an integer beyond 64 bits). The reader treats any refusal as "look closer" and asks the pydantic models
for the full, authoritative list of problems, so the fast path changes the speed, never the verdict.
Tests check the three against each other on every sample and on generated invalid records.

Decoded records are msgspec structs with the models' field names, so the engine reads them exactly as
it reads model instances.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal, Optional, Union

import msgspec

from phatlog.schema import published_schema


class _Compiler:
    def __init__(self, schema: dict[str, Any]) -> None:
        self.defs: dict[str, Any] = schema.get("$defs", {})
        self.structs: dict[str, Any] = {}

    def type_of(self, node: dict[str, Any], name: str = "Anon", tag: tuple[str, str] | None = None) -> Any:
        if "$ref" in node:
            ref = node["$ref"].rsplit("/", 1)[-1]
            return self.ref(ref, tag)
        if "oneOf" in node:  # the record: a union tagged by ``game``
            prop = node["discriminator"]["propertyName"]
            mapping = node["discriminator"]["mapping"]
            members = [self.ref(target.rsplit("/", 1)[-1], tag=(prop, value)) for value, target in mapping.items()]
            return Union[tuple(members)]
        if "anyOf" in node:
            options = [o for o in node["anyOf"] if o != {"type": "null"}]
            inner = [self.type_of(o, name) for o in options]
            base = Union[tuple(inner)] if len(inner) > 1 else inner[0]
            return Optional[base] if len(options) < len(node["anyOf"]) else base
        if "enum" in node:
            return Literal[tuple(node["enum"])]
        if "const" in node:
            return Literal[node["const"]]
        kind = node.get("type")
        if kind == "integer":
            return Annotated[int, msgspec.Meta(ge=node.get("minimum"), le=node.get("maximum"))]
        if kind == "string":
            return Annotated[str, msgspec.Meta(min_length=node.get("minLength"), max_length=node.get("maxLength"))]
        if kind == "boolean":
            return bool
        if kind == "array":
            item = self.type_of(node["items"], name)
            return Annotated[list[item], msgspec.Meta(min_length=node.get("minItems"), max_length=node.get("maxItems"))]  # type: ignore[valid-type]
        if kind == "object" and "properties" not in node:
            return dict[str, Any]
        if kind == "object":
            return self.struct(name, node, tag)
        raise ValueError(f"the fast decoder cannot compile schema node {node!r}")

    def ref(self, name: str, tag: tuple[str, str] | None = None) -> Any:
        key = name
        if key not in self.structs:
            self.structs[key] = self.type_of(self.defs[name], name, tag)
        return self.structs[key]

    def struct(self, name: str, node: dict[str, Any], tag: tuple[str, str] | None) -> Any:
        required = set(node.get("required", ()))
        fields: list[tuple[str, Any] | tuple[str, Any, Any]] = []
        optional: list[tuple[str, Any, Any]] = []
        for key, sub in node["properties"].items():
            if tag is not None and key == tag[0]:
                continue  # the union's tag is read by msgspec itself
            ftype = self.type_of(sub, f"{name}_{key}")
            if key in required:
                fields.append((key, ftype))
            else:
                optional.append((key, ftype, self.default(ftype, sub.get("default"))))
        if node.get("additionalProperties", True) is not False:
            raise ValueError(f"{name}: the fast decoder needs closed objects")
        options: dict[str, Any] = {"forbid_unknown_fields": True, "frozen": True}
        if tag is not None:
            options.update(tag_field=tag[0], tag=tag[1])
        return msgspec.defstruct(name, [*fields, *optional], **options)

    @staticmethod
    def default(ftype: Any, value: Any) -> Any:
        if isinstance(value, (dict, list)):
            return msgspec.field(default_factory=lambda: msgspec.convert(value, ftype))
        return value


@cache
def record_type() -> Any:
    """The msgspec type of a record, compiled from the published schema."""
    return _Compiler(published_schema()).type_of(published_schema())


@cache
def decoder() -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(record_type())


def decode(data: bytes | str) -> Any:
    """Parse and check one record in one pass; raises ``msgspec.DecodeError`` for anything it refuses."""
    return decoder().decode(data)


def convert(obj: Any) -> Any:
    """A record from Python data (for instance a model dump) as the fast path's structs."""
    return msgspec.convert(obj, record_type())
