# SPDX-License-Identifier: GPL-2.0-only
"""A JSON-schema validator for the draft-07 subset the SARIF 2.1.0 schema
uses (type, properties, required, additionalProperties, items, minItems,
uniqueItems, enum, minimum, maximum, pattern, anyOf, oneOf, $ref to
#/definitions, and the uri formats), so that the SARIF tests need nothing
from PyPI. Returns the list of violations, each with its JSON path."""
import json
import os
import re
import urllib.parse

SCHEMA = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "build", "sarif", "sarif-schema-2.1.0.json")

TYPES = {"object": dict, "array": list, "string": str, "boolean": bool,
         "null": type(None)}


def _type_ok(value, t):
    if t == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if t == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, TYPES[t])


def _uri_ok(value, absolute):
    if any(c in value for c in ' "<>\\^`{|}') or any(
            ord(c) < 0x21 or ord(c) > 0x7e for c in value):
        return False        # must be percent-encoded
    parts = urllib.parse.urlsplit(value)
    return bool(parts.scheme) if absolute else True


class Validator:
    def __init__(self, schema):
        self.root = schema

    def _ref(self, ref):
        assert ref.startswith("#/definitions/"), ref
        return self.root["definitions"][ref[len("#/definitions/"):]]

    def errors(self, value, schema=None, path="$"):
        schema = self.root if schema is None else schema
        if "$ref" in schema:
            return self.errors(value, self._ref(schema["$ref"]), path)
        out = []
        t = schema.get("type")
        if t and not _type_ok(value, t):
            return ["%s: not of type %s" % (path, t)]
        if "enum" in schema and value not in schema["enum"]:
            out.append("%s: %r not in %s" % (path, value, schema["enum"]))
        if isinstance(value, str):
            if "pattern" in schema and not re.search(schema["pattern"],
                                                     value):
                out.append("%s: %r does not match %s"
                           % (path, value, schema["pattern"]))
            fmt = schema.get("format")
            if fmt in ("uri", "uri-reference") and not _uri_ok(
                    value, fmt == "uri"):
                out.append("%s: %r is not a %s" % (path, value, fmt))
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if "minimum" in schema and value < schema["minimum"]:
                out.append("%s: below %s" % (path, schema["minimum"]))
            if "maximum" in schema and value > schema["maximum"]:
                out.append("%s: above %s" % (path, schema["maximum"]))
        if isinstance(value, list):
            if len(value) < schema.get("minItems", 0):
                out.append("%s: fewer than %d items"
                           % (path, schema["minItems"]))
            if schema.get("uniqueItems"):
                seen = [json.dumps(v, sort_keys=True) for v in value]
                if len(set(seen)) != len(seen):
                    out.append("%s: items not unique" % path)
            if "items" in schema:
                for i, v in enumerate(value):
                    out += self.errors(v, schema["items"],
                                       "%s[%d]" % (path, i))
        if isinstance(value, dict):
            props = schema.get("properties", {})
            for k in schema.get("required", []):
                if k not in value:
                    out.append("%s: %s missing" % (path, k))
            extra = schema.get("additionalProperties", True)
            for k, v in value.items():
                if k in props:
                    out += self.errors(v, props[k], "%s.%s" % (path, k))
                elif extra is False:
                    out.append("%s: unexpected property %s" % (path, k))
                elif isinstance(extra, dict):
                    out += self.errors(v, extra, "%s.%s" % (path, k))
        for key, need in (("anyOf", lambda n: n >= 1),
                          ("oneOf", lambda n: n == 1)):
            if key in schema:
                n = sum(not self.errors(value, s, path)
                        for s in schema[key])
                if not need(n):
                    out.append("%s: %s matched %d branches" % (path, key, n))
        return out


def validate(doc):
    with open(SCHEMA) as f:
        return Validator(json.load(f)).errors(doc)
