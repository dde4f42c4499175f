// SPDX-License-Identifier: GPL-2.0-only
/*
 * evlog: a platform driver that keeps an event log per device, read
 * through a misc device.
 *
 * The log is reference counted: the driver holds one reference, each open
 * file another (evlog-fops.c). .remove drops the driver's and waits for
 * the kref release to complete, which happens only when the last file is
 * closed. Module exit unregisters the driver, which runs .remove, and the
 * file_operations do not pin the module: rmmod blocks until user space
 * closes the file.
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include "evlog.h"

void evlog_last_put(struct kref *ref)
{
	struct evlog *ev = container_of(ref, struct evlog, ref);

	complete(&ev->gone);
}

static int evlog_probe(struct platform_device *pdev)
{
	struct evlog *ev;
	int ret;

	ev = kzalloc(sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return -ENOMEM;
	kref_init(&ev->ref);
	init_completion(&ev->gone);
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
	wait_for_completion(&ev->gone);
	kfree(ev);
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
MODULE_DESCRIPTION("Event log whose .remove waits for the last file to close");
MODULE_ALIAS("platform:evlog");
