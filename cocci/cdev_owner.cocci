// SPDX-License-Identifier: GPL-2.0-only
/// Find cdev_init() in modules without a following cdev owner assignment
///
/// chrdev_open() pins cdev->owner (cdev_get()) before it uses the cdev and
/// its file_operations, and the cdev, usually in module data, stays linked
/// from the inode.  A cdev registered with cdev_add()/cdev_device_add()
/// without cdev.owner = THIS_MODULE, and file_operations without an owner
/// either, lets the module be unloaded while the device is open (when the
/// fops carry an owner, chrdev_open()'s fops_get() pins the module).  cdev_init() clears the whole cdev, so an owner
/// assigned before cdev_init() in the same function is lost and is reported
/// too.  Only files that can be unloaded (they have a module_exit()) are
/// considered.
///
//# An owner assigned in another function of the file is assumed to happen
//# after cdev_init() and silences the report; an owner assigned through an
//# alias of the cdev (another pointer to it) is not seen and gives a false
//# positive.  cdev_init() in a helper file that is not the module's main
//# file (no module_exit() there) is not checked.
//
// Confidence: Moderate
// Copyright: (C) 2026 The modlife authors.
// URL: https://coccinelle.gitlabpages.inria.fr/website
// Options: --no-includes --include-headers
// Prefilter: module_exit; cdev_init
// Keywords: owner, THIS_MODULE, module unload

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

// ... and registers a cdev.
@added depends on mod || unloadable@
@@

(
 cdev_add(...)
|
 cdev_device_add(...)
)

// The owner is assigned after cdev_init() in the same function.
@after depends on added exists@
expression E, v;
position p;
@@

(
 cdev_init@p(&E, ...);
 ...
 E.owner = v;
|
 cdev_init@p(E, ...);
 ...
 E->owner = v;
)

// The owner is assigned in another function of the file.
@asg depends on added@
expression E, v;
position q;
@@

(
 E.owner@q = v
|
 E->owner@q = v
)

@other depends on asg@
expression asg.E;
position p : script:python(asg.q) { p[0].current_element != q[0].current_element };
@@

(
 cdev_init@p(&E, ...)
|
 cdev_init@p(E, ...)
)

// The file_operations handed to cdev_init() carry an owner: the
// fops_get() of chrdev_open() pins the module while the file is open.
@fo depends on added@
identifier I;
expression v;
@@

 struct file_operations I = { ..., .owner = v, ... };

@pinned depends on fo@
identifier fo.I;
expression E;
position p;
@@

 cdev_init@p(E, &I)

@bad depends on added@
expression E;
position p != {after.p, other.p, pinned.p};
@@

 cdev_init@p(E, ...)

// ----------------------------------------------------------------------------

@fix depends on patch && !context && !org && !report@
expression E;
position bad.p;
@@

(
 cdev_init@p(&E, ...);
+E.owner = THIS_MODULE;
|
 cdev_init@p(E, ...);
+E->owner = THIS_MODULE;
)

// ----------------------------------------------------------------------------

@ctx depends on !patch && (context || org || report)@
expression A;
position bad.p;
position j0;
@@

*cdev_init@p@j0(A, ...)

// ----------------------------------------------------------------------------

// The cdev's name in the checker's words: "struct T.member" when the
// type of the pointer is known, the variable for a file-scope cdev.
@ctk depends on ctx@
position bad.p;
type T;
T *E;
identifier F, G;
@@

(
 cdev_init@p(&E->F.G, ...)
|
 cdev_init@p(&E->F, ...)
)

@initialize:python@
@@

import re

co_name = {}	# cdev_init() position -> the cdev's name

def co_pos(p):
	return (p[0].file, p[0].line, p[0].column)

# the checker's words (sparse-plugin/check_owner.c)
def co_message(j0, A):
	a = re.sub(r"\s*(->|\.|\[|\]|\(|\))\s*", r"\1", A.strip())
	name = co_name.get(co_pos(j0), a[1:].strip() if a.startswith("&") else a)
	return ("WARNING: cdev '%s' is cdev_init()ed in %s() without .owner = THIS_MODULE: cdev_get() in chrdev_open() cannot pin the module while the device is open"
		% (name, j0[0].current_element))

@script:python depends on ctk@
p << bad.p;
T << ctk.T;
F << ctk.F;
G << ctk.G = "";
@@

co_name[co_pos(p)] = "%s.%s%s" % (" ".join(T.split()), F, "." + G if G else "")

@script:python depends on org@
j0 << ctx.j0;
A << ctx.A;
@@

coccilib.org.print_safe_todo(j0[0], co_message(j0, A))

@script:python depends on report@
j0 << ctx.j0;
A << ctx.A;
@@

coccilib.report.print_report(j0[0], co_message(j0, A))
