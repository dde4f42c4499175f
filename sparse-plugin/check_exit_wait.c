// SPDX-License-Identifier: GPL-2.0-only
/*
 * Waiting for release on module exit: unregister-wait-in-exit.
 *   - a call to *_unregister_wait() (the 2004 API and look-alikes);
 *   - kobject_put(), put_device() or a *_unregister() call, then
 *     wait_for_completion*() on a completion that a release callback of
 *     the module complete()s (matched by struct type and member);
 * reachable from the module's exit function (the link step fills in the
 * path). An exported function that puts and then waits is reported even
 * when its own module does not reach it: every caller's exit inherits it.
 */
#include <string.h>
#include "modlife.h"

struct wait_site {
	struct symbol *fn;
	struct position pos;
	char key[KEYLEN];
	char callee[64];
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

static struct symbol_list *exported;

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && !strcmp(s + n - k, suffix);
}


static void wait_begin_tu(void)
{
	nwaits = nputs = 0;
	exported = NULL;
}

static int before(struct position a, struct position b)
{
	return a.line < b.line || (a.line == b.line && a.pos < b.pos);
}

static void wait_call(struct walk_ctx *ctx, struct expression *call,
		      struct symbol *callee)
{
	const char *name = callee_name(callee);
	char key[KEYLEN];

	if (!name || !ctx->fn || !tu.is_module)
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
	if (api_is("complete", name)) {
		char rel[KEYLEN + 16], done[KEYLEN + 32];

		if (!type_key(first_expression(call->args), key, sizeof(key)))
			return;
		/* holds if this function is some object's release callback */
		snprintf(rel, sizeof(rel), KEY_RELEASE_FN "%s",
			 sym_name(ctx->fn));
		snprintf(done, sizeof(done), KEY_RELEASE_COMPLETES "%s", key);
		implies(rel, done);
		return;
	}
	if (api_is("wait-completion", name)) {
		struct wait_site *w;

		if (!type_key(first_expression(call->args), key, sizeof(key)))
			return;
		waits = realloc(waits, (nwaits + 1) * sizeof(*waits));
		w = &waits[nwaits++];
		w->fn = ctx->fn;
		w->pos = call->pos;
		snprintf(w->key, sizeof(w->key), "%s", key);
		snprintf(w->callee, sizeof(w->callee), "%s", name);
		return;
	}
	if (api_is("put", name)) {
		struct put_site *p;

		puts_ = realloc(puts_, (nputs + 1) * sizeof(*puts_));
		p = &puts_[nputs++];
		p->fn = ctx->fn;
		p->pos = call->pos;
		snprintf(p->callee, sizeof(p->callee), "%s", name);
	}
}

/* EXPORT_SYMBOL(fn) leaves "__UNIQUE_ID___addressable_fn<N> = &fn". */
static void wait_object(struct symbol *obj)
{
	struct symbol *fn;

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

static void wait_end_tu(void)
{
	int i, j;

	for (i = 0; i < nwaits; i++) {
		struct wait_site *w = &waits[i];
		struct put_site *put = NULL;
		struct finding *f;
		const char *fn = sym_name(w->fn);

		for (j = 0; j < nputs; j++)
			if (puts_[j].fn == w->fn && before(puts_[j].pos, w->pos))
				put = &puts_[j];
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
	.modes = CHECK_RULES,
	.name = "exit-wait",
	.begin_tu = wait_begin_tu,
	.call = wait_call,
	.object = wait_object,
	.end_tu = wait_end_tu,
};
