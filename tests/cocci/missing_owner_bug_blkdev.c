// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: a RAM-backed block driver whose block_device_operations lack
 * .owner: the module can be unloaded while the disk is open.
 */
#include <linux/module.h>
#include <linux/blkdev.h>

struct fooblk {
	struct gendisk *disk;
	unsigned long size;
};

static struct fooblk fooblk_dev;

static int fooblk_getgeo(struct block_device *bdev, struct hd_geometry *geo)
{
	geo->heads = 4;
	geo->sectors = 16;
	geo->cylinders = get_capacity(bdev->bd_disk) >> 6;
	return 0;
}

static const struct block_device_operations fooblk_fops = {
	.submit_bio	= fooblk_submit_bio,
	.getgeo		= fooblk_getgeo,
};

static int __init fooblk_init(void)
{
	struct gendisk *disk;

	disk = blk_alloc_disk(NUMA_NO_NODE);
	if (!disk)
		return -ENOMEM;

	disk->major = 0;
	disk->first_minor = 0;
	disk->minors = 1;
	disk->fops = &fooblk_fops;
	disk->private_data = &fooblk_dev;
	snprintf(disk->disk_name, DISK_NAME_LEN, "fooblk");
	set_capacity(disk, 2048);
	fooblk_dev.disk = disk;
	return add_disk(disk);
}

static void __exit fooblk_exit(void)
{
	del_gendisk(fooblk_dev.disk);
	put_disk(fooblk_dev.disk);
}

module_init(fooblk_init);
module_exit(fooblk_exit);
MODULE_LICENSE("GPL");
