// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output: facts as JSON lines for the front end's link step, and findings,
 * printed gcc-style once the translation unit's own facts say they stand.
 *
 * A finding may depend on facts of other files of the module: it names keys
 * that, when any file provides them, drop it ("unless") or that it needs
 * ("requires"). Here only this file's keys are known, so a finding whose
 * requirement is not met locally is written as a fact but not printed; the
 * front end decides with every file of the module.
 */
#include <stdarg.h>
#include <string.h>
#include <stdlib.h>
#include "modlife.h"

static FILE *facts;
static int first_field;

void facts_open(const char *path)
{
	if (!path)
		return;
	facts = strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!facts)
		die("modlife: cannot write facts to %s", path);
}

void facts_close(void)
{
	if (facts && facts != stdout)
		fclose(facts);
	else if (facts)
		fflush(facts);
	facts = NULL;
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void fact_begin(const char *kind)
{
	if (!facts)
		return;
	fputs("{\"k\":", facts);
	json_string(facts, kind);
	first_field = 0;
}

void fact_str(const char *key, const char *val)
{
	if (!facts)
		return;
	fputc(',', facts);
	json_string(facts, key);
	fputc(':', facts);
	if (val)
		json_string(facts, val);
	else
		fputs("null", facts);
}

void fact_int(const char *key, long val)
{
	if (!facts)
		return;
	fputc(',', facts);
	json_string(facts, key);
	fprintf(facts, ":%ld", val);
}

void fact_pos(struct position pos)
{
	fact_str("file", stream_name(pos.stream));
	fact_int("line", pos.line);
	fact_int("col", pos.pos);
}

void fact_end(void)
{
	if (facts)
		fputs("}\n", facts);
}

/* ---- provided keys ---- */

/*
 * A "local" key holds in this file's own view only: it is not written as
 * a fact, so the link step, which sees every file, decides it itself.
 */
static char **keys;
static char *key_local;
static int nkeys, keys_cap;

static int key_index(const char *key)
{
	int i;

	for (i = 0; i < nkeys; i++)
		if (!strcmp(keys[i], key))
			return i;
	return -1;
}

int is_provided(const char *key)
{
	return key_index(key) >= 0;
}

static void add_key(const char *key, int local)
{
	int i = key_index(key);

	if (i >= 0 && (local || !key_local[i]))
		return;
	if (i < 0) {
		if (nkeys == keys_cap) {
			keys_cap = keys_cap ? keys_cap * 2 : 64;
			keys = realloc(keys, keys_cap * sizeof(*keys));
			key_local = realloc(key_local, keys_cap);
		}
		i = nkeys++;
		keys[i] = strdup(key);
	}
	key_local[i] = local;
	if (local)
		return;
	fact_begin("provide");
	fact_str("key", key);
	fact_end();
}

void provide(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	add_key(buf, 0);
}

struct implication {
	char *if_key, *then_key;
};
static struct implication *impl;
static int nimpl, impl_cap;

/* A key that holds whenever another does (a cdev's owner pins its fops). */
void implies(const char *if_key, const char *then_key)
{
	fact_begin("implies");
	fact_str("if", if_key);
	fact_str("then", then_key);
	fact_end();
	if (nimpl == impl_cap) {
		impl_cap = impl_cap ? impl_cap * 2 : 16;
		impl = realloc(impl, impl_cap * sizeof(*impl));
	}
	impl[nimpl].if_key = strdup(if_key);
	impl[nimpl].then_key = strdup(then_key);
	nimpl++;
}

struct cond_key {
	char *fn, *key;
	int mode;		/* which graph decides: REACH_* */
};
static struct cond_key *conds;
static int nconds;

static void cond_key(const char *kind, const char *fn, const char *key,
		     int mode)
{
	fact_begin(kind);
	fact_str("fn", fn);
	fact_str("key", key);
	fact_end();
	conds = realloc(conds, (nconds + 1) * sizeof(*conds));
	conds[nconds].fn = strdup(fn);
	conds[nconds].key = strdup(key);
	conds[nconds].mode = mode;
	nconds++;
}

/* @key holds if the module's exit function reaches @fn. */
void provide_if_reached(const char *fn, const char *key)
{
	cond_key("provide_if_reached", fn, key, REACH_EXIT);
}

/* @key holds if @fn may run before unload (graph.c's "may" graph). */
void provide_if_may_reach(const char *fn, const char *key)
{
	cond_key("provide_if_may_reach", fn, key, REACH_MAY);
}

/* @key holds unless an exported function reaches @fn: a dependent module
 * may be the one doing it, and it is unloaded first */
void provide_unless_exported(const char *fn, const char *key)
{
	cond_key("provide_unless_exported", fn, key, REACH_EXPORTS);
}

static void close_reach(void)
{
	static const int order[] = { REACH_EXPORTS, REACH_MAY, REACH_EXIT };
	int i, m;

	if (!tu.exit_fn)
		return;
	/* the exit path proper last: findings' paths are read from it */
	for (m = 0; m < 3; m++) {
		graph_reach(sym_name(tu.exit_fn), order[m]);
		for (i = 0; i < nconds; i++)
			if (conds[i].mode == order[m] &&
			    graph_reached(conds[i].fn) !=
			    (order[m] == REACH_EXPORTS))
				/*
				 * "no export reaches it" may not hold for
				 * the module: another file may export a
				 * function of this one
				 */
				add_key(conds[i].key,
					order[m] == REACH_EXPORTS);
	}
}

static void close_implications(void)
{
	int i, changed = 1;

	while (changed) {
		changed = 0;
		for (i = 0; i < nimpl; i++) {
			int a = key_index(impl[i].if_key);
			int b = key_index(impl[i].then_key);

			/* what a local key implies is local too */
			if (a < 0 || (b >= 0 && (key_local[a] ||
						 !key_local[b])))
				continue;
			add_key(impl[i].then_key, key_local[a]);
			changed = 1;
		}
	}
}

/* ---- findings ---- */

static struct finding *found;
static int nfound, found_cap;
int findings_printed;

/* Key lists end at their first NULL: close the gaps checks leave. */
static void compact(const char **keys)
{
	int i, n = 0;

	for (i = 0; i < MAX_KEYS; i++)
		if (keys[i])
			keys[n++] = keys[i];
	while (n < MAX_KEYS)
		keys[n++] = NULL;
}

void report(struct finding *f)
{
	compact(f->unless);
	compact(f->requires);
	if (nfound == found_cap) {
		found_cap = found_cap ? found_cap * 2 : 16;
		found = realloc(found, found_cap * sizeof(*found));
	}
	found[nfound++] = *f;
}

extern int quiet_findings;
int show_experimental;

/* rules whose real-tree findings were mostly false: facts only by default */
static int experimental(const char *rule)
{
	return !strcmp(rule, "exit-pending-work") ||
	       !strcmp(rule, "exit-pending-timer");
}

/* "a|b|c": one of them is provided. */
static int any_provided(const char *alts)
{
	char buf[1024], *p, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", alts);
	for (p = strtok_r(buf, "|", &save); p; p = strtok_r(NULL, "|", &save))
		if (is_provided(p))
			return 1;
	return 0;
}

static int stands_locally(struct finding *f)
{
	int i;

	for (i = 0; i < MAX_KEYS && f->unless[i]; i++)
		if (is_provided(f->unless[i]))
			return 0;
	for (i = 0; i < MAX_KEYS && f->requires[i]; i++)
		if (!any_provided(f->requires[i]))
			return 0;
	if (f->path_to && !graph_reached(f->path_to))
		return 0;
	/* init without exit here: a module that cannot be unloaded */
	if (f->unload && tu.init_fn && !tu.exit_fn)
		return 0;
	return 1;
}

static void write_keys(const char *name, const char *const *list)
{
	int i;

	if (!facts)
		return;
	fprintf(facts, ",\"%s\":[", name);
	for (i = 0; i < MAX_KEYS && list[i]; i++) {
		if (i)
			fputc(',', facts);
		json_string(facts, list[i]);
	}
	fputc(']', facts);
}

static void print_message(struct finding *f)
{
	const char *at = f->path_to ? strstr(f->message, "%PATH%") : NULL;
	char path[1024];

	if (!at) {
		fputs(f->message, diag_out);
		return;
	}
	fprintf(diag_out, "%.*s%s%s", (int)(at - f->message), f->message,
		graph_path(f->path_to, path, sizeof(path)), at + 6);
}

void findings_flush(void)
{
	int i;

	close_reach();
	close_implications();
	for (i = 0; i < nfound; i++) {
		struct finding *f = &found[i];
		int local = stands_locally(f);

		fact_begin("finding");
		fact_str("rule", f->rule);
		fact_pos(f->pos);
		fact_str("message", f->message);
		fact_str("object", f->object);
		write_keys("unless", f->unless);
		write_keys("requires", f->requires);
		fact_int("unload", f->unload);
		if (f->path_to)
			fact_str("path_to", f->path_to);
		fact_int("local", local);
		fact_end();
		if (!local || quiet_findings ||
		    (experimental(f->rule) && !show_experimental))
			continue;
		fprintf(diag_out, "%s:%d:%d: warning: ",
			stream_name(f->pos.stream), f->pos.line, f->pos.pos);
		print_message(f);
		fprintf(diag_out, " [modlife-%s]\n", f->rule);
		findings_printed++;
	}
}

void emit_reset(void)
{
	int i;

	for (i = 0; i < nkeys; i++)
		free(keys[i]);
	nkeys = 0;
	nfound = 0;
	for (i = 0; i < nimpl; i++) {
		free(impl[i].if_key);
		free(impl[i].then_key);
	}
	nimpl = 0;
	for (i = 0; i < nconds; i++) {
		free(conds[i].fn);
		free(conds[i].key);
	}
	nconds = 0;
	graph_reset();
}

/* ---- knowledge file: "type<TAB>where<TAB>how" per line ---- */

struct kb_entry {
	char *type, *where;
};
static struct kb_entry *kb;
static int nkb;

static int kb_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kb_entry *)a)->type,
		      ((const struct kb_entry *)b)->type);
}

void kb_load(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];

	if (!f)
		die("modlife: cannot read knowledge file %s", path);
	while (fgets(line, sizeof(line), f)) {
		char *tab, *tab2, *nl;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		tab = strchr(line, '\t');
		if (!tab)
			continue;
		*tab++ = 0;
		tab2 = strchr(tab, '\t');
		if (tab2)
			*tab2 = 0;
		kb = realloc(kb, (nkb + 1) * sizeof(*kb));
		kb[nkb].type = strdup(line);
		kb[nkb].where = strdup(tab);
		nkb++;
	}
	fclose(f);
	/* thousands of rows, looked up for every call: sorted, searched */
	if (nkb)
		qsort(kb, nkb, sizeof(*kb), kb_cmp);
}

/* The first row for @type, or -1. */
static int kb_first(const char *type)
{
	int lo = 0, hi = nkb;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (strcmp(kb[mid].type, type) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nkb && !strcmp(kb[lo].type, type) ? lo : -1;
}

/* Where core code reads @type's owner, or NULL when it never does. */
const char *kb_lookup_owner(const char *type)
{
	int i = kb_first(type);

	return i < 0 ? NULL : kb[i].where;
}

/* The second column of every row for @type ("stops:fn" has several). */
void kb_each(const char *type, void (*fn)(const char *value, void *arg),
	     void *arg)
{
	int i = kb_first(type);

	for (; i >= 0 && i < nkb && !strcmp(kb[i].type, type); i++)
		fn(kb[i].where, arg);
}
