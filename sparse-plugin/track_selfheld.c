// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pins a module holds on itself: "mnt = kern_mount(&fs_type)" in the
 * init, "kern_unmount(mnt)" in the exit. Some exported functions pin the
 * owner of what their caller passes before they return (the knowledge
 * file's "pins-at-call:FN:N" rows). When every reference to a file-local
 * object is such a call from the init whose result it keeps in a
 * file-local variable, and the exit hands that variable on (to
 * kern_unmount()), the module alone holds the pin: no path user space starts reads the owner,
 * and an owner would keep the module loaded until an exit that rmmod
 * never reaches. A registration that pins at once and is undone by the
 * object itself (crypto_register_alg(), unregistered with &alg) or
 * returns nothing to release (clockevents) is no such pin.
 * check_owner.c asks selfheld_required() for the keys a missing-owner
 * candidate then needs.
 */
#include <string.h>
#include "modlife.h"
#include "strmap.h"

/* "V = FN(..., &X, ...)" with a pins-at-call row for FN and X's place */
struct handle {
	char obj[KEYLEN], var[KEYLEN];
};
/* a call handing a file-local variable's value to a function */
struct release_site {
	char fn[KEYLEN], var[KEYLEN];
};
static struct handle *handles;
static struct release_site *sites;
static int nhandles, handles_cap, nsites, sites_cap;
/* references to each file-local object, and those that are such calls */
static struct strmap refs, pins;

static int is_file_local(struct symbol *sym)
{
	return is_static_object(sym) && (sym->ctype.modifiers & MOD_STATIC);
}

static void count(struct strmap *m, const char *name)
{
	void **slot = strmap_get(m, name);

	if (!slot)
		slot = strmap_add(m, name);
	*slot = (void *)((long)*slot + 1);
}

static long counted(const struct strmap *m, const char *name)
{
	void **slot = strmap_get(m, name);

	return slot ? (long)*slot : 0;
}

static void selfheld_begin_tu(void)
{
	nhandles = nsites = 0;
	strmap_free(&refs, NULL);
	strmap_free(&pins, NULL);
}

static void selfheld_symref(struct walk_ctx *ctx, struct symbol *sym)
{
	if (sym != ctx->obj && is_file_local(sym))
		count(&refs, sym_name(sym));
}

static void selfheld_assign(struct walk_ctx *ctx, struct expression *expr)
{
	struct expression *call = strip_expr(expr->right), *arg;
	struct symbol *var = expr_symbol(expr->left), *callee;
	const char *t;
	char row[2 * KEYLEN];
	int i = 0;

	if (expr->op != '=' || !ctx->fn || !var || !is_file_local(var) ||
	    !call || call->type != EXPR_CALL)
		return;
	callee = expr_symbol(call->fn);
	if (!callee_name(callee))
		return;
	FOR_EACH_PTR(call->args, arg) {
		struct symbol *o = expr_symbol(arg);

		snprintf(row, sizeof(row), "pins-at-call:%s:%d",
			 callee_name(callee), i++);
		t = o && is_file_local(o) && !ml_is_function(o) ?
		    kb_lookup_owner(row) : NULL;
		/* the row's type: what the callee pins the owner of */
		if (!t || strcmp(t, type_name(o)))
			continue;
		count(&pins, sym_name(o));
		handles = xgrow(handles, &handles_cap, nhandles + 1,
				sizeof(*handles));
		snprintf(handles[nhandles].obj, KEYLEN, "%s", sym_name(o));
		snprintf(handles[nhandles].var, KEYLEN, "%s", sym_name(var));
		nhandles++;
		snprintf(row, sizeof(row), KEY_LATE_PIN_OBJ "%s", sym_name(o));
		provide_unless_init_reaches(sym_name(ctx->fn), row);
	} END_FOR_EACH_PTR(arg);
}

/*
 * Where a handle may be released: a call that hands the variable's value
 * to a named parameter of its own type, a pointer to a struct
 * (kern_unmount(struct vfsmount *)), of a function not inline; a log call's "..." or
 * IS_ERR(const void *) only looks at it. Keys only for the handles of a
 * candidate (selfheld_required()).
 */
static void selfheld_call(struct walk_ctx *ctx, struct expression *call,
			  struct symbol *callee)
{
	struct expression *arg;
	int i = 0;

	if (!ctx->fn || !callee || (callee->ctype.modifiers & MOD_INLINE))
		return;
	FOR_EACH_PTR(call->args, arg) {
		struct expression *e = strip_expr(arg);
		struct symbol *v = NULL, *p = formal_param(callee, i++);

		if (e && e->type == EXPR_PREOP && e->op == '*')
			v = expr_symbol(e);
		if (!v || !p || !is_file_local(v) || !pointee_struct(v) ||
		    pointee_struct(p) != pointee_struct(v))
			continue;
		sites = xgrow(sites, &sites_cap, nsites + 1, sizeof(*sites));
		snprintf(sites[nsites].fn, KEYLEN, "%s", sym_name(ctx->fn));
		snprintf(sites[nsites].var, KEYLEN, "%s", sym_name(v));
		nsites++;
	} END_FOR_EACH_PTR(arg);
}

/*
 * The handle's key: its name and the unit's, since another file of the
 * module may have a static variable of the same name
 */
static void handle_key(char *buf, size_t len, const char *var)
{
	const unsigned char *c = (const unsigned char *)(tu.file ?: "");
	unsigned int h = 2166136261u;	/* FNV-1a */

	for (; *c; c++)
		h = (h ^ *c) * 16777619u;
	snprintf(buf, len, KEY_RELEASED_HANDLE_VAR "%s@%08x", var, h);
}

/*
 * What a missing-owner candidate for file-local @obj requires ("a|!b",
 * to be freed), or NULL: when every reference to it is a pinning call
 * whose result the unit keeps, it stands only if a call is made where
 * the init does not reach, or a handle is not released where the exit
 * reaches
 */
char *selfheld_required(const char *obj)
{
	char *alts, key[2 * KEYLEN];
	size_t len;
	int i, j;

	if (!counted(&pins, obj) || counted(&pins, obj) != counted(&refs, obj))
		return NULL;
	len = strlen(KEY_LATE_PIN_OBJ) + strlen(obj) + 1;
	for (i = 0; i < nhandles; i++)
		if (!strcmp(handles[i].obj, obj))
			len += strlen(KEY_RELEASED_HANDLE_VAR) +
			       strlen(handles[i].var) + 12;
	alts = malloc(len);
	if (!alts)
		out_of_memory();
	snprintf(alts, len, KEY_LATE_PIN_OBJ "%s", obj);
	for (i = 0; i < nhandles; i++) {
		if (strcmp(handles[i].obj, obj))
			continue;
		handle_key(key, sizeof(key), handles[i].var);
		strcat(alts, "|!");
		strcat(alts, key);
		for (j = 0; j < nsites; j++)
			if (!strcmp(sites[j].var, handles[i].var))
				provide_if_reached(sites[j].fn, key);
	}
	return alts;
}

const struct modlife_check track_selfheld = {
	.name = "selfheld",
	.modes = CHECK_RULES,
	.begin_tu = selfheld_begin_tu,
	.symref = selfheld_symref,
	.assign = selfheld_assign,
	.call = selfheld_call,
};
