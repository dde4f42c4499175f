// SPDX-License-Identifier: GPL-2.0-only
/*
 * modlife-sparse: module-unload lifetime checks on sparse's AST.
 *
 * Usable as kbuild's checker ("make C=1 CHECK=modlife-sparse"): it takes
 * every flag kbuild passes, prints only its own findings, and exits 0 on
 * findings so that a build never fails because of one. Own options:
 *   --modlife-facts=FILE   write facts and findings as JSON lines ("-": stdout;
 *                          "auto": beside kbuild's object, .<obj>.o.modlife)
 *   --modlife-kb=FILE      owner knowledge file (default: beside the binary)
 *   --modlife-kb-scan      record where core code reads owner fields
 *   --modlife-quiet        print no findings (facts only)
 *   --modlife-parse-errors print sparse's first error of a file
 *   --modlife-werror       exit 1 when a finding was printed
 *   --modlife-experimental also print the experimental rules' findings
 *   --modlife-max-memory=MIB cap the address space (default 4096, or
 *                          $MODLIFE_MAX_MEMORY; a whole number, 1 or more)
 *   --modlife-local-dir=DIR headers under DIR are the module's own (the
 *                          front end's cache depends on them)
 *   --modlife-link [--modlife-explain] [FILE...] decide facts files as
 *                          one module (link.c); no FILE: modules on stdin,
 *                          each ended by {"k":"end"}; prints the findings
 *                          that stand (and on stderr, explaining, why each
 *                          other candidate was dropped)
 */
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>
#include <libgen.h>
#include <limits.h>
#include <sys/resource.h>
#include "modlife.h"
#include "strmap.h"

static int kb_mode;

/* the hook tables of this run: those of all_checks[] for its mode */
static const struct modlife_check *active[64];

static void select_checks(unsigned int mode)
{
	int i, n = 0;

	for (i = 0; all_checks[i] && n < 63; i++)
		if (all_checks[i]->modes & mode)
			active[n++] = all_checks[i];
	active[n] = NULL;
}

static FILE *captured;		/* sparse's own stderr, kept aside */
static int show_parse_errors;
static const char *current_file;
static struct string_list *filelist;	/* the files of the command line */
static int starting;			/* in sparse_initialize() */

/*
 * Type-check errors that leave the tree whole (sparse's address-space
 * and base-type checks): the kernel builds with them, and so do we.
 */
static int benign_error(const char *line)
{
	static const char *const benign[] = {
		"(different address spaces)",
		"(different base types)",
		"(different modifiers)",
		/* sparse lays out some packed or bitfield structs otherwise */
		"static assertion failed",
		"invalid bitfield specifier",
		/* a GNU extension gcc takes (kvm's fastop table) */
		"arithmetics on pointers to functions",
	};
	unsigned int i;

	for (i = 0; i < sizeof(benign) / sizeof(benign[0]); i++)
		if (strstr(line, benign[i]))
			return 1;
	return 0;
}

/* sparse prints errors straight to stderr: keep them, report the first. */
static void capture_stderr(void)
{
	int fd = dup(2);

	diag_out = fdopen(fd, "w");
	captured = tmpfile();
	if (!diag_out || !captured)
		die("modlife: cannot set up diagnostics");
	setvbuf(diag_out, NULL, _IOLBF, 0);
	fflush(stderr);
	dup2(fileno(captured), 2);
}

static int says_out_of_memory(const char *line)
{
	static const char oom[] = "out of memory";
	size_t len = strlen(line);

	return len >= sizeof(oom) - 1 &&
	       !strcmp(line + len - (sizeof(oom) - 1), oom);
}

/*
 * What sparse printed says why a file was not (wholly) checked: its
 * first error ("in included file" notes come before it), else, when
 * the run ends here (@fatal), what ended it. Returns 1 for an error
 * line (it names the file), 2 for another message, 0 for none.
 */
static int captured_error(int fatal, char *msg, size_t size)
{
	char line[1024], first[1024] = "", last[1024] = "";
	int found = 0;

	msg[0] = 0;
	if (!captured)
		return 0;
	fflush(stderr);
	rewind(captured);
	while (fgets(line, sizeof(line), captured)) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = 0;
		if (!line[0])
			continue;
		if (!first[0])
			snprintf(first, sizeof(first), "%s", line);
		snprintf(last, sizeof(last), "%s", line);
		if (found || !strstr(line, "error:"))
			continue;
		if (!fatal && benign_error(line))
			continue;
		snprintf(msg, size, "%s", line);
		found = 1;
	}
	if (!fatal)
		return found;
	/* memory ran out (the cap): whatever came before is not the cause */
	if (says_out_of_memory(last)) {
		ran_out_of_memory = 1;
		snprintf(msg, size, "out of memory");
		return 2;
	}
	if (found)
		return 1;
	snprintf(msg, size, "%s", first[0] ? first : "sparse stopped");
	return 2;
}

static void forget_captured(void)
{
	rewind(captured);
	if (ftruncate(fileno(captured), 0))
		;
}

static void drain_captured(int fatal)
{
	char msg[1024];
	int found = captured_error(fatal, msg, sizeof(msg));

	if (found)
		fact_error(current_file, msg, fatal);
	if (found == 1 && (show_parse_errors || fatal))
		fprintf(diag_out, "%s\n", msg);
	else if (found && fatal)
		fprintf(diag_out, "%s: error: %s\n",
			current_file ? current_file : "modlife-sparse", msg);
	if (captured)
		forget_captured();
}

/*
 * Diagnostics printed while walking (sparse evaluating an unused static
 * inline body for us) are about code the compiler never looks at either.
 */
static void discard_captured(void)
{
	if (!captured)
		return;
	fflush(stderr);
	forget_captured();
}

static int werror, exiting;

/* Everything sparse printed before any file: start-up errors. */
static void print_captured(void)
{
	char line[1024];

	if (!captured)
		return;
	fflush(stderr);
	rewind(captured);
	while (fgets(line, sizeof(line), captured))
		if (line[0] != '\n')
			fprintf(diag_out ? diag_out : stdout,
				"modlife-sparse: %s", line);
}

/*
 * sparse stopped before it got to any file (a missing -include, memory):
 * none of the command line's files was checked, and each says so.
 */
static void startup_failed(void)
{
	char msg[1024];
	char *file;
	int any = 0;

	captured_error(1, msg, sizeof(msg));
	FOR_EACH_PTR(filelist, file) {
		fact_error(file, msg, 1);
		any = 1;
	} END_FOR_EACH_PTR(file);
	if (!any)	/* it stopped before it read the file names */
		fact_error(NULL, msg, 1);
	print_captured();
}

/*
 * sparse's die() exits 1: still say which file and why, and do not
 * fail the build for it (kbuild stops on a failing checker). Memory
 * running out is not the file's fault, though, and facts that could
 * not be written say nothing: neither may read as a clean check.
 */
static void at_exit(void)
{
	int status = werror ? 1 : 0;

	if (exiting)
		return;
	exiting = 1;
	if (current_file) {
		drain_captured(1);
		current_file = NULL;
	} else if (starting) {
		startup_failed();
	} else {
		print_captured();
	}
	if (facts_close())
		status = 2;
	if (ran_out_of_memory)
		status = EXIT_OUT_OF_MEMORY;
	if (diag_out)
		fflush(diag_out);
	_exit(status);
}

/*
 * A crash inside the sparse library (pathological input: thousands of
 * nested parentheses overflow its recursive parser) is this file's
 * error, not the build's: the error fact and the message are formatted
 * when the file starts, and written with write() from the handler.
 */
static char crash_fact[8192], crash_msg[8192];
static int facts_fd = -1;

static void escape_into(char *out, size_t len, const char *s)
{
	size_t n = 0;

	for (; s && *s && n + 8 < len; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			n += snprintf(out + n, len - n, "\\%c", c);
		else if (c < 0x20)
			n += snprintf(out + n, len - n, "\\u%04x", c);
		else
			out[n++] = c;
	}
	out[n] = 0;
}

static void prepare_crash_report(const char *file)
{
	char name[4096];

	escape_into(name, sizeof(name), file);
	/* a fact may be cut where stdio last flushed: end its line first */
	snprintf(crash_fact, sizeof(crash_fact),
		 "\n{\"k\":\"error\",\"file\":\"%s\",\"message\":\"modlife-sparse crashed in the sparse library while checking this file (pathological input?)\",\"fatal\":1}\n",
		 name);
	snprintf(crash_msg, sizeof(crash_msg),
		 "%s: error: modlife-sparse crashed in the sparse library while checking this file (pathological input?); not checked\n",
		 file);
}

static void on_crash(int sig)
{
	ssize_t r;

	if (facts_fd >= 0)
		r = write(facts_fd, crash_fact, strlen(crash_fact));
	if (diag_out)
		r = write(fileno(diag_out), crash_msg, strlen(crash_msg));
	(void)r;
	_exit(werror ? 1 : 0);
}

static void catch_crashes(void)
{
	static char stack[1 << 16];
	stack_t ss = { .ss_sp = stack, .ss_size = sizeof(stack) };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_ONSTACK;
	sigaltstack(&ss, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
}

/*
 * A cap on the address space: '#include "/dev/zero"' in a scanned tree
 * would otherwise eat the machine's memory. The biggest kernel files need
 * well under 1 GiB. Not under AddressSanitizer, which reserves terabytes.
 */
static void limit_memory(unsigned long mib)
{
#if !defined(__SANITIZE_ADDRESS__)
	struct rlimit rl;

	if (!mib || getrlimit(RLIMIT_AS, &rl))
		return;
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (rlim_t)mib << 20) {
		rl.rlim_cur = (rlim_t)mib << 20;
		setrlimit(RLIMIT_AS, &rl);
	}
#endif
}

/*
 * Headers that are not reached through the kernel's -I directories (the
 * module's own, "../foo.h", those of --modlife-local-dir): the front end's
 * cache must see them change.
 */
static void emit_local_includes(char **args, int nargs, const char *file)
{
	char buf[PATH_MAX];
	const char *own;
	int i, j;

	snprintf(buf, sizeof(buf), "%s", file);
	own = dirname(buf);
	for (i = 0; i < input_stream_nr; i++) {
		const char *name = stream_name(i);
		int kernel = 0, local = 0;

		if (!name || name[0] == '<' || !strcmp(name, file))
			continue;
		local = in_local_dir(name);
		for (j = 0; j < nargs && !kernel && !local; j++) {
			const char *d = args[j];

			if (strncmp(d, "-I", 2) || !strcmp(d + 2, own))
				continue;
			d += 2;
			if (!strncmp(name, d, strlen(d)))
				kernel = 1;
		}
		if (!kernel && access(name, R_OK) == 0) {
			fact_begin("include");
			fact_str("file", name);
			fact_end();
		}
	}
}

static const char *default_kb(const char *argv0)
{
	static const char *const rel[] = {
		"../kb/owner-reads.tsv",
		"../share/modlife/kb/owner-reads.tsv",
	};
	static char path[PATH_MAX + 64];
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	unsigned int i;

	if (n <= 0)
		snprintf(exe, sizeof(exe), "%s", argv0);
	else
		exe[n] = 0;
	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		char dir[PATH_MAX];

		snprintf(dir, sizeof(dir), "%s", exe);
		snprintf(path, sizeof(path), "%s/%s", dirname(dir), rel[i]);
		if (access(path, R_OK) == 0)
			return path;
	}
	return NULL;
}

static char *modname_from(const char *arg)
{
	char *s = strdup(arg), *q;

	if (*s == '"')
		memmove(s, s + 1, strlen(s));
	q = strchr(s, '"');
	if (q)
		*q = 0;
	return s;
}

/* A size in MiB: a whole number, 1 or more; 0 when it is none. */
static unsigned long mib_value(const char *s)
{
	const unsigned long most = ULONG_MAX >> 20;	/* fits in bytes */
	unsigned long v = 0;

	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (most - (*s - '0')) / 10)
			return 0;
		v = v * 10 + (*s - '0');
	}
	return *s ? 0 : v;
}

static int bad_cap(const char *what, const char *value)
{
	fprintf(stderr, "modlife-sparse: %s=%s is not a size in MiB (a whole number, 1 or more)\n",
		what, value);
	return 2;
}

/*
 * sparse writes include paths into a line of C ('#add_include "DIR/"',
 * '#argv_include "FILE"'): a newline or a quote in the path breaks that
 * line, and a backslash is read as an escape. Such a path is handed over
 * as /proc/self/fd/N of the directory or file, opened here; the names of
 * what is read through it are mapped back (unalias_streams()).
 */
static struct {
	char alias[32];
	const char *path;
} aliases[16];
static int nr_aliases;

static int plain_path(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == '"' || *s == '\\')
			return 0;
	return 1;
}

static char *alias_path(char *path)
{
	int fd;

	if (plain_path(path) || nr_aliases == ARRAY_SIZE(aliases) ||
	    access("/proc/self/fd", X_OK))
		return path;
	/* O_NONBLOCK: a FIFO named there must not hold the checker */
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return path;
	snprintf(aliases[nr_aliases].alias, sizeof(aliases[0].alias),
		 "/proc/self/fd/%d", fd);
	aliases[nr_aliases].path = path;
	return aliases[nr_aliases++].alias;
}

/* The options of sparse's that name an include path, with it. */
static void alias_include_paths(char **args, int n)
{
	int i;

	for (i = 1; i < n; i++) {
		const char *a = args[i];

		if (!strcmp(a, "-I") || !strcmp(a, "-isystem") ||
		    !strcmp(a, "-idirafter") || !strcmp(a, "-include") ||
		    !strcmp(a, "-imacros")) {
			if (i + 1 < n) {
				i++;
				args[i] = alias_path(args[i]);
			}
		} else if (!strncmp(a, "-I", 2) && strcmp(a, "-I-")) {
			char *p = alias_path(args[i] + 2);

			if (p != args[i] + 2) {
				args[i] = malloc(strlen(p) + 3);
				if (!args[i])
					out_of_memory();
				sprintf(args[i], "-I%s", p);
			}
		}
	}
}

/* Stream names read through an alias, as the path itself. */
static void unalias_streams(void)
{
	int i, j;

	for (i = 0; nr_aliases && i < input_stream_nr; i++) {
		const char *name = input_streams[i].name;

		for (j = 0; name && j < nr_aliases; j++) {
			const char *path = aliases[j].path;
			size_t len = strlen(aliases[j].alias), plen = strlen(path);
			char *real;

			if (strncmp(name, aliases[j].alias, len) ||
			    (name[len] && name[len] != '/'))
				continue;
			if (plen && path[plen - 1] == '/' && name[len])
				plen--;
			real = malloc(plen + strlen(name + len) + 1);
			if (!real)
				out_of_memory();
			memcpy(real, path, plen);
			strcpy(real + plen, name + len);
			input_streams[i].name = real;
			break;
		}
	}
}

/* The per-file tables of each layer, emptied for the next file. */
static void end_tu(void)
{
	emit_reset();
	keys_reset();
	types_reset();
}

int main(int argc, char **argv)
{
	struct symbol_list *syms;
	const char *facts_path = NULL, *kb_path = NULL;
	char **args = calloc(argc + 1, sizeof(char *));
	char **sparse_args = calloc(argc + 1, sizeof(char *));
	char *file;
	int i, n = 0, is_module = 0, status;
	const char *mem_env = getenv("MODLIFE_MAX_MEMORY");
	unsigned long max_memory = 4096;
	const char *modname = NULL, *depfile = NULL;
	char autopath[PATH_MAX];

	if (argc > 1 && !strcmp(argv[1], "--modlife-link"))
		return link_main(argc - 2, argv + 2);
	if (!args || !sparse_args)
		out_of_memory();
	if (mem_env && !(max_memory = mib_value(mem_env)))
		return bad_cap("MODLIFE_MAX_MEMORY", mem_env);
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "--modlife-facts=", 16))
			facts_path = a + 16;
		else if (!strncmp(a, "--modlife-kb=", 13))
			kb_path = a + 13;
		else if (!strcmp(a, "--modlife-kb-scan"))
			kb_mode = 1;
		else if (!strcmp(a, "--modlife-quiet"))
			quiet_findings = 1;
		else if (!strcmp(a, "--modlife-parse-errors"))
			show_parse_errors = 1;
		else if (!strcmp(a, "--modlife-werror"))
			werror = 1;
		else if (!strcmp(a, "--modlife-experimental"))
			show_experimental = 1;
		else if (!strncmp(a, "--modlife-max-memory=", 21)) {
			max_memory = mib_value(a + 21);
			if (!max_memory)
				return bad_cap("--modlife-max-memory", a + 21);
		}
		else if (!strncmp(a, "--modlife-local-dir=", 20))
			tu_add_local_dir(a + 20);
		else if (!strncmp(a, "--modlife-", 10)) {
			fprintf(stderr, "modlife-sparse: unknown option %s\n", a);
			return 2;
		} else {
			if (!strcmp(a, "-DMODULE"))
				is_module = 1;
			if (!strncmp(a, "-Wp,-MMD,", 9) || !strncmp(a, "-Wp,-MD,", 8))
				depfile = strchr(a + 4, ',') + 1;
			if (!strncmp(a, "-DKBUILD_MODNAME=", 17))
				modname = modname_from(a + 17);
			args[n++] = argv[i];
		}
	}
	args[n] = NULL;
	memcpy(sparse_args, args, (n + 1) * sizeof(char *));
	alias_include_paths(sparse_args, n);

	select_checks(kb_mode ? CHECK_KB : CHECK_RULES);
	if (!kb_mode) {
		if (!kb_path)
			kb_path = default_kb(argv[0]);
		if (!kb_path) {
			fprintf(stderr, "modlife-sparse: no owner knowledge file; pass --modlife-kb=FILE\n");
			return 2;
		}
		kb_load(kb_path);
	}
	if (facts_path && !strcmp(facts_path, "auto")) {
		/* kbuild's ".foo.o.d" names the object: ".foo.o.modlife" */
		size_t len = depfile ? strlen(depfile) : 0;

		if (len < 2 || strcmp(depfile + len - 2, ".d")) {
			fprintf(stderr, "modlife-sparse: --modlife-facts=auto needs kbuild's -Wp,-MMD,FILE\n");
			return 2;
		}
		snprintf(autopath, sizeof(autopath), "%.*s.modlife",
			 (int)(len - 2), depfile);
		facts_path = autopath;
	}
	facts_open(facts_path);
	facts_fd = facts_path ? fileno(facts_stream()) : -1;
	atexit(at_exit);
	capture_stderr();
	catch_crashes();
	limit_memory(max_memory);

	starting = 1;
	syms = sparse_initialize(n, sparse_args, &filelist);
	starting = 0;
	fmax_warnings = 0;	/* sparse's own warnings are sparse's job */
	(void)syms;

	FOR_EACH_PTR(filelist, file) {
		tu_begin(file, is_module, modname);
		tu.kb_scan = kb_mode;
		current_file = file;
		prepare_crash_report(file);
		/* what earlier files said is complete if this one crashes */
		facts_flush();
		fact_begin("tu");
		fact_str("file", file);
		fact_int("module", is_module);
		fact_str("modname", modname);
		fact_end();

		syms = sparse(file);
		unalias_streams();
		tu.stream = input_stream_nr - 1;
		for (i = 0; i < input_stream_nr; i++)
			if (!strcmp(stream_name(i), file)) {
				tu.stream = i;
				break;
			}
		drain_captured(0);
		emit_local_includes(args, n, file);
		walk_tu(syms, active);
		discard_captured();
		findings_flush(file);
		end_tu();
		current_file = NULL;
	} END_FOR_EACH_PTR(file);

	fflush(stderr);
	drain_captured(0);
	status = werror && findings_printed ? 1 : 0;
	if (facts_close()) {
		fprintf(diag_out, "modlife-sparse: cannot write the facts\n");
		status = 2;
	}
	exiting = 1;
	/* stderr back: a report of what happens after this is visible */
	fflush(diag_out);
	dup2(fileno(diag_out), 2);
	return status;
}
