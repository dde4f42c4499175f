// SPDX-License-Identifier: GPL-2.0-only
/*
 * The call graph of a module (or of one translation unit under kbuild),
 * built by link.c from call, icall, store, unreg_driver, runs, queued,
 * waits and fn/export facts, and what a set of roots reaches in it:
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
 * passed to a call may run then. The "exports" graph starts from every
 * exported function: what dependents can make this module do.
 * Edges are indexed by their source, so a reach is linear in the graph.
 */
#include <string.h>
#include <stdlib.h>
#include "modlife.h"
#include "strmap.h"

enum edge_kind { E_CALL, E_ICALL, E_UNREG, E_WAIT, E_PASS };

struct edge {
	enum edge_kind kind;
	char *a, *b;	/* callee | struct, member | driver key | wait key */
};
struct store {
	char *fn;
};
struct runs {
	char *fn;	/* @fn runs for a key, or NULL: an item queued on one */
	char *item;
};

static struct edge *edges;
static int nedges, edges_cap;
static struct store *stores;
static int nstores, stores_cap;
static struct runs *runs;
static int nruns, runs_cap;
static char **exported;
static int nexported, exported_cap;
static struct strmap by_from;	/* fn -> edges leaving it */
static struct strmap by_member;	/* "struct T\nmember" -> stores */
static struct strmap teardown_of;	/* driver key -> stores of .remove */
static struct strmap may_roots;		/* teardown-like stores' fns */
static struct strmap runs_for;	/* key -> runs (fns and queued items) */

static char *dup0(const char *s)
{
	return s ? ml_strdup(s) : NULL;
}

static void add_edge(enum edge_kind kind, const char *from, const char *a,
		     const char *b)
{
	if (!from || !a)
		return;
	edges = xgrow(edges, &edges_cap, nedges + 1, sizeof(*edges));
	edges[nedges].kind = kind;
	edges[nedges].a = ml_strdup(a);
	edges[nedges].b = dup0(b);
	ivec_push(strmap_ivec(&by_from, from), nedges);
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

static const char *member_key(const char *st, const char *member,
			      char *buf, size_t len)
{
	snprintf(buf, len, "%s\n%s", st ? st : "", member ? member : "");
	return buf;
}

void graph_store(const char *st, const char *member, const char *fn,
		 const char *obj)
{
	char key[1024];

	if (!fn)
		return;
	stores = xgrow(stores, &stores_cap, nstores + 1, sizeof(*stores));
	stores[nstores].fn = ml_strdup(fn);
	ivec_push(strmap_ivec(&by_member,
			      member_key(st, member, key, sizeof(key))),
		  nstores);
	if (obj && is_teardown_member(member))
		ivec_push(strmap_ivec(&teardown_of, obj), nstores);
	if (is_teardown_store(st, member))
		strmap_add(&may_roots, fn);
	nstores++;
}

static void add_runs(const char *key, const char *fn, const char *item)
{
	if (!key)
		return;
	runs = xgrow(runs, &runs_cap, nruns + 1, sizeof(*runs));
	runs[nruns].fn = dup0(fn);
	runs[nruns].item = dup0(item);
	ivec_push(strmap_ivec(&runs_for, key), nruns);
	nruns++;
}

void graph_runs(const char *key, const char *fn)
{
	add_runs(key, fn, NULL);
}

void graph_queued(const char *item, const char *on)
{
	add_runs(on, NULL, item);
}

/* How many functions the module exports. */
int graph_exports(void)
{
	return nexported;
}

void graph_export(const char *fn)
{
	exported = xgrow(exported, &exported_cap, nexported + 1,
			 sizeof(*exported));
	exported[nexported++] = ml_strdup(fn);
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

/*
 * A call of @name may take back what the module registered: kb/api.tsv's
 * unregister class or any teardown-like name (generous: a wrong "never
 * taken back" would mislead)
 */
int is_undo_name(const char *name)
{
	return api_is("unregister", name) || is_teardown_name(name);
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

/* ---- reaching ---- */

struct reached {
	char *fn;
	int parent;		/* index, or -1 for a root */
	int inferred;
};
struct reach {
	struct reached *v;
	int n, cap;
	struct strmap index;	/* fn -> index + 1 */
};

static void visit(struct reach *r, const char *fn, int parent, int inferred)
{
	void **slot;

	if (!fn || strmap_get(&r->index, fn))
		return;
	r->v = xgrow(r->v, &r->cap, r->n + 1, sizeof(*r->v));
	r->v[r->n].fn = ml_strdup(fn);
	r->v[r->n].parent = parent;
	r->v[r->n].inferred = inferred;
	slot = strmap_add(&r->index, fn);
	*slot = (void *)(long)(r->n + 1);
	r->n++;
}

/* The single function stored into struct st's member, or NULL. */
static const char *single_impl(const struct ivec *v)
{
	const char *fn = NULL;
	int i;

	for (i = 0; v && i < v->n; i++) {
		const char *s = stores[v->v[i]].fn;

		if (fn && strcmp(fn, s))
			return NULL;
		fn = s;
	}
	return fn;
}

static void visit_stores(struct reach *r, const struct ivec *v, int from,
			 int inferred)
{
	int i;

	for (i = 0; v && i < v->n; i++)
		visit(r, stores[v->v[i]].fn, from, inferred);
}

/* What a wait for @key lets run: its functions, and its items' ones. */
static void visit_waited(struct reach *r, const char *key, int from)
{
	void **slot = strmap_get(&runs_for, key);
	struct ivec *v = slot ? *slot : NULL;
	int i, j;

	for (i = 0; v && i < v->n; i++) {
		struct runs *x = &runs[v->v[i]];
		void **s2;
		struct ivec *w;

		if (x->fn) {
			visit(r, x->fn, from, 0);
			continue;
		}
		s2 = strmap_get(&runs_for, x->item);
		w = s2 ? *s2 : NULL;
		for (j = 0; w && j < w->n; j++)
			if (runs[w->v[j]].fn)
				visit(r, runs[w->v[j]].fn, from, 0);
	}
}

static void edges_from(struct reach *r, int at, int may)
{
	void **slot = strmap_get(&by_from, r->v[at].fn);
	struct ivec *v = slot ? *slot : NULL;
	char key[1024];
	int i;

	for (i = 0; v && i < v->n; i++) {
		struct edge *e = &edges[v->v[i]];
		void **s;

		switch (e->kind) {
		case E_CALL:
			visit(r, e->a, at, 0);
			break;
		case E_PASS:
			if (may)
				visit(r, e->a, at, 0);
			break;
		case E_WAIT:
			if (may)
				visit_waited(r, e->a, at);
			break;
		case E_ICALL:
			s = strmap_get(&by_member,
				       member_key(e->a, e->b, key, sizeof(key)));
			if (may)
				visit_stores(r, s ? *s : NULL, at, 1);
			else
				visit(r, single_impl(s ? *s : NULL), at, 1);
			break;
		case E_UNREG:
			s = strmap_get(&teardown_of, e->a);
			visit_stores(r, s ? *s : NULL, at, 0);
			break;
		}
	}
}

/* Breadth first from the roots, so paths are shortest. */
struct reach *graph_reach(const char *const *roots, int nroots, int mode)
{
	struct reach *r = calloc(1, sizeof(*r));
	int i, may = mode == REACH_MAY;

	if (!r)
		out_of_memory();
	if (mode == REACH_EXPORTS)
		for (i = 0; i < nexported; i++)
			visit(r, exported[i], -1, 0);
	for (i = 0; mode != REACH_EXPORTS && i < nroots; i++)
		visit(r, roots[i], -1, 0);
	if (may && r->n) {
		/* in the order the stores came, as the facts say them */
		for (i = 0; i < nstores; i++)
			if (strmap_get(&may_roots, stores[i].fn))
				visit(r, stores[i].fn, -1, 0);
		for (i = 0; i < nexported; i++)
			if (is_teardown_name(exported[i]))
				visit(r, exported[i], -1, 0);
	}
	for (i = 0; i < r->n; i++)
		edges_from(r, i, may);
	return r;
}

int reach_has(const struct reach *r, const char *fn)
{
	return r && fn && strmap_get(&r->index, fn) != NULL;
}

int reach_count(const struct reach *r)
{
	return r ? r->n : 0;
}

const char *reach_fn(const struct reach *r, int i)
{
	return r->v[i].fn;
}

/* "exit_fn -> helper -> fn", with "(via ops)" on inferred edges. */
const char *reach_path(const struct reach *r, const char *fn, char *buf,
		       size_t len)
{
	void **slot = strmap_get(&r->index, fn);
	int chain[64], n = 0, at = slot ? (int)(long)*slot - 1 : -1;
	size_t used = 0;

	while (at >= 0 && n < 64) {
		chain[n++] = at;
		at = r->v[at].parent;
	}
	buf[0] = 0;
	while (n-- > 0 && used < len) {
		struct reached *x = &r->v[chain[n]];
		int w = snprintf(buf + used, len - used, "%s%s%s", x->fn,
				 x->inferred ? " (inferred from ops table)" :
				 "", n ? " -> " : "");

		if (w < 0)
			break;
		used += w;
	}
	return buf;
}

void reach_free(struct reach *r)
{
	int i;

	if (!r)
		return;
	for (i = 0; i < r->n; i++)
		free(r->v[i].fn);
	free(r->v);
	strmap_free(&r->index, NULL);
	free(r);
}

void graph_reset(void)
{
	int i;

	for (i = 0; i < nedges; i++) {
		free(edges[i].a);
		free(edges[i].b);
	}
	for (i = 0; i < nstores; i++)
		free(stores[i].fn);
	for (i = 0; i < nexported; i++)
		free(exported[i]);
	for (i = 0; i < nruns; i++) {
		free(runs[i].fn);
		free(runs[i].item);
	}
	nedges = nstores = nexported = nruns = 0;
	strmap_free(&by_from, ivec_free);
	strmap_free(&by_member, ivec_free);
	strmap_free(&teardown_of, ivec_free);
	strmap_free(&may_roots, NULL);
	strmap_free(&runs_for, ivec_free);
}
