// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lookups in kb/api.tsv, the kernel API the rules know (registrations,
 * logging, puts, driver unregistration, work and timer calls), which the
 * Makefile turns into api_table.c, and in kb/constructors.tsv.
 */
#include <fnmatch.h>
#include <string.h>
#include "modlife.h"

/* The first row of @cls whose name pattern matches @name, or NULL. */
const struct api_row *api_find(const char *cls, const char *name)
{
	const struct api_row *r;

	if (!name)
		return NULL;
	for (r = api_table; r->cls; r++)
		if (!strcmp(r->cls, cls) && !fnmatch(r->name, name, 0))
			return r;
	return NULL;
}

int api_is(const char *cls, const char *name)
{
	return api_find(cls, name) != NULL;
}

/* kb/constructors.tsv's advice for an object of @type (the "*" row else) */
const char *constructor_advice(const char *type)
{
	const struct kb_row *r;
	const char *any = "";

	for (r = constructors; r->c[0]; r++) {
		if (!strcmp(r->c[0], type))
			return r->c[1];
		if (!strcmp(r->c[0], "*"))
			any = r->c[1];
	}
	return any;
}
