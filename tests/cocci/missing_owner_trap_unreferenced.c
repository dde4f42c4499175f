// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: the ops table without .owner is never referenced (its address is
 * not taken anywhere in the file), e.g. left over or used only by name in
 * a sizeof.
 */
#include <linux/module.h>
#include <linux/fs.h>

static const struct file_operations qux_legacy_fops = {
	.read		= qux_read,
	.llseek		= noop_llseek,
};

static int qux_probe(struct platform_device *pdev)
{
	pr_debug("qux: %zu byte ops table\n", sizeof(qux_legacy_fops));
	return 0;
}

static struct platform_driver qux_driver = {
	.probe	= qux_probe,
	.driver	= {
		.name = "qux",
	},
};

static int __init qux_init(void)
{
	return platform_driver_register(&qux_driver);
}

static void __exit qux_exit(void)
{
	platform_driver_unregister(&qux_driver);
}

module_init(qux_init);
module_exit(qux_exit);
