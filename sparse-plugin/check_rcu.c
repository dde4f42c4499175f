// SPDX-License-Identifier: GPL-2.0-only
/*
 * exit-no-rcu-barrier: call_rcu()/call_srcu() with a module function and
 * no rcu_barrier()/srcu_barrier() on the exit path (or an exported core
 * helper that reaches one, from the knowledge file; the stops are
 * track_async.c's). The calls and barriers are kb/api.tsv's rcu-call,
 * srcu-call, rcu-barrier and srcu-barrier rows.
 */
#include <string.h>
#include "modlife.h"
#include "track_async.h"

static void rcu_call(struct walk_ctx *ctx, struct expression *call,
		     const char *name, const struct api_row *row)
{
	/* what waits for the callbacks: rcu_barrier(), srcu_barrier() */
	const struct api_row *barrier = api_first(strcmp(row->cls, "rcu-call") ?
						  "srcu-barrier" :
						  "rcu-barrier");
	struct expression *fn = nth_arg(call, row->a);
	struct finding *f;

	if (!tu.is_module || !barrier || !own_function(fn) ||
	    !first_time("rcu", name))
		return;
	f = finding_new("exit-no-rcu-barrier", call->pos, NULL);
	f->unload = 1;
	finding_unless(f, KEY_EXIT_CALLS "%s", barrier->name);
	finding_message(f, "%s() queues %s(), module code, and no exit path reaches %s(): a callback still pending at unload runs in freed module text; call %s() in the exit function after the last %s()",
			name, sym_name(expr_symbol(fn)), barrier->name,
			barrier->name, name);
	finding_report(f);
}

static const struct call_hook rcu_hooks[] = {
	{ NULL, "rcu-call", rcu_call },
	{ NULL, "srcu-call", rcu_call },
	{ NULL }
};

const struct modlife_check check_rcu = {
	.name = "rcu",
	.modes = CHECK_RULES,
	.call_hooks = rcu_hooks,
};
