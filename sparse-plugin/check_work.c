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

/*
 * early: the variant whose exit path cancels the item, but before it
 * stops a timer whose callback queues the item again (track_async.c's
 * cancelled-early:)
 */
static void work_finding(struct walk_ctx *ctx, struct expression *call,
			 const char *name, const struct api_row *q,
			 const char *key, int early)
{
	char wq[KEYLEN], t[KEYLEN], k[KEYLEN + 32];
	char id[KEYLEN + 32];
	struct finding *f;

	f = finding_new("exit-pending-work", call->pos, NULL);
	f->unload = 1;
	/* the first of the file's queues of it that stands is the finding */
	finding_once(f, "%s%s", early ? "early " : "", key);
	finding_requires(f, KEY_WORK_FN "%s", key);
	if (early)
		finding_requires(f, KEY_CANCELLED_EARLY "%s", key);
	else
		finding_unless(f, KEY_CANCELLED_EARLY "%s", key);
	finding_unless(f, KEY_STOPPED_AFTER "%s",
		       arm_id(ctx, call->pos, id, sizeof(id)));
	finding_unless(f, KEY_EXIT_CANCELS "%s", key);
	finding_unless(f, KEY_PINNED "%s", key);
	unless_type(f, KEY_EXIT_CANCELS, nth_arg(call, q->a), key);
	if (q->b >= 0 && value_key(nth_arg(call, q->b), wq, sizeof(wq))) {
		finding_unless(f, KEY_EXIT_CANCELS_WQ "%s", wq);
		snprintf(k, sizeof(k), "wq:%s", wq);
		if (!early)
			fact_queued(key, k);
		if (!early && inner_key(nth_arg(call, q->a), key, t, sizeof(t)))
			fact_queued(t, k);
		if (wq_inner_key(nth_arg(call, q->b), wq, t, sizeof(t))) {
			finding_unless(f, KEY_EXIT_CANCELS_WQ "%s", t);
			snprintf(k, sizeof(k), "wq:%s", t);
			if (!early)
				fact_queued(key, k);
		}
	} else if (system_wq_flush()) {
		finding_unless(f, KEY_EXIT_CALLS "%s", system_wq_flush());
	}
	unless_sock_pinned(f, nth_arg(call, q->a));
	/* "schedule_work(&x->dwork.work)": cancelling x->dwork stops it */
	if (type_key(nth_arg(call, q->a), t, sizeof(t)) &&
	    !strcmp(t, "struct delayed_work.work") &&
	    delayed_of(key, t, sizeof(t)))
		finding_unless(f, KEY_EXIT_CANCELS "%s", t);
	if (early)
		finding_message(f, "%s() queues '%s', whose function is module code, from a timer's callback, and the exit path cancels it before it stops that timer: the timer can queue it again after the cancel, and it runs after unload; stop the timer (del_timer_sync()) first, then cancel the work",
				name, key_label(key));
	else
		finding_message(f, "%s() queues '%s', whose function is module code, and no exit path cancels or flushes it (cancel_work_sync(), cancel_delayed_work_sync(), or destroying its workqueue): it can run after unload",
				name, key_label(key));
	finding_report(f);
}

static void work_call(struct walk_ctx *ctx, struct expression *call,
		      const char *name, const struct api_row *q)
{
	char key[KEYLEN];

	if (!tu.is_module || !addr_key(nth_arg(call, q->a), key, sizeof(key)))
		return;
	work_finding(ctx, call, name, q, key, 0);
	work_finding(ctx, call, name, q, key, 1);
	track_arm(ctx, call->pos, key, q->b >= 0 ? nth_arg(call, q->b) : NULL,
		  1);
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
