// SPDX-License-Identifier: GPL-2.0-only
/*
 * selftest: writing a pattern length to /sys/kernel/selftest/run starts a
 * memory pattern test in the background; /sys/kernel/selftest/result
 * reports the outcome of the last run.
 *
 * The exit function does not flush the test work: each queued test holds
 * a reference on the module (try_module_get() before queueing, refused
 * once unloading has begun), and the work function drops it as its last
 * statement, so rmmod fails with -EBUSY while a test is pending.
 */
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

struct selftest_job {
	struct work_struct work;
	size_t len;
};

static struct kobject *selftest_kobj;
static int selftest_result;

static void selftest_run(struct work_struct *work)
{
	struct selftest_job *job = container_of(work, struct selftest_job,
						work);
	u8 *buf = kmalloc(job->len, GFP_KERNEL);
	size_t i;
	int bad = 0;

	if (buf) {
		memset(buf, 0xa5, job->len);
		for (i = 0; i < job->len; i++)
			bad += buf[i] != 0xa5;
		kfree(buf);
	}
	WRITE_ONCE(selftest_result, buf ? bad : -ENOMEM);
	kfree(job);
	module_put(THIS_MODULE);
}

static ssize_t run_store(struct kobject *kobj, struct kobj_attribute *attr,
			 const char *buf, size_t count)
{
	struct selftest_job *job;
	unsigned int len;
	int ret;

	ret = kstrtouint(buf, 0, &len);
	if (ret)
		return ret;
	if (!len || len > SZ_1M)
		return -EINVAL;
	if (!try_module_get(THIS_MODULE))
		return -ENODEV;
	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job) {
		module_put(THIS_MODULE);
		return -ENOMEM;
	}
	job->len = len;
	INIT_WORK(&job->work, selftest_run);
	schedule_work(&job->work);
	return count;
}

static ssize_t result_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(selftest_result));
}

static struct kobj_attribute run_attr = __ATTR_WO(run);
static struct kobj_attribute result_attr = __ATTR_RO(result);

static struct attribute *selftest_attrs[] = {
	&run_attr.attr,
	&result_attr.attr,
	NULL
};

static const struct attribute_group selftest_group = {
	.attrs = selftest_attrs,
};

static int __init selftest_init(void)
{
	int ret;

	selftest_kobj = kobject_create_and_add("selftest", kernel_kobj);
	if (!selftest_kobj)
		return -ENOMEM;
	ret = sysfs_create_group(selftest_kobj, &selftest_group);
	if (ret)
		kobject_put(selftest_kobj);
	return ret;
}

static void __exit selftest_exit(void)
{
	kobject_put(selftest_kobj);
}

module_init(selftest_init);
module_exit(selftest_exit);
MODULE_DESCRIPTION("background memory pattern test");
MODULE_LICENSE("GPL");
