// SPDX-License-Identifier: GPL-2.0
/* Trap: every ops table already sets .owner (first, middle or last). */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/blkdev.h>
#include <linux/miscdevice.h>

static const struct file_operations bar_fops = {
	.owner		= THIS_MODULE,
	.open		= bar_open,
	.read		= bar_read,
};

static const struct file_operations bar_ctl_fops = {
	.unlocked_ioctl	= bar_ioctl,
	.owner		= THIS_MODULE,
	.llseek		= noop_llseek,
};

static const struct block_device_operations barblk_fops = {
	.submit_bio	= barblk_submit_bio,
	.owner		= THIS_MODULE,
};

static struct miscdevice bar_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "bar",
	.fops	= &bar_fops,
};

static int __init bar_init(void)
{
	bar_major = register_chrdev(0, "bar_ctl", &bar_ctl_fops);
	bar_disk->fops = &barblk_fops;
	return misc_register(&bar_misc);
}

static void __exit bar_exit(void)
{
	misc_deregister(&bar_misc);
	unregister_chrdev(bar_major, "bar_ctl");
}

module_init(bar_init);
module_exit(bar_exit);
