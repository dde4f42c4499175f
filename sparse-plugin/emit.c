// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the checks say about one translation unit: facts (written as JSON
 * lines for the link step, and kept in memory), keys that facts provide,
 * and candidate findings. At the end of the unit, link.c decides with
 * this file's facts alone what stands here, and it is printed gcc-style;
 * a finding whose keys another file may provide is decided again, with
 * every file, by "modlife scan" or "modlife link".
 */
#define _GNU_SOURCE	/* vasprintf() */
#include <stdarg.h>
#include <string.h>
#include <stdlib.h>
#include "modlife.h"
#include "strmap.h"

static FILE *facts;
static struct factset tu_facts;
static struct fact *cur;

void facts_open(const char *path)
{
	if (!path)
		return;
	facts = strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!facts)
		die("modlife: cannot write facts to %s", path);
}

/* -1 when a fact could not be written: the facts are not whole */
int facts_close(void)
{
	int err = 0;

	if (facts && facts != stdout)
		err = fclose(facts);
	else if (facts)
		err = fflush(facts) || ferror(facts);
	facts = NULL;
	return err ? -1 : 0;
}

FILE *facts_stream(void)
{
	return facts;
}

void facts_flush(void)
{
	if (facts)
		fflush(facts);
}

/*
 * Why a file was not (wholly) checked. Written straight out; kept for
 * the decision (its findings are withheld) unless fatal: then the run
 * ends here, and memory may be what ran out.
 */
void fact_error(const char *file, const char *message, int fatal)
{
	if (!fatal) {
		struct fact *f = factset_new(&tu_facts, "error");

		if (file)
			fact_add_str(f, "file", file);
		fact_add_str(f, "message", message);
		fact_done(f);
	}
	if (!facts)
		return;
	fputs("{\"k\":\"error\",\"file\":", facts);
	if (file)
		json_string(facts, file);
	else
		fputs("null", facts);
	fputs(",\"message\":", facts);
	json_string(facts, message);
	fprintf(facts, ",\"fatal\":%d}\n", fatal);
}

void fact_begin(const char *kind)
{
	cur = factset_new(&tu_facts, kind);
}

void fact_str(const char *key, const char *val)
{
	fact_add_str(cur, key, val);
}

void fact_int(const char *key, long val)
{
	fact_add_int(cur, key, val);
}

void fact_pos(struct position pos)
{
	fact_str("file", stream_name(pos.stream));
	fact_int("line", pos.line);
	fact_int("col", pos.pos);
}

void fact_end(void)
{
	fact_done(cur);
	if (facts)
		fact_write(facts, cur);
	cur = NULL;
}

/* ---- keys ---- */

static char *vformat(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		out_of_memory();
	return s;
}

/* A key that holds for the module ("owner:obj:foo_fops"). */
void provide(const char *fmt, ...)
{
	va_list ap;
	char *key;

	va_start(ap, fmt);
	key = vformat(fmt, ap);
	va_end(ap);
	fact_begin("provide");
	fact_str("key", key);
	fact_end();
	free(key);
}

/* A key that holds whenever another does (a cdev's owner pins its fops). */
void implies(const char *if_key, const char *then_key)
{
	fact_begin("implies");
	fact_str("if", if_key);
	fact_str("then", then_key);
	fact_end();
}

static void cond_key(const char *kind, const char *fn, const char *key)
{
	fact_begin(kind);
	fact_str("fn", fn);
	fact_str("key", key);
	fact_end();
}

/* @key holds if the module's exit function reaches @fn. */
void provide_if_reached(const char *fn, const char *key)
{
	cond_key("provide_if_reached", fn, key);
}

/* @key holds if @fn may run before unload (graph.c's "may" graph). */
void provide_if_may_reach(const char *fn, const char *key)
{
	cond_key("provide_if_may_reach", fn, key);
}

/*
 * @key holds unless an exported function reaches @fn: a dependent module
 * may be the one doing it, and it is unloaded first
 */
void provide_unless_exported(const char *fn, const char *key)
{
	cond_key("provide_unless_exported", fn, key);
}

/*
 * @key holds unless an exported function reaches @fn, in a library too:
 * a static object is the module's own data whoever its registration is
 * for
 */
void provide_unless_export_reaches(const char *fn, const char *key)
{
	cond_key("provide_unless_export_reaches", fn, key);
}

/*
 * @key holds unless the module's init function reaches @fn: what a call
 * there does, the module does to itself before anyone can use it
 */
void provide_unless_init_reaches(const char *fn, const char *key)
{
	cond_key("provide_unless_init_reaches", fn, key);
}

/* ---- findings ---- */

struct finding *finding_new(const char *rule, struct position pos,
			    const char *object)
{
	struct finding *f = calloc(1, sizeof(*f));

	if (!f)
		out_of_memory();
	f->rule = rule;
	f->pos = pos;
	f->object = object ? ml_strdup(object) : NULL;
	return f;
}

void finding_message(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	free(f->message);
	va_start(ap, fmt);
	f->message = vformat(fmt, ap);
	va_end(ap);
}

static void push_key(char ***list, int *n, char *key)
{
	*list = realloc(*list, (*n + 1) * sizeof(**list));
	if (!*list)
		out_of_memory();
	(*list)[(*n)++] = key;
}

/* Dropped when the module provides this key. */
void finding_unless(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	push_key(&f->unless, &f->nunless, vformat(fmt, ap));
	va_end(ap);
}

/* Kept only when the module provides this key ("a|b": either). */
void finding_requires(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	push_key(&f->requires, &f->nrequires, vformat(fmt, ap));
	va_end(ap);
}

/* "%PATH%" in the message becomes the exit path to @fn (needs one). */
void finding_path_to(struct finding *f, const char *fn)
{
	free(f->path_to);
	f->path_to = ml_strdup(fn);
}

/*
 * Of the file's candidates of this rule with the same @fmt string (the
 * arms of one timer), only the first that stands is reported.
 */
void finding_once(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	free(f->once);
	va_start(ap, fmt);
	f->once = vformat(fmt, ap);
	va_end(ap);
}

/* The finding as a fact; it is decided at the end of the unit. */
void finding_report(struct finding *f)
{
	fact_begin("finding");
	fact_str("rule", f->rule);
	fact_pos(f->pos);
	fact_str("message", f->message ? f->message : "");
	fact_str("object", f->object);
	fact_add_list(cur, "unless", f->unless, f->nunless);
	fact_add_list(cur, "requires", f->requires, f->nrequires);
	fact_int("unload", f->unload);
	if (f->path_to)
		fact_str("path_to", f->path_to);
	if (f->once)
		fact_str("once", f->once);
	fact_end();
	finding_free(f);
}

/* A candidate that the check itself withdrew. */
void finding_free(struct finding *f)
{
	int i;

	for (i = 0; i < f->nunless; i++)
		free(f->unless[i]);
	for (i = 0; i < f->nrequires; i++)
		free(f->requires[i]);
	free(f->unless);
	free(f->requires);
	free(f->message);
	free(f->object);
	free(f->path_to);
	free(f);
}

/* where, and whether, this file's own findings are printed (main.c sets) */
FILE *diag_out;
int quiet_findings, show_experimental, findings_printed;

static int withheld;
static const char *withheld_why;

static void print_text(const struct verdict *v, void *arg)
{
	if (quiet_findings ||
	    (rule_is_experimental(v->rule) && !show_experimental))
		return;
	if (v->withheld) {
		withheld++;
		withheld_why = v->withheld;
		return;
	}
	fprintf(diag_out, "%s:%ld:%ld: warning: %s [modlife-%s]\n", v->file,
		v->line, v->col, v->message, v->rule);
	findings_printed++;
}

/* This file's own view: what stands with its facts alone. */
void findings_flush(const char *file)
{
	withheld = 0;
	link_decide(&tu_facts, SCOPE_FILE, print_text, NULL);
	if (withheld)
		fprintf(diag_out, "%s: note: %d modlife finding%s not reported: the file did not parse wholly (%s)\n",
			file, withheld, withheld == 1 ? "" : "s",
			withheld_why);
}

void emit_reset(void)
{
	factset_clear(&tu_facts);
}
