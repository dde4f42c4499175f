// SPDX-License-Identifier: GPL-2.0-only
/*
 * Release code or object memory in module text/data:
 *   module-release               a release callback in module code
 *   empty-release                ... that does nothing
 *   release-returns-into-module  ... that ends in module_put(THIS_MODULE)
 *                                or complete(): the module may be gone
 *                                before it returns
 *   static-object                a registered kobject-bearing object in
 *                                module data
 * A release slot is found from the types: a struct member whose name ends
 * in "release" and whose function takes a pointer to a struct that is or
 * embeds a struct kobject (struct device, struct kobject, ...).
 * "Registered" means passed to a driver-core registration call, or pointed
 * to by a registered object (a device's .type); devm_ variants are not
 * registrations the module has to undo.
 */
#include <string.h>
#include "modlife.h"
#include "strmap.h"


struct install {
	struct symbol *fn;
	struct position pos;
	char key[KEYLEN];
	char slot[KEYLEN];
	struct symbol *self;	/* the static object released, if known */
};
static struct install *installs;
static int ninstalls;

/* objects this file hands to a subsystem's helper, and the helper */
static struct via {
	char key[KEYLEN];
	const char *helper;
} *vias;
static int nvias, via_cap;

static int kobject_bearing(struct symbol *t, int depth)
{
	struct symbol *m;

	t = strip_type(t);
	if (!t || depth > 6 || t->type != SYM_STRUCT)
		return 0;
	if (t->ident && !strcmp(id_str(t->ident), "kobject"))
		return 1;
	FOR_EACH_PTR(t->symbol_list, m) {
		if (kobject_bearing(m, depth + 1))
			return 1;
	} END_FOR_EACH_PTR(m);
	return 0;
}

int is_kobject_bearing(struct symbol *t)
{
	t = strip_type(t);
	if (t && t->type == SYM_ARRAY)
		t = t->ctype.base_type;
	return kobject_bearing(t, 0);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static int is_release_slot(struct symbol *member)
{
	struct symbol *t, *arg;

	if (!member || !member->ident ||
	    !ends_with(id_str(member->ident), "release"))
		return 0;
	t = strip_type(member);
	if (!t || t->type != SYM_PTR)
		return 0;
	t = strip_type(t->ctype.base_type);
	if (!t || t->type != SYM_FN)
		return 0;
	arg = first_ptr_list((struct ptr_list *)t->arguments);
	return arg && pointee_struct(arg) && is_kobject_bearing(pointee_struct(arg));
}

static void add_install(struct symbol *fn, const char *key,
			struct symbol *member, struct position pos,
			struct symbol *self)
{
	struct install *in;
	struct symbol *c = member_container(member);

	if (fn->definition)
		fn = fn->definition;
	installs = realloc(installs, (ninstalls + 1) * sizeof(*installs));
	in = &installs[ninstalls++];
	in->fn = fn;
	in->pos = pos;
	/*
	 * A class's dev_release is for the devices registered with it
	 * (points_to), not for the class that class_register() adds
	 */
	snprintf(in->key, sizeof(in->key), "%s%s",
		 strcmp(id_str(member->ident), "dev_release") ? "" : "devs-of:",
		 key);
	snprintf(in->slot, sizeof(in->slot), "%s.%s",
		 c ? type_name(c) : "?", id_str(member->ident));
	in->self = self;
	provide(KEY_RELEASE_FN "%s", sym_name(fn));
}

static void release_begin_tu(void)
{
	ninstalls = 0;
	nvias = 0;
}

/* a kobj_type that gives its kobjects a namespace (or their children) */
static int ns_member;

static void ns_leaf(struct symbol *obj, struct symbol *member,
		    struct expression *value, unsigned long offset)
{
	if (member && member->ident && !is_zero_constant(value) &&
	    (!strcmp(id_str(member->ident), "namespace") ||
	     !strcmp(id_str(member->ident), "child_ns_type")))
		ns_member = 1;
}

/*
 * A static object registered, initialized or set up with tables (a
 * kobj_type, a device_type): their releases release a static object, and
 * a kobj_type with a namespace makes it an object the core's
 * constructors (kobject_create_and_add(), kset_create_and_add()) cannot
 * replace.
 */
static void static_user(struct symbol *self, struct symbol *table)
{
	provide(KEY_STATIC_USER "obj:%s", sym_name(table));
	ns_member = 0;
	for_each_init_leaf(table, table->initializer, ns_leaf);
	if (ns_member)
		provide(KEY_NS_KOBJ_OBJ "%s", sym_name(self));
}

static void static_users(struct expression *call, const char *name)
{
	struct expression *arg;
	struct symbol *self = NULL, *o;

	if (!api_is("ktype-init", name) && !api_is("register", name))
		return;
	arg = first_expression(call->args);
	o = arg ? base_object(arg) : NULL;
	if (o && is_static_object(o) && is_kobject_bearing(o))
		self = o;
	if (!self)
		return;
	FOR_EACH_PTR(call->args, arg) {
		o = expr_symbol(arg);
		if (o && o != self && !ml_is_function(o) && is_static_object(o))
			static_user(self, o);
	} END_FOR_EACH_PTR(arg);
}

/* "registered:KEY" facts for a registered object keyed @key */
static void registered_key(struct walk_ctx *ctx, const char *key)
{
	char k[KEYLEN + 16];

	/*
	 * Registered on behalf of a dependent module (an exported
	 * constructor reaches the call): it goes before this module
	 */
	snprintf(k, sizeof(k), KEY_REGISTERED "%s", key);
	provide_unless_exported(sym_name(ctx->fn), k);
	/* whoever it is for, an empty release is a bug */
	provide(KEY_REGISTERED_ANY "%s", key);
}

/*
 * @arg is registered; @path: the member of it a helper registers (".dev"
 * for mdiobus_register(bus)), NULL for a registration of @arg itself. A
 * pointer variable's member is keyed by its type, as "p->dev" is.
 */
/* @key is registered by @helper, a subsystem's */
static void note_via(const char *key, const char *helper)
{
	provide(KEY_REGISTERED_VIA "%s", key);
	vias = xgrow(vias, &via_cap, nvias + 1, sizeof(*vias));
	snprintf(vias[nvias].key, KEYLEN, "%s", key);
	vias[nvias++].helper = helper;
}

/* The helper this file hands @key to, if one */
static const char *via_helper(const char *key)
{
	int i;

	for (i = 0; i < nvias; i++)
		if (!strcmp(vias[i].key, key))
			return vias[i].helper;
	return NULL;
}

static void mark_registered(struct walk_ctx *ctx, struct expression *arg,
			    const char *path, const char *helper)
{
	struct symbol *base = base_object(arg), *var = expr_symbol(arg);
	struct symbol *st = arg ? pointee_struct(arg->ctype) : NULL;
	char key[KEYLEN], k[KEYLEN + 16];

	/*
	 * A subsystem's object (and the member it registers): its core,
	 * not the driver core, allocates such objects
	 */
	if (addr_key(arg, key, sizeof(key))) {
		registered_key(ctx, key);
		if (path)
			note_via(key, helper);
	} else {
		key[0] = 0;
	}
	if (path && *path && var && !is_static_object(var) && st &&
	    st->ident)
		snprintf(key, sizeof(key), "%s", type_name(st));
	snprintf(k, sizeof(k), "%s%s", key, path ? path : "");
	if (key[0] && path && *path && strlen(k) < KEYLEN) {
		registered_key(ctx, k);
		note_via(k, helper);
	}
	if (base && is_static_object(base)) {
		snprintf(k, sizeof(k), KEY_REGISTERED "obj:%s", sym_name(base));
		provide_unless_exported(sym_name(ctx->fn), k);
		snprintf(k, sizeof(k), KEY_REGISTERED_STATIC_OBJ "%s",
			 sym_name(base));
		provide_unless_export_reaches(sym_name(ctx->fn), k);
		provide(KEY_REGISTERED_ANY "obj:%s", sym_name(base));
	}
}

/*
 * An exported helper that registers what its caller passes: the
 * knowledge file's "registers:FN:N" rows, unless the core holds the
 * object itself ("held:": its unregistration waits for the release, or
 * an open file pins the module)
 */
/*
 * @fn for each pointer that the static array @arg holds, when @arg is one
 * ("platform_add_devices(devs, n)", "platform_device_unregister(devs[i])");
 * returns whether it was.
 */
static int each_element(struct walk_ctx *ctx, struct expression *arg,
			void (*fn)(struct walk_ctx *, struct expression *))
{
	struct symbol *array = base_object(arg);
	struct symbol *t = array ? strip_type(array) : NULL;
	struct expression *e;

	if (!t || t->type != SYM_ARRAY || !is_static_object(array) ||
	    !strip_type(t->ctype.base_type) ||
	    strip_type(t->ctype.base_type)->type != SYM_PTR ||
	    !array->initializer ||
	    array->initializer->type != EXPR_INITIALIZER)
		return 0;
	FOR_EACH_PTR(array->initializer->expr_list, e) {
		while (e && e->type == EXPR_POS)	/* "[1] = &b" */
			e = e->init_expr;
		if (e)
			fn(ctx, e);
	} END_FOR_EACH_PTR(e);
	return 1;
}

/* path "[]": each object of the array is registered as if by itself */
static void element_registered(struct walk_ctx *ctx, struct expression *e)
{
	mark_registered(ctx, e, NULL, NULL);
}

/*
 * @arg is a pointer's value ("misc", "data->drv"), not the address of a
 * member of what a pointer points to ("&adev->nb": that object is the
 * device's, never a static one)
 */
static int is_loaded_pointer(struct expression *arg)
{
	arg = strip_expr(arg);
	return arg && arg->type == EXPR_PREOP && arg->op == '*';
}

/*
 * A static object, or a declaration of one ("extern struct x obj;" of
 * the module's header, used before the definition): keyed by name alike
 */
static int is_named_object(struct symbol *o)
{
	return is_static_object(o) ||
	       (o->type == SYM_NODE && o->namespace == NS_SYMBOL &&
		!ml_is_function(o) && (o->ctype.modifiers & MOD_EXTERN) &&
		is_own_symbol(o));
}

/* a static object that may be taken back from the core before unload */
static void unregistered(struct walk_ctx *ctx, struct expression *arg)
{
	struct symbol *o = base_object(arg), *st, *t;
	char k[KEYLEN + 32];

	/*
	 * Through a pointer ("data->drv", a card from the driver data, a
	 * static pointer or array of them): it may be any static object of
	 * its type
	 */
	st = arg ? pointee_struct(arg->ctype) : NULL;
	t = o ? strip_type(o) : NULL;
	if (st && st->ident && is_loaded_pointer(arg) &&
	    (!o || !is_named_object(o) || t->type == SYM_PTR ||
	     t->type == SYM_ARRAY)) {
		snprintf(k, sizeof(k), KEY_UNREGISTERED_TYPE "%s",
			 type_name(st));
		provide_if_may_reach(sym_name(ctx->fn), k);
	}
	if (!o || !is_named_object(o))
		return;
	snprintf(k, sizeof(k), KEY_UNREGISTERED_OBJ "%s", sym_name(o));
	/*
	 * a teardown-like function is there to run before the unload,
	 * however it is reached (a table of functions, the init's own
	 * end of a self-test)
	 */
	if (is_teardown_name(sym_name(ctx->fn)))
		provide(k);
	else
		provide_if_may_reach(sym_name(ctx->fn), k);
}

static void helper_registers(struct walk_ctx *ctx, struct expression *call,
			     const char *name)
{
	struct expression *arg;
	char k[KEYLEN + 16];
	const char *path, *how;
	int n = 0;

	FOR_EACH_PTR(call->args, arg) {
		snprintf(k, sizeof(k), "registers:%s:%d", name, n++);
		path = kb_lookup_owner(k);
		how = kb_lookup_how(k);
		if (!path || !how || strncmp(how, "register", 8))
			continue;
		if (!strcmp(path, "[]"))
			each_element(ctx, arg, element_registered);
		else
			mark_registered(ctx, arg, strcmp(path, "-") ? path : "",
					name);
	} END_FOR_EACH_PTR(arg);
}

static void release_call(struct walk_ctx *ctx, struct expression *call,
			 struct symbol *callee)
{
	const char *name = callee_name(callee);
	const struct api_row *row;
	struct expression *arg;
	char key[KEYLEN];
	int n = 0;

	if (!name || !ctx->fn)
		return;
	/*
	 * a completion someone waits for: its complete() lets that go on
	 * (by the completion's own struct and member, as exit-wait keys it:
	 * the waiter may reach it through another container)
	 */
	if (api_is("wait-completion", name) &&
	    type_key(first_expression(call->args), key, sizeof(key)))
		provide(KEY_WAITED "%s", key);
	static_users(call, name);
	/* generous: a wrong "never unregistered" would mislead the fix */
	if (is_undo_name(name))
		FOR_EACH_PTR(call->args, arg) {
			if (!each_element(ctx, arg, unregistered))
				unregistered(ctx, arg);
		} END_FOR_EACH_PTR(arg);
	row = api_find("register", name);
	if (!row) {
		helper_registers(ctx, call, name);
		return;
	}
	FOR_EACH_PTR(call->args, arg) {
		if (n >= row->a && n <= row->b)
			mark_registered(ctx, arg, NULL, NULL);
		n++;
	} END_FOR_EACH_PTR(arg);
}

/* "x.m = &obj": obj is registered when x is (a device's .type, ...) */
static void points_to(const char *holder, struct expression *value)
{
	struct symbol *o = expr_symbol(value);
	char a[KEYLEN + 32], b[KEYLEN + 32];

	if (!holder || !o || ml_is_function(o) || !is_static_object(o))
		return;
	snprintf(a, sizeof(a), KEY_REGISTERED "%s", holder);
	snprintf(b, sizeof(b), KEY_REGISTERED "obj:%s", sym_name(o));
	implies(a, b);
	snprintf(b, sizeof(b), KEY_REGISTERED "devs-of:obj:%s", sym_name(o));
	implies(a, b);
	snprintf(a, sizeof(a), KEY_REGISTERED_ANY "%s", holder);
	snprintf(b, sizeof(b), KEY_REGISTERED_ANY "obj:%s", sym_name(o));
	implies(a, b);
	snprintf(b, sizeof(b), KEY_REGISTERED_ANY "devs-of:obj:%s",
		 sym_name(o));
	implies(a, b);
}

static void release_assign(struct walk_ctx *ctx, struct expression *expr)
{
	struct expression *lv = strip_expr(expr->left);
	struct symbol *m = member_of_lvalue(lv), *fn, *b;
	char key[KEYLEN];
	const char *k;

	if (expr->op != '=' || !m)
		return;
	b = base_object(strip_expr(lv->unop)->left);
	if (b && is_static_object(b) && is_kobject_bearing(b)) {
		/*
		 * "x.dev.release = f", "x[i].dev.release = f": a static
		 * object (or array) whose registration is keyed by its name
		 */
		snprintf(key, sizeof(key), "obj:%s", sym_name(b));
		k = key;
	} else {
		k = addr_key(strip_expr(lv->unop)->left, key, sizeof(key));
	}
	points_to(k, expr->right);
	fn = expr_symbol(expr->right);
	/* "kset.kobj.ktype = &ktype" of a static kset */
	if (b && is_static_object(b) && is_kobject_bearing(b) && fn &&
	    fn != b && !ml_is_function(fn) && is_static_object(fn))
		static_user(b, fn);
	if (k && fn && ml_is_function(fn) && is_release_slot(m))
		add_install(fn, k, m, expr->pos,
			    b && is_static_object(b) && is_kobject_bearing(b) ?
			    b : NULL);
}

static void release_leaf(struct symbol *obj, struct symbol *member,
			 struct expression *value, unsigned long offset)
{
	struct symbol *fn = expr_symbol(value);
	char key[KEYLEN];

	snprintf(key, sizeof(key), "obj:%s", sym_name(obj));
	points_to(key, value);
	if (fn && ml_is_function(fn) && is_release_slot(member))
		add_install(fn, key, member, value->pos,
			    is_kobject_bearing(obj) ? obj : NULL);
	/* a static device's .type = &dtype: dtype's release is for it */
	if (fn && fn != obj && !ml_is_function(fn) && is_static_object(fn) &&
	    is_kobject_bearing(obj))
		static_user(obj, fn);
}

/* The object's type, without the array of a static array of objects. */
static const char *object_type(struct symbol *obj)
{
	struct symbol *t = strip_type(obj);

	if (t && t->type == SYM_ARRAY)
		t = t->ctype.base_type;
	return type_name(t);
}

/* kb/constructors.tsv's advice for @obj ("*": a struct embedding one) */
static const char *advice_for(struct symbol *obj, int namespaced, int via)
{
	char t[KEYLEN + 16];

	snprintf(t, sizeof(t), "%s%s", namespaced ? "namespaced " : "",
		 object_type(obj));
	return constructor_advice(t, via);
}

static void release_object(struct symbol *obj)
{
	struct finding *f;
	int ns, nsable, via;

	for_each_init_leaf(obj, obj->initializer, release_leaf);
	if (!tu.is_module || !is_own_symbol(obj) || !is_kobject_bearing(obj))
		return;
	/* the constructors fit only kobjects and ksets without a namespace */
	nsable = !strcmp(object_type(obj), "struct kobject") ||
		 !strcmp(object_type(obj), "struct kset");
	/*
	 * ns: a namespaced kobject; via: a subsystem's helper registers it;
	 * kept: nothing takes it back before the unload
	 */
	for (ns = 0; ns <= nsable; ns++) {
		for (via = 0; via < 4; via++) {
			int kept = via >> 1;

			f = finding_new("static-object", obj->pos,
					sym_name(obj));
			f->unload = 1;
			if (kept) {
				finding_message(f, "'%s' (%s) lives in module data, is registered with the driver core, and nothing before the unload unregisters it: it outlives the module outright, and every later use of it (sysfs, a driver binding to it, the next load registering the name again) touches freed memory; unregister it in the exit function, and %s",
						sym_name(obj), type_name(obj),
						advice_for(obj, ns, via & 1));
				finding_unless(f, KEY_UNREGISTERED_OBJ "%s",
					       sym_name(obj));
			} else {
				finding_message(f, "'%s' (%s) lives in module data and is registered with the driver core: a reference held past unload (a get_device() of another subsystem, a child device, a delayed release) uses freed memory; %s",
						sym_name(obj), type_name(obj),
						advice_for(obj, ns, via & 1));
				finding_requires(f, KEY_UNREGISTERED_OBJ "%s",
						 sym_name(obj));
			}
			finding_requires(f, KEY_REGISTERED_STATIC_OBJ "%s",
					 sym_name(obj));
			if (via & 1)
				finding_requires(f, KEY_REGISTERED_VIA "obj:%s",
						 sym_name(obj));
			else
				finding_unless(f, KEY_REGISTERED_VIA "obj:%s",
					       sym_name(obj));
			if (ns)
				finding_requires(f, KEY_NS_KOBJ_OBJ "%s",
						 sym_name(obj));
			else if (nsable)
				finding_unless(f, KEY_NS_KOBJ_OBJ "%s",
					       sym_name(obj));
			finding_report(f);
		}
	}
}

static int does_nothing(struct statement *stmt)
{
	struct statement *s;
	struct expression *e;
	struct symbol *callee;

	if (!stmt)
		return 1;
	switch (stmt->type) {
	case STMT_NONE:
		return 1;
	case STMT_COMPOUND:
		FOR_EACH_PTR(stmt->stmts, s) {
			if (!does_nothing(s))
				return 0;
		} END_FOR_EACH_PTR(s);
		return 1;
	case STMT_RETURN:
		return !stmt->ret_value;
	case STMT_DECLARATION:
		return 1;	/* "struct foo *p = to_foo(dev);" alone */
	case STMT_EXPRESSION:
		e = strip_expr(stmt->expression);
		if (e && e->type == EXPR_STATEMENT)
			return does_nothing(e->statement);
		if (!e || e->type != EXPR_CALL)
			return 0;
		callee = expr_symbol(e->fn);
		return callee && callee->ident &&
		       (callee->builtin || api_is("log", id_str(callee->ident)));
	case STMT_IF:
		return does_nothing(stmt->if_true) && does_nothing(stmt->if_false);
	case STMT_ITERATOR:	/* do { logging } while (0) */
		return does_nothing(stmt->iterator_pre_statement) &&
		       does_nothing(stmt->iterator_statement) &&
		       does_nothing(stmt->iterator_post_statement);
	default:
		return 0;
	}
}

/* The call that ends the body, if it is module_put(THIS_MODULE)/complete(). */
static struct expression *tail_call(struct statement *stmt)
{
	struct expression *e;
	struct symbol *callee;
	const char *name;

	while (stmt && stmt->type == STMT_COMPOUND)
		stmt = last_ptr_list((struct ptr_list *)stmt->stmts);
	if (!stmt || stmt->type != STMT_EXPRESSION)
		return NULL;
	e = strip_expr(stmt->expression);
	if (!e || e->type != EXPR_CALL)
		return NULL;
	callee = expr_symbol(e->fn);
	name = callee_name(callee);
	if (!name)
		return NULL;
	if (api_is("complete", name))
		return e;
	if (!strcmp(name, "module_put") &&
	    is_this_module(first_expression(e->args)))
		return e;
	return NULL;
}

/*
 * The fix fits the object: a static object is not to be freed but
 * allocated by the core (the static-object advice); a table's release
 * (a kobj_type's) is for a static object when one is registered with it.
 */
static void empty_release(struct install *in, const char *fname)
{
	static const char lead[] = "%s(), the %s callback, does nothing: it hides the core's missing-release warning%s, and as module text it can run after unload; %s";
	struct finding *f;
	char advice[2 * KEYLEN];
	int variant;

	for (variant = 0; variant < 2; variant++) {
		if (in->self && variant)
			break;
		f = finding_new("empty-release", in->pos, in->key);
		f->unload = 1;
		if (in->self) {
			snprintf(advice, sizeof(advice), "'%s' is static: %s",
				 sym_name(in->self), advice_for(in->self, 0, 0));
			finding_message(f, lead, fname, in->slot, "", advice);
		} else if (variant) {
			finding_message(f, lead, fname, in->slot, "",
					"the object it releases is static: the static-object warning says how to allocate it");
			finding_requires(f, KEY_STATIC_USER "%s", in->key);
		} else {
			finding_message(f, lead, fname, in->slot,
					" and leaks the object",
					"free the containing object, or let the core own it");
			finding_unless(f, KEY_STATIC_USER "%s", in->key);
		}
		/* whoever registered the object: it leaks, hides the warning */
		finding_requires(f, KEY_REGISTERED_ANY "%s", in->key);
		finding_report(f);
	}
}

/*
 * @unless_waited: the release ends in complete() on it, which none waits.
 * An object a subsystem's helper registers (register_virtio_device()) has
 * no driver-core constructor: the advice names the subsystem's allocator.
 */
static void module_release(struct install *in, const char *fname,
			   const char *unless_waited)
{
	static const char lead[] = "%s(), the %s callback of an object this module registers%s, is module text: a reference held past unload (a get_device() of another subsystem, a child device, a delayed kobject_put()) calls freed code; %s";
	const char *helper = via_helper(in->key);
	char through[KEYLEN + 32];
	struct finding *f;
	int sub;

	/* the helper, when this file calls it: another file's is unnamed */
	if (helper)
		snprintf(through, sizeof(through), " through %s()", helper);
	else
		snprintf(through, sizeof(through),
			 " through a subsystem's helper");
	for (sub = 0; sub < 2; sub++) {
		f = finding_new("module-release", in->pos, in->key);
		if (sub) {
			finding_message(f, lead, fname, in->slot, through,
					"the fix is the subsystem's: an allocator whose release is core code, as input_allocate_device() is for input devices");
			finding_requires(f, KEY_REGISTERED_VIA "%s", in->key);
		} else {
			finding_message(f, lead, fname, in->slot, "",
					"let the core own the object (device_create(), platform_device_alloc(), kobject_create_and_add())");
			finding_unless(f, KEY_REGISTERED_VIA "%s", in->key);
		}
		f->unload = 1;
		if (unless_waited)
			finding_unless(f, KEY_WAITED "%s", unless_waited);
		/*
		 * Devices a library registers for its dependents go before
		 * it (module-release stays silent)
		 */
		finding_requires(f, KEY_REGISTERED "%s", in->key);
		finding_report(f);
	}
}

static void release_end_tu(void)
{
	int i, j;

	if (!tu.is_module)
		return;
	for (i = 0; i < ninstalls; i++) {
		struct install *in = &installs[i];
		struct statement *body;
		struct expression *tail;
		struct finding *f;
		const char *fname = sym_name(in->fn);
		int dup = 0;

		body = strip_type(in->fn) ? strip_type(in->fn)->stmt : NULL;
		if (!body || !is_own_symbol(in->fn))
			continue;	/* defined elsewhere, maybe built in */
		tail = tail_call(body);
		for (j = 0; tail && j < i; j++)
			if (installs[j].fn == in->fn &&
			    !strcmp(installs[j].key, in->key))
				dup = 1;
		if (dup)
			continue;
		if (tail) {
			char done[KEYLEN];
			int waited = strcmp(callee_name(expr_symbol(tail->fn)),
					    "module_put") &&
				     type_key(first_expression(tail->args),
					      done, sizeof(done));

			f = finding_new("release-returns-into-module",
					tail->pos, in->key);
			finding_message(f, "%s(), the %s callback, ends by calling %s(): once that lets the module go, the rest of the function runs in freed module text; release in built-in code, or drop the module's reference from a work item of the core",
					fname, in->slot,
					callee_name(expr_symbol(tail->fn)));
			if (waited) {
				/*
				 * complete() lets the module go only when
				 * its waiter then drops the module (umount
				 * waiting for the sb kobject); unwaited, the
				 * release is module text like any other
				 */
				finding_requires(f, KEY_WAITED "%s", done);
				module_release(in, fname, done);
			}
		} else if (does_nothing(body)) {
			empty_release(in, fname);
			continue;
		} else {
			module_release(in, fname, NULL);
			continue;
		}
		f->unload = 1;
		finding_requires(f, KEY_REGISTERED "%s", in->key);
		finding_report(f);
	}
}

const struct modlife_check check_release = {
	.modes = CHECK_RULES,
	.name = "release",
	.begin_tu = release_begin_tu,
	.call = release_call,
	.assign = release_assign,
	.object = release_object,
	.end_tu = release_end_tu,
};
