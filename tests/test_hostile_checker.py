# SPDX-License-Identifier: GPL-2.0-only
"""Hostile input to the checker and to the link step: malformed and
wrongly typed facts, FIFOs where facts or sources should be, a memory cap
that runs out or does not parse, include paths sparse cannot take as
they are (docs/reliability.md)."""
import json
import os
import shutil
import subprocess
import sys
import unittest

from util import (CORPUS, KB, MODLIFE, ROOT, SPARSE, TempDir, run, scan,
                  shared_cache, write)

sys.path.insert(0, ROOT)

MCHAR = os.path.join(CORPUS, "misc-char-bug", "mchar.c")

# lines the checker's fact reader must refuse, each on its own: cut
# anywhere, of other types, or with something after the object
MALFORMED = [
    '{"k":"tu" x}',
    '{"k":"tu",',
    '{"k":"tu","file":[1]}',
    '{"k":"tu","file":',
    '{"k":"tu","file"',
    '{"k":"tu","file',
    '{"k":"tu","file":"a',
    '{"k":"tu","file":"a\\',
    '{"k":"tu","file":"\\u12',
    '{"k":"tu","file":"\\ud800\\u',
    '{"k":"tu","file":"\\x"}',
    '{"k":"tu","file":["a",',
    '{"k":"tu","file":["a" "b"]}',
    '{"k":"tu","file":[,]}',
    '{"k":"tu","file":{}}',
    '{"k":"tu","n":1.5}',
    '{"k":"tu","n":}',
    '{"k":"tu","n":tru}',
    '{"k":"tu","n":nul}',
    '{"k":"tu",,"n":1}',
    '{"k":"tu","n":1,}',
    '{"k":"tu"}}',
    '{"k":"tu"} x',
    '{"k":"tu" ',
    '{"k":1}',
    '{"k":"',
    '{"k":',
    '{"k"',
    '{',
    '["k"]',
]
WELL_FORMED = [
    '{"k":"tu","file":"a.c","n":-1,"ok":true,"l":["x","y\\n"],"z":null}',
    ' { "k" : "call" , "from" : "f\\u00e9" , "to" : "g" } ',
]

HARNESS = r"""
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "facts.h"

/* each line in a block of its own length: a read past its end shows */
int main(void)
{
	struct factset set = { 0 };
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int good = 0, bad = 0;
	const char *err;

	while ((n = getline(&line, &cap, stdin)) > 0) {
		char *copy = strndup(line, n - (line[n - 1] == '\n'));

		if (fact_parse(&set, copy, &err))
			good++;
		else
			bad++;
		free(copy);
	}
	printf("%d %d\n", good, bad);
	factset_clear(&set);
	free(set.v);
	free(line);
	return 0;
}
"""


def tpl_module(d, name="a.c"):
    """A one-file module with one missing-owner finding."""
    shutil.copy(MCHAR, os.path.join(d, name))


class FactReaderTest(unittest.TestCase):
    def test_malformed_lines_under_address_sanitizer(self):
        """The fact reader alone, built with AddressSanitizer: a cut line
        once freed the kind twice, and no line may be read past its
        end."""
        with TempDir() as tmp:
            probe = os.path.join(tmp, "probe.c")
            write(probe, "int main(void) { return 0; }\n")
            if run(["gcc", "-fsanitize=address,undefined", "-o",
                    os.path.join(tmp, "probe"), probe]).returncode:
                self.skipTest("gcc cannot build with -fsanitize=address")
            src = os.path.join(ROOT, "sparse-plugin")
            harness = os.path.join(tmp, "harness.c")
            write(harness, HARNESS)
            exe = os.path.join(tmp, "harness")
            res = run(["gcc", "-g", "-O1", "-fsanitize=address,undefined",
                       "-fno-omit-frame-pointer", "-I" + src, "-o", exe,
                       harness] + [os.path.join(src, f) for f in
                                   ("factread.c", "fact.c", "strmap.c")])
            self.assertEqual(res.returncode, 0, res.stderr[-2000:])
            env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0",
                       UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1")
            res = subprocess.run(
                [exe], input="\n".join(MALFORMED + WELL_FORMED) + "\n",
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                env=env, timeout=60)
            self.assertEqual(res.returncode, 0, res.stderr[-3000:])
            self.assertEqual(res.stdout.split(),
                             [str(len(WELL_FORMED)), str(len(MALFORMED))])

    def test_the_link_process_reports_malformed_lines_and_goes_on(self):
        """Each malformed line as a module of its own, in one link
        process: each module gets an error line and its end line, the
        process lives on, and exits 2."""
        data = "".join(ln + '\n{"k":"end"}\n' for ln in MALFORMED)
        res = subprocess.run([SPARSE, "--modlife-link"], input=data,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, timeout=60)
        self.assertEqual(res.returncode, 2, res.stderr[-2000:])
        out = [json.loads(ln) for ln in res.stdout.splitlines()]
        self.assertEqual([d["k"] for d in out],
                         ["error", "end"] * len(MALFORMED))
        self.assertIn("malformed facts", out[0]["message"])

    def test_the_scan_linker_turns_a_malformed_line_into_an_error(self):
        from frontend.scanning import link
        with link.Linker(SPARSE) as linker:
            with self.assertRaises(link.LinkError) as cm:
                linker.link(['{"k":"tu","file":[1]}'])
            self.assertIn("malformed facts", str(cm.exception))
            # the same process serves the next module
            self.assertEqual(linker.link(['{"k":"tu","file":"a.c"}']), [])


class LinkFactsTest(unittest.TestCase):
    def facts_dir(self, tmp, text):
        d = os.path.join(tmp, "b")
        write(os.path.join(d, "a.o"), "")
        path = os.path.join(d, ".a.o.modlife")
        write(path, text)
        # newer than its object: not stale
        st = os.stat(os.path.join(d, "a.o"))
        os.utime(path, (st.st_atime + 2, st.st_mtime + 2))
        return d

    def test_a_cut_fact_line_is_unreadable_facts(self):
        with TempDir() as tmp:
            d = self.facts_dir(tmp, '{"k":"tu" x}\n')
            res = run([MODLIFE, "link", d])
            self.assertEqual(res.returncode, 2, res.stderr)
            self.assertIn(".a.o.modlife: error: unreadable facts",
                          res.stderr)
            self.assertNotIn("link step failed", res.stderr)

    def test_facts_of_the_wrong_types_exit_2_naming_the_file(self):
        for line in ('{"k":"tu","file":[1]}', '{"k":"tu","file":{"a":1}}',
                     '{"k":"tu","line":1.5}', '{"k":["tu"]}',
                     '{"k":"tu","file":"a.c"}\n[1]'):
            with TempDir() as tmp:
                d = self.facts_dir(tmp, line + "\n")
                res = run([MODLIFE, "link", d])
                self.assertEqual(res.returncode, 2, (line, res.stderr))
                self.assertIn(".a.o.modlife: error: unreadable facts",
                              res.stderr, line)

    def test_a_fifo_as_facts_file_does_not_block(self):
        with TempDir() as tmp:
            d = os.path.join(tmp, "b")
            write(os.path.join(d, "a.o"), "")
            fifo = os.path.join(d, ".a.o.modlife")
            os.mkfifo(fifo)
            st = os.stat(os.path.join(d, "a.o"))
            os.utime(fifo, (st.st_atime + 2, st.st_mtime + 2))
            res = subprocess.run([MODLIFE, "link", d],
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True,
                                 timeout=60)
            self.assertEqual(res.returncode, 2, res.stderr)
            self.assertIn("not a regular file", res.stderr)
            # the checker's own file mode neither opens it
            res = subprocess.run([SPARSE, "--modlife-link", fifo],
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True,
                                 timeout=60)
            self.assertEqual(res.returncode, 2, res.stderr)
            self.assertIn("not a regular file", res.stderr)


class KbTreeTest(unittest.TestCase):
    def test_a_fifo_named_like_a_source_does_not_block(self):
        with TempDir() as tmp:
            tree = os.path.join(tmp, "tree")
            os.makedirs(os.path.join(tree, "include", "linux"))
            os.makedirs(os.path.join(tree, "drivers"))
            os.mkfifo(os.path.join(tree, "drivers", "x.c"))
            os.mkfifo(os.path.join(tree, "Makefile"))
            res = subprocess.run(
                [MODLIFE, "kb", "--tree", tree, "--jobs", "1", "-o",
                 os.path.join(tmp, "kb.tsv")], stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, timeout=120)
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertTrue(os.path.exists(os.path.join(tmp, "kb.tsv")))

    def test_a_deep_tree_does_not_exhaust_the_recursion(self):
        """os.walk recurses: 1,200 nested directories once raised
        RecursionError."""
        from frontend.scanning import kb
        with TempDir() as tmp:
            deep = tmp
            for _ in range(1200):   # os.makedirs() recurses too
                deep = os.path.join(deep, "a")
                os.mkdir(deep)
            write(os.path.join(deep, "p.c"),
                  "static struct x x = { .owner = THIS_MODULE };\n"
                  "void f(void) { try_module_get(THIS_MODULE); }\n")
            self.assertEqual(kb.candidates(tmp),
                             [os.path.join(deep, "p.c")])
            self.assertEqual(kb._this_module_members(tmp), {"owner"})
            # shutil.rmtree() recurses too
            subprocess.run(["rm", "-rf", os.path.join(tmp, "a")])


class MemoryCapTest(unittest.TestCase):
    def test_a_cap_that_is_no_size_is_refused(self):
        with TempDir() as tmp:
            d = os.path.join(tmp, "m")
            os.makedirs(d)
            tpl_module(d)
            for value in ("abc", "0", "-5", "", "7x", " 7", "1e3",
                          "99999999999999999999999"):
                env = dict(os.environ, MODLIFE_MAX_MEMORY=value)
                res = run([SPARSE, "--modlife-facts=-",
                           os.path.join(d, "a.c")], env=env)
                self.assertEqual(res.returncode, 2, value)
                self.assertIn("MODLIFE_MAX_MEMORY=%s is not a size in MiB"
                              % value, res.stderr)
                res = run([MODLIFE, "scan", "--cache-dir=" + shared_cache(),
                           "--cocci", "off", d], env=env)
                self.assertEqual(res.returncode, 2, (value, res.stderr))
                self.assertIn("MODLIFE_MAX_MEMORY", res.stderr)
            res = run([SPARSE, "--modlife-max-memory=abc", "--modlife-facts=-",
                       os.path.join(d, "a.c")])
            self.assertEqual(res.returncode, 2)
            self.assertIn("--modlife-max-memory=abc", res.stderr)
            # modlife kb says it once, not as every file "not parsed"
            tree = os.path.join(tmp, "tree")
            os.makedirs(os.path.join(tree, "include", "linux"))
            res = run([MODLIFE, "kb", "--tree", tree, "--jobs", "1", "-o",
                       os.path.join(tmp, "kb.tsv")],
                      env=dict(os.environ, MODLIFE_MAX_MEMORY="abc"))
            self.assertEqual(res.returncode, 2, res.stderr)
            self.assertIn("MODLIFE_MAX_MEMORY=abc", res.stderr)

    def test_running_out_of_memory_never_reads_as_a_clean_check(self):
        """Under caps from 1 MiB up, the checker runs out of memory at
        its start, in sparse's parse and in its own fact code (whose
        exit once turned into 0 with no error fact): each run either says
        what an uncapped run says, or carries an error fact."""
        with TempDir() as tmp:
            src = os.path.join(tmp, "big.c")
            lines = ["struct module;",
                     "struct file_operations { struct module *owner; "
                     "int (*open)(void); };"]
            for i in range(3000):
                lines.append("static int f%d(void) { return %s; }"
                             % (i, "f%d()" % (i - 1) if i else "0"))
            lines.append("static const struct file_operations fops = "
                         "{ .open = f2999 };")
            lines.append("int use(void) { return fops.open(); }")
            write(src, "\n".join(lines) + "\n")
            cmd = [SPARSE, "--modlife-quiet", "--modlife-facts=-",
                   "--modlife-kb=" + KB, src]
            full = run(cmd)
            self.assertEqual(full.returncode, 0, full.stderr)
            self.assertNotIn('"k":"error"', full.stdout)
            out_of_memory = 0
            for mib in range(1, 25):
                res = run(cmd, env=dict(os.environ,
                                        MODLIFE_MAX_MEMORY=str(mib)))
                if res.returncode == 0 and res.stdout == full.stdout:
                    continue
                errors = [json.loads(ln) for ln in res.stdout.splitlines()
                          if ln.startswith('{"k":"error"')]
                self.assertTrue(errors, "%d MiB: rc %d, no error fact"
                                % (mib, res.returncode))
                self.assertEqual(errors[0]["fatal"], 1)
                if res.returncode == 3:
                    out_of_memory += 1
                    self.assertEqual(errors[0]["message"], "out of memory")
            self.assertGreater(out_of_memory, 0)

    def test_a_scan_under_a_tiny_cap_is_an_error(self):
        """Out of memory before the file (1 MiB: the knowledge file
        check says so) or in it: an error, exit 2, never 'checked'."""
        with TempDir() as tmp:
            d = os.path.join(tmp, "m")
            os.makedirs(d)
            tpl_module(d)
            for mib in ("1", "8"):
                res = run([MODLIFE, "scan", "--cache-dir=" + shared_cache(),
                           "--cocci", "off", "--stats", d],
                          env=dict(os.environ, MODLIFE_MAX_MEMORY=mib))
                self.assertEqual(res.returncode, 2, (mib, res.stderr))
                self.assertIn("out of memory", res.stderr, mib)
                self.assertNotIn(" 0 not parsed", res.stderr, mib)


class IncludePathTest(unittest.TestCase):
    def test_odd_directory_names_are_parsed(self):
        """sparse writes an -I directory into a line of C: a newline, a
        quote or a backslash in the name once broke the parse
        ('builtin:2:0: missing terminating " character')."""
        for name in ("d\nx", 'd"q', "d\\", 'a\\"b\n"'):
            with TempDir() as tmp:
                d = os.path.join(tmp, "t", name)
                os.makedirs(d)
                tpl_module(d)
                rc, result, err = scan([os.path.join(tmp, "t")],
                                       "--cache-dir=" + shared_cache(),
                                       "--cocci", "off")
                self.assertIsNotNone(result, err)
                self.assertEqual(result["errors"], [], repr(name))
                self.assertEqual(rc, 1, repr(name))
                self.assertEqual(
                    [(f["file"], f["rule"]) for f in result["findings"]],
                    [(os.path.join(d, "a.c"), "missing-owner")])

    def test_a_header_read_through_such_a_directory_keeps_its_name(self):
        """An angle include found in the odd directory (its -I path is
        handed to sparse as another name) is reported under its own."""
        with TempDir() as tmp:
            d = os.path.join(tmp, "t", "d\nx")
            os.makedirs(d)
            with open(MCHAR) as f:
                text = f.read()
            a = text.index("static const struct file_operations")
            b = text.index("};", a) + 3
            write(os.path.join(d, "fops.h"), text[a:b])
            write(os.path.join(d, "a.c"),
                  text[:a] + "#include <fops.h>\n" + text[b:])
            rc, result, err = scan([os.path.join(tmp, "t")],
                                   "--cache-dir=" + shared_cache(),
                                   "--cocci", "off")
            self.assertIsNotNone(result, err)
            self.assertEqual(result["errors"], [])
            self.assertEqual([f["file"] for f in result["findings"]],
                             [os.path.join(d, "fops.h")])


if __name__ == "__main__":
    unittest.main()
