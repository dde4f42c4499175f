// SPDX-License-Identifier: GPL-2.0-only
/*
 * A string-keyed hash map (open addressing) and a growable int vector:
 * the link step looks up keys, functions and struct members once per
 * edge, so lookups must not grow with the module.
 */
#include <stdlib.h>
#include <string.h>
#include "strmap.h"

int ran_out_of_memory;

void out_of_memory(void)
{
	ran_out_of_memory = 1;
	fputs("modlife-sparse: out of memory\n", stderr);
	exit(EXIT_OUT_OF_MEMORY);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

char *ml_strdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xrealloc(NULL, n), s, n);
}

/* FNV-1a, then mixed: the low bits index the table */
static unsigned long hash(const char *s)
{
	unsigned long long h = 0xcbf29ce484222325ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return (unsigned long)h;
}

static struct sm_ent *find(const struct strmap *m, const char *key)
{
	unsigned long i;

	if (!m->cap)
		return NULL;
	for (i = hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		struct sm_ent *e = &m->v[i];

		if (!e->key || !strcmp(e->key, key))
			return e;
	}
}

static void **strmap_slot(struct strmap *m, const char *key, char *own);

static void grow(struct strmap *m)
{
	struct strmap old = *m;
	unsigned long i;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->v = xrealloc(NULL, m->cap * sizeof(*m->v));
	memset(m->v, 0, m->cap * sizeof(*m->v));
	m->n = 0;
	for (i = 0; i < old.cap; i++)
		if (old.v[i].key)
			*strmap_slot(m, old.v[i].key, old.v[i].key) =
				old.v[i].val;
	free(old.v);
}

/*
 * The value slot of @key, or NULL when it is absent and @own is NULL.
 * With @own (a strdup()ed copy of the key, or the key itself when the
 * caller hands it over) a missing key is added with a NULL value.
 */
static void **strmap_slot(struct strmap *m, const char *key, char *own)
{
	struct sm_ent *e;

	if (own && (m->n + 1) * 2 > m->cap)
		grow(m);
	e = find(m, key);
	if (!e || (!e->key && !own))
		return NULL;
	if (!e->key) {
		e->key = own;
		m->n++;
	}
	return &e->val;
}

void **strmap_get(const struct strmap *m, const char *key)
{
	struct sm_ent *e = find(m, key);

	return e && e->key ? &e->val : NULL;
}

/* Adds @key (copied) if absent; returns its value slot. */
void **strmap_add(struct strmap *m, const char *key)
{
	void **slot = strmap_get(m, key);

	return slot ? slot : strmap_slot(m, key, ml_strdup(key));
}

/* The map's own copy of @s, added if absent: one copy per string. */
const char *strmap_intern(struct strmap *m, const char *s)
{
	struct sm_ent *e;

	strmap_add(m, s);
	e = find(m, s);
	return e->key;
}

void strmap_free(struct strmap *m, void (*free_val)(void *))
{
	unsigned long i;

	for (i = 0; i < m->cap; i++) {
		if (!m->v[i].key)
			continue;
		free(m->v[i].key);
		if (free_val)
			free_val(m->v[i].val);
	}
	free(m->v);
	memset(m, 0, sizeof(*m));
}

void ivec_push(struct ivec *v, int x)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 4;
		v->v = xrealloc(v->v, v->cap * sizeof(*v->v));
	}
	v->v[v->n++] = x;
}

/* A multimap's value: the ivec under @key, created on first use. */
struct ivec *strmap_ivec(struct strmap *m, const char *key)
{
	void **slot = strmap_add(m, key);

	if (!*slot) {
		*slot = xrealloc(NULL, sizeof(struct ivec));
		memset(*slot, 0, sizeof(struct ivec));
	}
	return *slot;
}

void ivec_free(void *p)
{
	struct ivec *v = p;

	if (v)
		free(v->v);
	free(v);
}

void *xgrow(void *p, int *cap, int need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? *cap * 2 : 16;
	if (*cap < need)
		*cap = need;
	return xrealloc(p, (size_t)*cap * size);
}
