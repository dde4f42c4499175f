// SPDX-License-Identifier: GPL-2.0-only
/*
 * membist: memory controller built-in self test. Writing 1 to the device's
 * "bist" attribute starts a test that takes seconds; a work item polls the
 * engine and stores the outcome in "bist_result".
 *
 * The store holds a module reference while the test runs. It takes it
 * with try_module_get() and refuses to start a test when that fails: a
 * sysfs store does not pin the module, which may already be going away.
 */
#include <linux/delay.h>
#include <linux/io.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#define MEMBIST_CTRL		0x00
#define MEMBIST_CTRL_START	BIT(0)
#define MEMBIST_STATUS		0x04
#define MEMBIST_STATUS_DONE	BIT(0)
#define MEMBIST_STATUS_FAIL	BIT(1)
#define MEMBIST_POLL_MS		100
#define MEMBIST_POLL_TRIES	100

struct membist {
	void __iomem *base;
	struct work_struct bist_work;
	struct mutex lock;		/* protects result */
	int result;			/* 1: never run, 0: pass, -errno */
};

static void membist_run(struct work_struct *work)
{
	struct membist *mb = container_of(work, struct membist, bist_work);
	u32 status = 0;
	unsigned int i;
	int result;

	writel(MEMBIST_CTRL_START, mb->base + MEMBIST_CTRL);
	for (i = 0; i < MEMBIST_POLL_TRIES; i++) {
		msleep(MEMBIST_POLL_MS);
		status = readl(mb->base + MEMBIST_STATUS);
		if (status & MEMBIST_STATUS_DONE)
			break;
	}
	if (!(status & MEMBIST_STATUS_DONE))
		result = -ETIMEDOUT;
	else
		result = status & MEMBIST_STATUS_FAIL ? -EIO : 0;

	mutex_lock(&mb->lock);
	mb->result = result;
	mutex_unlock(&mb->lock);
	module_put(THIS_MODULE);
}

static ssize_t bist_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	struct membist *mb = dev_get_drvdata(dev);
	bool start;
	int ret;

	ret = kstrtobool(buf, &start);
	if (ret)
		return ret;
	if (!start)
		return count;

	if (!try_module_get(THIS_MODULE))
		return -ENODEV;
	if (!schedule_work(&mb->bist_work)) {
		module_put(THIS_MODULE);
		return -EBUSY;
	}
	return count;
}
static DEVICE_ATTR_WO(bist);

static ssize_t bist_result_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct membist *mb = dev_get_drvdata(dev);
	int result;

	mutex_lock(&mb->lock);
	result = mb->result;
	mutex_unlock(&mb->lock);

	if (result > 0)
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "%s\n", result == 0 ? "pass" :
			  result == -ETIMEDOUT ? "timeout" : "fail");
}
static DEVICE_ATTR_RO(bist_result);

static struct attribute *membist_attrs[] = {
	&dev_attr_bist.attr,
	&dev_attr_bist_result.attr,
	NULL
};
ATTRIBUTE_GROUPS(membist);

static int membist_probe(struct platform_device *pdev)
{
	struct membist *mb;

	mb = devm_kzalloc(&pdev->dev, sizeof(*mb), GFP_KERNEL);
	if (!mb)
		return -ENOMEM;
	mb->base = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(mb->base))
		return PTR_ERR(mb->base);

	mutex_init(&mb->lock);
	mb->result = 1;
	INIT_WORK(&mb->bist_work, membist_run);
	platform_set_drvdata(pdev, mb);
	return 0;
}

static int membist_remove(struct platform_device *pdev)
{
	struct membist *mb = platform_get_drvdata(pdev);

	/* a test that never started still holds its module reference */
	if (cancel_work_sync(&mb->bist_work))
		module_put(THIS_MODULE);
	return 0;
}

static struct platform_driver membist_driver = {
	.probe	= membist_probe,
	.remove	= membist_remove,
	.driver	= {
		.name		= "membist",
		.dev_groups	= membist_groups,
	},
};
module_platform_driver(membist_driver);

MODULE_ALIAS("platform:membist");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Memory controller self test (sysfs store pins with try_module_get())");
