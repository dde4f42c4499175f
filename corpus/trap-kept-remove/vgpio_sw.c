// SPDX-License-Identifier: GPL-2.0-only
/*
 * vgpio-sw: a switch on a memory-mapped register, exposed as /dev/vgpio_sw
 * by the platform driver of the one board device that has it.
 *
 * The misc device and the reboot notifier are module data registered in
 * probe, not in init, and remove takes both back: unregistering the driver
 * at rmmod unbinds the device first, so nothing is left registered. Not a
 * finding.
 */
#include <linux/fs.h>
#include <linux/io.h>
#include <linux/miscdevice.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/platform_device.h>
#include <linux/reboot.h>

static void __iomem *vgpio_sw_reg;

static ssize_t vgpio_sw_read(struct file *file, char __user *buf,
			     size_t len, loff_t *ppos)
{
	char state = readl(vgpio_sw_reg) & 1 ? '1' : '0';

	return simple_read_from_buffer(buf, len, ppos, &state, 1);
}

static const struct file_operations vgpio_sw_fops = {
	.owner	= THIS_MODULE,
	.read	= vgpio_sw_read,
	.llseek	= default_llseek,
};

static struct miscdevice vgpio_sw_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "vgpio_sw",
	.fops	= &vgpio_sw_fops,
};

static int vgpio_sw_reboot(struct notifier_block *nb, unsigned long action,
			   void *data)
{
	writel(0, vgpio_sw_reg);
	return NOTIFY_DONE;
}

static struct notifier_block vgpio_sw_nb = {
	.notifier_call	= vgpio_sw_reboot,
};

static int vgpio_sw_probe(struct platform_device *pdev)
{
	int ret;

	vgpio_sw_reg = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(vgpio_sw_reg))
		return PTR_ERR(vgpio_sw_reg);
	ret = register_reboot_notifier(&vgpio_sw_nb);
	if (ret)
		return ret;
	ret = misc_register(&vgpio_sw_misc);
	if (ret)
		unregister_reboot_notifier(&vgpio_sw_nb);
	return ret;
}

static int vgpio_sw_remove(struct platform_device *pdev)
{
	misc_deregister(&vgpio_sw_misc);
	unregister_reboot_notifier(&vgpio_sw_nb);
	return 0;
}

static const struct of_device_id vgpio_sw_of_match[] = {
	{ .compatible = "acme,vgpio-sw" },
	{ }
};
MODULE_DEVICE_TABLE(of, vgpio_sw_of_match);

static struct platform_driver vgpio_sw_driver = {
	.probe	= vgpio_sw_probe,
	.remove	= vgpio_sw_remove,
	.driver	= {
		.name		= "vgpio-sw",
		.of_match_table	= vgpio_sw_of_match,
	},
};
module_platform_driver(vgpio_sw_driver);

MODULE_DESCRIPTION("Memory-mapped switch as a misc device");
MODULE_LICENSE("GPL");
