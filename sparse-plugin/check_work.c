// SPDX-License-Identifier: GPL-2.0-only
/*
 * exit-pending-work: a queued work item with a module function that no
 * exit path cancels or flushes (or whose workqueue it destroys). The
 * queueing functions and their arguments are kb/api.tsv's "work-queue"
 * rows; the stops are track_async.c's.
 */
#include <string.h>
#include "modlife.h"
#include "track_async.h"

static void work_call(struct walk_ctx *ctx, struct expression *call,
		      const char *name, const struct api_row *q)
{
	char key[KEYLEN], wq[KEYLEN], t[KEYLEN], k[KEYLEN + 32];
	char id[KEYLEN + 32];
	struct finding *f;

	if (!tu.is_module || !addr_key(nth_arg(call, q->a), key, sizeof(key)))
		return;
	f = finding_new("exit-pending-work", call->pos, NULL);
	f->unload = 1;
	/* the first of the file's queues of it that stands is the finding */
	finding_once(f, "%s", key);
	finding_requires(f, KEY_WORK_FN "%s", key);
	finding_unless(f, KEY_STOPPED_AFTER "%s",
		       arm_id(ctx, call->pos, id, sizeof(id)));
	finding_unless(f, KEY_EXIT_CANCELS "%s", key);
	finding_unless(f, KEY_PINNED "%s", key);
	unless_type(f, KEY_EXIT_CANCELS, nth_arg(call, q->a), key);
	if (q->b >= 0 && value_key(nth_arg(call, q->b), wq, sizeof(wq))) {
		finding_unless(f, KEY_EXIT_CANCELS_WQ "%s", wq);
		snprintf(k, sizeof(k), "wq:%s", wq);
		fact_queued(key, k);
		if (inner_key(nth_arg(call, q->a), key, t, sizeof(t)))
			fact_queued(t, k);
		if (wq_inner_key(nth_arg(call, q->b), wq, t, sizeof(t))) {
			finding_unless(f, KEY_EXIT_CANCELS_WQ "%s", t);
			snprintf(k, sizeof(k), "wq:%s", t);
			fact_queued(key, k);
		}
	} else {
		finding_unless(f, KEY_EXIT_CALLS "flush_scheduled_work");
	}
	unless_sock_pinned(f, nth_arg(call, q->a));
	/* "schedule_work(&x->dwork.work)": cancelling x->dwork stops it */
	if (type_key(nth_arg(call, q->a), t, sizeof(t)) &&
	    !strcmp(t, "struct delayed_work.work") &&
	    delayed_of(key, t, sizeof(t)))
		finding_unless(f, KEY_EXIT_CANCELS "%s", t);
	finding_message(f, "%s() queues '%s', whose function is module code, and no exit path cancels or flushes it (cancel_work_sync(), cancel_delayed_work_sync(), or destroying its workqueue): it can run after unload",
			name, key_label(key));
	track_arm(ctx, call->pos, key, q->b >= 0 ? nth_arg(call, q->b) : NULL);
	finding_report(f);
}

static const struct call_hook work_hooks[] = {
	{ NULL, "work-queue", work_call },
	{ NULL }
};

const struct modlife_check check_work = {
	.name = "work",
	.modes = CHECK_RULES,
	.call_hooks = work_hooks,
};
