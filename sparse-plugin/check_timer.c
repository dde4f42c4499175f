// SPDX-License-Identifier: GPL-2.0-only
/*
 * exit-pending-timer: an armed timer/hrtimer with a module callback, or a
 * kthread running module code, that no exit path stops synchronously
 * (del_timer() is not enough). The stops are track_async.c's.
 */
#include <string.h>
#include "modlife.h"
#include "track_async.h"

static void timer_finding(struct walk_ctx *ctx, struct expression *call,
			  struct expression *addr, const char *key,
			  const char *need, const char *msg)
{
	struct finding *f = finding_new("exit-pending-timer", call->pos, NULL);
	char id[KEYLEN + 32];

	f->unload = 1;
	/* the first of the file's arms of it that stands is the finding */
	finding_once(f, "%s%s", need ? "async " : "", key);
	finding_requires(f, KEY_TIMER_FN "%s", key);
	finding_unless(f, KEY_STOPPED_AFTER "%s",
		       arm_id(ctx, call->pos, id, sizeof(id)));
	finding_unless(f, KEY_EXIT_STOPS "%s", key);
	if (need)	/* stopped, but not in sync */
		finding_requires(f, KEY_EXIT_STOPS_ASYNC "%s", key);
	else
		finding_unless(f, KEY_EXIT_STOPS_ASYNC "%s", key);
	finding_unless(f, KEY_PINNED "%s", key);
	unless_type(f, KEY_EXIT_STOPS, addr, key);
	unless_sock_pinned(f, addr);
	finding_message(f, "%s", msg);
	finding_report(f);
}

static void timer_call(struct walk_ctx *ctx, struct expression *call,
		       const char *name, const struct api_row *row)
{
	struct expression *addr = first_expression(call->args);
	char key[KEYLEN], msg[1024];

	if (!tu.is_module || !addr_key(addr, key, sizeof(key)))
		return;
	snprintf(msg, sizeof(msg),
		 "%s() arms '%s', whose callback is module code, and no exit path stops it with %s(): it can fire after unload",
		 name, key_label(key), strncmp(name, "hrtimer", 7) ? "del_timer_sync" :
		 "hrtimer_cancel");
	track_arm(ctx, call->pos, key, NULL, 0);
	timer_finding(ctx, call, addr, key, NULL, msg);
	snprintf(msg, sizeof(msg),
		 "%s() arms '%s', whose callback is module code, and the exit path stops it only with del_timer(): on SMP the callback may still be running when the module is freed; use del_timer_sync()",
		 name, key_label(key));
	timer_finding(ctx, call, addr, key, "async", msg);
}

/* "t = kthread_run(fn, ...)" with fn module code: kthread_stop(t)? */
static void timer_assign(struct walk_ctx *ctx, struct expression *expr)
{
	struct expression *create;
	struct symbol *fn;
	struct finding *f;
	char key[KEYLEN];

	if (expr->op != '=' || !ctx->fn || !tu.is_module)
		return;
	create = find_kthread_create(expr->right);
	if (!create || !own_function(first_expression(create->args)) ||
	    !value_key(strip_expr(expr->left), key, sizeof(key)))
		return;
	fn = expr_symbol(first_expression(create->args));
	f = finding_new("exit-pending-timer", expr->pos, NULL);
	f->unload = 1;
	finding_unless(f, KEY_EXIT_STOPS_THREAD "%s", key);
	finding_unless(f, KEY_PINS "%s", sym_name(fn));
	finding_message(f, "the kthread '%s' runs %s(), module code, and no exit path calls kthread_stop() on it: it can still run after unload",
			key_label(key), sym_name(fn));
	finding_report(f);
}

static const struct call_hook timer_hooks[] = {
	{ NULL, "timer-arm", timer_call },
	{ NULL }
};

const struct modlife_check check_timer = {
	.name = "timer",
	.modes = CHECK_RULES,
	.call_hooks = timer_hooks,
	.assign = timer_assign,
};
