// SPDX-License-Identifier: GPL-2.0-only
/*
 * exit-no-rcu-barrier: call_rcu()/call_srcu() with a module function and
 * no rcu_barrier()/srcu_barrier() on the exit path (or an exported core
 * helper that reaches one, from the knowledge file; the stops are
 * track_async.c's).
 */
#include <string.h>
#include "modlife.h"
#include "track_async.h"

static void rcu_call(struct walk_ctx *ctx, struct expression *call,
		     const char *name, const struct api_row *row)
{
	int srcu = !strcmp(name, "call_srcu");
	struct finding *f;

	if (!tu.is_module || !own_function(nth_arg(call, srcu ? 2 : 1)) ||
	    !first_time("rcu", name))
		return;
	f = finding_new("exit-no-rcu-barrier", call->pos, NULL);
	f->unload = 1;
	finding_unless(f, srcu ? KEY_EXIT_CALLS "srcu_barrier" :
				 KEY_EXIT_CALLS "rcu_barrier");
	finding_message(f, "%s() queues %s(), module code, and no exit path reaches %s(): a callback still pending at unload runs in freed module text; call %s() in the exit function after the last %s()",
			name,
			sym_name(expr_symbol(nth_arg(call, srcu ? 2 : 1))),
			srcu ? "srcu_barrier" : "rcu_barrier",
			srcu ? "srcu_barrier" : "rcu_barrier", name);
	finding_report(f);
}

static const struct call_hook rcu_hooks[] = {
	{ "call_rcu", NULL, rcu_call },
	{ "call_srcu", NULL, rcu_call },
	{ NULL }
};

const struct modlife_check check_rcu = {
	.name = "rcu",
	.modes = CHECK_RULES,
	.call_hooks = rcu_hooks,
};
