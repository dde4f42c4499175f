// SPDX-License-Identifier: GPL-2.0-only
/// Find empty release callbacks of devices and kobjects in modules
///
/// A release callback that does nothing (an empty body, or only logging:
/// pr_*(), dev_*(), printk() and the other "log" calls of kb/api.tsv) only
/// silences the driver core's "does not have a release() function, it is
/// broken and must be fixed" warning: Documentation/core-api/kobject.rst
/// calls it a bug.  The object is never
/// freed, or is freed by the module at a time its reference count does not
/// allow, and the empty function is still module text that a late
/// kobject_put() calls after unload.  Only release functions that take a
/// struct device * or a struct kobject * and are installed in a module
/// file (X->release = R, X.dev.release = R, .release = R or
/// .dev_release = R in an initializer) are reported, at the installing
/// line.
///
/// Patch mode handles the common shape where the allocation is visible:
/// P = kzalloc(sizeof(*P), ...) (or kmalloc(), or sizeof(struct T)) of a
/// struct T defined in the file with a struct device member D, then
/// P->D.release = R in the same function.  R gets
/// kfree(container_of(dev, struct T, D)) after its logging, and the
/// module's own kfree(P) right after device_unregister(&P->D) or
/// put_device(&P->D) is dropped.  It does nothing when R is installed
/// anywhere else, or when a kfree() of a struct T could still follow a
/// put (a kfree() later than the put, or in another function that is not
/// right after a put): the new release would free the object twice.
///
//# False positives: an object whose memory belongs to a parent that
//# frees it in its own release, or a kobject/device embedded in a static
//# object (that is static-object's finding; both are reported).  Missed:
//# release functions that do nothing useful but are not just logging
//# (setting a flag), releases installed through a device_type the
//# module gets from elsewhere, and releases in other files of a
//# multi-file module.
//
// Confidence: Moderate
// Copyright: (C) 2026 The modlife authors.
// URL: https://coccinelle.gitlabpages.inria.fr/website
// Options: --no-includes --include-headers
// Prefilter: module_exit; release
// modlife-gen begin prefilter: generated from kb/api.tsv log (make cocci-gen)
// Prefilter-re: \bvoid\b(?:\s++|(?!void\b)\w++)*?\b(?P<r>\w+)\s*\(\s*(?:const\s+)?struct\s+(?:device|kobject)\s*\*\s*\w+\s*\)\s*\{(?:\s++|/\*(?:[^*v]++|\Bv|v(?!oid\b)|\*(?!/))*+(?:\*/|(?=void\b))|//(?:[^\nv]++|\Bv|v(?!oid\b))*+|"(?:[^"\\\nv]++|\Bv|v(?!oid\b)|\\.)*+(?:"|(?=void\b))|'(?:[^'\\\nv]++|\Bv|v(?!oid\b)|\\.)*+(?:'|(?=void\b))|^[ \t]*#(?:[^\nv]++|\Bv|v(?!oid\b))*+|;|return\s*;|\b(?:printk\w*+|_printk\w*+|pr_\w*+|dev_\w*+|_dev_\w*+|__dynamic_\w*+|netdev_\w*+|WARN\w*+|__warn\w*+|__compiletime_assert\w*+)\s*\((?:/\*(?:[^*v]++|\Bv|v(?!oid\b)|\*(?!/))*+(?:\*/|(?=void\b))|//(?:[^\nv]++|\Bv|v(?!oid\b))*+|"(?:[^"\\\nv]++|\Bv|v(?!oid\b)|\\.)*+(?:"|(?=void\b))|'(?:[^'\\\nv]++|\Bv|v(?!oid\b)|\\.)*+(?:'|(?=void\b))|[^;"'/v)]++|\Bv|v(?!oid\b)|\)(?!\s*;)|/(?![*/]))*+(?:\)\s*;|(?=void\b))|(?:const\s+)?struct\s+\w+\s*\*\s*\w+\s*(?:=(?:/\*(?:[^*v]++|\Bv|v(?!oid\b)|\*(?!/))*+(?:\*/|(?=void\b))|//(?:[^\nv]++|\Bv|v(?!oid\b))*+|"(?:[^"\\\nv]++|\Bv|v(?!oid\b)|\\.)*+(?:"|(?=void\b))|'(?:[^'\\\nv]++|\Bv|v(?!oid\b)|\\.)*+(?:'|(?=void\b))|[^;"'/v]++|\Bv|v(?!oid\b)|/(?![*/]))*+)?(?:;|(?=void\b)))*+(?:\}|(?=void\b))
// modlife-gen end prefilter
// Prefilter-and: \b(?:release|dev_release)\s*=\s*&?\s*@r@\b
// Keywords: release, kobject, device, container_of, module unload

virtual patch
virtual context
virtual org
virtual report
// modlife fix: the scan decided the module can be unloaded (a
// module_*_driver() macro, an exit in another file): no module_exit() needed
virtual unloadable

// The file is module code that can be unloaded.
@mod depends on !unloadable@
declarer name module_exit;
identifier exitfn;
@@

module_exit(exitfn);

@initialize:python@
@@

import re

# modlife-gen begin does-nothing: generated from kb/api.tsv log (make cocci-gen)
# calls that only log: kb/api.tsv's "log" rows (the checker's does_nothing()
# in sparse-plugin/check_release.c takes the same)
ML_LOG = re.compile(r"^(?:printk\w*+|_printk\w*+|pr_\w*+|dev_\w*+|_dev_\w*+|__dynamic_\w*+|netdev_\w*+|WARN\w*+|__warn\w*+|__compiletime_assert\w*+)$")
ML_TOK = re.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|[A-Za-z_]\\w*|"
                    "\\d[\\w.]*|->|<<|>>|<=|>=|==|!=|&&|\\|\\||\\S")

def ml_does_nothing(text):
	"""A release body that does nothing: empty, or only logging calls,
	struct pointer declarations set from container_of()/to_*() or a member
	chain, empty statements and return;."""
	toks = ML_TOK.findall(text)
	if toks and toks[-1] != ";":
		return False
	stmts, cur, depth = [], [], 0
	for t in toks:
		if t in "([{":
			depth += 1
		elif t in ")]}":
			depth -= 1
		if t == ";" and depth == 0:
			stmts.append(cur)
			cur = []
		else:
			cur.append(t)
	if cur:
		return False
	for st in stmts:
		if not st or st == ["return"]:
			continue
		if ML_LOG.match(st[0]) and len(st) >= 3 and st[1] == "(" and st[-1] == ")":
			continue
		s = " ".join(st)
		if re.match(r"^(const )?struct \w+ \* \w+( = ((container_of|to_\w+) \( .* \)|\w+( (->|\.) \w+)*))?$", s):
			continue
		return False
	return True
# modlife-gen end does-nothing

# Scripts bind this name (which never occurs in C code) instead of
# dropping a match: cocci.include_match(False) would drop the bindings
# of every earlier rule of that environment too.
ER_SKIP = "modlife_empty_release_skip__"

er_trivial = set()	# (file, R): release function with a trivial body
er_structs = set()	# (file, "struct S", D): struct S has a struct device D
er_cand = {}		# (file, R) -> (T, D, allocating function, install pos)
er_refs = {}		# (file, R) -> [positions of R]
er_rmk = set()		# (file, line, col) of kfree() right after a put
er_kfree = {}		# (file, T) -> [(function, line, col)]
er_hazard = set()	# (file, T): a kfree() may follow a put

def er_pos(p):
	return (p[0].file, int(p[0].line), int(p[0].column))

# What to do instead, by the static object's type (kb/constructors.tsv).
# modlife-gen begin constructors: generated from kb/constructors.tsv (make cocci-gen)
# kb-table: constructors
ER_ADVICE = [
	("struct platform_device", "allocate it with platform_device_register_simple() or platform_device_alloc()"),
	("struct device", "allocate it with device_create(), or kzalloc() it and free it in its release()"),
	("struct kobject", "allocate it with kobject_create_and_add()"),
	("namespaced struct kobject", "kzalloc() it and free it in its kobj_type's release() (kobject_create_and_add() cannot give it a namespace)"),
	("struct kset", "allocate it with kset_create_and_add()"),
	("namespaced struct kset", "kzalloc() it and free it in its kobj_type's release() (kset_create_and_add() cannot give its children a namespace)"),
	("struct input_dev", "allocate it with input_allocate_device()"),
	("struct mii_bus", "allocate it with mdiobus_alloc()"),
	("struct spi_controller", "allocate it with spi_alloc_master() or spi_alloc_slave()"),
	("struct rc_dev", "allocate it with rc_allocate_device()"),
	("struct hid_device", "allocate it with hid_allocate_device()"),
	("struct snd_card", "allocate it with snd_card_new()"),
	("struct Scsi_Host", "allocate it with scsi_host_alloc()"),
	("struct ib_device", "allocate it with ib_alloc_device()"),
	("struct phy_device", "allocate it with phy_device_create()"),
	("struct mdio_device", "allocate it with mdio_device_create()"),
	("struct mux_chip", "allocate it with mux_chip_alloc()"),
	("struct wpan_phy", "allocate it with wpan_phy_new()"),
	("struct nfc_dev", "allocate it with nfc_allocate_device()"),
	("struct serdev_controller", "allocate it with serdev_controller_alloc()"),
	("struct amba_device", "allocate it with amba_device_alloc()"),
	("struct gnss_device", "allocate it with gnss_allocate_device()"),
	("struct sas_phy", "allocate it with sas_phy_alloc()"),
	("struct mmc_host", "allocate it with mmc_alloc_host()"),
	("struct hci_dev", "allocate it with hci_alloc_dev()"),
	("struct memstick_host", "allocate it with memstick_alloc_host()"),
	("struct tifm_adapter", "allocate it with tifm_alloc_adapter()"),
	("struct spmi_controller", "allocate it with spmi_controller_alloc()"),
	("struct siox_master", "allocate it with siox_master_alloc()"),
	("via struct device", "the subsystem that registers it has to allocate it with a release in its core code (a device this module allocates has its release in module text)"),
	("via *", "let the subsystem's core allocate it with a release in core code (a release in this module would be module text again)"),
	("*", "kzalloc() it and free it in its release() callback"),
]
# modlife-gen end constructors
# tables whose release callback is for the objects that use them
ER_TABLES = {"struct kobj_type": "release", "struct device_type": "release",
	     "struct class": "dev_release"}
er_slot = {}		# install position -> "struct device.release", ...
er_self = {}		# install position -> (static object, its type)
er_table = {}		# install position -> the table installed in
er_static_users = set()	# tables a file-scope object is registered with
er_params = {}		# R -> "device" or "kobject"

# the checker's words (sparse-plugin/check_release.c)
def er_message(R, p):
	k = er_pos(p)
	slot = er_slot.get(k, "struct kobj_type.release" if er_params.get(R) == "kobject" else "struct device.release")
	lead = "WARNING: %s(), the %s callback, does nothing: it hides the core's missing-release warning%s, and as module text it can run after unload; %s"
	if k in er_self:
		name, t = er_self[k]
		advice = dict(ER_ADVICE)
		return lead % (R, slot, "", "'%s' is static: %s" % (name, advice.get(t, advice["*"])))
	if er_table.get(k) in er_static_users:
		return lead % (R, slot, "", "the object it releases is static: the static-object warning says how to allocate it")
	return lead % (R, slot, " and leaks the object", "free the containing object, or let the core own it")

// ----------------------------------------------------------------------------
// Trivial release functions and where they are installed.

@triv depends on mod || unloadable@
identifier R, d;
statement list SL;
position rp;
@@

(
 void R@rp(struct device *d) { SL }
|
 void R@rp(struct kobject *d) { SL }
)

@script:python trivsel depends on triv@
R << triv.R;
SL << triv.SL;
rp << triv.rp;
RT;
@@

if ml_does_nothing(SL):
	er_trivial.add((rp[0].file, R))
	coccinelle.RT = cocci.make_ident(R)
else:
	coccinelle.RT = cocci.make_ident(ER_SKIP)

// a kobject's release is a kobj_type's
@trivk depends on triv@
identifier triv.R, d;
@@

 void R(struct kobject *d) { ... }

@script:python depends on trivk@
R << triv.R;
@@

er_params[R] = "kobject"

@inst_asg@
identifier trivsel.RT;
expression E;
position p;
@@

(
 E->release = RT@p
|
 E.release = RT@p
|
 E->dev_release = RT@p
|
 E.dev_release = RT@p
)

@inst_ini@
identifier trivsel.RT, I, F;
type T;
position p;
@@

(
 T I = { ..., .release = RT@p, ... };
|
 T I = { ..., .F = { ..., .release = RT@p, ... }, ... };
|
 T I = { ..., .F.release = RT@p, ... };
|
 T I = { ..., .dev_release = RT@p, ... };
)

// ----------------------------------------------------------------------------
// The message, in the checker's words: the callback's slot, and the fix
// that fits the object (a static object is allocated by the core).

@script:python depends on inst_ini && (org || report)@
p << inst_ini.p;
T << inst_ini.T;
I << inst_ini.I;
F << inst_ini.F = "";
RT << trivsel.RT;
@@

t = " ".join(T.replace("const ", "").split())
if F:
	er_slot[er_pos(p)] = "struct device.release"
elif t in ER_TABLES:
	er_slot[er_pos(p)] = t + "." + ER_TABLES[t]
	er_table[er_pos(p)] = I
else:
	er_slot[er_pos(p)] = t + ".release"
if t not in ER_TABLES:
	er_self[er_pos(p)] = (I, t)

// x->release = R through a pointer of a known type
@asg_type depends on inst_asg && (org || report)@
identifier trivsel.RT, M;
position inst_asg.p;
type T;
T *E;
@@

 E->M = RT@p

@script:python depends on asg_type@
p << inst_asg.p;
T << asg_type.T;
M << asg_type.M;
@@

er_slot[er_pos(p)] = "%s.%s" % (" ".join(T.split()), M)

// X.dev.release = R, X[i].dev.release = R of a file-scope object X
@asg_self depends on inst_asg && (org || report)@
identifier trivsel.RT, X, F;
expression N;
position inst_asg.p;
@@

(
 X.F.release = RT@p
|
 X[N].F.release = RT@p
)

@self_def depends on asg_self@
identifier asg_self.X;
type T;
expression N;
@@

(
 static T X[N];
|
 static T X[N] = { ... };
|
 static T X[] = { ... };
|
 static T X;
|
 static T X = { ... };
)

@script:python depends on asg_self && self_def@
p << inst_asg.p;
X << asg_self.X;
T << self_def.T;
@@

er_self[er_pos(p)] = (X, " ".join(T.split()))

// a table (kobj_type) registered with a file-scope object: its release
// releases a static object
@static_user depends on inst_ini && (org || report)@
identifier X, TI, F, G;
// modlife-gen begin static-user-calls: generated from kb/api.tsv register (make cocci-gen)
identifier fn = {kobject_init, device_register, device_add,
		platform_device_register, platform_device_add,
		kobject_init_and_add, kobject_add, __class_register,
		class_register, cdev_device_add, bus_register,
		kset_register};
// modlife-gen end static-user-calls
@@

(
 fn(&X, ..., &TI, ...)
|
 X.F.G = &TI
)

@static_user_def depends on static_user@
identifier static_user.X;
type T;
@@

(
 static T X;
|
 static T X = { ... };
)

@script:python depends on static_user && static_user_def@
TI << static_user.TI;
@@

er_static_users.add(TI)

@ctx depends on !patch && (context || org || report)@
identifier trivsel.RT;
position p = {inst_asg.p, inst_ini.p};
position j0;
@@

*RT@p@j0

@script:python depends on trivsel && ctx && org@
RT << trivsel.RT;
p << ctx.p;
j0 << ctx.j0;
@@

coccilib.org.print_safe_todo(j0[0], er_message(RT, p))

@script:python depends on trivsel && ctx && report@
RT << trivsel.RT;
p << ctx.p;
j0 << ctx.j0;
@@

coccilib.report.print_report(j0[0], er_message(RT, p))

// ----------------------------------------------------------------------------
// patch: P = kzalloc(sizeof(*P), ...); ... P->D.release = R;

@sdef depends on patch && inst_asg@
identifier S, D;
position sp;
@@

 struct S@sp { ... struct device D; ... };

@script:python depends on sdef@
S << sdef.S;
D << sdef.D;
sp << sdef.sp;
@@

er_structs.add((sp[0].file, "struct " + S, D))

@alloc depends on patch && inst_asg exists@
identifier trivsel.RT;
type T;
T *P;
identifier D;
identifier ALLOC = {kzalloc, kmalloc};
expression G;
position pa, p;
@@

 P = ALLOC@pa(\(sizeof(*P)\|sizeof(T)\), G);
 ...
 P->D.release = RT@p;

@script:python depends on trivsel && alloc@
RT << trivsel.RT;
T << alloc.T;
D << alloc.D;
pa << alloc.pa;
p << alloc.p;
@@

t = " ".join(T.split())
key = (p[0].file, RT)
if (p[0].file, t, D) in er_structs and key not in er_cand:
	er_cand[key] = (t, D, pa[0].current_element, er_pos(p))
else:
	er_cand[key] = None	# two allocations, or not a struct device member

// Every other reference to R makes the rewrite unsafe.
@refs depends on patch && alloc@
identifier trivsel.RT;
position u;
@@

 RT@u

@script:python depends on trivsel && refs@
RT << trivsel.RT;
u << refs.u;
@@

er_refs.setdefault((u[0].file, RT), []).append(er_pos(u))

// The module's own kfree(): right after the put (dropped by the patch),
// or anywhere else (a double free once the release frees).
@rmk depends on patch && alloc@
type alloc.T;
identifier alloc.D;
T *E;
// modlife-gen begin put: generated from kb/api.tsv put (make cocci-gen)
// kb: put
identifier PUT =~ "^(kobject_put|put_device|kobject_del|[A-Za-z0-9_]+_unregister)$";
// modlife-gen end put
position k;
@@

 PUT(&E->D);
 kfree@k(E);

@script:python depends on rmk@
k << rmk.k;
@@

er_rmk.add(er_pos(k))

@anyk depends on patch && alloc@
type alloc.T;
T *E;
position k;
@@

 kfree@k(E)

@script:python depends on alloc && anyk@
T << alloc.T;
k << anyk.k;
@@

er_kfree.setdefault((k[0].file, " ".join(T.split())), []).append((k[0].current_element,) + er_pos(k)[1:])

@late depends on patch && alloc exists@
type alloc.T;
identifier alloc.D;
T *E;
// modlife-gen begin put: generated from kb/api.tsv put (make cocci-gen)
// kb: put
identifier PUT =~ "^(kobject_put|put_device|kobject_del|[A-Za-z0-9_]+_unregister)$";
// modlife-gen end put
position k != rmk.k;
@@

 PUT(&E->D);
 ...
 kfree@k(E);

@script:python depends on alloc && late@
T << alloc.T;
k << late.k;
@@

er_hazard.add((k[0].file, " ".join(T.split())))

@script:python erok depends on alloc && trivsel && triv@
RT << trivsel.RT;
rp << triv.rp;
RR;
TT;
DD;
@@

f = rp[0].file
c = er_cand.get((f, RT))
ok = c is not None
if ok:
	(t, d, fn, ip) = c
	ok = (f, t) not in er_hazard and er_refs.get((f, RT), []) == [ip]
	for (kfn, l, col) in er_kfree.get((f, t), []):
		if (f, l, col) not in er_rmk and kfn != fn:
			ok = False
if ok:
	coccinelle.RR = cocci.make_ident(RT)
	coccinelle.TT = cocci.make_type(t)
	coccinelle.DD = cocci.make_ident(d)
else:
	coccinelle.RR = cocci.make_ident(ER_SKIP)
	coccinelle.TT = cocci.make_type("struct " + ER_SKIP)
	coccinelle.DD = cocci.make_ident(ER_SKIP)

@fixk depends on alloc && patch && !context && !org && !report@
type erok.TT;
identifier erok.DD;
TT *E;
// modlife-gen begin put: generated from kb/api.tsv put (make cocci-gen)
// kb: put
identifier PUT =~ "^(kobject_put|put_device|kobject_del|[A-Za-z0-9_]+_unregister)$";
// modlife-gen end put
position rmk.k;
@@

 PUT(&E->DD);
-kfree@k(E);

@fixrel depends on alloc && patch && !context && !org && !report@
identifier erok.RR, erok.DD, d;
type erok.TT;
@@

 void RR(struct device *d)
 {
 ...
+kfree(container_of(d, TT, DD));
 }
