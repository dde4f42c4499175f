# SPDX-License-Identifier: GPL-2.0-only
#
# modlife: module-unload lifetime checks for Linux kernel drivers.
#   make demo    install what is missing, build, scan corpus/, show fixes
#   make test    install what is missing, build, run every test
#   make check   build and run every test that needs no network, no install
#                and no emulator (after one make test or make demo)
#   make prove   every corpus bug/fixed pair under Debian's kernel (qemu;
#                make test runs one pair per scenario)
#   make bench   modlife-sparse against plain sparse on real kernel files,
#                and the semantic patches against make coccicheck M=drivers,
#                and scan --diff-base on the whole tree under git (bench-diff)
#   make review-fixes  apply, build and re-scan every patch fix makes of
#                drivers/ sound/ net/ fs/ (build/review/fixes.json)
#   make kb      regenerate kb/owner-reads.tsv from Debian's linux-source-6.1
#   make cocci-gen  write what the semantic patches need of kb/ into
#                cocci/*.cocci (the tests fail while a file differs)
#   make keys-doc  write the key table of docs/design.md from kb/keys.tsv
#                (the tests fail while it differs)
#   make arch-headers  fetch Debian's configured headers of arm, arm64,
#                powerpc, s390 and mips (build/arch-kdir), for drivers of
#                those architectures
#   make install PREFIX=/usr/local

PREFIX ?= /usr/local
BUILD := build
KDIR ?= $(lastword $(sort $(wildcard /usr/src/linux-headers-*-amd64)))
LINUX_SRC := $(BUILD)/linux/linux-source-6.1
COCCI_BENCH_DIR ?= drivers
# the distribution's Python, the one the tool is made for, when present
PYTHON ?= $(firstword $(wildcard /usr/bin/python3) python3)
export KDIR

all: sparse-plugin/modlife-sparse

deps:
	@sh scripts/deps.sh $(BUILD)

# The sparse source comes from deps (or SPARSE_SRC=DIR); sparse-plugin's
# own Makefile rebuilds only what changed.
sparse-plugin/modlife-sparse: deps
	@src="$(SPARSE_SRC)"; [ -n "$$src" ] || src=$$(ls -d $(BUILD)/sparse-*/ | head -n 1); \
	$(MAKE) --no-print-directory -C sparse-plugin SPARSE_SRC="$$(cd "$$src" && pwd)"

demo: all
	@echo "== modlife scan corpus/ (findings; exit 1 means findings) =="
	-@./modlife scan corpus/
	@echo
	@echo "== proposed fixes (modlife fix --dry-run, nothing is written) =="
	@sh scripts/demo-fixes.sh

TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 1)

test: all linux-source sarif-schema
	@$(PYTHON) tests/run.py -j $(TEST_JOBS)

# no deps, no fetch: what make test installed or fetched must be there
check:
	@src="$(SPARSE_SRC)"; [ -n "$$src" ] || src=$$(ls -d $(BUILD)/sparse-*/ 2>/dev/null | head -n 1); \
	[ -n "$$src" ] && command -v spatch >/dev/null && [ -d "$(KDIR)" ] || \
		{ echo "make check: run make test (or make demo) once first: it installs sparse's source, coccinelle and the kernel headers" >&2; exit 2; }; \
	$(MAKE) --no-print-directory -C sparse-plugin SPARSE_SRC="$$(cd "$$src" && pwd)"
	@MODLIFE_TESTS=check $(PYTHON) tests/run.py -j $(TEST_JOBS)

prove: all
	@$(PYTHON) tests/run.py 'prove_*.py'

bench: all linux-source arch-headers
	@$(PYTHON) scripts/bench.py --tree $(LINUX_SRC)
	@$(PYTHON) scripts/bench_cocci.py --tree $(LINUX_SRC) --dir $(COCCI_BENCH_DIR)
	@$(PYTHON) scripts/bench_diffbase.py --tree $(LINUX_SRC) --git-tree $(BUILD)/linux/git-6.1

# scan --diff-base on the whole tree under git (a hard-linked copy made
# once), one driver changed, cold cache (make bench runs this too)
bench-diff: all linux-source
	@$(PYTHON) scripts/bench_diffbase.py --tree $(LINUX_SRC) --git-tree $(BUILD)/linux/git-6.1

# every patch `modlife fix --format-patch` makes of drivers/ sound/ net/
# fs/, applied to a hard-linked copy of the tree, its module built with
# kbuild before and after, the files re-scanned: one JSON record per
# patch in build/review/fixes.json (docs/review/fixes-6.1.md judges them)
REVIEW := $(BUILD)/review
review-fixes: all linux-source
	@sh scripts/deps.sh --with-kbuild $(BUILD)
	@for t in drivers sound net fs; do \
		mkdir -p $(REVIEW); \
		(cd $(LINUX_SRC) && $(CURDIR)/modlife fix --format-patch \
			$(CURDIR)/$(REVIEW)/patches/$$t $$t \
			2> $(CURDIR)/$(REVIEW)/fix-$$t.log) || :; \
		tail -1 $(REVIEW)/fix-$$t.log; \
	done
	@$(PYTHON) scripts/review_fixes.py --tree $(LINUX_SRC) \
		--work $(REVIEW)/work -o $(REVIEW)/fixes.json $(REVIEW)/patches/*

# the semantic patches alone (make bench runs this too); COCCI_BENCH_DIR=
# picks the directory, drivers by default
bench-cocci: linux-source
	@$(PYTHON) scripts/bench_cocci.py --tree $(LINUX_SRC) --dir $(COCCI_BENCH_DIR)

# other architectures' configured headers (signed Debian packages,
# unpacked, not installed); a scan without them parses such drivers with
# KDIR's headers and the tree's arch/ as far as that goes
arch-headers:
	@$(PYTHON) scripts/fetch_arch_headers.py $(BUILD)/arch-kdir

# the SARIF 2.1.0 schema the tests validate reports against
sarif-schema:
	@$(PYTHON) scripts/fetch_sarif_schema.py $(BUILD)/sarif/sarif-schema-2.1.0.json

linux-source:
	@sh scripts/deps.sh --with-source $(BUILD)
	@test -d $(LINUX_SRC) || { mkdir -p $(BUILD)/linux && \
		tar -C $(BUILD)/linux -xf /usr/src/linux-source-6.1.tar.xz; }

kb: all linux-source
	./modlife kb --tree $(LINUX_SRC) -o kb/owner-reads.tsv
	@$(PYTHON) scripts/gen_cocci.py

# the generated blocks of cocci/*.cocci, from kb/ (scripts/gen_cocci.py;
# tests/test_generated_copies.py runs it with --check)
cocci-gen:
	@$(PYTHON) scripts/gen_cocci.py

# the key table of docs/design.md, between its "keys:" markers, from
# kb/keys.tsv (scripts/gen_keys_doc.py; tests/test_keys.py runs it with
# --check)
keys-doc:
	@$(PYTHON) scripts/gen_keys_doc.py

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/modlife/frontend \
		$(DESTDIR)$(PREFIX)/share/modlife/cocci $(DESTDIR)$(PREFIX)/share/modlife/kb \
		$(DESTDIR)$(PREFIX)/share/modlife/harness
	install -m 755 sparse-plugin/modlife-sparse $(DESTDIR)$(PREFIX)/bin/
	install -m 755 modlife $(DESTDIR)$(PREFIX)/share/modlife/modlife
	ln -sf ../share/modlife/modlife $(DESTDIR)$(PREFIX)/bin/modlife
	for d in . ci fixing proving scanning tree; do \
		install -d $(DESTDIR)$(PREFIX)/share/modlife/frontend/$$d && \
		install -m 644 frontend/$$d/*.py $(DESTDIR)$(PREFIX)/share/modlife/frontend/$$d/ || exit 1; \
	done
	install -m 644 cocci/*.cocci $(DESTDIR)$(PREFIX)/share/modlife/cocci/
	install -m 644 kb/*.tsv kb/*.txt $(DESTDIR)$(PREFIX)/share/modlife/kb/
	install -d $(DESTDIR)$(PREFIX)/share/modlife/kb/tree-config
	install -m 644 kb/tree-config/*.config $(DESTDIR)$(PREFIX)/share/modlife/kb/tree-config/
	install -m 644 harness/Kbuild harness/*.c $(DESTDIR)$(PREFIX)/share/modlife/harness/

clean:
	$(MAKE) -C sparse-plugin clean

export SPARSE_SRC
.PHONY: sparse-plugin/modlife-sparse all deps demo test check prove bench bench-cocci bench-diff review-fixes linux-source arch-headers sarif-schema kb cocci-gen keys-doc install clean
