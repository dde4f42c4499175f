// SPDX-License-Identifier: GPL-2.0-only
/*
 * Owner pinning (the cdev pattern): missing-owner and cdev-owner.
 *
 * An object whose type has a "struct module *owner" that core code reads
 * (try_module_get() and friends, from the knowledge file) pins the module
 * only if the owner is set. It counts as set by an initializer, by any
 * assignment to that owner in the module, by a call that passes the object
 * together with THIS_MODULE, or, for fops, by a cdev whose owner is set.
 */
#include <string.h>
#include "modlife.h"
#include "strmap.h"

struct cdev_init_site {
	struct position pos;
	char cdev[KEYLEN];
	char fops[KEYLEN];
	char fn[KEYLEN];
	int fops_param;		/* fops are fn's parameter number, or -1 */
};
static struct cdev_init_site *sites;
static int nsites;

/*
 * "inode->i_fop = fops" where fops is a parameter of fn: the callers'
 * objects (ibmasmfs_create_file(..., &command_fops)) are the files, also
 * through helpers that hand the parameter on (gadgetfs_create_file() ->
 * gadgetfs_make_inode() -> i_fop; f_fs, qib's ipathfs: struct pass).
 */
struct flow {
	char fn[KEYLEN];
	int param;
	char obj[KEYLEN];	/* set for call sites, empty for the sink */
};
static struct flow *flows;
static int nflows;

/* parameter @from_param of @from handed to parameter @to_param of @to */
struct pass {
	char from[KEYLEN], to[KEYLEN];
	int from_param, to_param;
};
static struct pass *passes;
static int npasses;

static void add_pass(const char *from, int from_param, const char *to,
		     int to_param)
{
	passes = realloc(passes, (npasses + 1) * sizeof(*passes));
	snprintf(passes[npasses].from, KEYLEN, "%s", from);
	snprintf(passes[npasses].to, KEYLEN, "%s", to);
	passes[npasses].from_param = from_param;
	passes[npasses].to_param = to_param;
	npasses++;
}

static void add_flow(const char *fn, int param, const char *obj)
{
	flows = realloc(flows, (nflows + 1) * sizeof(*flows));
	snprintf(flows[nflows].fn, KEYLEN, "%s", fn);
	flows[nflows].param = param;
	snprintf(flows[nflows].obj, KEYLEN, "%s", obj ? obj : "");
	nflows++;
}

/*
 * How the unit hands an object over: "struct miscdevice.fops" (stored in
 * that member) or a callee's name. The reader a missing-owner message
 * cites is the one on that path (kb/owner-paths.tsv).
 */
struct use {
	char obj[KEYLEN], via[KEYLEN];
};
static struct use *uses;
static int nuses, uses_cap;

static void add_use(struct symbol *obj, struct symbol *member,
		    const char *callee)
{
	struct symbol *c = member ? member_container(member) : NULL;

	if (!callee && (!c || !member->ident))
		return;
	uses = xgrow(uses, &uses_cap, nuses + 1, sizeof(*uses));
	snprintf(uses[nuses].obj, KEYLEN, "%s", sym_name(obj));
	if (callee)
		snprintf(uses[nuses].via, KEYLEN, "%s", callee);
	else
		snprintf(uses[nuses].via, KEYLEN, "%s.%s", type_name(c),
			 id_str(member->ident));
	nuses++;
}

/* missing-owner candidates, reported once the unit's uses are known */
struct pending {
	struct finding *f;
	char obj[KEYLEN], tname[KEYLEN], path[KEYLEN], where[KEYLEN];
	char owner_type[KEYLEN];	/* the struct with the owner member */
	char how[KEYLEN];
	int path_only;		/* only a reader on its way in counts */
};
static struct pending *pending;
static int npending, pending_cap;

static void owner_begin_tu(void)
{
	nsites = 0;
	nflows = 0;
	npasses = 0;
	nuses = 0;
	npending = 0;
}

/* "&obj" in an array of pointers handed over with THIS_MODULE */
static void pinned_element(struct symbol *arr, struct symbol *member,
			   struct expression *value, unsigned long offset)
{
	struct expression *e = strip_expr(value);
	struct symbol *o;

	/* sparse evaluates "&obj" to the symbol expression itself */
	if (e && e->type == EXPR_PREOP && e->op == '&')
		e = e->unop;
	o = expr_symbol(e);
	if (o && is_static_object(o))
		provide(KEY_OWNER "obj:%s", sym_name(o));
}

/*
 * The knowledge file's "fills:FN:N" rows: FN fills in the owner of what
 * its caller passes as parameter N (of the object itself, "-", of a
 * struct embedded in it, ".driver", or of the table a member points to,
 * ".ops->"), from the caller's argument M ("param:M"), from its own code
 * ("core": af_alg_register_type() sets type->ops->owner) or from the
 * driver bound to the device ("driver": mtd_set_dev_defaults())
 */
struct fill_ctx {
	struct expression *call;
	struct symbol *obj;
	char member[KEYLEN];	/* the pointer member of "X->" */
	struct symbol *target;
};

static struct fill_ctx *fill_now;

static void fill_target_leaf(struct symbol *obj, struct symbol *member,
			     struct expression *value, unsigned long offset)
{
	struct expression *e = strip_expr(value);
	struct symbol *o;

	if (!member || !member->ident || member_container(member) !=
	    strip_type(obj) || strcmp(id_str(member->ident),
				      fill_now->member))
		return;
	if (e && e->type == EXPR_PREOP && e->op == '&')
		e = e->unop;
	o = expr_symbol(e);
	if (o && is_static_object(o) && !ml_is_function(o))
		fill_now->target = o;
}

static void fill_row(const char *value, void *arg)
{
	struct fill_ctx *fc = arg;
	char path[KEYLEN], src[KEYLEN], key[KEYLEN + 8];
	const char *arrow;
	int m;

	if (sscanf(value, "%255s %255s", path, src) != 2 || strchr(path, '['))
		return;
	arrow = strstr(path, "->");
	if (arrow && arrow[2])
		return;		/* through more than one pointer */
	fc->target = fc->obj;
	if (arrow) {
		/* a member of the object itself, not of one embedded in it */
		if (path[0] != '.' || memchr(path + 1, '.', arrow - path - 1))
			return;
		snprintf(fc->member, sizeof(fc->member), "%.*s",
			 (int)(arrow - path - 1), path + 1);
		fc->target = NULL;
		fill_now = fc;
		for_each_init_leaf(fc->obj, fc->obj->initializer,
				   fill_target_leaf);
		if (!fc->target)
			return;
	}
	snprintf(key, sizeof(key), KEY_OWNER "obj:%s", sym_name(fc->target));
	if (!strcmp(src, "core")) {
		provide("%s", key);
	} else if (!strcmp(src, "driver")) {
		/* the bound driver's: a module that passes THIS_MODULE */
		implies(KEY_THIS_MODULE_PASSED, key);
	} else if (sscanf(src, "param:%d", &m) == 1 &&
		   is_this_module(ptr_list_nth_entry((struct ptr_list *)
						     fc->call->args, m))) {
		provide("%s", key);
	}
}

static void owner_fills(struct expression *call, const char *name)
{
	struct expression *arg;
	struct fill_ctx fc;
	char row[KEYLEN + 16];
	int n = 0;

	FOR_EACH_PTR(call->args, arg) {
		struct symbol *o = expr_symbol(arg);

		if (o && is_static_object(o) && !ml_is_function(o)) {
			memset(&fc, 0, sizeof(fc));
			fc.call = call;
			fc.obj = o;
			snprintf(row, sizeof(row), "fills:%s:%d", name, n);
			kb_each(row, fill_row, &fc);
		}
		n++;
	} END_FOR_EACH_PTR(arg);
}

static void owner_call(struct walk_ctx *ctx, struct expression *call,
		       struct symbol *callee)
{
	struct expression *arg;
	const char *name = callee_name(callee);
	char key[KEYLEN];
	int pinned = 0, n;

	FOR_EACH_PTR(call->args, arg) {
		if (is_this_module(arg))
			pinned = 1;
	} END_FOR_EACH_PTR(arg);
	/* "&obj.member" handed over: the embedded struct is registered */
	n = -1;
	FOR_EACH_PTR(call->args, arg) {
		struct expression *e = strip_expr(arg);
		struct symbol *o = base_object(e), *m = NULL, *st, *pt;

		n++;
		if (!o || !is_static_object(o))
			continue;
		if (e->type == EXPR_BINOP && e->op == '+' &&
		    strip_expr(e->left)->type == EXPR_SYMBOL)
			m = addr_first_member(e);
		st = strip_type(o);
		pt = pointee_struct(formal_param(callee, n));
		if (!(m && m->ident) && pt && ml_is_struct(st) && pt != st) {
			/*
			 * a member at offset 0 is "&obj + 0": the callee's
			 * parameter type tells (driver_register() of an
			 * mdio_driver's mdiodrv.driver)
			 */
			m = first_ptr_list((struct ptr_list *)st->symbol_list);
			if (m && (m->offset || !ml_is_struct(m)))
				m = NULL;
		}
		if (m && m->ident) {
			provide(KEY_PASSED_OBJ "%s.%s", sym_name(o),
				id_str(m->ident));
			if (name)
				add_use(o, NULL, name);
		}
	} END_FOR_EACH_PTR(arg);
	if (name)
		owner_fills(call, name);
	if (name) {
		int i = 0;

		FOR_EACH_PTR(call->args, arg) {
			struct symbol *o = expr_symbol(arg);

			if (o && is_static_object(o)) {
				add_flow(name, i, sym_name(o));
				add_use(o, NULL, name);
			} else if (o && ctx->fn && param_index(ctx->fn, o) >= 0)
				add_pass(sym_name(ctx->fn),
					 param_index(ctx->fn, o), name, i);
			i++;
		} END_FOR_EACH_PTR(arg);
	}
	if (pinned) {
		/* the module's drivers are pinned: cores fall back to them */
		provide(KEY_THIS_MODULE_PASSED);
		/* a helper that copies its owner parameter gets this one */
		if (name)
			provide(KEY_THIS_MODULE_TO "%s", name);
		/* registration wrappers pass THIS_MODULE with the object */
		FOR_EACH_PTR(call->args, arg) {
			struct symbol *o = expr_symbol(arg);

			if (!is_this_module(arg) && addr_key(arg, key, sizeof(key)))
				provide(KEY_OWNER "%s", key);
			/* or with an array of them (module_dsa_tag_drivers()) */
			if (o && is_static_object(o) && o->ctype.base_type &&
			    o->ctype.base_type->type == SYM_ARRAY)
				for_each_init_leaf(o, o->initializer,
						   pinned_element);
		} END_FOR_EACH_PTR(arg);
	}
	if (name && !strcmp(name, "cdev_init") && tu.is_module && ctx->fn) {
		struct cdev_init_site *s;

		sites = realloc(sites, (nsites + 1) * sizeof(*sites));
		s = &sites[nsites++];
		memset(s, 0, sizeof(*s));
		s->pos = call->pos;
		addr_key(first_expression(call->args), s->cdev, sizeof(s->cdev));
		arg = ptr_list_nth_entry((struct ptr_list *)call->args, 1);
		addr_key(arg, s->fops, sizeof(s->fops));
		snprintf(s->fn, sizeof(s->fn), "%s", sym_name(ctx->fn));
		s->fops_param = expr_symbol(arg) ?
			param_index(ctx->fn, expr_symbol(arg)) : -1;
		if (s->cdev[0])
			provide(KEY_CDEV_INIT "%s", s->cdev);
	}
}

static void owner_assign(struct walk_ctx *ctx, struct expression *expr)
{
	struct symbol *m = member_of_lvalue(expr->left), *c;
	struct expression *lv = strip_expr(expr->left);
	struct symbol *o = expr_symbol(expr->right);
	char key[KEYLEN];

	if (expr->op == '=' && m && o && is_static_object(o))
		add_use(o, m, NULL);	/* sock->ops = &x_ops */
	if (expr->op == '=' && m && m->ident &&
	    !strcmp(id_str(m->ident), "i_fop")) {

		/* files of the module's own filesystem: a mount pins it */
		if (o && o->type == SYM_NODE && !ml_is_function(o) &&
		    (o->ctype.modifiers & MOD_TOPLEVEL)) {
			snprintf(key, sizeof(key), KEY_OWNER "obj:%s",
				 sym_name(o));
			implies(KEY_CALL "register_filesystem", key);
		} else if (o && ctx->fn && param_index(ctx->fn, o) >= 0) {
			add_flow(sym_name(ctx->fn), param_index(ctx->fn, o),
				 NULL);
		}
		return;
	}
	if (expr->op != '=' || !is_owner_member(m))
		return;
	c = member_container(m);
	/* lv is "*(base + offset)": the object is at base */
	if (addr_key(strip_expr(lv->unop)->left, key, sizeof(key))) {
		provide(KEY_OWNER "%s", key);
		/*
		 * Through a pointer, or in a struct the module allocates
		 * ("vreg->desc.owner" on a copy of a static template): any
		 * object of that type may be the one registered
		 */
		if (strncmp(key, "obj:", 4) && c)
			provide(KEY_OWNER_TYPE "%s", type_name(c));
	}
}

/*
 * simple_fill_super()'s "struct tree_descr" names the files of a
 * module's own filesystem: a mount pins the module for them.
 */
static void tree_descr_leaf(struct symbol *obj, struct symbol *member,
			    struct expression *value, unsigned long offset)
{
	struct symbol *c = member ? member_container(member) : NULL;
	struct symbol *fops = expr_symbol(value);
	char key[KEYLEN];

	if (!member || !member->ident || strcmp(id_str(member->ident), "ops") ||
	    !c || !c->ident || strcmp(id_str(c->ident), "tree_descr") ||
	    !fops || fops->type != SYM_NODE || ml_is_function(fops))
		return;
	snprintf(key, sizeof(key), KEY_OWNER "obj:%s", sym_name(fops));
	implies(KEY_CALL "register_filesystem", key);
}

/*
 * Tables a holder points to are "held" with it, and what they point to
 * in turn ("held" follows pointers across the module's files):
 * - a filesystem's holder with its owner set (nfsv4: nfs_v4 = { .owner =
 *   THIS_MODULE, .nfs_fs = &nfs4_fs_type, .rpc_ops = &nfs_v4_clientops },
 *   whose .file_ops become i_fop): files of a mounted filesystem, and the
 *   mount pins the holder's owner;
 * - a socket's ops beside its struct proto (can_proto { .ops = &raw_ops,
 *   .prot = &raw_proto }): every socket's sk pins the proto's owner from
 *   sk_alloc() to sk_free().
 */
static struct symbol **held;
static int nheld, held_cap;

static void held_collect(struct symbol *obj, struct symbol *member,
			 struct expression *value, unsigned long offset)
{
	struct expression *e = strip_expr(value);
	struct symbol *o;

	if (e && e->type == EXPR_PREOP && e->op == '&')
		e = e->unop;
	o = expr_symbol(e);
	/* another file's table too (extern): keys name it the same */
	if (!o || o == obj || o->type != SYM_NODE || ml_is_function(o) ||
	    o->namespace != NS_SYMBOL ||
	    !(o->ctype.modifiers & (MOD_TOPLEVEL | MOD_STATIC | MOD_EXTERN)))
		return;
	held = xgrow(held, &held_cap, nheld + 1, sizeof(*held));
	held[nheld++] = o;
	add_use(o, member, NULL);	/* .fops = &x_fops of a miscdevice */
}

static struct symbol *held_of_type(const char *type)
{
	int i;

	for (i = 0; i < nheld; i++)
		if (!strcmp(type_name(held[i]), type))
			return held[i];
	return NULL;
}

/* @owned: the holder's own owner is set */
static void held_keys(struct symbol *obj, int owned)
{
	struct symbol *proto;
	char from[KEYLEN + 16], to[KEYLEN + 16];
	int i, fs_root;

	nheld = 0;
	for_each_init_leaf(obj, obj->initializer, held_collect);
	proto = held_of_type("struct proto");
	fs_root = owned && held_of_type("struct file_system_type") &&
		  strcmp(type_name(obj), "struct file_system_type");
	for (i = 0; i < nheld; i++) {
		snprintf(to, sizeof(to), KEY_HELD_OBJ "%s", sym_name(held[i]));
		snprintf(from, sizeof(from), KEY_HELD_OBJ "%s", sym_name(obj));
		implies(from, to);
		if (proto && held[i] != proto) {
			snprintf(from, sizeof(from), KEY_OWNER "obj:%s",
				 sym_name(proto));
			implies(from, to);
		}
		if (fs_root)
			provide("%s", to);
	}
}

/* what a table's initializer sets: its members and its functions */
static struct symbol *leaf_members[64], *leaf_fns[64];
static int nleaf_members, nleaf_fns;

static void table_leaf(struct symbol *obj, struct symbol *member,
		       struct expression *value, unsigned long offset)
{
	struct symbol *fn = expr_symbol(value);

	if (member && !is_zero_constant(value) && nleaf_members < 64)
		leaf_members[nleaf_members++] = member;
	if (fn && ml_is_function(fn) && nleaf_fns < 64)
		leaf_fns[nleaf_fns++] = fn;
}

static int sets_member(struct symbol *container, const char *name)
{
	int i;

	for (i = 0; i < nleaf_members; i++)
		if (leaf_members[i]->ident &&
		    !strcmp(id_str(leaf_members[i]->ident), name) &&
		    member_container(leaf_members[i]) == container)
			return 1;
	return 0;
}

/*
 * kb/owner-guards.tsv: -1 when core code never reads this table's owner
 * (a member its reader needs is not set), 1 when only a reader on the
 * table's way in counts, 0 otherwise.
 */
static int owner_guard(struct symbol *c)
{
	const struct kb_row *r;
	char members[KEYLEN], *m, *save;

	for (r = owner_guards; r->c[0]; r++) {
		if (strcmp(r->c[0], type_name(c)))
			continue;
		if (!strcmp(r->c[1], "-"))
			return 1;
		snprintf(members, sizeof(members), "%s", r->c[1]);
		for (m = strtok_r(members, " ", &save); m;
		     m = strtok_r(NULL, " ", &save))
			if (!sets_member(strip_type(c), m))
				return -1;
	}
	return 0;
}

/*
 * A table whose owner a helper copies into another object's ("copied into
 * struct device_driver owner": acpi_bus_register_driver()) is read as
 * that object's is: a "-" row of the other type holds for it too
 */
static int copy_guard(const char *how)
{
	const struct kb_row *r;
	size_t n;

	if (strncmp(how, "copied into ", 12))
		return 0;
	how += 12;
	n = strlen(how) > 6 ? strlen(how) - 6 : 0;
	if (!n || strcmp(how + n, " owner"))
		return 0;
	for (r = owner_guards; r->c[0]; r++)
		if (strlen(r->c[0]) == n && !strncmp(r->c[0], how, n) &&
		    !strcmp(r->c[1], "-"))
			return 1;
	return 0;
}

static void owner_object(struct symbol *obj)
{
	struct symbol *c;
	struct expression *v;
	struct finding *f;
	const char *where, *how, *copier;
	char path[KEYLEN], tname[KEYLEN], embedded[KEYLEN], merge[KEYLEN + 8];
	char *dot;
	unsigned long off;
	int guard, i;

	if (!tu.is_module || !is_own_symbol(obj))
		return;
	for_each_init_leaf(obj, obj->initializer, tree_descr_leaf);
	c = find_owner_path(obj, path, sizeof(path), &off);
	v = c ? init_leaf_at(obj->initializer, off,
			     built_in_ident(strrchr(path, '.') ?
					    strrchr(path, '.') + 1 : path)) : NULL;
	held_keys(obj, v && !is_zero_constant(v));
	if (!c)
		return;
	snprintf(embedded, sizeof(embedded), "%s", path);
	dot = strchr(embedded, '.');
	if (v && !is_zero_constant(v)) {
		provide(KEY_OWNER "obj:%s", sym_name(obj));
		provide(KEY_OWNER_SET "%s", type_name(c));
		return;
	}
	where = kb_lookup_owner(type_name(c));
	if (!where)
		return;		/* core code never reads this owner */
	how = kb_lookup_how(type_name(c));
	nleaf_members = nleaf_fns = 0;
	for_each_init_leaf(obj, obj->initializer, table_leaf);
	guard = owner_guard(c);
	if (guard < 0)
		return;
	if (!guard)
		guard = copy_guard(how);
	snprintf(tname, sizeof(tname), "%s", type_name(obj));

	f = finding_new("missing-owner", obj->pos, sym_name(obj));
	f->unload = 1;
	finding_unless(f, KEY_OWNER "obj:%s", sym_name(obj));
	finding_unless(f, KEY_OWNER_TYPE "%s", tname);
	finding_unless(f, KEY_CDEV_INIT "obj:%s", sym_name(obj));
	finding_unless(f, KEY_OWNER_TYPE "%s", type_name(c));
	finding_unless(f, KEY_HELD_OBJ "%s", sym_name(obj));
	/*
	 * The core code that reads the owner is part of this very module
	 * (nf_tables' own expression types): it cannot pin itself
	 */
	finding_unless(f, KEY_OWN_FILE "%.*s", (int)strcspn(where, ":"), where);
	snprintf(merge, sizeof(merge), "merge:%s", type_name(c));
	if (kb_lookup_owner(merge))
		/* the core merges tables (ib_set_device_ops()): one owner */
		finding_unless(f, KEY_OWNER_SET "%s", type_name(c));
	copier = strchr(where, ' ');
	if (!strncmp(how, "copied into ", 12) && copier)
		/*
		 * The owner reaches the object the core pins through a
		 * helper's parameter (__video_register_device()): a call of
		 * that helper with THIS_MODULE sets it whatever the table has
		 */
		finding_unless(f, KEY_THIS_MODULE_TO "%.*s",
			       (int)strcspn(copier + 1, "( "), copier + 1);
	snprintf(merge, sizeof(merge), "fallback:%s", type_name(c));
	if (kb_lookup_owner(merge))
		/* nvmem_register(): NULL takes config->dev->driver->owner */
		finding_unless(f, KEY_THIS_MODULE_PASSED);
	for (i = 0; i < nleaf_fns; i++)
		/*
		 * a callback of the table puts the module: the module takes
		 * and drops its own references (net/atm/mpc.c's close), and
		 * an owner would make the core put one it never took
		 */
		finding_unless(f, KEY_SELF_PUT_FN "%s", sym_name(leaf_fns[i]));
	finding_requires(f, KEY_REF_OBJ "%s", sym_name(obj));
	if (dot)
		/*
		 * The owner is in an embedded struct (platform_driver.driver):
		 * a subsystem registration that takes the outer object sets
		 * it or does not pin it; only the embedded struct handed to
		 * the core directly (driver_register(&x.driver)) is exposed.
		 */
		finding_requires(f, KEY_PASSED_OBJ "%s.%.*s", sym_name(obj),
				 (int)(dot - embedded), embedded);
	pending = xgrow(pending, &pending_cap, npending + 1, sizeof(*pending));
	pending[npending].f = f;
	snprintf(pending[npending].obj, KEYLEN, "%s", sym_name(obj));
	snprintf(pending[npending].tname, KEYLEN, "%s", tname);
	snprintf(pending[npending].path, KEYLEN, "%s", path);
	snprintf(pending[npending].where, KEYLEN, "%s", where);
	snprintf(pending[npending].how, KEYLEN, "%s", how);
	pending[npending].path_only = guard > 0;
	snprintf(pending[npending].owner_type, KEYLEN, "%s", type_name(c));
	npending++;
}

/* The reader of @tname's owner on @obj's own path, or NULL. */
static const struct kb_row *reader_on_path(const char *obj,
					       const char *tname)
{
	const struct kb_row *r;
	int i;

	/* the first row that fits: the same choice in both engines */
	for (r = owner_paths; r->c[0]; r++) {
		if (strcmp(r->c[1], tname))
			continue;
		if (!strcmp(r->c[0], "*"))
			return r;
		for (i = 0; i < nuses; i++)
			if (!strcmp(uses[i].obj, obj) &&
			    !strcmp(r->c[0], uses[i].via))
				return r;
	}
	return NULL;
}

/*
 * The message names a reader as "fn() in file" (no line: it is the same
 * text for every kernel version and for both engines): the one on the
 * object's path, or else the knowledge file's first, "such as" when the
 * type has more ("fs/char_dev.c:408 chrdev_open() (and 16 more)").
 */
static void report_pending(struct pending *p)
{
	const struct kb_row *r = reader_on_path(p->obj, p->owner_type);
	char reader[2 * KEYLEN], *alts;
	const char *fn = strchr(p->where, ' ');
	int file_len = (int)strcspn(p->where, ": ");

	if (!r && p->path_only) {
		finding_free(p->f);
		return;
	}
	/* a pin the module holds on itself (track_selfheld.c) */
	alts = selfheld_required(p->obj);
	if (alts)
		finding_requires(p->f, "%s", alts);
	free(alts);
	if (r)
		snprintf(reader, sizeof(reader), "%s() in %s", r->c[2],
			 r->c[3]);
	else if (fn)
		snprintf(reader, sizeof(reader), "%s%.*s in %.*s%s",
			 strstr(fn, "(and ") ? "core code (such as " : "",
			 (int)strcspn(fn + 1, " "), fn + 1, file_len,
			 p->where, strstr(fn, "(and ") ? ")" : "");
	else
		snprintf(reader, sizeof(reader), "%s", p->where);
	if (!r && !strncmp(p->how, "copied into ", 12) && strlen(p->how) > 18)
		/* "copied into struct cdev owner" */
		finding_message(p->f, "'%s' (%s) is exposed without .%s = THIS_MODULE: %s copies it into the owner of a %.*s, which core code reads to pin the module, so it can be unloaded while in use",
				p->obj, p->tname, p->path, reader,
				(int)(strlen(p->how) - 18), p->how + 12);
	else
		finding_message(p->f, "'%s' (%s) is exposed without .%s = THIS_MODULE: %s reads it to pin the module, so it can be unloaded while in use",
				p->obj, p->tname, p->path, reader);
	finding_report(p->f);
}

static int is_sink(const char *fn, int param)
{
	int i;

	for (i = 0; i < nflows; i++)
		if (!flows[i].obj[0] && flows[i].param == param &&
		    !strcmp(flows[i].fn, fn))
			return 1;
	return 0;
}

/* A helper that hands a parameter to a sink is a sink too. */
static void pass_sinks(void)
{
	int i, grew = 1, rounds = 0;

	while (grew && rounds++ < 16) {
		grew = 0;
		for (i = 0; i < npasses; i++) {
			struct pass *p = &passes[i];

			if (is_sink(p->to, p->to_param) &&
			    !is_sink(p->from, p->from_param)) {
				add_flow(p->from, p->from_param, NULL);
				grew = 1;
			}
		}
	}
}

static void owner_end_tu(void)
{
	int i, j;

	for (i = 0; i < npending; i++)
		report_pending(&pending[i]);
	pass_sinks();
	for (i = 0; i < nflows; i++) {
		if (flows[i].obj[0])
			continue;
		for (j = 0; j < nflows; j++) {
			char key[KEYLEN + 16];

			if (!flows[j].obj[0] || flows[j].param != flows[i].param ||
			    strcmp(flows[j].fn, flows[i].fn))
				continue;
			snprintf(key, sizeof(key), KEY_OWNER "obj:%s",
				 flows[j].obj);
			implies(KEY_CALL "register_filesystem", key);
		}
	}

	for (i = 0; i < nsites; i++) {
		struct cdev_init_site *s = &sites[i];
		struct finding *f;
		char k[KEYLEN + 16];

		if (!s->cdev[0])
			continue;
		if (s->fops[0]) {
			char fk[KEYLEN + 16];

			/* chrdev_open() pins cdev->owner before any fop runs */
			snprintf(k, sizeof(k), KEY_OWNER "%s", s->cdev);
			snprintf(fk, sizeof(fk), KEY_OWNER "%s", s->fops);
			implies(k, fk);
		}
		f = finding_new("cdev-owner", s->pos, s->cdev);
		f->unload = 1;
		finding_message(f, "cdev '%s' is cdev_init()ed in %s() without .owner = THIS_MODULE: cdev_get() in chrdev_open() cannot pin the module while the device is open",
				key_label(s->cdev), s->fn);
		finding_unless(f, KEY_OWNER "%s", s->cdev);
		finding_unless(f, KEY_OWNER_TYPE "struct cdev");
		if (s->fops[0])
			/* chrdev_open()'s fops_get() pins it while open */
			finding_unless(f, KEY_OWNER "%s", s->fops);
		if (s->fops_param >= 0) {
			/* the fops a caller hands in (cxl_memdev_alloc()) */
			finding_unless(f, KEY_FOPS_PARAM_OWNED "%s:%d", s->fn,
				       s->fops_param);
			for (j = 0; j < nflows; j++) {
				char fk[KEYLEN + 16], pk[2 * KEYLEN];

				if (!flows[j].obj[0] ||
				    flows[j].param != s->fops_param ||
				    strcmp(flows[j].fn, s->fn))
					continue;
				snprintf(fk, sizeof(fk), KEY_OWNER "obj:%s",
					 flows[j].obj);
				snprintf(pk, sizeof(pk),
					 KEY_FOPS_PARAM_OWNED "%s:%d",
					 s->fn, s->fops_param);
				implies(fk, pk);
			}
		}
		finding_requires(f, KEY_CALL "cdev_add|"
				 KEY_CALL "cdev_device_add");
		finding_report(f);
	}
}

const struct modlife_check check_owner = {
	.modes = CHECK_RULES,
	.name = "owner",
	.begin_tu = owner_begin_tu,
	.call = owner_call,
	.assign = owner_assign,
	.object = owner_object,
	.end_tu = owner_end_tu,
};
