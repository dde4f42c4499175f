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
// Prefilter-re: \bstruct\s+(?:file_operations|block_device_operations)\s+(?P<i>\w+)(?:\s+__\w+(?:\([^()]*\))?)*\s*=\s*\{(?:/\*(?:[^*s]++|\Bs|s(?!truct\s+(?:file_operations|block_device_operations)\b)|\*(?!/))*+(?:\*/|(?=struct\b))|//(?:[^\ns]++|\Bs|s(?!truct\s+(?:file_operations|block_device_operations)\b))*+|"(?:[^"\\\ns]++|\Bs|s(?!truct\s+(?:file_operations|block_device_operations)\b)|\\.)*+(?:"|(?=struct\b))|'(?:[^'\\\ns]++|\Bs|s(?!truct\s+(?:file_operations|block_device_operations)\b)|\\.)*+(?:'|(?=struct\b))|\{(?:[^{}s]++|\Bs|s(?!truct\s+(?:file_operations|block_device_operations)\b))*+(?:\}|(?=struct\b))|[^{}"'/.s]++|\Bs|s(?!truct\s+(?:file_operations|block_device_operations)\b)|/(?![*/])|\.(?!\s*owner\b))*+(?:\}|(?=struct\b))
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

@initialize:python@
@@

# The core reader a table's owner reaches by the way the module hands it
# over (kb/owner-paths.tsv's rows for these types): (via, table type,
# reader, its file), the first that fits wins.
# modlife-gen begin owner-paths: generated from kb/owner-paths.tsv (make cocci-gen)
# kb-table: owner-paths
MO_PATHS = [
	("debugfs_create_file", "struct file_operations", "full_proxy_open", "fs/debugfs/file.c"),
	("debugfs_create_file_size", "struct file_operations", "full_proxy_open", "fs/debugfs/file.c"),
	("debugfs_create_file_unsafe", "struct file_operations", "open_proxy_open", "fs/debugfs/file.c"),
	("cdev_init", "struct file_operations", "chrdev_open", "fs/char_dev.c"),
	("__register_chrdev", "struct file_operations", "chrdev_open", "fs/char_dev.c"),
	("register_chrdev", "struct file_operations", "chrdev_open", "fs/char_dev.c"),
	("anon_inode_getfile", "struct file_operations", "__anon_inode_getfile", "fs/anon_inodes.c"),
	("anon_inode_getfile_secure", "struct file_operations", "__anon_inode_getfile", "fs/anon_inodes.c"),
	("anon_inode_getfd", "struct file_operations", "__anon_inode_getfile", "fs/anon_inodes.c"),
	("anon_inode_getfd_secure", "struct file_operations", "__anon_inode_getfile", "fs/anon_inodes.c"),
	("snd_register_device", "struct file_operations", "snd_open", "sound/core/sound.c"),
	("register_sound_special", "struct file_operations", "soundcore_open", "sound/sound_core.c"),
	("register_sound_special_device", "struct file_operations", "soundcore_open", "sound/sound_core.c"),
	("register_sound_mixer", "struct file_operations", "soundcore_open", "sound/sound_core.c"),
	("register_sound_dsp", "struct file_operations", "soundcore_open", "sound/sound_core.c"),
	("securityfs_create_file", "struct file_operations", "do_dentry_open", "fs/open.c"),
	("struct miscdevice.fops", "struct file_operations", "misc_open", "drivers/char/misc.c"),
	("struct usb_class_driver.fops", "struct file_operations", "usb_open", "drivers/usb/core/file.c"),
	("struct dvb_device.fops", "struct file_operations", "dvb_device_open", "drivers/media/dvb-core/dvbdev.c"),
	("struct drm_driver.fops", "struct file_operations", "drm_stub_open", "drivers/gpu/drm/drm_drv.c"),
	("struct cdev.ops", "struct file_operations", "chrdev_open", "fs/char_dev.c"),
	("struct inode.i_fop", "struct file_operations", "do_dentry_open", "fs/open.c"),
	("struct gendisk.fops", "struct block_device_operations", "blkdev_get_by_dev", "block/bdev.c"),
]
# modlife-gen end owner-paths
# modlife-gen begin owner-defaults: generated from kb/owner-reads.tsv (make cocci-gen)
# The reader named when no way is known (kb/owner-reads.tsv's row).
MO_DEFAULT = {
	"struct file_operations": "core code (such as chrdev_open() in fs/char_dev.c)",
	"struct block_device_operations": "blkdev_get_by_dev() in block/bdev.c",
}
# modlife-gen end owner-defaults
mo_via = {}	# (file, I) -> ["callee" or "struct T.member" or ".member"]
mo_bdops = set()	# (file, I): a block_device_operations

def mo_add(q, I, via):
	mo_via.setdefault((q[0].file, I), []).append(via)

def mo_reader(q, I, t):
	vias = mo_via.get((q[0].file, I), [])
	for via, typ, reader, rfile in MO_PATHS:
		if typ != t:
			continue
		member = via.split(".")[-1] if via.startswith("struct ") else None
		if via in vias or (member and "." + member in vias):
			return "%s() in %s" % (reader, rfile)
	return MO_DEFAULT[t]

# the checker's words (sparse-plugin/check_owner.c)
def mo_message(q, I):
	t = "struct block_device_operations" if (q[0].file, I) in mo_bdops else "struct file_operations"
	return ("WARNING: '%s' (%s) is exposed without .owner = THIS_MODULE: %s reads it to pin the module, so it can be unloaded while in use"
		% (I, t, mo_reader(q, I, t)))

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

// How the table is handed over, for the reader the message names.
@bd depends on used && (org || report)@
identifier cand.I;
position cand.p;
@@

struct block_device_operations I@p = { ... };

@script:python depends on bd@
I << cand.I;
p << cand.p;
@@

mo_bdops.add((p[0].file, I))

@via_call depends on used && (org || report)@
identifier cand.I, fn;
position q;
@@

 fn(..., &I@q, ...)

@script:python@
I << cand.I;
fn << via_call.fn;
q << via_call.q;
@@

mo_add(q, I, fn)

@via_init depends on used && (org || report)@
identifier cand.I, H, m;
type T;
position q;
@@

 T H = { ..., .m = &I@q, ... };

@script:python@
I << cand.I;
T << via_init.T;
m << via_init.m;
q << via_init.q;
@@

mo_add(q, I, "%s.%s" % (" ".join(T.replace("const ", "").split()), m))

@via_asg depends on used && (org || report)@
identifier cand.I, m;
expression E;
position q;
@@

(
 E->m = &I@q
|
 E.m = &I@q
)

@script:python@
I << cand.I;
m << via_asg.m;
q << via_asg.q;
@@

mo_add(q, I, "." + m)

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

coccilib.org.print_safe_todo(j0[0], mo_message(j0, I))

@script:python depends on report@
j0 << ctx.j0;
I << cand.I;
@@

coccilib.report.print_report(j0[0], mo_message(j0, I))
