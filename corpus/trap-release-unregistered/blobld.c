// SPDX-License-Identifier: GPL-2.0-only
/*
 * blobld: loads a calibration table from /lib/firmware at init and keeps
 * a validated copy for the module's lifetime.
 *
 * The firmware loader wants a struct device for naming and messages. The
 * module embeds one in its state, device_initialize()s it and gives it a
 * release that frees the state, but never device_add()s it: nothing in the
 * driver core can hold a reference, the final put_device() in exit runs
 * the release synchronously.
 */
#include <linux/crc32.h>
#include <linux/device.h>
#include <linux/firmware.h>
#include <linux/module.h>
#include <linux/slab.h>

#define BLOBLD_FW_NAME		"blobld/calib.bin"
#define BLOBLD_MAX_ENTRIES	256

struct blobld {
	struct device dev;
	unsigned int nr_entries;
	u32 crc;
	u32 *table;
};

static struct blobld *blobld;

static void blobld_release(struct device *dev)
{
	struct blobld *bl = container_of(dev, struct blobld, dev);

	kfree(bl->table);
	kfree(bl);
}

static int blobld_load(struct blobld *bl)
{
	const struct firmware *fw;
	int ret;

	ret = request_firmware_direct(&fw, BLOBLD_FW_NAME, &bl->dev);
	if (ret)
		return ret;

	if (!fw->size || fw->size % sizeof(u32) ||
	    fw->size / sizeof(u32) > BLOBLD_MAX_ENTRIES) {
		dev_err(&bl->dev, "bad table size %zu\n", fw->size);
		ret = -EINVAL;
		goto out;
	}

	bl->table = kmemdup(fw->data, fw->size, GFP_KERNEL);
	if (!bl->table) {
		ret = -ENOMEM;
		goto out;
	}
	bl->nr_entries = fw->size / sizeof(u32);
	bl->crc = crc32_le(~0, fw->data, fw->size);
	dev_info(&bl->dev, "%u entries, crc %08x\n", bl->nr_entries, bl->crc);
out:
	release_firmware(fw);
	return ret;
}

static int __init blobld_init(void)
{
	int ret;

	blobld = kzalloc(sizeof(*blobld), GFP_KERNEL);
	if (!blobld)
		return -ENOMEM;

	device_initialize(&blobld->dev);
	blobld->dev.release = blobld_release;
	ret = dev_set_name(&blobld->dev, "blobld");
	if (ret)
		goto err_put;

	ret = blobld_load(blobld);
	if (ret)
		goto err_put;
	return 0;

err_put:
	put_device(&blobld->dev);
	return ret;
}

static void __exit blobld_exit(void)
{
	put_device(&blobld->dev);
}

module_init(blobld_init);
module_exit(blobld_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Calibration table loader (device initialized, never registered)");
