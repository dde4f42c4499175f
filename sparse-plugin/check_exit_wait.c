// SPDX-License-Identifier: GPL-2.0-only
/*
 * Waiting on module exit for what only user space can end:
 * unregister-wait-in-exit.
 *   - a call to *_unregister_wait() (the 2004 API and look-alikes);
 *   - kobject_put(), put_device() or a *_unregister() call, then
 *     wait_for_completion*() on a completion that a release callback of
 *     the module complete()s (matched by struct type and member);
 *   - a wait with no timeout (wait_for_completion*(), wait_event*(), an
 *     open-coded prepare_to_wait() loop) on a completion or wait queue
 *     that only last-reference functions user space ends signal: a
 *     file's ->release, or the release of a kref that a file's open
 *     holds. A signal anywhere else (a work item, a timer, the exit
 *     itself) ends the wait without user space; an open that pins the
 *     module (.owner) keeps exit from running while the file is open;
 *   - a call to an exported helper of another module that waits so
 *     (kb/owner-reads.tsv "user-wait:" rows, from the knowledge scan).
 * reachable from the module's exit function (the link step fills in the
 * path). An exported function that waits is reported even when its own
 * module does not reach it: every caller's exit inherits it.
 * In the knowledge scan the same waits become "kxwait" facts, from which
 * the front end derives the exported helpers that reach one.
 */
#include <string.h>
#include "modlife.h"
#include "strmap.h"

enum { W_COMPLETION, W_EVENT, W_OPEN_CODED };

struct wait_site {
	struct symbol *fn;
	struct position pos;
	char key[KEYLEN];
	char callee[64];
	int kind;
};
static struct wait_site *waits;
static int nwaits;

struct put_site {
	struct symbol *fn;
	struct position pos;
	char callee[64];
};
static struct put_site *puts_;
static int nputs;

/* complete*() and wake_up*() (signals), kref_get*() (holds) */
struct key_site {
	struct symbol *fn;
	char key[KEYLEN];
};
static struct key_site *signals, *holds;
static int nsignals, nholds;

/* timed sleeps: a wait queue wait at the same place ends by itself */
struct sleep_site {
	struct symbol *fn;
	struct position pos;
};
static struct sleep_site *sleeps;
static int nsleeps;

/*
 * What the file makes of a function: a last-reference role, and whether
 * its address is taken (then calls are not all its callers).
 */
enum {
	ROLE_FILE_RELEASE = 1,	/* file_operations.release of a static table */
	ROLE_FILE_OPEN = 2,	/* file_operations.open of a static table */
	ROLE_KREF_RELEASE = 4,	/* handed to kref_put*() */
	ROLE_OTHER_RELEASE = 8,	/* another release slot, or a table unknown */
};
struct fn_role {
	struct symbol *fn;
	unsigned int roles, derived;
	int taken;
	char fops[KEYLEN];	/* the table's name */
	char kref[KEYLEN];	/* the kref's key */
};
static struct fn_role *roles;
static int nroles;

struct call_edge {
	struct symbol *from, *to;
};
static struct call_edge *edges;
static int nedges;

static struct symbol_list *exported;

/* file_operations tables of the file with an owner in their initializer */
static struct symbol_list *owned;

static void *grow(void *p, int n, size_t size)
{
	p = realloc(p, (n + 1) * size);
	if (!p)
		out_of_memory();
	return p;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && !strcmp(s + n - k, suffix);
}

static struct symbol *def_of(struct symbol *fn)
{
	return fn && fn->definition ? fn->definition : fn;
}

static struct fn_role *role_of(struct symbol *fn, int create)
{
	int i;

	fn = def_of(fn);
	for (i = 0; i < nroles; i++)
		if (roles[i].fn == fn)
			return &roles[i];
	if (!create)
		return NULL;
	roles = grow(roles, nroles, sizeof(*roles));
	memset(&roles[nroles], 0, sizeof(*roles));
	roles[nroles].fn = fn;
	return &roles[nroles++];
}

static void wait_begin_tu(void)
{
	nwaits = nputs = nsignals = nholds = nsleeps = nroles = nedges = 0;
	exported = owned = NULL;
}

static int before(struct position a, struct position b)
{
	return a.line < b.line || (a.line == b.line && a.pos < b.pos);
}

static int same_pos(struct position a, struct position b)
{
	return a.stream == b.stream && a.line == b.line && a.pos == b.pos;
}

static void add_key_site(struct key_site **list, int *n, struct symbol *fn,
			 const char *key)
{
	*list = grow(*list, *n, sizeof(**list));
	(*list)[*n].fn = fn;
	snprintf((*list)[*n].key, KEYLEN, "%s", key);
	(*n)++;
}

/* A function value stored into @member ("struct T.m") of table @obj. */
static void stored(struct symbol *member, struct expression *value,
		   const char *obj)
{
	struct symbol *fn = expr_symbol(value), *c;
	const char *m;
	struct fn_role *r;

	if (!fn || !ml_is_function(fn))
		return;
	r = role_of(fn, 1);
	r->taken = 1;
	if (!member || !member->ident)
		return;
	c = member_container(member);
	m = id_str(member->ident);
	if (c && !strcmp(type_name(c), "struct file_operations") &&
	    (!strcmp(m, "release") || !strcmp(m, "open"))) {
		/* the table must be named for its owner to be known */
		if (!obj || strncmp(obj, "obj:", 4)) {
			r->roles |= ROLE_OTHER_RELEASE;
			return;
		}
		r->roles |= *m == 'r' ? ROLE_FILE_RELEASE : ROLE_FILE_OPEN;
		snprintf(r->fops, sizeof(r->fops), "%s", obj);
		return;
	}
	if (ends_with(m, "release") || !strcmp(m, "release"))
		r->roles |= ROLE_OTHER_RELEASE;
}

static void wait_leaf(struct symbol *obj, struct symbol *member,
		      struct expression *value, unsigned long offset)
{
	char key[KEYLEN];
	struct symbol *c = member ? member_container(member) : NULL;

	/* THIS_MODULE is a null pointer where the knowledge scan looks */
	if (member && member->ident && is_owner_member(member) && c &&
	    !strcmp(type_name(c), "struct file_operations"))
		add_symbol(&owned, obj);
	snprintf(key, sizeof(key), "obj:%s", sym_name(obj));
	stored(member, value, key);
}

static int table_owned(const char *key)
{
	struct symbol *s;

	FOR_EACH_PTR(owned, s) {
		if (!strcmp(key + 4, sym_name(s)))
			return 1;
	} END_FOR_EACH_PTR(s);
	return 0;
}

static void wait_assign(struct walk_ctx *ctx, struct expression *expr)
{
	struct expression *lv = strip_expr(expr->left);

	if (expr->op != '=')
		return;
	/* a table filled in at run time: which one is not known here */
	stored(member_of_lvalue(lv), expr->right, NULL);
}

static void note_call(struct walk_ctx *ctx, struct expression *call,
		      struct symbol *callee, const char *name)
{
	struct expression *arg;
	const struct api_row *kput = api_find("kref-put", name);
	char key[KEYLEN];
	int k = 0;

	FOR_EACH_PTR(call->args, arg) {
		struct symbol *fn = expr_symbol(arg);

		if (fn && ml_is_function(fn)) {
			struct fn_role *r = role_of(fn, 1);

			r->taken = 1;
			if (kput && k == kput->a &&
			    type_key(first_expression(call->args), key,
				     sizeof(key))) {
				r->roles |= ROLE_KREF_RELEASE;
				snprintf(r->kref, sizeof(r->kref), "%s", key);
			}
		}
		k++;
	} END_FOR_EACH_PTR(arg);
	if (callee && ml_is_function(callee)) {
		edges = grow(edges, nedges, sizeof(*edges));
		edges[nedges].from = def_of(ctx->fn);
		edges[nedges].to = def_of(callee);
		nedges++;
	}
}

static void add_wait(struct walk_ctx *ctx, struct expression *call,
		     const char *name, int kind)
{
	struct wait_site *w;
	char key[KEYLEN];
	int i;

	if (!type_key(first_expression(call->args), key, sizeof(key)))
		return;
	/* wait_event() expands to the same call more than once */
	for (i = 0; i < nwaits; i++)
		if (waits[i].fn == ctx->fn && same_pos(waits[i].pos, call->pos) &&
		    !strcmp(waits[i].key, key))
			return;
	waits = grow(waits, nwaits, sizeof(*waits));
	w = &waits[nwaits++];
	w->fn = ctx->fn;
	w->pos = call->pos;
	w->kind = kind;
	snprintf(w->key, sizeof(w->key), "%s", key);
	snprintf(w->callee, sizeof(w->callee), "%s", name);
}

static void helper_call(struct walk_ctx *ctx, struct expression *call,
			struct symbol *callee, const char *name);

static void wait_call(struct walk_ctx *ctx, struct expression *call,
		      struct symbol *callee)
{
	const char *name = callee_name(callee);
	char key[KEYLEN];

	if (!name || !ctx->fn)
		return;
	note_call(ctx, call, callee, name);
	if (api_is("wait-timeout", name)) {
		sleeps = grow(sleeps, nsleeps, sizeof(*sleeps));
		sleeps[nsleeps].fn = ctx->fn;
		sleeps[nsleeps].pos = call->pos;
		nsleeps++;
		return;
	}
	if (api_is("kref-get", name)) {
		if (type_key(first_expression(call->args), key, sizeof(key)))
			add_key_site(&holds, &nholds, ctx->fn, key);
		return;
	}
	if (api_is("waitq-wake", name)) {
		if (type_key(first_expression(call->args), key, sizeof(key)))
			add_key_site(&signals, &nsignals, ctx->fn, key);
		return;
	}
	if (api_is("waitq-wait", name)) {
		add_wait(ctx, call, name, strcmp(name, "prepare_to_wait_event") ?
			 W_OPEN_CODED : W_EVENT);
		return;
	}
	if (api_is("complete", name)) {
		char rel[KEYLEN + 16], done[KEYLEN + 32];

		if (!type_key(first_expression(call->args), key, sizeof(key)))
			return;
		add_key_site(&signals, &nsignals, ctx->fn, key);
		if (!tu.is_module || tu.kb_scan)
			return;
		/* holds if this function is some object's release callback */
		snprintf(rel, sizeof(rel), KEY_RELEASE_FN "%s",
			 sym_name(ctx->fn));
		snprintf(done, sizeof(done), KEY_RELEASE_COMPLETES "%s", key);
		implies(rel, done);
		return;
	}
	if (api_is("wait-completion", name)) {
		add_wait(ctx, call, name, W_COMPLETION);
		return;
	}
	if (!tu.is_module || tu.kb_scan)
		return;
	if (ends_with(name, "_unregister_wait")) {
		struct finding *f = finding_new("unregister-wait-in-exit",
						call->pos, NULL);

		f->unload = 1;
		finding_path_to(f, sym_name(ctx->fn));
		finding_message(f, "%%PATH%% -> %s(): waiting in the exit path for the release deadlocks rmmod while anyone holds a reference (another subsystem's get_device() is enough); unregister without waiting and let the core own the release (net_device pattern) or pin the module (cdev pattern)",
				name);
		finding_report(f);
		return;
	}
	if (api_is("put", name)) {
		struct put_site *p;

		puts_ = grow(puts_, nputs, sizeof(*puts_));
		p = &puts_[nputs++];
		p->fn = ctx->fn;
		p->pos = call->pos;
		snprintf(p->callee, sizeof(p->callee), "%s", name);
	}
	helper_call(ctx, call, callee, name);
}

/*
 * A call of another module's exported helper that waits for user space
 * (the knowledge file's "user-wait:NAME" rows: the wait and who ends it).
 */
struct helper_arg {
	char why[512];
};

static void helper_row(const char *value, void *arg)
{
	struct helper_arg *h = arg;

	if (!h->why[0])
		snprintf(h->why, sizeof(h->why), "%s", value);
}

static void helper_call(struct walk_ctx *ctx, struct expression *call,
			struct symbol *callee, const char *name)
{
	struct helper_arg h = { "" };
	char row[256];
	struct finding *f;

	/* the module's own definition is checked where it waits */
	if (callee->definition && callee->definition->stmt)
		return;
	snprintf(row, sizeof(row), "user-wait:%s", name);
	kb_each(row, helper_row, &h);
	if (!h.why[0])
		return;
	f = finding_new("unregister-wait-in-exit", call->pos, NULL);
	f->unload = 1;
	finding_path_to(f, sym_name(ctx->fn));
	finding_message(f, "%%PATH%% -> %s(): %s: rmmod blocks until user space closes the file",
			name, h.why);
	finding_report(f);
}

/* EXPORT_SYMBOL(fn) leaves "__UNIQUE_ID___addressable_fn<N> = &fn". */
static void wait_object(struct symbol *obj)
{
	struct symbol *fn;

	for_each_init_leaf(obj, obj->initializer, wait_leaf);
	if (strncmp(sym_name(obj), "__UNIQUE_ID___addressable_", 26))
		return;
	fn = expr_symbol(obj->initializer);
	if (fn && ml_is_function(fn) && is_exported_symbol(fn))
		add_symbol(&exported, fn->definition ? fn->definition : fn);
}

static int is_exported(struct symbol *fn)
{
	struct symbol *s;

	FOR_EACH_PTR(exported, s) {
		if (s == fn)
			return 1;
	} END_FOR_EACH_PTR(s);
	return 0;
}

/*
 * A static function that no table or argument names gets the role of its
 * callers when all of them have one (a put helper called only from
 * ->release): what it signals, it signals for them.
 */
static void derive_roles(void)
{
	int changed = 1, i, j;

	while (changed) {
		changed = 0;
		for (i = 0; i < nroles; i++) {
			struct fn_role *r = &roles[i], *from = NULL;
			int all = 1, any = 0;

			if (r->roles || r->taken ||
			    !(r->fn->ctype.modifiers & MOD_STATIC))
				continue;
			for (j = 0; j < nedges && all; j++) {
				struct fn_role *c;

				if (edges[j].to != r->fn)
					continue;
				c = role_of(edges[j].from, 0);
				any = 1;
				if (!c || !c->roles)
					all = 0;
				else if (!from)
					from = c;
				else if (from->roles != c->roles)
					all = 0;
			}
			if (!any || !all || !from)
				continue;
			r->roles = from->roles;
			r->derived = 1;
			memcpy(r->fops, from->fops, sizeof(r->fops));
			memcpy(r->kref, from->kref, sizeof(r->kref));
			changed = 1;
		}
	}
}

/* The signals of @key: what they say about who ends a wait on it. */
static void provide_signals(void)
{
	int i;

	for (i = 0; i < nsignals; i++) {
		struct key_site *s = &signals[i];
		struct fn_role *r = role_of(s->fn, 0);
		unsigned int ro = r ? r->roles : 0;
		char a[KEYLEN + 32], b[KEYLEN + 32];

		if (ro & ROLE_FILE_RELEASE) {
			provide(KEY_USER_SIGNAL "%s", s->key);
			snprintf(a, sizeof(a), KEY_OWNER "%s", r->fops);
			snprintf(b, sizeof(b), KEY_PINNED_SIGNAL "%s", s->key);
			implies(a, b);
		} else if (ro & ROLE_KREF_RELEASE) {
			snprintf(a, sizeof(a), KEY_OPEN_HOLDS "%s", r->kref);
			snprintf(b, sizeof(b), KEY_USER_SIGNAL "%s", s->key);
			implies(a, b);
			snprintf(a, sizeof(a), KEY_PINNED_HOLDS "%s", r->kref);
			snprintf(b, sizeof(b), KEY_PINNED_SIGNAL "%s", s->key);
			implies(a, b);
		} else if (!(ro & ROLE_OTHER_RELEASE)) {
			provide(KEY_OTHER_SIGNAL "%s", s->key);
		}
	}
	for (i = 0; i < nholds; i++) {
		struct fn_role *r = role_of(holds[i].fn, 0);
		char a[KEYLEN + 32], b[KEYLEN + 32];

		if (!r || !(r->roles & ROLE_FILE_OPEN))
			continue;
		provide(KEY_OPEN_HOLDS "%s", holds[i].key);
		snprintf(a, sizeof(a), KEY_OWNER "%s", r->fops);
		snprintf(b, sizeof(b), KEY_PINNED_HOLDS "%s", holds[i].key);
		implies(a, b);
	}
}

static int timed(struct wait_site *w)
{
	int i;

	for (i = 0; i < nsleeps; i++)
		if (sleeps[i].fn == w->fn &&
		    (w->kind == W_OPEN_CODED || same_pos(sleeps[i].pos, w->pos)))
			return 1;
	return w->kind == W_COMPLETION && api_is("wait-timeout", w->callee);
}

static const char *wait_name(struct wait_site *w)
{
	return w->kind == W_EVENT ? "wait_event" : w->callee;
}

/* Who, in this file, ends a wait on @key from user space, or NULL. */
static struct fn_role *user_signaller(const char *key)
{
	int i;

	for (i = 0; i < nsignals; i++) {
		struct fn_role *r = role_of(signals[i].fn, 0);

		if (!strcmp(signals[i].key, key) && r &&
		    (r->roles & (ROLE_FILE_RELEASE | ROLE_KREF_RELEASE)))
			return r;
	}
	return NULL;
}

/* an open of a table without an owner takes a reference on @kref */
static int opens_hold(const char *kref)
{
	int i;

	for (i = 0; i < nholds; i++) {
		struct fn_role *r = role_of(holds[i].fn, 0);

		if (!strcmp(holds[i].key, kref) && r &&
		    (r->roles & ROLE_FILE_OPEN) && !table_owned(r->fops))
			return 1;
	}
	return 0;
}

/* "a file's ->release", "the kref release of 'struct x.ref'" */
static void signaller_words(struct fn_role *r, char *buf, size_t len)
{
	if (!r) {
		snprintf(buf, len, "a file's ->release or the release of a kref a file's open holds");
		return;
	}
	if (r->roles & ROLE_FILE_RELEASE)
		snprintf(buf, len, "%s() (%s ->release of '%s')",
			 sym_name(r->fn), r->derived ? "called only from the" :
			 "the", key_label(r->fops));
	else
		snprintf(buf, len, "%s() (%s release of '%s', which a file's open takes)",
			 sym_name(r->fn), r->derived ? "called only from the kref" :
			 "the kref", r->kref);
}

/* knowledge scan: a wait that only user space ends, whoever calls it */
static void kb_waits(void)
{
	int i, j;

	for (i = 0; i < nwaits; i++) {
		struct wait_site *w = &waits[i];
		struct fn_role *user = NULL;
		char why[KEYLEN * 3];
		int other = 0;

		if (timed(w))
			continue;
		for (j = 0; j < nsignals; j++) {
			struct fn_role *r = role_of(signals[j].fn, 0);

			if (strcmp(signals[j].key, w->key))
				continue;
			if (r && (r->roles & ROLE_FILE_RELEASE) &&
			    !table_owned(r->fops))
				user = user ? user : r;
			else if (r && (r->roles & ROLE_FILE_RELEASE))
				other = 1;	/* an open pins some module */
			else if (r && (r->roles & ROLE_KREF_RELEASE) &&
				 opens_hold(r->kref))
				user = user ? user : r;
			else
				other = 1;
		}
		if (!user || other)
			continue;
		signaller_words(user, why, sizeof(why) / 2);
		fact_begin("kxwait");
		fact_str("fn", sym_name(w->fn));
		fact_str("key", w->key);
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
			 "|%s() on '%s'", wait_name(w), key_label(w->key));
		fact_str("why", why);
		fact_pos(w->pos);
		fact_end();
	}
}

static void new_shape(struct wait_site *w, int old_shape)
{
	char what[KEYLEN * 2];
	struct finding *f;
	const char *fn = sym_name(w->fn);
	int exp = is_exported(w->fn), pass;

	signaller_words(user_signaller(w->key), what, sizeof(what));
	for (pass = 0; pass < 1 + exp; pass++) {
		f = finding_new("unregister-wait-in-exit", w->pos, NULL);
		finding_requires(f, KEY_USER_SIGNAL "%s", w->key);
		finding_unless(f, KEY_OTHER_SIGNAL "%s", w->key);
		/*
		 * An exported helper's table with an owner pins some module:
		 * a core copies its tables for its callers with their owner
		 * (dvb_register_device()). Only a table without one pins none.
		 */
		finding_unless(f, KEY_PINNED_SIGNAL "%s", w->key);
		if (old_shape)
			finding_unless(f, KEY_RELEASE_COMPLETES "%s", w->key);
		if (pass) {
			finding_unless(f, KEY_EXIT_REACHES "%s", fn);
			finding_message(f, "exported %s() waits in %s() on '%s', which only %s signals: every module that calls it from its exit or remove path blocks rmmod until user space closes the file",
					fn, wait_name(w), key_label(w->key), what);
		} else {
			f->unload = 1;
			finding_path_to(f, fn);
			finding_message(f, "%%PATH%%: %s() on '%s', which only %s signals: rmmod blocks until user space closes the file; pin the module while files are open (.owner = THIS_MODULE) and drop the wait",
					wait_name(w), key_label(w->key), what);
		}
		finding_report(f);
	}
}

static void wait_end_tu(void)
{
	int i, j;

	derive_roles();
	if (tu.kb_scan) {
		kb_waits();
		return;
	}
	if (!tu.is_module)
		return;
	provide_signals();
	for (i = 0; i < nwaits; i++) {
		struct wait_site *w = &waits[i];
		struct put_site *put = NULL;
		struct finding *f;
		const char *fn = sym_name(w->fn);

		if (timed(w))
			continue;
		for (j = 0; w->kind == W_COMPLETION && j < nputs; j++)
			if (puts_[j].fn == w->fn && before(puts_[j].pos, w->pos))
				put = &puts_[j];
		new_shape(w, !!put);
		if (!put)
			continue;
		f = finding_new("unregister-wait-in-exit", w->pos, NULL);
		f->unload = 1;
		finding_requires(f, KEY_RELEASE_COMPLETES "%s", w->key);
		finding_path_to(f, fn);
		finding_message(f, "%%PATH%%: %s() and then %s() on '%s', which a release callback completes: rmmod deadlocks while anyone holds a reference (another subsystem's get_device() is enough); drop the wait and let the core own the release (net_device pattern) or pin the module (cdev pattern)",
				put->callee, w->callee, key_label(w->key));
		finding_report(f);
		if (!is_exported(w->fn))
			continue;
		/* the module's own exit path is the finding above */
		f = finding_new("unregister-wait-in-exit", w->pos, NULL);
		finding_requires(f, KEY_RELEASE_COMPLETES "%s", w->key);
		finding_unless(f, KEY_EXIT_REACHES "%s", fn);
		finding_message(f, "exported %s() calls %s() and then %s() on '%s', which a release callback completes: every module that calls it from its exit or remove path deadlocks rmmod while anyone holds a reference",
				fn, put->callee, w->callee, key_label(w->key));
		finding_report(f);
	}
}

const struct modlife_check check_exit_wait = {
	.modes = CHECK_RULES | CHECK_KB,
	.name = "exit-wait",
	.begin_tu = wait_begin_tu,
	.call = wait_call,
	.assign = wait_assign,
	.object = wait_object,
	.end_tu = wait_end_tu,
};
