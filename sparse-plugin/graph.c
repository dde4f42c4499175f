// SPDX-License-Identifier: GPL-2.0-only
/*
 * The call graph of one translation unit, and what the module's exit
 * function reaches. frontend/link.py builds the same graph from the facts
 * of every file of a module; keep the two edge rules alike:
 *   - a direct call, or a call through a static table of function
 *     pointers the file initializes ("_exits[i]()": each function in it);
 *   - a call through "ops->member()" goes to the one function the module
 *     stores into that struct member, when there is exactly one (inferred);
 *   - "*_driver_unregister(&drv)" and the like run drv's remove/disconnect
 *     for each bound device.
 * The "may" graph, used only to discharge findings (a cancel that may run
 * before unload), is generous: every implementation of an ops member, and
 * as extra roots every function stored into a teardown-like member
 * (.remove, .shutdown, .release, .ndo_stop, ...) and every exported
 * teardown-like function (a library's dependents call it before they,
 * and so the library, can be unloaded). It also runs callbacks that a
 * call waits for: flush_work(&w) and destroying w's workqueue run w's
 * function, kthread_stop(t) lets t's function return; and a function
 * passed to a call may run then. The "exports"
 * graph starts from every exported function: what dependents can make
 * this module do.
 */
#include <string.h>
#include <stdlib.h>
#include "modlife.h"

enum edge_kind { E_CALL, E_ICALL, E_UNREG, E_WAIT, E_PASS };

struct edge {
	enum edge_kind kind;
	char *from, *a, *b;	/* callee | struct, member | driver key */
};
struct store {
	char *st, *member, *fn, *obj;
};
/* @fn runs for @key ("runs"), or @key is queued on @on ("queued") */
struct runs {
	char *key, *fn, *on;
};

static struct edge *edges;
static int nedges;
static struct store *stores;
static int nstores;

struct reached {
	char *fn, *parent;
	int inferred;
};
static struct reached *reach;
static int nreach;
static char **exported;
static int nexported;
static struct runs *runs;
static int nruns;

static char *dup0(const char *s)
{
	return s ? strdup(s) : NULL;
}

static void add_edge(enum edge_kind kind, const char *from, const char *a,
		     const char *b)
{
	edges = realloc(edges, (nedges + 1) * sizeof(*edges));
	edges[nedges].kind = kind;
	edges[nedges].from = dup0(from);
	edges[nedges].a = dup0(a);
	edges[nedges].b = dup0(b);
	nedges++;
}

void graph_call(const char *from, const char *to)
{
	add_edge(E_CALL, from, to, NULL);
}

void graph_icall(const char *from, const char *st, const char *member)
{
	add_edge(E_ICALL, from, st, member);
}

void graph_unreg(const char *from, const char *drv)
{
	add_edge(E_UNREG, from, drv, NULL);
}

void graph_store(const char *st, const char *member, const char *fn,
		 const char *obj)
{
	stores = realloc(stores, (nstores + 1) * sizeof(*stores));
	stores[nstores].st = dup0(st);
	stores[nstores].member = dup0(member);
	stores[nstores].fn = dup0(fn);
	stores[nstores].obj = dup0(obj);
	nstores++;
}

/* The may graph's callbacks: @from hands @fn to a call that may run it. */
void graph_passes(const char *from, const char *fn)
{
	add_edge(E_PASS, from, fn, NULL);
}

/* The may graph's waits: @from waits until what runs for @key returned. */
void graph_waits(const char *from, const char *key)
{
	add_edge(E_WAIT, from, key, NULL);
}

static void add_runs(const char *key, const char *fn, const char *on)
{
	runs = realloc(runs, (nruns + 1) * sizeof(*runs));
	runs[nruns].key = dup0(key);
	runs[nruns].fn = dup0(fn);
	runs[nruns].on = dup0(on);
	nruns++;
}

void graph_runs(const char *key, const char *fn)
{
	add_runs(key, fn, NULL);
}

void graph_queued(const char *item, const char *on)
{
	add_runs(item, NULL, on);
}

void graph_export(const char *fn)
{
	exported = realloc(exported, (nexported + 1) * sizeof(*exported));
	exported[nexported++] = strdup(fn);
}

static int same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

int is_teardown_member(const char *m)
{
	return m && (!strcmp(m, "remove") || !strcmp(m, "remove_new") ||
		     !strcmp(m, "disconnect"));
}

/* Does one '_'-separated word of @name appear in @words? */
static int has_word(const char *name, const char *const *words)
{
	const char *const *w;
	const char *p;

	for (w = words; *w; w++) {
		size_t n = strlen(*w);

		for (p = name; (p = strstr(p, *w)); p++)
			if ((p == name || p[-1] == '_') &&
			    (p[n] == 0 || p[n] == '_'))
				return 1;
	}
	return 0;
}


int is_teardown_name(const char *name)
{
	/* devm_add_action*(): the core runs the action at unbind */
	if (!name)
		return 0;
	if (has_word(name, teardown_words))
		return 1;
	while (*name == '_')
		name++;
	return !strncmp(name, "devm_add_action", 15);
}

/* A function stored into @st's @member may run before the unload. */
int is_teardown_store(const char *st, const char *member)
{
	const char *const *w;
	size_t n;

	if (is_teardown_name(member))
		return 1;
	for (w = teardown_ops; st && member && *w; w++) {
		n = strlen(st);
		if (!strncmp(*w, st, n) && (*w)[n] == '.' &&
		    !strcmp(*w + n + 1, member))
			return 1;
	}
	return 0;
}

/* The single function stored into struct st's member, or NULL. */
static const char *single_impl(const char *st, const char *member)
{
	const char *fn = NULL;
	int i;

	for (i = 0; i < nstores; i++) {
		if (!same(stores[i].st, st) || !same(stores[i].member, member))
			continue;
		if (fn && strcmp(fn, stores[i].fn))
			return NULL;
		fn = stores[i].fn;
	}
	return fn;
}

static struct reached *find_reached(const char *fn)
{
	int i;

	for (i = 0; i < nreach; i++)
		if (!strcmp(reach[i].fn, fn))
			return &reach[i];
	return NULL;
}

static void visit(const char *fn, const char *parent, int inferred)
{
	if (!fn || find_reached(fn))
		return;
	reach = realloc(reach, (nreach + 1) * sizeof(*reach));
	reach[nreach].fn = strdup(fn);
	reach[nreach].parent = dup0(parent);
	reach[nreach].inferred = inferred;
	nreach++;
}

/* What a wait for @key lets run: its functions, and its items' ones. */
static void visit_waited(const char *key, const char *from)
{
	int i, j;

	for (i = 0; i < nruns; i++) {
		if (runs[i].fn && same(runs[i].key, key))
			visit(runs[i].fn, from, 0);
		if (!runs[i].on || !same(runs[i].on, key))
			continue;
		for (j = 0; j < nruns; j++)
			if (runs[j].fn && same(runs[j].key, runs[i].key))
				visit(runs[j].fn, from, 0);
	}
}

static void clear_reach(void)
{
	int i;

	for (i = 0; i < nreach; i++) {
		free(reach[i].fn);
		free(reach[i].parent);
	}
	nreach = 0;
}

/* Breadth first from the exit function, so paths are shortest. */
void graph_reach(const char *root, int mode)
{
	int i, j, may = mode == REACH_MAY;

	clear_reach();
	if (mode == REACH_EXPORTS)
		for (i = 0; i < nexported; i++)
			visit(exported[i], NULL, 0);
	else
		visit(root, NULL, 0);
	for (i = 0; may && i < nstores; i++)
		if (is_teardown_store(stores[i].st, stores[i].member))
			visit(stores[i].fn, NULL, 0);
	for (i = 0; may && i < nexported; i++)
		if (is_teardown_name(exported[i]))
			visit(exported[i], NULL, 0);
	for (i = 0; i < nreach; i++) {
		const char *fn = reach[i].fn;

		for (j = 0; j < nedges; j++) {
			struct edge *e = &edges[j];
			int k;

			if (!same(e->from, fn))
				continue;
			if (e->kind == E_CALL) {
				visit(e->a, fn, 0);
				continue;
			}
			if (e->kind == E_WAIT || e->kind == E_PASS) {
				if (may && e->kind == E_WAIT)
					visit_waited(e->a, fn);
				else if (may)
					visit(e->a, fn, 0);
				continue;
			}
			if (e->kind == E_ICALL && !may) {
				visit(single_impl(e->a, e->b), fn, 1);
				continue;
			}
			for (k = 0; k < nstores; k++) {
				struct store *s = &stores[k];

				if (e->kind == E_ICALL ? same(s->st, e->a) &&
				    same(s->member, e->b) :
				    same(s->obj, e->a) &&
				    is_teardown_member(s->member))
					visit(s->fn, fn, e->kind == E_ICALL);
			}
		}
	}
}

int graph_reached(const char *fn)
{
	return fn && find_reached(fn) != NULL;
}

/* "exit_fn -> helper -> fn", with "(via ops)" on inferred edges. */
const char *graph_path(const char *fn, char *buf, size_t len)
{
	const char *chain[64];
	int n = 0, inferred[64];
	struct reached *r = find_reached(fn);
	size_t used = 0;

	while (r && n < 64) {
		inferred[n] = r->inferred;
		chain[n++] = r->fn;
		r = r->parent ? find_reached(r->parent) : NULL;
	}
	buf[0] = 0;
	while (n-- > 0 && used < len) {
		used += snprintf(buf + used, len - used, "%s%s%s", chain[n],
				 inferred[n] ? " (inferred from ops table)" : "",
				 n ? " -> " : "");
	}
	return buf;
}

void graph_reset(void)
{
	int i;

	for (i = 0; i < nedges; i++) {
		free(edges[i].from);
		free(edges[i].a);
		free(edges[i].b);
	}
	for (i = 0; i < nstores; i++) {
		free(stores[i].st);
		free(stores[i].member);
		free(stores[i].fn);
		free(stores[i].obj);
	}
	for (i = 0; i < nexported; i++)
		free(exported[i]);
	for (i = 0; i < nruns; i++) {
		free(runs[i].key);
		free(runs[i].fn);
		free(runs[i].on);
	}
	clear_reach();
	nedges = nstores = nexported = nruns = 0;
}
