// SPDX-License-Identifier: GPL-2.0-only
/*
 * evlog: a platform driver that keeps an event log per device, read
 * through a misc device.
 *
 * The log is reference counted: the driver holds one reference, each open
 * file another (evlog-fops.c). .remove drops the driver's and leaves the
 * log to whoever drops the last one: the kref release frees it. The
 * file_operations pin the module (.owner = THIS_MODULE), so rmmod cannot
 * run the exit while a file is open, and the release stays loaded.
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include "evlog.h"

void evlog_last_put(struct kref *ref)
{
	struct evlog *ev = container_of(ref, struct evlog, ref);

	kfree(ev);
}

static int evlog_probe(struct platform_device *pdev)
{
	struct evlog *ev;
	int ret;

	ev = kzalloc(sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return -ENOMEM;
	kref_init(&ev->ref);
	mutex_init(&ev->lock);
	ev->len = scnprintf(ev->buf, sizeof(ev->buf), "%s bound\n",
			    dev_name(&pdev->dev));
	ev->misc.minor = MISC_DYNAMIC_MINOR;
	ev->misc.name = "evlog";
	ev->misc.fops = &evlog_fops;
	ev->misc.parent = &pdev->dev;
	ret = misc_register(&ev->misc);
	if (ret) {
		kfree(ev);
		return ret;
	}
	platform_set_drvdata(pdev, ev);
	return 0;
}

static int evlog_remove(struct platform_device *pdev)
{
	struct evlog *ev = platform_get_drvdata(pdev);

	misc_deregister(&ev->misc);
	kref_put(&ev->ref, evlog_last_put);
	return 0;
}

static struct platform_driver evlog_driver = {
	.probe	= evlog_probe,
	.remove	= evlog_remove,
	.driver	= {
		.name	= "evlog",
	},
};
module_platform_driver(evlog_driver);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Event log freed by the last of its references");
MODULE_ALIAS("platform:evlog");
