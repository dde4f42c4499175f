// SPDX-License-Identifier: GPL-2.0-only
/*
 * tinyram: a blk-mq RAM disk backed by a vmalloc()ed buffer.
 *
 * The block_device_operations set .owner = THIS_MODULE, so
 * blkdev_get_no_open() pins the module while /dev/tinyram0 is open.
 */
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/hdreg.h>
#include <linux/highmem.h>
#include <linux/module.h>
#include <linux/vmalloc.h>

#define TINYRAM_SECTORS	8192	/* 4 MiB */

struct tinyram {
	struct blk_mq_tag_set tag_set;
	struct gendisk *disk;
	u8 *data;
};

static int tinyram_major;
static struct tinyram *tinyram;

static blk_status_t tinyram_queue_rq(struct blk_mq_hw_ctx *hctx,
				     const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	struct tinyram *tr = hctx->queue->queuedata;
	loff_t pos = (loff_t)blk_rq_pos(rq) << SECTOR_SHIFT;
	struct req_iterator iter;
	struct bio_vec bvec;

	blk_mq_start_request(rq);
	if (pos + blk_rq_bytes(rq) > (loff_t)TINYRAM_SECTORS << SECTOR_SHIFT)
		return BLK_STS_IOERR;

	rq_for_each_segment(bvec, rq, iter) {
		void *buf = bvec_kmap_local(&bvec);

		if (rq_data_dir(rq) == WRITE)
			memcpy(tr->data + pos, buf, bvec.bv_len);
		else
			memcpy(buf, tr->data + pos, bvec.bv_len);
		kunmap_local(buf);
		pos += bvec.bv_len;
	}
	blk_mq_end_request(rq, BLK_STS_OK);
	return BLK_STS_OK;
}

static const struct blk_mq_ops tinyram_mq_ops = {
	.queue_rq	= tinyram_queue_rq,
};

static int tinyram_getgeo(struct block_device *bdev, struct hd_geometry *geo)
{
	geo->heads = 4;
	geo->sectors = 16;
	geo->cylinders = get_capacity(bdev->bd_disk) >> 6;
	return 0;
}

static const struct block_device_operations tinyram_fops = {
	.owner		= THIS_MODULE,
	.getgeo		= tinyram_getgeo,
};

static int __init tinyram_init(void)
{
	int ret;

	tinyram_major = register_blkdev(0, "tinyram");
	if (tinyram_major < 0)
		return tinyram_major;

	tinyram = kzalloc(sizeof(*tinyram), GFP_KERNEL);
	if (!tinyram) {
		ret = -ENOMEM;
		goto err_unregister;
	}
	tinyram->data = vzalloc(TINYRAM_SECTORS << SECTOR_SHIFT);
	if (!tinyram->data) {
		ret = -ENOMEM;
		goto err_free;
	}

	tinyram->tag_set.ops = &tinyram_mq_ops;
	tinyram->tag_set.nr_hw_queues = 1;
	tinyram->tag_set.queue_depth = 64;
	tinyram->tag_set.numa_node = NUMA_NO_NODE;
	tinyram->tag_set.flags = BLK_MQ_F_SHOULD_MERGE;
	ret = blk_mq_alloc_tag_set(&tinyram->tag_set);
	if (ret)
		goto err_vfree;

	tinyram->disk = blk_mq_alloc_disk(&tinyram->tag_set, tinyram);
	if (IS_ERR(tinyram->disk)) {
		ret = PTR_ERR(tinyram->disk);
		goto err_tag_set;
	}
	tinyram->disk->major = tinyram_major;
	tinyram->disk->first_minor = 0;
	tinyram->disk->minors = 1;
	tinyram->disk->fops = &tinyram_fops;
	tinyram->disk->private_data = tinyram;
	snprintf(tinyram->disk->disk_name, DISK_NAME_LEN, "tinyram0");
	set_capacity(tinyram->disk, TINYRAM_SECTORS);

	ret = add_disk(tinyram->disk);
	if (ret)
		goto err_put_disk;
	return 0;

err_put_disk:
	put_disk(tinyram->disk);
err_tag_set:
	blk_mq_free_tag_set(&tinyram->tag_set);
err_vfree:
	vfree(tinyram->data);
err_free:
	kfree(tinyram);
err_unregister:
	unregister_blkdev(tinyram_major, "tinyram");
	return ret;
}

static void __exit tinyram_exit(void)
{
	del_gendisk(tinyram->disk);
	put_disk(tinyram->disk);
	blk_mq_free_tag_set(&tinyram->tag_set);
	vfree(tinyram->data);
	kfree(tinyram);
	unregister_blkdev(tinyram_major, "tinyram");
}

module_init(tinyram_init);
module_exit(tinyram_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("blk-mq RAM disk (block_device_operations owner set)");
