// SPDX-License-Identifier: GPL-2.0-only
/*
 * The stop/arm tracker behind the pending-callback rules (check_rcu.c,
 * check_work.c, check_timer.c): what the module's functions stop (work
 * items, queues, timers, threads, RCU barriers), what runs for which
 * object (INIT_WORK(), timer_setup(), kthread_run()), what pins the
 * module, and the arms and queues of the rules: one that its own
 * function stops again provides stopped-after:, which the rule's
 * candidate names (the link step decides).
 * Objects are matched by their access path (struct type and members) or
 * name; "exit path" is the module call graph from the exit function, the
 * driver core's .remove included (see graph.c). Its stops also tell the
 * knowledge scan what exported helpers stop.
 */
#include <string.h>
#include "modlife.h"
#include "strmap.h"
#include "track_async.h"

int own_function(struct expression *e)
{
	struct symbol *fn = expr_symbol(e);

	if (!fn || !ml_is_function(fn))
		return 0;
	if (fn->definition)
		fn = fn->definition;
	return is_own_symbol(fn);
}

struct expression *nth_arg(struct expression *call, int n)
{
	return ptr_list_nth_entry((struct ptr_list *)call->args, n);
}

/* "x.dwork.work" -> "x.dwork": the delayed_work around a work item */
int delayed_of(const char *key, char *buf, size_t len)
{
	size_t n = strlen(key);

	if (n <= 5 || strcmp(key + n - 5, ".work"))
		return 0;
	snprintf(buf, len, "%.*s", (int)(n - 5), key);
	return 1;
}

/* Keys for an object and, for "x.dwork.work", its delayed_work "x.dwork". */
static void provide_both(const char *fmt_key, const char *key)
{
	char k[KEYLEN];

	provide("%s%s", fmt_key, key);
	if (delayed_of(key, k, sizeof(k)))
		provide("%s%s", fmt_key, k);
}

static void reached_both(struct symbol *fn, const char *prefix,
			 const char *key)
{
	char d[KEYLEN], k[KEYLEN + 32];

	snprintf(k, sizeof(k), "%s%s", prefix, key);
	provide_if_may_reach(sym_name(fn), k);
	if (delayed_of(key, d, sizeof(d))) {
		snprintf(k, sizeof(k), "%s%s", prefix, d);
		provide_if_may_reach(sym_name(fn), k);
	}
}

/*
 * "struct delayed_work.work" names every delayed work there is: the
 * wrappers of the async primitives (kb/generic-wrappers.txt) are no
 * object's innermost struct (delayed_of() gives the delayed work itself).
 */
static int generic_key(const char *key)
{
	const char *const *w;

	if (strncmp(key, "struct ", 7))
		return 0;
	key += 7;
	for (w = generic_wrappers; *w; w++)
		if (!strncmp(key, *w, strlen(*w)) && key[strlen(*w)] == '.')
			return 1;
	return 0;
}

/* The innermost struct.member of @addr, when it names something else. */
const char *inner_key(struct expression *addr, const char *key,
			     char *buf, size_t len)
{
	if (!type_key(addr, buf, len) || !strcmp(buf, key) ||
	    generic_key(buf))
		return NULL;
	return buf;
}

/* "dev->mt76.wq" also as "struct mt76_dev.wq": the queue's own struct */
const char *wq_inner_key(struct expression *e, const char *key,
				char *buf, size_t len)
{
	e = strip_expr(e);
	if (!e || e->type != EXPR_PREOP || e->op != '*')
		return NULL;
	return inner_key(e->unop, key, buf, len);
}

/*
 * A stop counts for the object by its access path ("struct a.b.timer")
 * and by the innermost struct and member ("struct b.timer"): arrays,
 * unions and containers name the same object in other ways. It waits
 * for the end of the file: one that its function follows by arming or
 * queueing the object again (cancel, then schedule: a restart) stops
 * nothing.
 */
#define STOP_KEYS 20
struct stop {
	char fn[KEYLEN], key[KEYLEN];
	struct symbol *sym;
	const char *prefix;
	char keys[STOP_KEYS][KEYLEN];
	int nkeys;
	struct position pos;
	struct branches br;
};
static struct stop *stops;
static int nstops;

static int has_key(const struct stop *st, const char *key)
{
	int i;

	for (i = 0; i < st->nkeys; i++)
		if (!strcmp(st->keys[i], key))
			return 1;
	return 0;
}

static void stop_at(struct walk_ctx *ctx, const char *prefix,
		    struct expression *addr, const char *key,
		    struct position pos)
{
	struct symbol *fn = ctx->fn;
	char alt[6][KEYLEN], alt_type[6][KEYLEN];
	struct stop *st;
	int i, n;

	stops = realloc(stops, (nstops + 1) * sizeof(*stops));
	st = &stops[nstops++];
	snprintf(st->fn, sizeof(st->fn), "%s", sym_name(fn));
	snprintf(st->key, sizeof(st->key), "%s", key);
	st->sym = fn;
	st->prefix = prefix;
	st->pos = pos;
	st->br = ctx->br;
	st->nkeys = 0;
	snprintf(st->keys[st->nkeys++], KEYLEN, "%s", key);
	if (inner_key(addr, key, st->keys[st->nkeys], KEYLEN))
		st->nkeys++;
	/* a union's other members that begin alike: the stop may be theirs */
	n = addr_key_others(addr, alt, alt_type, 6);
	for (i = 0; i < n; i++) {
		snprintf(st->keys[st->nkeys++], KEYLEN, "%s", alt[i]);
		if (!generic_key(alt_type[i]))
			snprintf(st->keys[st->nkeys++], KEYLEN, "%s",
				 alt_type[i]);
	}
	/* the paths from the named structs it passes through */
	n = addr_key_suffixes(addr, alt, 4);
	for (i = 0; i < n; i++)
		if (!generic_key(alt[i]) && !has_key(st, alt[i]))
			snprintf(st->keys[st->nkeys++], KEYLEN, "%s", alt[i]);
}

static int rearmed(const struct stop *st);
static int requeued(const struct stop *st);

static void stops_flush(void)
{
	int i, j;

	for (i = 0; i < nstops; i++) {
		if (rearmed(&stops[i]))
			continue;
		if (requeued(&stops[i])) {
			reached_both(stops[i].sym, KEY_CANCELLED_EARLY,
				     stops[i].key);
			continue;
		}
		for (j = 0; j < stops[i].nkeys; j++)
			reached_both(stops[i].sym, stops[i].prefix,
				     stops[i].keys[j]);
	}
	nstops = 0;
}

/* unless prefix + the innermost struct.member, when it differs */
void unless_type(struct finding *f, const char *prefix,
			struct expression *addr, const char *key)
{
	char t[KEYLEN];

	if (inner_key(addr, key, t, sizeof(t)))
		finding_unless(f, "%s%s", prefix, t);
}

/*
 * The may graph's view of synchronous waits (graph.c): @fn runs for @key
 * (a work item, "thread:" a kthread), @item is queued on "wq:" a queue,
 * @from waits until what runs for @key has returned.
 */
static void fact_runs(const char *key, struct symbol *fn)
{
	fact_begin("runs");
	fact_str("key", key);
	fact_str("fn", sym_name(fn));
	fact_end();
}

void fact_queued(const char *item, const char *on)
{
	fact_begin("queued");
	fact_str("item", item);
	fact_str("on", on);
	fact_end();
}

static void fact_waits(struct symbol *from, const char *key)
{
	fact_begin("waits");
	fact_str("from", sym_name(from));
	fact_str("key", key);
	fact_end();
}

/* fact_waits() for "wq:" the queue, by its path and its own struct */
static void waits_for_queue(struct symbol *from, struct expression *wq,
			    const char *key)
{
	char k[KEYLEN + 8], t[KEYLEN];

	snprintf(k, sizeof(k), "wq:%s", key);
	fact_waits(from, k);
	if (wq_inner_key(wq, key, t, sizeof(t))) {
		snprintf(k, sizeof(k), "wq:%s", t);
		fact_waits(from, k);
	}
}

/* fn runs for the object at key: if fn holds the module, so does key */
/* the file's timer and work callbacks, by object key: "what runs for" */
struct callback {
	char key[KEYLEN], fn[KEYLEN];
};
static struct callback *cbs;
static int ncbs;

static void bind_callback(struct symbol *fn, const char *key)
{
	char k[KEYLEN + 32], d[KEYLEN], p[KEYLEN + 32];

	cbs = realloc(cbs, (ncbs + 1) * sizeof(*cbs));
	if (!cbs)
		out_of_memory();
	snprintf(cbs[ncbs].key, KEYLEN, "%s", key);
	snprintf(cbs[ncbs++].fn, KEYLEN, "%s", sym_name(fn));

	snprintf(p, sizeof(p), KEY_PINS "%s", sym_name(fn));
	snprintf(k, sizeof(k), KEY_PINNED "%s", key);
	implies(p, k);
	if (delayed_of(key, d, sizeof(d))) {
		snprintf(k, sizeof(k), KEY_PINNED "%s", d);
		implies(p, k);
	}
}

/*
 * A socket allocated from a struct proto whose owner is this module holds
 * the module until the socket is freed (sk_alloc() -> try_module_get()):
 * work and timers inside the socket (struct sock first in the protocol's
 * socket) cannot outlive it without a use-after-free of their own.
 */
void unless_sock_pinned(struct finding *f, struct expression *addr)
{
	if (begins_with_struct(root_struct(addr), "sock"))
		finding_unless(f, KEY_SOCK_PROTO_PINS_MODULE);
}

/* one finding per object and rule in a file: the first site */
static char (*seen)[KEYLEN + 32];
static int nseen;

int first_time(const char *rule, const char *key)
{
	char k[KEYLEN + 32];
	int i;

	snprintf(k, sizeof(k), "%s:%s", rule, key);
	for (i = 0; i < nseen; i++)
		if (!strcmp(seen[i], k))
			return 0;
	seen = realloc(seen, (nseen + 1) * sizeof(*seen));
	snprintf(seen[nseen++], KEYLEN + 32, "%s", k);
	return 1;
}

/*
 * Arms and queues, kept to the end of the file: one that the same
 * function stops again (add_timer(), usb_sg_wait(), del_timer_sync())
 * leaves nothing pending when it returns.
 */
struct arm {
	struct position pos;
	int work;		/* a queued work item, not a timer */
	char fn[KEYLEN], key[KEYLEN];
	char wq[KEYLEN];	/* a workqueue local to the function */
	struct branches br;
};
static struct arm *arms;
static int narms;
struct stop_site {
	char k[KEYLEN * 2 + 2];
	struct position pos;
};
static struct stop_site *local_stops;
static int nlocal;

static void add_local_stop(struct symbol *fn, const char *key,
			   struct position pos)
{
	local_stops = realloc(local_stops, (nlocal + 1) * sizeof(*local_stops));
	local_stops[nlocal].pos = pos;
	snprintf(local_stops[nlocal++].k, KEYLEN * 2 + 2, "%s %s",
		 sym_name(fn), key);
}

static void local_stop(struct symbol *fn, const char *key,
		       struct position pos)
{
	char d[KEYLEN];

	add_local_stop(fn, key, pos);
	if (delayed_of(key, d, sizeof(d)))
		add_local_stop(fn, d, pos);
}

static int after(struct position a, struct position b)
{
	return a.line > b.line || (a.line == b.line && a.pos > b.pos);
}

/* a stop of @key in @fn after @pos */
static int stop_after(const char *fn, const char *key, struct position pos)
{
	char k[KEYLEN * 2 + 2];
	int i;

	snprintf(k, sizeof(k), "%s %s", fn, key);
	for (i = 0; i < nlocal; i++)
		if (!strcmp(local_stops[i].k, k) &&
		    after(local_stops[i].pos, pos))
			return 1;
	return 0;
}

/* stopped again later in the function that armed it, or its queue */
static int stopped_locally(const struct arm *a)
{
	return stop_after(a->fn, a->key, a->pos) ||
	       (a->wq[0] && stop_after(a->fn, a->wq, a->pos));
}

/*
 * "q = alloc_workqueue(...); queue_work(q, &w); ...; destroy_workqueue(q)":
 * a queue in a local variable of no known object, by the variable's name.
 */
static const char *local_wq(struct expression *e, char *buf, size_t len)
{
	struct symbol *sym;

	e = strip_expr(e);
	if (!e || e->type != EXPR_PREOP || e->op != '*')
		return NULL;
	e = strip_expr(e->unop);
	if (!e || e->type != EXPR_SYMBOL)
		return NULL;
	sym = e->symbol;
	if (!sym || !sym->ident ||
	    (sym->ctype.modifiers & (MOD_TOPLEVEL | MOD_STATIC | MOD_EXTERN)))
		return NULL;
	snprintf(buf, len, "wq-local:%s", sym_name(sym));
	return buf;
}

/* The stopped-after: key of the arm or queue at @pos in @ctx's function. */
const char *arm_id(struct walk_ctx *ctx, struct position pos, char *buf,
		   size_t len)
{
	snprintf(buf, len, "%s@%d:%d", sym_name(ctx->fn), pos.line, pos.pos);
	return buf;
}

/*
 * An arm or queue of @key (on the queue @wq, or NULL) at @pos: provides
 * its arm_id() key at the end of the file if the same function stops it
 * again.
 */
void track_arm(struct walk_ctx *ctx, struct position pos, const char *key,
	       struct expression *wq, int work)
{
	struct arm *a;

	arms = realloc(arms, (narms + 1) * sizeof(*arms));
	if (!arms)
		out_of_memory();
	a = &arms[narms++];
	a->pos = pos;
	a->work = work;
	snprintf(a->fn, sizeof(a->fn), "%s", sym_name(ctx->fn));
	snprintf(a->key, sizeof(a->key), "%s", key);
	a->wq[0] = 0;
	if (wq)
		local_wq(wq, a->wq, sizeof(a->wq));
	a->br = ctx->br;
}

/* the return statements of the file, by function: "stop; return;" */
struct ret_site {
	char fn[KEYLEN];
	struct position pos;
};
static struct ret_site *rets;
static int nrets;

static void async_ret(struct walk_ctx *ctx, struct statement *stmt)
{
	if (!ctx->fn)
		return;
	rets = realloc(rets, (nrets + 1) * sizeof(*rets));
	snprintf(rets[nrets].fn, KEYLEN, "%s", sym_name(ctx->fn));
	rets[nrets++].pos = stmt->pos;
}

/* a return of @fn between @from and @to: the stop may end the function */
static int return_between(const char *fn, struct position from,
			  struct position to)
{
	int i;

	for (i = 0; i < nrets; i++)
		if (!strcmp(rets[i].fn, fn) && after(rets[i].pos, from) &&
		    after(to, rets[i].pos))
			return 1;
	return 0;
}

/*
 * The stop's function arms or queues the object again after it, with no
 * return in between (a branch "if (!on) { del_timer_sync(); return; }"
 * ahead of the arm is a stop), on every path: "cancel; if (on) queue;"
 * still stops when the flag is off.
 */
static int rearmed(const struct stop *st)
{
	char d[KEYLEN];
	int i;

	for (i = 0; i < narms; i++) {
		const struct arm *a = &arms[i];

		if (strcmp(a->fn, st->fn) || !after(a->pos, st->pos) ||
		    return_between(st->fn, st->pos, a->pos) ||
		    !branches_enclose(&a->br, &st->br))
			continue;
		if (!strcmp(a->key, st->key) ||
		    (delayed_of(a->key, d, sizeof(d)) && !strcmp(d, st->key)))
			return 1;
	}
	return 0;
}

/* does the callback of the timer @st stops queue the work @key? */
static int callback_queues(const struct stop *st, const char *key)
{
	char d[KEYLEN];
	int i, j;

	for (i = 0; i < ncbs; i++) {
		if (!has_key(st, cbs[i].key))
			continue;
		for (j = 0; j < narms; j++) {
			const struct arm *a = &arms[j];

			if (!a->work || strcmp(a->fn, cbs[i].fn))
				continue;
			if (!strcmp(a->key, key) ||
			    (delayed_of(a->key, d, sizeof(d)) &&
			     !strcmp(d, key)))
				return 1;
		}
	}
	return 0;
}

/*
 * A cancel of a work item that its function follows, with no return in
 * between, by stopping a timer whose callback queues that item: until
 * the timer is stopped it can queue the work again ("cancel_work_sync(w);
 * del_timer_sync(t);" with t's callback scheduling w). Stop the timer
 * first.
 */
static int requeued(const struct stop *w)
{
	int i;

	if (strcmp(w->prefix, KEY_EXIT_CANCELS))
		return 0;
	for (i = 0; i < nstops; i++) {
		const struct stop *t = &stops[i];

		if ((strcmp(t->prefix, KEY_EXIT_STOPS) &&
		     strcmp(t->prefix, KEY_EXIT_STOPS_ASYNC)) ||
		    strcmp(t->fn, w->fn) || !after(t->pos, w->pos) ||
		    return_between(w->fn, w->pos, t->pos) ||
		    !branches_enclose(&t->br, &w->br))
			continue;
		if (callback_queues(t, w->key))
			return 1;
	}
	return 0;
}

static void async_begin_tu(void)
{
	nseen = narms = nlocal = nstops = nrets = ncbs = 0;
}

static void async_end_tu(void)
{
	int i;

	stops_flush();
	for (i = 0; i < narms; i++)
		if (stopped_locally(&arms[i]))
			provide(KEY_STOPPED_AFTER "%s@%d:%d", arms[i].fn,
				arms[i].pos.line, arms[i].pos.pos);
	narms = 0;
}

/*
 * Calls, dispatched by name or by kb/api.tsv class (async_hooks[]).
 * Stops count wherever they are; only the exit path matters.
 */
static void on_barrier(struct walk_ctx *ctx, struct expression *call,
		       const char *name, const struct api_row *row)
{
	char key[KEYLEN];

	snprintf(key, sizeof(key), KEY_EXIT_CALLS "%s", name);
	provide_if_may_reach(sym_name(ctx->fn), key);
}

/*
 * A callback that ends with module_put(THIS_MODULE) holds the module's
 * reference (try_module_get() before queueing): the module cannot go
 * while it is pending.
 */
static void on_module_put(struct walk_ctx *ctx, struct expression *call,
			  const char *name, const struct api_row *row)
{
	if (!strcmp(name, "module_put_and_kthread_exit") ||
	    is_this_module(first_expression(call->args)))
		provide(KEY_PINS "%s", sym_name(ctx->fn));
}

/*
 * Flushing the system queue, by kb/api.tsv's system-wq-stop function or by
 * handing its system-wq queue to a queue flush, provides one key named
 * after that function.
 */
const char *system_wq_flush(void)
{
	const struct api_row *r = api_first("system-wq-stop");

	return r ? r->name : NULL;
}

static void flushes_system_wq(struct walk_ctx *ctx)
{
	char key[KEYLEN];

	if (!system_wq_flush())
		return;
	snprintf(key, sizeof(key), KEY_EXIT_CALLS "%s", system_wq_flush());
	provide_if_may_reach(sym_name(ctx->fn), key);
}

static int is_system_wq(const char *key)
{
	const struct api_row *r = api_first("system-wq");

	return r && !strncmp(key, "obj:", 4) && !strcmp(key + 4, r->name);
}

static void on_flush_scheduled(struct walk_ctx *ctx, struct expression *call,
			       const char *name, const struct api_row *row)
{
	flushes_system_wq(ctx);
}

static void on_work_stop(struct walk_ctx *ctx, struct expression *call,
			 const char *name, const struct api_row *row)
{
	struct expression *w = first_expression(call->args);
	char key[KEYLEN], t[KEYLEN], k[KEYLEN + 8];

	if (!addr_key(w, key, sizeof(key)))
		return;
	stop_at(ctx, KEY_EXIT_CANCELS, w, key, call->pos);
	local_stop(ctx->fn, key, call->pos);
	/* a flush runs the pending function; a cancel drops it */
	if (strncmp(name, "flush_", 6))
		return;
	snprintf(k, sizeof(k), "%s%s", key,
		 strcmp(name, "flush_work") ? ".work" : "");
	fact_waits(ctx->fn, k);
	if (inner_key(w, key, t, sizeof(t))) {
		snprintf(k, sizeof(k), "%s%s", t,
			 strcmp(name, "flush_work") ? ".work" : "");
		fact_waits(ctx->fn, k);
	}
}

static void on_wq_stop(struct walk_ctx *ctx, struct expression *call,
		       const char *name, const struct api_row *row)
{
	struct expression *q = first_expression(call->args);
	char key[KEYLEN], t[KEYLEN];

	if (local_wq(q, key, sizeof(key)))
		add_local_stop(ctx->fn, key, call->pos);
	if (!value_key(q, key, sizeof(key)))
		return;
	reached_both(ctx->fn, KEY_EXIT_CANCELS_WQ, key);
	if (wq_inner_key(q, key, t, sizeof(t)))
		reached_both(ctx->fn, KEY_EXIT_CANCELS_WQ, t);
	waits_for_queue(ctx->fn, q, key);
	/* flush_scheduled_work() expands to this */
	if (is_system_wq(key))
		flushes_system_wq(ctx);
}

static void on_timer_stop(struct walk_ctx *ctx, struct expression *call,
			  const char *name, const struct api_row *row)
{
	int sync = !strcmp(row->cls, "timer-stop");
	char key[KEYLEN];

	if (!addr_key(first_expression(call->args), key, sizeof(key)))
		return;
	stop_at(ctx, sync ? KEY_EXIT_STOPS : KEY_EXIT_STOPS_ASYNC,
		first_expression(call->args), key, call->pos);
	if (sync)
		local_stop(ctx->fn, key, call->pos);
}

static void on_kthread_stop(struct walk_ctx *ctx, struct expression *call,
			    const char *name, const struct api_row *row)
{
	char key[KEYLEN], k[KEYLEN + 8];

	if (!value_key(first_expression(call->args), key, sizeof(key)))
		return;
	reached_both(ctx->fn, KEY_EXIT_STOPS_THREAD, key);
	/* the thread function returns before kthread_stop() does */
	snprintf(k, sizeof(k), "thread:%s", key);
	fact_waits(ctx->fn, k);
}

static void on_sk_alloc(struct walk_ctx *ctx, struct expression *call,
			const char *name, const struct api_row *row)
{
	char key[KEYLEN];

	/* sockets of this protocol: see timer_leaf() */
	if (addr_key(nth_arg(call, 3), key, sizeof(key)))
		provide(KEY_SK_ALLOC "%s", key);
}

static void on_init_timer(struct walk_ctx *ctx, struct expression *call,
			  const char *name, const struct api_row *row)
{
	char key[KEYLEN];

	if (own_function(nth_arg(call, 1)) &&
	    addr_key(first_expression(call->args), key, sizeof(key))) {
		provide(KEY_TIMER_FN "%s", key);
		bind_callback(expr_symbol(nth_arg(call, 1)), key);
	}
}

/* a core unregister helper that waits for RCU callbacks (kb barrier:) */
static void async_call(struct walk_ctx *ctx, struct expression *call,
		       struct symbol *callee)
{
	const char *name = callee_name(callee);
	char key[KEYLEN];

	if (!name || !ctx->fn)
		return;
	snprintf(key, sizeof(key), "barrier:%s", name);
	if (kb_lookup_owner(key))
		provide_if_may_reach(sym_name(ctx->fn),
				     KEY_EXIT_CALLS "rcu_barrier");
}

static const struct call_hook async_hooks[] = {
	{ NULL, "rcu-barrier", on_barrier },
	{ NULL, "srcu-barrier", on_barrier },
	{ "module_put", NULL, on_module_put },
	{ "__module_put_and_kthread_exit", NULL, on_module_put },
	{ "module_put_and_kthread_exit", NULL, on_module_put },
	{ NULL, "system-wq-stop", on_flush_scheduled },
	{ NULL, "work-stop", on_work_stop },
	{ NULL, "wq-stop", on_wq_stop },
	{ NULL, "timer-stop", on_timer_stop },
	{ NULL, "timer-async-stop", on_timer_stop },
	{ NULL, "thread-stop", on_kthread_stop },
	{ "sk_alloc", NULL, on_sk_alloc },
	{ "init_timer_key", NULL, on_init_timer },
	{ "init_timer_on_stack_key", NULL, on_init_timer },
	{ NULL }
};

/* "X = kthread_run(fn, ...)": a statement expression around the call */
struct expression *find_kthread_create(struct expression *e)
{
	struct statement *s;
	struct symbol *sym;

	e = strip_expr(e);
	if (!e)
		return NULL;
	if (e->type == EXPR_CALL) {
		const char *n = callee_name(expr_symbol(e->fn));

		return n && !strcmp(n, "kthread_create_on_node") ? e : NULL;
	}
	if (e->type != EXPR_STATEMENT || !e->statement ||
	    e->statement->type != STMT_COMPOUND)
		return NULL;
	FOR_EACH_PTR(e->statement->stmts, s) {
		if (s->type != STMT_DECLARATION)
			continue;
		FOR_EACH_PTR(s->declaration, sym) {
			struct expression *c = find_kthread_create(sym->initializer);

			if (c)
				return c;
		} END_FOR_EACH_PTR(sym);
	} END_FOR_EACH_PTR(s);
	return NULL;
}

static void async_assign(struct walk_ctx *ctx, struct expression *expr)
{
	struct expression *lv = strip_expr(expr->left), *create;
	struct symbol *m = member_of_lvalue(lv);
	char key[KEYLEN], k[KEYLEN + 32];

	if (expr->op != '=')
		return;
	/* INIT_WORK(): "work->func = fn"; hrtimers: "t.function = fn" */
	if (m && m->ident && own_function(expr->right) &&
	    (!strcmp(id_str(m->ident), "func") ||
	     !strcmp(id_str(m->ident), "function"))) {
		struct symbol *c = member_container(m);
		const char *what = c && c->ident ? id_str(c->ident) : "";

		if (!addr_key(strip_expr(lv->unop)->left, key, sizeof(key)))
			return;
		if (!strcmp(what, "work_struct")) {
			char t[KEYLEN];

			provide_both(KEY_WORK_FN, key);
			fact_runs(key, expr_symbol(expr->right));
			if (inner_key(strip_expr(lv->unop)->left, key, t,
				      sizeof(t)))
				fact_runs(t, expr_symbol(expr->right));
		} else if (!strcmp(what, "hrtimer") || !strcmp(what, "timer_list"))
			provide(KEY_TIMER_FN "%s", key);
		else
			return;
		bind_callback(expr_symbol(expr->right), key);
		return;
	}
	create = find_kthread_create(expr->right);
	if (!create || !ctx->fn ||
	    !own_function(first_expression(create->args)) ||
	    !value_key(lv, key, sizeof(key)))
		return;
	snprintf(k, sizeof(k), "thread:%s", key);
	fact_runs(k, expr_symbol(first_expression(create->args)));
}

/*
 * DEFINE_TIMER(name, fn): ".function = fn" in a static timer_list; the
 * static work items of DECLARE_WORK() and DECLARE_DELAYED_WORK() alike
 */
static void timer_leaf(struct symbol *obj, struct symbol *member,
		       struct expression *value, unsigned long offset)
{
	struct symbol *c = member ? member_container(member) : NULL;

	/*
	 * "static struct proto foo_proto = { .owner = THIS_MODULE }" pins
	 * the module for the sockets sk_alloc() makes from it; a socket of
	 * another protocol (sock_create_kern(AF_INET, ...)) does not.
	 */
	if (member && member->ident && c && c->ident &&
	    !strcmp(id_str(member->ident), "owner") &&
	    !strcmp(id_str(c->ident), "proto") && is_this_module(value)) {
		char k[KEYLEN + 32];

		snprintf(k, sizeof(k), KEY_SK_ALLOC "obj:%s", sym_name(obj));
		implies(k, KEY_SOCK_PROTO_PINS_MODULE);
	}

	if (member && member->ident && c && c->ident &&
	    !strcmp(id_str(member->ident), "function") &&
	    !strcmp(id_str(c->ident), "timer_list") && own_function(value))
		provide(KEY_TIMER_FN "obj:%s", sym_name(obj));

	/* DECLARE_WORK(name, fn), DECLARE_DELAYED_WORK(name, fn) */
	if (member && member->ident && c && c->ident &&
	    !strcmp(id_str(member->ident), "func") &&
	    !strcmp(id_str(c->ident), "work_struct") && own_function(value)) {
		struct symbol *t = strip_type(obj);
		char key[KEYLEN];

		if (t == c)
			snprintf(key, sizeof(key), "obj:%s", sym_name(obj));
		else if (begins_with_struct(t, "delayed_work"))
			snprintf(key, sizeof(key), "obj:%s.work",
				 sym_name(obj));
		else
			return;
		provide_both(KEY_WORK_FN, key);
		fact_runs(key, expr_symbol(value));
		bind_callback(expr_symbol(value), key);
	}
}

static void async_object(struct symbol *obj)
{
	for_each_init_leaf(obj, obj->initializer, timer_leaf);
}

static void kb_stop(const char *key, void *fn)
{
	provide_if_may_reach(fn, key);
}

/*
 * A core or library function that stops objects of the caller's types
 * (rt2x00lib_remove_dev() stops the driver's txstatus_timer, destroys
 * rt2x00dev->workqueue): the knowledge file lists what each exported one
 * stops, for calls and for functions stored as callbacks alike.
 */
static void async_symref(struct walk_ctx *ctx, struct symbol *sym)
{
	char k[KEYLEN + 32];

	/* a static function of the module is not the exported helper */
	if (!ml_is_function(sym) || !sym->ident ||
	    (sym->ctype.modifiers & MOD_STATIC))
		return;
	snprintf(k, sizeof(k), "stops:%s", sym_name(sym));
	if (kb_lookup_owner(k) && first_time("kb-stops", sym_name(sym)))
		kb_each(k, kb_stop, (void *)sym_name(sym));
}

const struct modlife_check track_async = {
	.modes = CHECK_RULES | CHECK_KB,
	.call_hooks = async_hooks,
	.symref = async_symref,
	.name = "async",
	.begin_tu = async_begin_tu,
	.end_tu = async_end_tu,
	.call = async_call,
	.assign = async_assign,
	.ret = async_ret,
	.object = async_object,
};
