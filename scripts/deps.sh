#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Install what modlife needs from Debian's packages, idempotently.
# Usage: scripts/deps.sh [--with-source] [--with-kbuild] BUILD_DIR
#   --with-source  Debian's linux-source-6.1 (make linux-source)
#   --with-kbuild  what building the kernel tree's own modules needs
#                  (make review-fixes)
#   BUILD_DIR   where the sparse source package is unpacked (ignored by git)
#   SPARSE_SRC  a user's own sparse checkout: skip apt-get source
#   KDIR        a configured kernel tree: skip linux-headers-amd64
set -eu

with_source=0
with_kbuild=0
while [ $# -gt 1 ]; do
	case $1 in
	--with-source) with_source=1 ;;
	--with-kbuild) with_kbuild=1 ;;
	*) break ;;
	esac
	shift
done
build=${1:?usage: deps.sh [--with-source] BUILD_DIR}

missing=""
need() {	# need PACKAGE TEST-COMMAND...
	pkg=$1
	shift
	"$@" >/dev/null 2>&1 || missing="$missing $pkg"
}

need coccinelle command -v spatch
need sparse command -v sparse
need make command -v make
need gcc command -v gcc
need dpkg-dev command -v dpkg-source
need python3 command -v python3
[ -n "${KDIR:-}" ] || need linux-headers-amd64 sh -c 'ls -d /usr/src/linux-headers-*-amd64'
[ "$with_source" = 0 ] || need linux-source-6.1 test -f /usr/src/linux-source-6.1.tar.xz
if [ "$with_kbuild" = 1 ]; then
	need flex command -v flex
	need bison command -v bison
	need bc command -v bc
	need libelf-dev test -f /usr/include/libelf.h
	need libssl-dev test -f /usr/include/openssl/ssl.h
	need patch command -v patch
fi

as_root() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "modlife: missing Debian package(s):$1; run 'make deps' as root or install them" >&2
		exit 1
	fi
}

updated=0
apt_update() {
	[ "$updated" = 1 ] || apt-get update -qq
	updated=1
}

if [ -n "$missing" ]; then
	as_root "$missing"
	apt_update
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi

if [ -n "${SPARSE_SRC:-}" ]; then
	[ -f "$SPARSE_SRC/lib.h" ] || { echo "modlife: SPARSE_SRC=$SPARSE_SRC has no lib.h" >&2; exit 1; }
	exit 0
fi

ls -d "$build"/sparse-*/lib.h >/dev/null 2>&1 && exit 0

# The sparse library only comes with the source package.
if ! apt-get source --print-uris sparse >/dev/null 2>&1 ||
   [ -z "$(apt-get source --print-uris sparse 2>/dev/null | grep "'")" ]; then
	as_root " sparse (source)"
	if ! grep -rqsE '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		src=/etc/apt/sources.list.d/modlife-deb-src.sources
		echo "modlife: no deb-src entry found; adding $src for 'apt-get source sparse'" >&2
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -f "$f" ] || continue
			grep -q '^Types:.*deb' "$f" || continue
			sed 's/^Types:.*/Types: deb-src/' "$f"
			echo
		done > "$src.tmp"
		if [ ! -s "$src.tmp" ]; then
			grep -hE '^deb ' /etc/apt/sources.list 2>/dev/null |
				sed 's/^deb /deb-src /' > "${src%.sources}.list"
			rm -f "$src.tmp"
		else
			mv "$src.tmp" "$src"
		fi
		updated=0
	fi
	apt_update
fi
mkdir -p "$build"
(cd "$build" && apt-get source -qq sparse)
ls -d "$build"/sparse-*/lib.h >/dev/null
