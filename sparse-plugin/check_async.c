// SPDX-License-Identifier: GPL-2.0-only
/*
 * Callbacks into module text left pending by the exit path:
 *   exit-no-rcu-barrier  call_rcu()/call_srcu() with a module function and
 *                        no rcu_barrier()/srcu_barrier() on the exit path
 *                        (or an exported core helper that reaches one,
 *                        from the knowledge file)
 *   exit-pending-work    a queued work item with a module function that no
 *                        exit path cancels or flushes (or whose workqueue
 *                        it destroys)
 *   exit-pending-timer   an armed timer/hrtimer with a module callback, or
 *                        a kthread running module code, that no exit path
 *                        stops synchronously (del_timer() is not enough)
 * Objects are matched by their access path (struct type and members) or
 * name; "exit path" is the module call graph from the exit function, the
 * driver core's .remove included (see graph.c).
 */
#include <string.h>
#include "modlife.h"

static int own_function(struct expression *e)
{
	struct symbol *fn = expr_symbol(e);

	if (!fn || !ml_is_function(fn))
		return 0;
	if (fn->definition)
		fn = fn->definition;
	return is_own_symbol(fn);
}

static int name_in(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(name, *list))
			return 1;
	return 0;
}

static struct expression *nth_arg(struct expression *call, int n)
{
	return ptr_list_nth_entry((struct ptr_list *)call->args, n);
}

/* "x.dwork.work" -> "x.dwork": the delayed_work around a work item */
static int delayed_of(const char *key, char *buf, size_t len)
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
static const char *inner_key(struct expression *addr, const char *key,
			     char *buf, size_t len)
{
	if (!type_key(addr, buf, len) || !strcmp(buf, key) ||
	    generic_key(buf))
		return NULL;
	return buf;
}

/* "dev->mt76.wq" also as "struct mt76_dev.wq": the queue's own struct */
static const char *wq_inner_key(struct expression *e, const char *key,
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

static void stops_flush(void)
{
	int i, j;

	for (i = 0; i < nstops; i++) {
		if (rearmed(&stops[i]))
			continue;
		for (j = 0; j < stops[i].nkeys; j++)
			reached_both(stops[i].sym, stops[i].prefix,
				     stops[i].keys[j]);
	}
	nstops = 0;
}

/* unless prefix + the innermost struct.member, when it differs */
static void unless_type(struct finding *f, const char *prefix,
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

static void fact_queued(const char *item, const char *on)
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
static void bind_callback(struct symbol *fn, const char *key)
{
	char k[KEYLEN + 32], d[KEYLEN], p[KEYLEN + 32];

	snprintf(p, sizeof(p), "pins:%s", sym_name(fn));
	snprintf(k, sizeof(k), "pinned:%s", key);
	implies(p, k);
	if (delayed_of(key, d, sizeof(d))) {
		snprintf(k, sizeof(k), "pinned:%s", d);
		implies(p, k);
	}
}

/*
 * A socket allocated from a struct proto whose owner is this module holds
 * the module until the socket is freed (sk_alloc() -> try_module_get()):
 * work and timers inside the socket (struct sock first in the protocol's
 * socket) cannot outlive it without a use-after-free of their own.
 */
static void unless_sock_pinned(struct finding *f, struct expression *addr)
{
	if (begins_with_struct(root_struct(addr), "sock"))
		finding_unless(f, "sock-proto-pins-module");
}

/* ---- what queues, and which argument is the object ---- */

struct queuer {
	const char *name;
	int obj, wq;	/* argument positions, -1: none */
};

static const struct queuer work_queuers[] = {
	{ "schedule_work", 0, -1 }, { "schedule_delayed_work", 0, -1 },
	{ "schedule_work_on", 1, -1 }, { "schedule_delayed_work_on", 1, -1 },
	{ "queue_work", 1, 0 }, { "queue_delayed_work", 1, 0 },
	{ "mod_delayed_work", 1, 0 }, { "queue_work_on", 2, 1 },
	{ "queue_delayed_work_on", 2, 1 }, { "mod_delayed_work_on", 2, 1 },
	{ NULL, 0, 0 }
};
static const char *const work_stoppers[] = {
	"cancel_work_sync", "flush_work", "cancel_delayed_work_sync",
	"flush_delayed_work", NULL
};
static const char *const wq_stoppers[] = {
	"destroy_workqueue", "flush_workqueue", "__flush_workqueue",
	"drain_workqueue", NULL
};
static const char *const timer_armers[] = {
	"mod_timer", "add_timer", "add_timer_on", "mod_timer_pending",
	"timer_reduce", "hrtimer_start", "hrtimer_start_range_ns", NULL
};
static const char *const timer_stoppers[] = {
	"del_timer_sync", "timer_delete_sync", "timer_shutdown_sync",
	"del_singleshot_timer_sync", "hrtimer_cancel", NULL
};
static const char *const timer_async_stoppers[] = {
	"del_timer", "timer_delete", "timer_shutdown", "hrtimer_try_to_cancel",
	NULL
};

/* one finding per object and rule in a file: the first site */
static char (*seen)[KEYLEN + 32];
static int nseen;

static int first_time(const char *rule, const char *key)
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
 * Arms and queues wait for the end of the file: one that the same
 * function stops again (add_timer(), usb_sg_wait(), del_timer_sync())
 * leaves nothing pending when it returns.
 */
struct arm {
	struct finding *f;
	char fn[KEYLEN], key[KEYLEN], kind[8];
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
	return stop_after(a->fn, a->key, a->f->pos) ||
	       (a->wq[0] && stop_after(a->fn, a->wq, a->f->pos));
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

static void defer(struct walk_ctx *ctx, struct finding *f, const char *kind,
		  const char *key)
{
	struct arm *a;

	arms = realloc(arms, (narms + 1) * sizeof(*arms));
	a = &arms[narms++];
	a->f = f;
	snprintf(a->fn, sizeof(a->fn), "%s", sym_name(ctx->fn));
	snprintf(a->key, sizeof(a->key), "%s", key);
	snprintf(a->kind, sizeof(a->kind), "%s", kind);
	a->wq[0] = 0;
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

		if (strcmp(a->fn, st->fn) || !after(a->f->pos, st->pos) ||
		    return_between(st->fn, st->pos, a->f->pos) ||
		    !branches_enclose(&a->br, &st->br))
			continue;
		if (!strcmp(a->key, st->key) ||
		    (delayed_of(a->key, d, sizeof(d)) && !strcmp(d, st->key)))
			return 1;
	}
	return 0;
}

static void async_begin_tu(void)
{
	nseen = narms = nlocal = nstops = nrets = 0;
}

static void async_end_tu(void)
{
	int i;

	stops_flush();
	for (i = 0; i < narms; i++)
		if (!stopped_locally(&arms[i]) &&
		    first_time(arms[i].kind, arms[i].key))
			finding_report(arms[i].f);
		else
			finding_free(arms[i].f);
	narms = 0;
}

static void rcu_call(struct walk_ctx *ctx, struct expression *call,
		     const char *name)
{
	int srcu = !strcmp(name, "call_srcu");
	struct finding *f;

	if (!own_function(nth_arg(call, srcu ? 2 : 1)) ||
	    !first_time("rcu", name))
		return;
	f = finding_new("exit-no-rcu-barrier", call->pos, NULL);
	f->unload = 1;
	finding_unless(f, srcu ? "exit-calls:srcu_barrier" :
				 "exit-calls:rcu_barrier");
	finding_message(f, "%s() queues %s(), module code, and no exit path reaches %s(): a callback still pending at unload runs in freed module text; call %s() in the exit function after the last %s()",
			name,
			sym_name(expr_symbol(nth_arg(call, srcu ? 2 : 1))),
			srcu ? "srcu_barrier" : "rcu_barrier",
			srcu ? "srcu_barrier" : "rcu_barrier", name);
	finding_report(f);
}

static void work_call(struct walk_ctx *ctx, struct expression *call,
		      const struct queuer *q)
{
	char key[KEYLEN], wq[KEYLEN], t[KEYLEN], k[KEYLEN + 32];
	struct finding *f;

	if (!addr_key(nth_arg(call, q->obj), key, sizeof(key)))
		return;
	f = finding_new("exit-pending-work", call->pos, NULL);
	f->unload = 1;
	finding_requires(f, "work-fn:%s", key);
	finding_unless(f, "exit-cancels:%s", key);
	finding_unless(f, "pinned:%s", key);
	unless_type(f, "exit-cancels:", nth_arg(call, q->obj), key);
	if (q->wq >= 0 && value_key(nth_arg(call, q->wq), wq, sizeof(wq))) {
		finding_unless(f, "exit-cancels-wq:%s", wq);
		snprintf(k, sizeof(k), "wq:%s", wq);
		fact_queued(key, k);
		if (inner_key(nth_arg(call, q->obj), key, t, sizeof(t)))
			fact_queued(t, k);
		if (wq_inner_key(nth_arg(call, q->wq), wq, t, sizeof(t))) {
			finding_unless(f, "exit-cancels-wq:%s", t);
			snprintf(k, sizeof(k), "wq:%s", t);
			fact_queued(key, k);
		}
	} else {
		finding_unless(f, "exit-calls:flush_scheduled_work");
	}
	unless_sock_pinned(f, nth_arg(call, q->obj));
	/* "schedule_work(&x->dwork.work)": cancelling x->dwork stops it */
	if (type_key(nth_arg(call, q->obj), t, sizeof(t)) &&
	    !strcmp(t, "struct delayed_work.work") &&
	    delayed_of(key, t, sizeof(t)))
		finding_unless(f, "exit-cancels:%s", t);
	finding_message(f, "%s() queues '%s', whose function is module code, and no exit path cancels or flushes it (cancel_work_sync(), cancel_delayed_work_sync(), or destroying its workqueue): it can run after unload",
			q->name, key_label(key));
	defer(ctx, f, "work", key);
	if (q->wq >= 0)
		local_wq(nth_arg(call, q->wq), arms[narms - 1].wq,
			 sizeof(arms[narms - 1].wq));
}

static void timer_finding(struct walk_ctx *ctx, struct expression *call,
			  struct expression *addr, const char *key,
			  const char *need, const char *msg)
{
	struct finding *f = finding_new("exit-pending-timer", call->pos, NULL);

	f->unload = 1;
	finding_requires(f, "timer-fn:%s", key);
	finding_unless(f, "exit-stops:%s", key);
	if (need)	/* stopped, but not in sync */
		finding_requires(f, "exit-stops-async:%s", key);
	else
		finding_unless(f, "exit-stops-async:%s", key);
	finding_unless(f, "pinned:%s", key);
	unless_type(f, "exit-stops:", addr, key);
	unless_sock_pinned(f, addr);
	finding_message(f, "%s", msg);
	defer(ctx, f, need ? "timer-a" : "timer", key);
}

static void timer_call(struct walk_ctx *ctx, struct expression *call,
		       const char *name)
{
	struct expression *addr = first_expression(call->args);
	char key[KEYLEN], msg[1024];

	if (!addr_key(addr, key, sizeof(key)))
		return;
	snprintf(msg, sizeof(msg),
		 "%s() arms '%s', whose callback is module code, and no exit path stops it with %s(): it can fire after unload",
		 name, key_label(key), strncmp(name, "hrtimer", 7) ? "del_timer_sync" :
		 "hrtimer_cancel");
	timer_finding(ctx, call, addr, key, NULL, msg);
	snprintf(msg, sizeof(msg),
		 "%s() arms '%s', whose callback is module code, and the exit path stops it only with del_timer(): on SMP the callback may still be running when the module is freed; use del_timer_sync()",
		 name, key_label(key));
	timer_finding(ctx, call, addr, key, "async", msg);
}

static void async_call(struct walk_ctx *ctx, struct expression *call,
		       struct symbol *callee)
{
	const char *name = callee_name(callee);
	char key[KEYLEN];
	const struct queuer *q;

	if (!name || !ctx->fn)
		return;
	/* stoppers count wherever they are; only the exit path matters */
	if (!strcmp(name, "rcu_barrier") || !strcmp(name, "srcu_barrier")) {
		snprintf(key, sizeof(key), "exit-calls:%s", name);
		provide_if_may_reach(sym_name(ctx->fn), key);
		return;
	}
	/*
	 * A callback that ends with module_put(THIS_MODULE) holds the
	 * module's reference (try_module_get() before queueing): the
	 * module cannot go while it is pending.
	 */
	if ((!strcmp(name, "module_put") &&
	     is_this_module(first_expression(call->args))) ||
	    (!strcmp(name, "__module_put_and_kthread_exit") &&
	     is_this_module(first_expression(call->args))) ||
	    !strcmp(name, "module_put_and_kthread_exit")) {
		provide("pins:%s", sym_name(ctx->fn));
		return;
	}
	if (!strcmp(name, "flush_scheduled_work")) {
		provide_if_may_reach(sym_name(ctx->fn),
				   "exit-calls:flush_scheduled_work");
		return;
	}
	snprintf(key, sizeof(key), "barrier:%s", name);
	if (kb_lookup_owner(key)) {
		/* a core unregister helper that waits for RCU callbacks */
		provide_if_may_reach(sym_name(ctx->fn), "exit-calls:rcu_barrier");
		return;
	}
	if (name_in(name, work_stoppers)) {
		struct expression *w = first_expression(call->args);
		char t[KEYLEN], k[KEYLEN + 8];

		if (!addr_key(w, key, sizeof(key)))
			return;
		stop_at(ctx, "exit-cancels:", w, key, call->pos);
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
		return;
	}
	if (name_in(name, wq_stoppers)) {
		if (local_wq(first_expression(call->args), key, sizeof(key)))
			add_local_stop(ctx->fn, key, call->pos);
		if (value_key(first_expression(call->args), key, sizeof(key))) {
			char t[KEYLEN];

			reached_both(ctx->fn, "exit-cancels-wq:", key);
			if (wq_inner_key(first_expression(call->args), key, t,
					 sizeof(t)))
				reached_both(ctx->fn, "exit-cancels-wq:", t);
			waits_for_queue(ctx->fn, first_expression(call->args),
					key);
			/* flush_scheduled_work() expands to this */
			if (!strcmp(key, "obj:system_wq"))
				provide_if_may_reach(sym_name(ctx->fn),
					"exit-calls:flush_scheduled_work");
		}
		return;
	}
	if (name_in(name, timer_stoppers) ||
	    name_in(name, timer_async_stoppers)) {
		if (addr_key(first_expression(call->args), key, sizeof(key))) {
			stop_at(ctx, name_in(name, timer_stoppers) ?
				"exit-stops:" : "exit-stops-async:",
				first_expression(call->args), key, call->pos);
			if (name_in(name, timer_stoppers))
				local_stop(ctx->fn, key, call->pos);
		}
		return;
	}
	if (!strcmp(name, "kthread_stop")) {
		char k[KEYLEN + 8];

		if (!value_key(first_expression(call->args), key, sizeof(key)))
			return;
		reached_both(ctx->fn, "exit-stops-thread:", key);
		/* the thread function returns before kthread_stop() does */
		snprintf(k, sizeof(k), "thread:%s", key);
		fact_waits(ctx->fn, k);
		return;
	}
	if (!strcmp(name, "sk_alloc")) {
		/* sockets of this protocol: see timer_leaf() */
		if (addr_key(nth_arg(call, 3), key, sizeof(key)))
			provide("sk-alloc:%s", key);
		return;
	}
	if (!strcmp(name, "init_timer_key") ||
	    !strcmp(name, "init_timer_on_stack_key")) {
		if (own_function(nth_arg(call, 1)) &&
		    addr_key(first_expression(call->args), key, sizeof(key))) {
			provide("timer-fn:%s", key);
			bind_callback(expr_symbol(nth_arg(call, 1)), key);
		}
		return;
	}
	if (!tu.is_module)
		return;
	if (!strcmp(name, "call_rcu") || !strcmp(name, "call_srcu")) {
		rcu_call(ctx, call, name);
		return;
	}
	for (q = work_queuers; q->name; q++)
		if (!strcmp(name, q->name)) {
			work_call(ctx, call, q);
			return;
		}
	if (name_in(name, timer_armers))
		timer_call(ctx, call, name);
}

/* "X = kthread_run(fn, ...)": a statement expression around the call */
static struct expression *find_kthread_create(struct expression *e)
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
	struct finding *f;

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

			provide_both("work-fn:", key);
			fact_runs(key, expr_symbol(expr->right));
			if (inner_key(strip_expr(lv->unop)->left, key, t,
				      sizeof(t)))
				fact_runs(t, expr_symbol(expr->right));
		} else if (!strcmp(what, "hrtimer") || !strcmp(what, "timer_list"))
			provide("timer-fn:%s", key);
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
	if (!tu.is_module)
		return;
	f = finding_new("exit-pending-timer", expr->pos, NULL);
	f->unload = 1;
	finding_unless(f, "exit-stops-thread:%s", key);
	finding_unless(f, "pins:%s",
		       sym_name(expr_symbol(first_expression(create->args))));
	finding_message(f, "the kthread '%s' runs %s(), module code, and no exit path calls kthread_stop() on it: it can still run after unload",
			key_label(key),
			sym_name(expr_symbol(first_expression(create->args))));
	finding_report(f);
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

		snprintf(k, sizeof(k), "sk-alloc:obj:%s", sym_name(obj));
		implies(k, "sock-proto-pins-module");
	}

	if (member && member->ident && c && c->ident &&
	    !strcmp(id_str(member->ident), "function") &&
	    !strcmp(id_str(c->ident), "timer_list") && own_function(value))
		provide("timer-fn:obj:%s", sym_name(obj));

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
		provide_both("work-fn:", key);
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

const struct modlife_check check_async = {
	.modes = CHECK_RULES | CHECK_KB,
	.symref = async_symref,
	.name = "async",
	.begin_tu = async_begin_tu,
	.end_tu = async_end_tu,
	.call = async_call,
	.assign = async_assign,
	.ret = async_ret,
	.object = async_object,
};
