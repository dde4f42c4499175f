// SPDX-License-Identifier: GPL-2.0-only
/*
 * acme-led: a platform driver whose probe registers a misc device for the
 * LED's pattern, with file_operations without an owner. The probe takes a
 * reference on its own module and remove gives it back: once the device
 * is unbound the module can go while /dev/acme-led is still open.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/uaccess.h>

struct acme_led {
	struct miscdevice misc;
	struct mutex lock;
	u8 pattern;
};

static int acme_led_open(struct inode *inode, struct file *file)
{
	struct miscdevice *misc = file->private_data;

	file->private_data = container_of(misc, struct acme_led, misc);
	return 0;
}

static ssize_t acme_led_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *ppos)
{
	struct acme_led *led = file->private_data;
	u8 pattern;

	if (!count)
		return 0;
	if (get_user(pattern, buf))
		return -EFAULT;
	mutex_lock(&led->lock);
	led->pattern = pattern;
	mutex_unlock(&led->lock);
	return count;
}

static const struct file_operations acme_led_fops = {
	.open	= acme_led_open,
	.write	= acme_led_write,
	.llseek	= noop_llseek,
};

static int acme_led_probe(struct platform_device *pdev)
{
	struct acme_led *led;
	int ret;

	led = devm_kzalloc(&pdev->dev, sizeof(*led), GFP_KERNEL);
	if (!led)
		return -ENOMEM;
	mutex_init(&led->lock);
	led->misc.minor = MISC_DYNAMIC_MINOR;
	led->misc.name = "acme-led";
	led->misc.fops = &acme_led_fops;
	led->misc.parent = &pdev->dev;
	platform_set_drvdata(pdev, led);
	ret = misc_register(&led->misc);
	if (ret)
		return ret;
	__module_get(THIS_MODULE);
	return 0;
}

static int acme_led_remove(struct platform_device *pdev)
{
	struct acme_led *led = platform_get_drvdata(pdev);

	misc_deregister(&led->misc);
	module_put(THIS_MODULE);
	return 0;
}

static struct platform_driver acme_led_driver = {
	.probe	= acme_led_probe,
	.remove	= acme_led_remove,
	.driver	= {
		.name	= "acme-led",
	},
};
module_platform_driver(acme_led_driver);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ACME LED pattern device (pinned while bound)");
