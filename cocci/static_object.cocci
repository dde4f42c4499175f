// SPDX-License-Identifier: GPL-2.0-only
/// Find registered platform devices, kobjects, ksets and devices with static storage in modules
///
/// Module data is freed at unload whatever the reference count of an
/// object in it says.  A static struct platform_device, struct kobject,
/// struct kset or struct device (or a static struct that embeds one by
/// value and registers that member) that is registered with the driver
/// core can be reached by a late kobject_put() (another subsystem's get_device(), a
/// device link, CONFIG_DEBUG_KOBJECT_RELEASE) after the module is gone:
/// the core then writes to freed memory and calls a release callback that
/// is gone with it.  Let the core allocate the object instead.  Only files
/// that can be unloaded (they have a module_exit()) are considered.
///
/// Patch mode rewrites the two common shapes where it is safe:
/// a static struct platform_device with only .name, .id, .resource/
/// .num_resources and .dev.release/.dev.platform_data (= &var) becomes a
/// pointer set by platform_device_register_simple()/_data()/_resndata()
/// (a trivial hand-written release, empty or only logging, is dropped:
/// the core's platform_device_release() frees the device), and a static
/// struct kobject added with kobject_init_and_add(&k, &ktype, parent,
/// "literal") whose ktype has only a trivial .release (and optionally
/// .sysfs_ops = &kobj_sysfs_ops) becomes kobject_create_and_add().  All
/// &NAME become NAME and NAME.f becomes NAME->f.  Anything else (other
/// fields, uses of the object before it is registered, in static
/// initializers or by value, a format with arguments) is only reported.
///
//# False positives: an object that is registered but provably released
//# before the module text and data go away (nothing else ever takes a
//# reference) is still reported: the pattern is unsafe under
//# CONFIG_DEBUG_KOBJECT_RELEASE anyway.  Missed: objects registered
//# through another pointer or from another file of a multi-file module,
//# platform devices registered through an array that is not a literal
//# struct platform_device *A[] = { &x, ... } passed to
//# platform_add_devices(), members nested more than two levels deep.
//# The patch keeps platform data by copy (platform_device_register_data()
//# duplicates it): code that changes the original after registration no
//# longer reaches the device.
//
// Confidence: Moderate
// Copyright: (C) 2026 The modlife authors.
// URL: https://coccinelle.gitlabpages.inria.fr/website
// Options: --no-includes --include-headers
// modlife-gen begin prefilter-tokens: generated from kb/api.tsv register (make cocci-gen)
// Prefilter: module_exit; device_register | device_add | platform_device_register | platform_device_add | kobject_init_and_add | kobject_add | cdev_device_add | kset_register | platform_add_devices
// modlife-gen end prefilter-tokens
// modlife-gen begin prefilter-first: generated from kb/api.tsv register (make cocci-gen)
// Prefilter-re: \b(?:device_register|device_add|platform_device_register|platform_device_add|kobject_init_and_add|kobject_add|cdev_device_add|kset_register)\s*\(\s*&\s*(?P<n>\w+)\s*[.,)]
// modlife-gen end prefilter-first
// Prefilter-and: (?<![^;=(){}])(?>(?:[^;=(){}\w]++|\w++)*?\bstatic\b)(?>(?:[^;=(){}\w]++|\w++)*?\b@n@\b)[^;=(){}]*+[=;()]
// modlife-gen begin prefilter-later: generated from kb/api.tsv register (make cocci-gen)
// Prefilter-re: \b(?:kobject_init_and_add|cdev_device_add)\s*\((?:[^;,\w]++|,|(?!(?:kobject_init_and_add|cdev_device_add)\s*\()\w++)*?,\s*&\s*(?P<n>\w+)\s*\.
// modlife-gen end prefilter-later
// Prefilter-and: (?<![^;=(){}])(?>(?:[^;=(){}\w]++|\w++)*?\bstatic\b)(?>(?:[^;=(){}\w]++|\w++)*?\b@n@\b)[^;=(){}]*+[=;()]
// Prefilter-re: \bplatform_add_devices\s*\(
// Keywords: static, platform_device, kobject, release, module unload

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

def so_toks(s):
	return ML_TOK.findall(s)

def so_split(tokens, sep=","):
	"""Split a token list at top-level separators."""
	out, cur, depth = [], [], 0
	for t in tokens:
		if t in "([{":
			depth += 1
		elif t in ")]}":
			depth -= 1
		if t == sep and depth == 0:
			out.append(cur)
			cur = []
		else:
			cur.append(t)
	out.append(cur)
	return out

def so_parse_init(tokens):
	"""{ .a = x, .b = { .c = y } } -> {'a': [x], 'b.c': [y]}; None if
	anything is not a designated field."""
	if len(tokens) < 2 or tokens[0] != "{" or tokens[-1] != "}":
		return None
	fields = {}
	for item in so_split(tokens[1:-1]):
		if not item:
			continue
		path, i = [], 0
		while i + 1 < len(item) and item[i] == ".":
			path.append(item[i + 1])
			i += 2
		if not path or i >= len(item) or item[i] != "=" or i + 1 >= len(item):
			return None
		val = item[i + 1:]
		key = ".".join(path)
		if val[0] == "{":
			sub = so_parse_init(val)
			if sub is None:
				return None
			for k, v in sub.items():
				fields[key + "." + k] = v
		else:
			fields[key] = val
	return fields

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

def so_ident(tokens):
	return len(tokens) == 1 and re.match(r"^[A-Za-z_]\w*$", tokens[0]) is not None

so_bad = set()		# (file, NAME) that cannot be rewritten safely
so_trivial = set()	# (file, function) with a trivial body
so_funcs = set()	# (file, function) defined in the file
so_uses = {}		# (file, NAME) -> [(fn, line, col, good)]
so_regs = {}		# (file, NAME) -> [(fn, line, col)]
so_calls = {}		# file -> [(fn, callee, line, col)]
so_keep = set()		# (file, identifier) still referenced after the patch
so_rel = {}		# (file, NAME) -> release function to drop if unused
so_kt = {}		# (file, NAME) -> kobj_type
so_member = {}		# (file, NAME) -> registered member path
so_bare = set()		# (file, NAME) registered without checking the result
so_unreg = set()	# (file, NAME) taken back from the core somewhere
so_safe_use = set()	# (file, line, col) of &NAME in calls that accept an
			# ERR_PTR()/NULL object
so_rm = set()		# (file, function) release of a rewritten object

# Scripts bind this name (which never occurs in C code) instead of
# dropping a match: cocci.include_match(False) would drop the bindings
# of every earlier rule of that environment too.
SO_SKIP = "modlife_static_object_skip__"

def so_key(p, name):
	return (p[0].file, name)

def so_pos(p):
	return (int(p[0].line), int(p[0].column))

def so_good(key, pos):
	l = so_uses.get(key, [])
	for i, u in enumerate(l):
		if u[1:3] == pos:
			l[i] = u[:3] + (True,)

# What to do instead, by the object's type (kb/constructors.tsv).
# modlife-gen begin constructors: generated from kb/constructors.tsv (make cocci-gen)
# kb-table: constructors
SO_ADVICE = [
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
so_ns = set()		# (file, NAME): a kobject or kset whose kobj_type has
			# a namespace

# the checker's words (sparse-plugin/check_release.c)
def so_message(T, NAME, j0):
	t = " ".join(T.split())
	advice = dict(SO_ADVICE)
	if t in ("struct kobject", "struct kset") and so_key(j0, NAME) in so_ns:
		t_advice = advice["namespaced " + t]
	else:
		t_advice = advice.get(t, advice["*"])
	if so_key(j0, NAME) not in so_unreg:
		return ("WARNING: '%s' (%s) lives in module data, is registered with the driver core, and nothing before the unload unregisters it: it outlives the module outright, and every later use of it (sysfs, a driver binding to it, the next load registering the name again) touches freed memory; unregister it in the exit function, and %s"
			% (NAME, t, t_advice))
	return ("WARNING: '%s' (%s) lives in module data and is registered with the driver core: a reference held past unload (a get_device() of another subsystem, a child device, a delayed release) uses freed memory; %s"
		% (NAME, t, t_advice))

def so_unsafe_uses(key):
	"""Uses other than &NAME / NAME.f inside functions, or uses before the
	registration (also through a same-file function called before it)."""
	f = key[0]
	uses = so_uses.get(key, [])
	for (fn, l, c, good) in uses:
		if not good or (f, fn) not in so_funcs:
			return True
		# Unchecked registration: NAME may be an ERR_PTR()/NULL that only
		# the unregister/put calls accept.
		if key in so_bare and (f, l, c) not in so_safe_use:
			return True
	users = set(u[0] for u in uses)
	for (rfn, rl, rc) in so_regs.get(key, []):
		for (fn, l, c, good) in uses:
			if fn == rfn and (l, c) < (rl, rc):
				return True
		for (fn, callee, l, c) in so_calls.get(f, []):
			if fn == rfn and (l, c) < (rl, rc) and callee in users and callee != rfn:
				return True
	return False

// ----------------------------------------------------------------------------
// Registered static objects (report, context, org).

@pdreg depends on mod || unloadable@
identifier NAME;
@@

(
 platform_device_register(&NAME)
|
 platform_device_add(&NAME)
)

// platform_add_devices(A, n) with A = { &NAME, ... }
@pdadd depends on mod || unloadable@
identifier A;
@@

 platform_add_devices(A, ...)

@pdarr@
identifier pdadd.A, NAME;
@@

 struct platform_device *A[] = { ..., &NAME, ... };

@pddef@
identifier pdreg.NAME;
position p;
@@

(
 static struct platform_device NAME@p = { ... };
|
 static struct platform_device NAME@p;
)

@pddefa@
identifier pdarr.NAME;
position p;
@@

(
 static struct platform_device NAME@p = { ... };
|
 static struct platform_device NAME@p;
)

@koreg depends on mod || unloadable@
identifier NAME;
@@

(
 kobject_init_and_add(&NAME, ...)
|
 kobject_add(&NAME, ...)
)

@kodef@
identifier koreg.NAME;
position p;
@@

(
 static struct kobject NAME@p = { ... };
|
 static struct kobject NAME@p;
)

@ksreg depends on mod || unloadable@
identifier NAME;
@@

 kset_register(&NAME)

@ksdef@
identifier ksreg.NAME;
position p;
@@

(
 static struct kset NAME@p = { ... };
|
 static struct kset NAME@p;
)

@devreg depends on mod || unloadable@
identifier NAME;
@@

(
 device_register(&NAME)
|
 device_add(&NAME)
)

@devdef@
identifier devreg.NAME;
position p;
@@

(
 static struct device NAME@p = { ... };
|
 static struct device NAME@p;
)

// A registered member of a static struct: device_register(&foo.dev).
@memreg depends on mod || unloadable@
identifier NAME, F, G;
expression E;
position q;
@@

// modlife-gen begin register-members: generated from kb/api.tsv register (make cocci-gen)
(
// kb: register
 \(device_register\|device_add\|platform_device_register\|platform_device_add\|kobject_init_and_add\|kobject_add\|cdev_device_add\|kset_register\)(&NAME@q.F, ...)
|
 \(device_register\|device_add\|platform_device_register\|platform_device_add\|kobject_init_and_add\|kobject_add\|cdev_device_add\|kset_register\)(&NAME@q.F.G, ...)
|
 \(kobject_init_and_add\|cdev_device_add\)(E, &NAME@q.F, ...)
|
 \(kobject_init_and_add\|cdev_device_add\)(E, &NAME@q.F.G, ...)
)
// modlife-gen end register-members

@script:python depends on memreg@
NAME << memreg.NAME;
F << memreg.F;
G << memreg.G = "";
q << memreg.q;
@@

so_member.setdefault(so_key(q, NAME), "%s.%s%s" % (NAME, F, "." + G if G else ""))

@memdef@
identifier memreg.NAME;
type T;
position p != {pddef.p, pddefa.p, kodef.p, ksdef.p, devdef.p};
@@

(
 static T NAME@p = { ... };
|
 static T NAME@p;
)

// A kobj_type that gives the kobject or kset (or its children) a
// namespace: the core's constructors cannot replace it.
@kons depends on (kodef || ksdef) && (org || report)@
identifier NAME, KT, F, G;
position q;
@@

(
 kobject_init_and_add(&NAME@q, &KT, ...)
|
 kobject_init(&NAME@q, &KT)
|
 NAME@q.F.G = &KT
)

@konst depends on kons@
identifier kons.KT;
expression E;
@@

(
 struct kobj_type KT = { ..., .namespace = E, ... };
|
 struct kobj_type KT = { ..., .child_ns_type = E, ... };
|
 const struct kobj_type KT = { ..., .namespace = E, ... };
|
 const struct kobj_type KT = { ..., .child_ns_type = E, ... };
)

@script:python depends on konst@
NAME << kons.NAME;
q << kons.q;
@@

so_ns.add(so_key(q, NAME))

// Taken back from the core somewhere in the file (the checker's
// unregistrations): without one the object outlives the module outright.
@unreg_any depends on (pddef || pddefa || kodef || ksdef || devdef || memdef) && (org || report)@
identifier NAME, F;
// modlife-gen begin unregister: generated from kb/api.tsv unregister, kb/teardown-words.txt (make cocci-gen)
identifier UNREG =~ "^([A-Za-z0-9_]*unregister[A-Za-z0-9_]*|[A-Za-z0-9_]*deregister[A-Za-z0-9_]*)$|(^|_)(remove|disconnect|shutdown|stop|exit|release|close|hangup|detach|cleanup|destroy|teardown|unbind|uninit|deinit|fini|unregister|deregister|disable|free|del|put|deactivate|destructor|uninitialize|unsetup|dtr|presuspend|postsuspend|dealloc|leave|disconn|drop|delete|quiesce|cancel)(_|$)";
// modlife-gen end unregister
position q;
@@

(
 UNREG(..., &NAME@q, ...)
|
 UNREG(..., &NAME@q.F, ...)
)

@script:python depends on unreg_any@
NAME << unreg_any.NAME;
q << unreg_any.q;
@@

so_unreg.add(so_key(q, NAME))

// ... or taken back through the array that platform_add_devices() had
// (platform_device_unregister(devs[i]) in a loop)
@unreg_arr depends on pdarr && (org || report)@
identifier pdadd.A;
// modlife-gen begin unregister: generated from kb/api.tsv unregister, kb/teardown-words.txt (make cocci-gen)
identifier UNREG =~ "^([A-Za-z0-9_]*unregister[A-Za-z0-9_]*|[A-Za-z0-9_]*deregister[A-Za-z0-9_]*)$|(^|_)(remove|disconnect|shutdown|stop|exit|release|close|hangup|detach|cleanup|destroy|teardown|unbind|uninit|deinit|fini|unregister|deregister|disable|free|del|put|deactivate|destructor|uninitialize|unsetup|dtr|presuspend|postsuspend|dealloc|leave|disconn|drop|delete|quiesce|cancel)(_|$)";
// modlife-gen end unregister
expression E;
position q;
@@

 UNREG(..., A@q[E], ...)

@script:python depends on unreg_arr@
NAME << pdarr.NAME;
q << unreg_arr.q;
@@

so_unreg.add(so_key(q, NAME))

@ctx depends on (pddef || pddefa || kodef || ksdef || devdef || memdef) && !patch && (context || org || report)@
type T;
identifier NAME;
position p = {pddef.p, pddefa.p, kodef.p, ksdef.p, devdef.p, memdef.p};
position j0;
@@

(
 static T
*	NAME@p@j0
 = { ... };
|
 static T
*	NAME@p@j0
 ;
)

@script:python depends on (pddef || pddefa || kodef || ksdef || devdef || memdef) && ctx && org@
T << ctx.T;
NAME << ctx.NAME;
j0 << ctx.j0;
@@

coccilib.org.print_safe_todo(j0[0], so_message(T, NAME, j0))

@script:python depends on (pddef || pddefa || kodef || ksdef || devdef || memdef) && ctx && report@
T << ctx.T;
NAME << ctx.NAME;
j0 << ctx.j0;
@@

coccilib.report.print_report(j0[0], so_message(T, NAME, j0))

// ----------------------------------------------------------------------------
// patch: facts about the file.

@fns depends on patch && (pdreg || koreg)@
identifier f;
position fp;
@@

 f@fp(...) { ... }

@script:python depends on fns@
f << fns.f;
fp << fns.fp;
@@

so_funcs.add(so_key(fp, f))

@calls depends on patch && (pdreg || koreg)@
identifier f;
position c;
@@

 f@c(...)

@script:python depends on calls@
f << calls.f;
c << calls.c;
@@

so_calls.setdefault(c[0].file, []).append((c[0].current_element, f) + so_pos(c))

@triv depends on patch && (pdreg || koreg)@
identifier R, d;
statement list SL;
position rp;
@@

(
 void R@rp(struct device *d) { SL }
|
 void R@rp(struct kobject *d) { SL }
)

@script:python depends on triv@
R << triv.R;
SL << triv.SL;
rp << triv.rp;
@@

if ml_does_nothing(SL):
	so_trivial.add(so_key(rp, R))

// Uses of the objects: good ones are &NAME and NAME.f.
@anyu_pdreg depends on patch@
identifier pdreg.NAME;
position q;
@@

 NAME@q

@script:python depends on pdreg && anyu_pdreg@
NAME << pdreg.NAME;
q << anyu_pdreg.q;
@@

so_uses.setdefault(so_key(q, NAME), []).append((q[0].current_element,) + so_pos(q) + (False,))

@goodu_pdreg depends on patch@
identifier pdreg.NAME;
identifier fld;
position q;
@@

(
 &NAME@q
|
 NAME@q.fld
)

@script:python depends on pdreg && goodu_pdreg@
NAME << pdreg.NAME;
q << goodu_pdreg.q;
@@

so_good(so_key(q, NAME), so_pos(q))

@anyu_koreg depends on patch@
identifier koreg.NAME;
position q;
@@

 NAME@q

@script:python depends on koreg && anyu_koreg@
NAME << koreg.NAME;
q << anyu_koreg.q;
@@

so_uses.setdefault(so_key(q, NAME), []).append((q[0].current_element,) + so_pos(q) + (False,))

@goodu_koreg depends on patch@
identifier koreg.NAME;
identifier fld;
position q;
@@

(
 &NAME@q
|
 NAME@q.fld
)

@script:python depends on koreg && goodu_koreg@
NAME << koreg.NAME;
q << goodu_koreg.q;
@@

so_good(so_key(q, NAME), so_pos(q))

// ----------------------------------------------------------------------------
// patch: platform devices.

// Registration shapes that can be rewritten; any other registration
// (platform_device_add(), int ret = ..., if ((ret = ...)), ...) is unsafe.
@pd_dead depends on patch@
identifier pdreg.NAME;
identifier E;
expression X;
position c;
@@

 E = platform_device_register@c(&NAME);
(
 if (E) return E;
|
 if (E < 0) return E;
|
 if (E) { return E; }
|
 if (E < 0) { return E; }
)
 ... when != E
(
 E = X;
|
 return 0;
)

@pd_shape depends on patch@
identifier pdreg.NAME;
expression E;
statement S1, S2;
position c;
@@

(
 return platform_device_register@c(&NAME);
|
 E = platform_device_register@c(&NAME);
|
 if (platform_device_register@c(&NAME)) S1 else S2
|
 if (platform_device_register@c(&NAME)) S1
|
 platform_device_register@c(&NAME);
)

// Unchecked registrations, and the uses that accept a failed one.
@pd_bare depends on patch@
identifier pdreg.NAME;
position q;
@@

 platform_device_register(&NAME@q);

@script:python depends on pdreg && pd_bare@
NAME << pdreg.NAME;
q << pd_bare.q;
@@

so_bare.add(so_key(q, NAME))

@pd_safe depends on patch@
identifier pdreg.NAME;
position q;
@@

 \(platform_device_register\|platform_device_unregister\|platform_device_del\|platform_device_put\)(&NAME@q)

@script:python depends on pdreg && pd_safe@
q << pd_safe.q;
@@

so_safe_use.add((q[0].file, int(q[0].line), int(q[0].column)))

// Taken back somewhere: an object nothing unregisters would stay
// registered after the rewrite too; that needs a person (an unregister
// call in exit), not this patch.
@pd_unreg depends on patch@
identifier pdreg.NAME;
position q;
@@

 \(platform_device_unregister\|platform_device_del\)(&NAME@q)

@script:python depends on pdreg && pd_unreg@
NAME << pdreg.NAME;
q << pd_unreg.q;
@@

so_unreg.add(so_key(q, NAME))

@pd_reg depends on patch@
identifier pdreg.NAME;
position c;
@@

 platform_device_register@c(&NAME)

@script:python depends on pdreg && pd_reg@
NAME << pdreg.NAME;
c << pd_reg.c;
@@

so_regs.setdefault(so_key(c, NAME), []).append((c[0].current_element,) + so_pos(c))

@pd_unsup depends on patch@
identifier pdreg.NAME;
position c != pd_shape.c;
position q;
@@

(
 platform_device_register@c(&NAME@q)
|
 platform_device_add(&NAME@q)
)

@script:python depends on pdreg && pd_unsup@
NAME << pdreg.NAME;
q << pd_unsup.q;
@@

so_bad.add(so_key(q, NAME))

@pdini depends on patch@
identifier pdreg.NAME;
initializer INI;
position p;
@@

 static struct platform_device NAME@p = INI;

@script:python pdok depends on pdreg && pdini@
NAME << pdreg.NAME;
INI << pdini.INI;
p << pdini.p;
PNAME;
CALL;
@@

key = so_key(p, NAME)
fields = so_parse_init(so_toks(INI))
call = None
if key not in so_bad and key in so_unreg and fields is not None and "name" in fields and not so_unsafe_uses(key):
	allowed = set(["name", "id", "resource", "num_resources", "dev.release", "dev.platform_data"])
	rel = fields.get("dev.release")
	pd = fields.get("dev.platform_data")
	res = fields.get("resource")
	nr = fields.get("num_resources")
	ok = set(fields) <= allowed and (res is None) == (nr is None)
	if rel is not None:
		ok = ok and so_ident(rel) and (p[0].file, rel[0]) in so_trivial
	if pd is not None:
		ok = ok and len(pd) == 2 and pd[0] == "&" and so_ident(pd[1:])
	if ok:
		n = " ".join(fields["name"])
		i = " ".join(fields.get("id", ["0"]))
		if pd is not None and res is not None:
			call = "platform_device_register_resndata(NULL, %s, %s, %s, %s, &%s, sizeof(%s))" % (
				n, i, " ".join(res), " ".join(nr), pd[1], pd[1])
		elif pd is not None:
			call = "platform_device_register_data(NULL, %s, %s, &%s, sizeof(%s))" % (n, i, pd[1], pd[1])
		elif res is not None:
			call = "platform_device_register_simple(%s, %s, %s, %s)" % (n, i, " ".join(res), " ".join(nr))
		else:
			call = "platform_device_register_simple(%s, %s, NULL, 0)" % (n, i)
		if rel is not None:
			so_rel[key] = rel[0]
if call is None:
	coccinelle.PNAME = cocci.make_ident(SO_SKIP)
	coccinelle.CALL = cocci.make_expr(SO_SKIP)
else:
	coccinelle.PNAME = cocci.make_ident(NAME)
	coccinelle.CALL = cocci.make_expr(call)

@pdfix1 depends on pdreg && patch && !context && !org && !report@
identifier pdok.PNAME;
expression pdok.CALL;
identifier E;
position pd_dead.c;
@@

- E = platform_device_register@c(&PNAME);
+ PNAME = CALL;
+ if (IS_ERR(PNAME))
+	return PTR_ERR(PNAME);
(
- if (E) return E;
|
- if (E < 0) return E;
|
- if (E) { return E; }
|
- if (E < 0) { return E; }
)

// The return variable of the rewritten "E = register(); if (E) return E;"
// may now be unused.
@script:python pdretsel depends on pdreg && pdfix1 && pd_dead && patch@
E << pdfix1.E;
c << pd_dead.c;
FN;
RET;
@@

coccinelle.FN = cocci.make_ident(c[0].current_element)
coccinelle.RET = cocci.make_ident(E)

@pdret depends on pdreg && patch && !context && !org && !report@
identifier pdretsel.FN, pdretsel.RET;
type T;
expression C;
@@

 FN(...) {
 ... when != RET
(
- T RET;
|
- T RET = C;
)
 ... when != RET
 }

@pdfix2 depends on pdreg && patch && !context && !org && !report@
identifier pdok.PNAME;
expression pdok.CALL;
expression E;
statement S1, S2;
@@

(
- return platform_device_register(&PNAME);
+ PNAME = CALL;
+ return PTR_ERR_OR_ZERO(PNAME);
|
- E = platform_device_register(&PNAME);
+ PNAME = CALL;
+ E = PTR_ERR_OR_ZERO(PNAME);
|
+ PNAME = CALL;
  if (
- platform_device_register(&PNAME)
+ IS_ERR(PNAME)
  ) S1 else S2
|
+ PNAME = CALL;
  if (
- platform_device_register(&PNAME)
+ IS_ERR(PNAME)
  ) S1
|
- platform_device_register(&PNAME);
+ PNAME = CALL;
)

@pdfix3 depends on pdreg && patch && !context && !org && !report@
identifier pdok.PNAME;
@@

- static struct platform_device PNAME = { ... };
+ static struct platform_device *PNAME;

// ----------------------------------------------------------------------------
// patch: kobjects.

@kocall depends on patch@
identifier koreg.NAME, KT;
expression P, FMT;
position c;
@@

 kobject_init_and_add@c(&NAME, &KT, P, FMT)

@script:python depends on koreg && kocall@
NAME << koreg.NAME;
KT << kocall.KT;
FMT << kocall.FMT;
c << kocall.c;
@@

key = so_key(c, NAME)
so_regs.setdefault(key, []).append((c[0].current_element,) + so_pos(c))
if not re.match("^\"[^\"%\\\\]*\"$", FMT.strip()) or so_kt.get(key, KT) != KT:
	so_bad.add(key)
so_kt[key] = KT

@ko_dead depends on patch@
identifier koreg.NAME;
identifier E;
expression X;
position c;
@@

 E = kobject_init_and_add@c(&NAME, ...);
(
 if (E) return E;
|
 if (E < 0) return E;
|
 if (E) { return E; }
|
 if (E < 0) { return E; }
|
 if (E) { kobject_put(&NAME); return E; }
|
 if (E < 0) { kobject_put(&NAME); return E; }
)
 ... when != E
(
 E = X;
|
 return 0;
)

@ko_shape depends on patch@
identifier koreg.NAME;
expression E;
statement S1, S2;
position c;
@@

(
 return kobject_init_and_add@c(&NAME, ...);
|
 E = kobject_init_and_add@c(&NAME, ...);
|
 if (kobject_init_and_add@c(&NAME, ...)) S1 else S2
|
 if (kobject_init_and_add@c(&NAME, ...)) S1
|
 kobject_init_and_add@c(&NAME, ...);
)

// Unchecked registrations, and the uses that accept a failed (NULL) one.
@ko_bare depends on patch@
identifier koreg.NAME;
position q;
@@

 kobject_init_and_add(&NAME@q, ...);

@script:python depends on koreg && ko_bare@
NAME << koreg.NAME;
q << ko_bare.q;
@@

so_bare.add(so_key(q, NAME))

@ko_safe depends on patch@
identifier koreg.NAME;
position q;
@@

(
 kobject_init_and_add(&NAME@q, ...)
|
 kobject_put(&NAME@q)
|
 kobject_del(&NAME@q)
)

@script:python depends on koreg && ko_safe@
q << ko_safe.q;
@@

so_safe_use.add((q[0].file, int(q[0].line), int(q[0].column)))

@ko_unsup depends on patch@
identifier koreg.NAME;
position c != ko_shape.c;
position q;
@@

(
 kobject_init_and_add@c(&NAME@q, ...)
|
 kobject_add(&NAME@q, ...)
|
 kobject_init(&NAME@q, ...)
)

@script:python depends on koreg && ko_unsup@
NAME << koreg.NAME;
q << ko_unsup.q;
@@

so_bad.add(so_key(q, NAME))

// kobject_init_and_add(&NAME, fmt, args...) or a ktype that is not &KT.
@ko_args depends on patch@
identifier koreg.NAME;
position c != kocall.c;
position q;
@@

 kobject_init_and_add@c(&NAME@q, ...)

@script:python depends on koreg && ko_args@
NAME << koreg.NAME;
q << ko_args.q;
@@

so_bad.add(so_key(q, NAME))

@ko_unreg depends on patch@
identifier koreg.NAME;
position q;
@@

 \(kobject_put\|kobject_del\)(&NAME@q)

@script:python depends on koreg && ko_unreg@
NAME << koreg.NAME;
q << ko_unreg.q;
@@

so_unreg.add(so_key(q, NAME))

@koini depends on patch@
identifier koreg.NAME;
position p;
@@

 static struct kobject NAME@p;

// The kobj_type: only a trivial .release and the default sysfs_ops.
@kokt depends on patch@
identifier kocall.KT;
initializer INI;
position p;
@@

 struct kobj_type KT@p = INI;

@script:python depends on kocall && kokt@
KT << kocall.KT;
INI << kokt.INI;
p << kokt.p;
@@

fields = so_parse_init(so_toks(INI))
ok = fields is not None and set(fields) <= set(["release", "sysfs_ops"])
if ok and "sysfs_ops" in fields:
	ok = fields["sysfs_ops"] == ["&", "kobj_sysfs_ops"]
if ok and "release" in fields:
	ok = so_ident(fields["release"]) and (p[0].file, fields["release"][0]) in so_trivial
if ok:
	so_trivial.add((p[0].file, "ktype:" + KT))
	if "release" in fields:
		so_rel[(p[0].file, "ktype:" + KT)] = fields["release"][0]

@script:python kook depends on koreg && koini@
NAME << koreg.NAME;
p << koini.p;
PNAME;
@@

key = so_key(p, NAME)
kt = so_kt.get(key)
if key in so_bad or key not in so_unreg or kt is None or (p[0].file, "ktype:" + kt) not in so_trivial or so_unsafe_uses(key):
	coccinelle.PNAME = cocci.make_ident(SO_SKIP)
else:
	coccinelle.PNAME = cocci.make_ident(NAME)

@kofix1 depends on koreg && patch && !context && !org && !report@
identifier kook.PNAME, KT;
identifier E;
expression P, FMT;
position ko_dead.c;
@@

- E = kobject_init_and_add@c(&PNAME, &KT, P, FMT);
+ PNAME = kobject_create_and_add(FMT, P);
+ if (!PNAME)
+	return -ENOMEM;
(
- if (E) return E;
|
- if (E < 0) return E;
|
- if (E) { return E; }
|
- if (E < 0) { return E; }
|
- if (E) { kobject_put(&PNAME); return E; }
|
- if (E < 0) { kobject_put(&PNAME); return E; }
)

// The return variable of the rewritten "E = register(); if (E) return E;"
// may now be unused.
@script:python koretsel depends on koreg && kofix1 && ko_dead && patch@
E << kofix1.E;
c << ko_dead.c;
FN;
RET;
@@

coccinelle.FN = cocci.make_ident(c[0].current_element)
coccinelle.RET = cocci.make_ident(E)

@koret depends on koreg && patch && !context && !org && !report@
identifier koretsel.FN, koretsel.RET;
type T;
expression C;
@@

 FN(...) {
 ... when != RET
(
- T RET;
|
- T RET = C;
)
 ... when != RET
 }

@kofix2 depends on koreg && patch && !context && !org && !report@
identifier kook.PNAME, KT;
expression P, FMT, E;
statement S1, S2;
@@

(
- return kobject_init_and_add(&PNAME, &KT, P, FMT);
+ PNAME = kobject_create_and_add(FMT, P);
+ if (!PNAME)
+	return -ENOMEM;
+ return 0;
|
- E = kobject_init_and_add(&PNAME, &KT, P, FMT);
+ PNAME = kobject_create_and_add(FMT, P);
+ E = PNAME ? 0 : -ENOMEM;
|
+ PNAME = kobject_create_and_add(FMT, P);
  if (
- kobject_init_and_add(&PNAME, &KT, P, FMT)
+ !PNAME
  ) S1 else S2
|
+ PNAME = kobject_create_and_add(FMT, P);
  if (
- kobject_init_and_add(&PNAME, &KT, P, FMT)
+ !PNAME
  ) S1
|
- kobject_init_and_add(&PNAME, &KT, P, FMT);
+ PNAME = kobject_create_and_add(FMT, P);
)

@kofix3 depends on koreg && patch && !context && !org && !report@
identifier kook.PNAME;
@@

- static struct kobject PNAME;
+ static struct kobject *PNAME;

// ----------------------------------------------------------------------------
// patch: the object is now a pointer.

@objfix_pdok depends on pdreg && patch && !context && !org && !report@
identifier pdok.PNAME;
identifier fld;
@@

(
- &PNAME
+ PNAME
|
- PNAME.fld
+ PNAME->fld
)

@objfix_kook depends on koreg && patch && !context && !org && !report@
identifier kook.PNAME;
identifier fld;
@@

(
- &PNAME
+ PNAME
|
- PNAME.fld
+ PNAME->fld
)

// The kobj_type, then the release functions, if nothing uses them any more.
@script:python ktsel depends on koreg && kook && koini@
NAME << kook.PNAME;
p << koini.p;
KT;
@@

kt = so_kt.get(so_key(p, NAME))
if kt is None:
	coccinelle.KT = cocci.make_ident(SO_SKIP)
else:
	coccinelle.KT = cocci.make_ident(kt)

@ktuse depends on koreg && patch@
identifier ktsel.KT;
position u;
@@

 KT@u

@script:python depends on koreg && ktsel && ktuse@
KT << ktsel.KT;
u << ktuse.u;
@@

so_keep.add(so_key(u, "ktype:" + KT))

@script:python ktrm depends on koreg && ktsel && koini@
KT << ktsel.KT;
p << koini.p;
KT2;
@@

if (p[0].file, "ktype:" + KT) in so_keep:
	coccinelle.KT2 = cocci.make_ident(SO_SKIP)
else:
	coccinelle.KT2 = cocci.make_ident(KT)

@ktfix depends on koreg && patch && !context && !org && !report@
identifier ktrm.KT2;
@@

- struct kobj_type KT2 = { ... };

@script:python relsel depends on pdreg && pdini@
NAME << pdreg.NAME;
p << pdini.p;
REL;
@@

r = so_rel.get(so_key(p, NAME))
if r is None:
	coccinelle.REL = cocci.make_ident(SO_SKIP)
else:
	so_rm.add((p[0].file, r))
	coccinelle.REL = cocci.make_ident(r)

@script:python relselk depends on koreg && ktrm && koini@
KT << ktrm.KT2;
p << koini.p;
REL;
@@

r = so_rel.get((p[0].file, "ktype:" + KT))
if r is None:
	coccinelle.REL = cocci.make_ident(SO_SKIP)
else:
	so_rm.add((p[0].file, r))
	coccinelle.REL = cocci.make_ident(r)

@reluse_relsel depends on pdreg && patch@
identifier relsel.REL;
position u;
@@

 REL@u

@script:python depends on pdreg && relsel && reluse_relsel@
R << relsel.REL;
u << reluse_relsel.u;
@@

so_keep.add(so_key(u, R))

@reluse_relselk depends on koreg && patch@
identifier relselk.REL;
position u;
@@

 REL@u

@script:python depends on koreg && relselk && reluse_relselk@
R << relselk.REL;
u << reluse_relselk.u;
@@

so_keep.add(so_key(u, R))

@script:python relrm depends on (pdreg || koreg) && triv@
R << triv.R;
rp << triv.rp;
R2;
@@

key = so_key(rp, R)
if key in so_keep or key not in so_rm:
	coccinelle.R2 = cocci.make_ident(SO_SKIP)
else:
	coccinelle.R2 = cocci.make_ident(R)

@relfix depends on (pdreg || koreg) && patch && !context && !org && !report@
identifier relrm.R2, d;
type T;
@@

- void R2(T *d) { ... }

@relproto depends on (pdreg || koreg) && patch && !context && !org && !report@
identifier relrm.R2;
@@

- void R2(...);
