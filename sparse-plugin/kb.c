// SPDX-License-Identifier: GPL-2.0-only
/*
 * The knowledge file (kb/owner-reads.tsv): "type<TAB>where<TAB>how" rows
 * that "modlife kb" derives from a kernel tree, sorted and searched.
 */
#include <string.h>
#include <stdlib.h>
#include "modlife.h"
#include "strmap.h"

struct kb_entry {
	char *type, *where, *how;
};
static struct kb_entry *kb;
static int nkb, kb_cap;

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
		char *tab, *tab2 = NULL, *nl;

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
			*tab2++ = 0;
		/*
		 * Grown by doubling: a row at a time copied the whole table
		 * for each of its thousands of rows (seconds under ASan).
		 */
		if (nkb == kb_cap) {
			int cap = kb_cap ? 2 * kb_cap : 1024;
			struct kb_entry *n = realloc(kb, cap * sizeof(*kb));

			if (!n)
				out_of_memory();
			kb = n;
			kb_cap = cap;
		}
		kb[nkb].type = ml_strdup(line);
		kb[nkb].where = ml_strdup(tab);
		kb[nkb].how = ml_strdup(tab2 ? tab2 : "");
		nkb++;
	}
	/* a directory opens, but does not read; garbage has no rows */
	if (ferror(f) || !nkb)
		die("modlife: %s is not a knowledge file (%s)", path,
		    ferror(f) ? "cannot read it" : "no tab-separated row");
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

/*
 * How core code gets at @type's owner ("try_module_get", "copied into
 * struct cdev owner"), or NULL.
 */
const char *kb_lookup_how(const char *type)
{
	int i = kb_first(type);

	return i < 0 ? NULL : kb[i].how;
}

/* The second column of every row for @type ("stops:fn" has several). */
void kb_each(const char *type, void (*fn)(const char *value, void *arg),
	     void *arg)
{
	int i = kb_first(type);

	for (; i >= 0 && i < nkb && !strcmp(kb[i].type, type); i++)
		fn(kb[i].where, arg);
}
