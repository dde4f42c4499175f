// SPDX-License-Identifier: GPL-2.0-only
/* Facts as data: build, look up, write as JSON, free. */
#include <stdlib.h>
#include <string.h>
#include "facts.h"
#include "strmap.h"

/*
 * A module's facts repeat the same names, paths and keys thousands of
 * times (fs/xfs: 1.5 million facts): each string is kept once per set.
 */
static const char *intern(struct factset *set, const char *s)
{
	if (!set->strings) {
		set->strings = calloc(1, sizeof(struct strmap));
		if (!set->strings)
			out_of_memory();
	}
	return strmap_intern(set->strings, s);
}

struct fact *factset_new(struct factset *set, const char *kind)
{
	struct fact *f;

	set->v = xgrow(set->v, &set->cap, set->n + 1, sizeof(*set->v));
	f = &set->v[set->n++];
	memset(f, 0, sizeof(*f));
	f->set = set;
	f->kind = intern(set, kind);
	return f;
}

static struct fval *add(struct fact *f, const char *name,
			enum fval_type type)
{
	struct fval *v;

	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 6;
		f->v = realloc(f->v, f->cap * sizeof(*f->v));
		if (!f->v)
			out_of_memory();
	}
	v = &f->v[f->n++];
	memset(v, 0, sizeof(*v));
	v->name = intern(f->set, name);
	v->type = type;
	return v;
}

/* The fact is complete: give back what its field array did not use. */
void fact_done(struct fact *f)
{
	if (f->n && f->n < f->cap) {
		struct fval *v = realloc(f->v, f->n * sizeof(*f->v));

		if (v) {
			f->v = v;
			f->cap = f->n;
		}
	}
}

void fact_add_str(struct fact *f, const char *name, const char *s)
{
	struct fval *v = add(f, name, s ? FV_STR : FV_NULL);

	v->s = s ? intern(f->set, s) : NULL;
}

void fact_add_int(struct fact *f, const char *name, long i)
{
	add(f, name, FV_INT)->i = i;
}

void fact_add_list(struct fact *f, const char *name, char *const *list,
		   int n)
{
	struct fval *v = add(f, name, FV_LIST);
	int i, cap = 0;

	v->list = xgrow(NULL, &cap, n + 1, sizeof(char *));
	for (i = 0; i < n; i++)
		v->list[i] = intern(f->set, list[i]);
	v->list[n] = NULL;
	v->n = n;
}

static const struct fval *lookup(const struct fact *f, const char *name)
{
	int i;

	for (i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].name, name))
			return &f->v[i];
	return NULL;
}

const char *fact_get(const struct fact *f, const char *name)
{
	const struct fval *v = lookup(f, name);

	return v && v->type == FV_STR ? v->s : NULL;
}

long fact_get_int(const struct fact *f, const char *name)
{
	const struct fval *v = lookup(f, name);

	return v && v->type == FV_INT ? v->i : 0;
}

const char **fact_get_list(const struct fact *f, const char *name, int *n)
{
	const struct fval *v = lookup(f, name);

	*n = v && v->type == FV_LIST ? v->n : 0;
	return *n ? v->list : NULL;
}

void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

void fact_write(FILE *out, const struct fact *f)
{
	int i, j;

	fputs("{\"k\":", out);
	json_string(out, f->kind);
	for (i = 0; i < f->n; i++) {
		const struct fval *v = &f->v[i];

		fputc(',', out);
		json_string(out, v->name);
		fputc(':', out);
		switch (v->type) {
		case FV_NULL:
			fputs("null", out);
			break;
		case FV_STR:
			json_string(out, v->s);
			break;
		case FV_INT:
			fprintf(out, "%ld", v->i);
			break;
		case FV_LIST:
			fputc('[', out);
			for (j = 0; j < v->n; j++) {
				if (j)
					fputc(',', out);
				json_string(out, v->list[j]);
			}
			fputc(']', out);
			break;
		}
	}
	fputs("}\n", out);
}

static void fact_free(struct fact *f)
{
	int i;

	for (i = 0; i < f->n; i++)
		if (f->v[i].type == FV_LIST)
			free(f->v[i].list);
	free(f->v);
}

/* Drops the last fact (one that did not parse). */
void factset_drop_last(struct factset *set)
{
	if (set->n)
		fact_free(&set->v[--set->n]);
}

void factset_clear(struct factset *set)
{
	int i;

	for (i = 0; i < set->n; i++)
		fact_free(&set->v[i]);
	set->n = 0;
	if (set->strings) {
		strmap_free(set->strings, NULL);
		free(set->strings);
		set->strings = NULL;
	}
}
