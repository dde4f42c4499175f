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

/* The first row of @cls (its name: a function, not a pattern), or NULL. */
const struct api_row *api_first(const char *cls)
{
	const struct api_row *r;

	for (r = api_table; r->cls; r++)
		if (!strcmp(r->cls, cls))
			return r;
	return NULL;
}

int api_is(const char *cls, const char *name)
{
	return api_find(cls, name) != NULL;
}

/* kb/constructors.tsv's row for exactly @type, or NULL */
static const char *constructor_row(const char *type)
{
	const struct kb_row *r;

	for (r = constructors; r->c[0]; r++)
		if (!strcmp(r->c[0], type))
			return r->c[1];
	return NULL;
}

/*
 * kb/constructors.tsv's advice for an object of @type (the "*" row
 * else); @via: it is registered through a subsystem's helper, whose
 * core, not the driver core, has to allocate it ("via TYPE", the type's
 * own row, else "via *")
 */
const char *constructor_advice(const char *type, int via)
{
	char k[KEYLEN];
	const char *a;

	snprintf(k, sizeof(k), "via %s", type);
	a = via ? constructor_row(k) : NULL;
	if (!a)
		a = constructor_row(type);
	if (!a)
		a = constructor_row(via ? "via *" : "*");
	return a ? a : "";
}
