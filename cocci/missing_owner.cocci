// SPDX-License-Identifier: GPL-2.0-only
/// Find file_operations and block_device_operations missing .owner in modules
///
/// The VFS and the block layer pin the module that owns an ops table
/// (fops_get()/try_module_get(fops->owner)) while a file or block device is
/// open.  Without .owner = THIS_MODULE nothing stops the module from being
/// unloaded while an opened file still points to its code, and the next
/// read()/ioctl()/release() jumps into freed memory.  Only files that can be
/// unloaded (they have a module_exit()) and ops tables whose address is
/// taken in the same file are considered.
///
//# False positives: tables only handed to a subsystem that cuts off calls
//# on removal by itself (debugfs_create_file() proxies every call and
//# debugfs_remove() waits for running ones) or that pins the module some
//# other way.  A file_operations used through a cdev whose owner is set
//# (cdev_init(&X, &fops) or X->ops = &fops, plus X.owner = THIS_MODULE
//# somewhere in the file) is not reported.  Missed: tables in headers,
//# tables whose address is not taken in the defining file, and files of a
//# multi-file module other than the one holding module_exit().
//
// Confidence: Moderate
// Copyright: (C) 2026 The modlife authors.
// URL: https://coccinelle.gitlabpages.inria.fr/website
// Options: --no-includes --include-headers
// Prefilter: module_exit; file_operations | block_device_operations
// Prefilter-re: \bstruct\s+(?:file_operations|block_device_operations)\s+(?P<i>\w+)(?:\s+__\w+(?:\([^()]*\))?)*\s*=\s*\{(?:/\*(?:[^*]|\*(?!/))*+\*/|//[^\n]*+|"(?:[^"\\\n]|\\.)*+"|'(?:[^'\\\n]|\\.)*+\'|\{[^{}]*\}|[^{}"'/.]|/(?![*/])|\.(?!\s*owner\b))*\}
// Prefilter-and: &\s*@i@\b
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

// Tables that already have an owner field.
@has depends on mod || unloadable@
identifier I;
expression E;
position p;
@@

(
struct file_operations I@p = { ..., .owner = E, ... };
|
struct block_device_operations I@p = { ..., .owner = E, ... };
)

// cdev pattern: cdev_init(&X, &fops) (or X = cdev_alloc(); X->ops = &fops)
// and X.owner = THIS_MODULE somewhere in the file; the cdev pins the module.
@cdev depends on mod || unloadable@
expression X;
identifier I;
@@

(
cdev_init(&X, &I)
|
cdev_init(X, &I)
|
X->ops = &I
)

@cdev_owner depends on cdev@
expression cdev.X;
@@

(
X.owner = THIS_MODULE
|
X->owner = THIS_MODULE
)

@pinned depends on cdev_owner@
identifier cdev.I;
position p;
@@

struct file_operations I@p = { ... };

// Tables without an owner field.
@cand depends on mod || unloadable@
identifier I;
position p != {has.p, pinned.p};
@@

(
struct file_operations I@p = { ... };
|
struct block_device_operations I@p = { ... };
)

// ... whose address is used in the file.
@used depends on cand@
identifier cand.I;
position u;
@@

 &I@u

// ----------------------------------------------------------------------------

@fix depends on used && patch && !context && !org && !report@
identifier cand.I;
position cand.p;
@@

(
struct file_operations I@p = {
+	.owner = THIS_MODULE,
	...
};
|
struct block_device_operations I@p = {
+	.owner = THIS_MODULE,
	...
};
)

// ----------------------------------------------------------------------------

@ctx depends on used && !patch && (context || org || report)@
identifier cand.I;
position cand.p;
position j0;
@@

(
 struct file_operations
*	I@p@j0
 = { ... };
|
 struct block_device_operations
*	I@p@j0
 = { ... };
)

// ----------------------------------------------------------------------------

@script:python depends on org@
j0 << ctx.j0;
I << cand.I;
@@

msg = "WARNING: %s: missing .owner = THIS_MODULE, the module can be unloaded while %s is in use" % (I, I)
coccilib.org.print_safe_todo(j0[0], msg)

@script:python depends on report@
j0 << ctx.j0;
I << cand.I;
@@

msg = "WARNING: %s: missing .owner = THIS_MODULE, the module can be unloaded while %s is in use" % (I, I)
coccilib.report.print_report(j0[0], msg)
