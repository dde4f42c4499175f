// SPDX-License-Identifier: GPL-2.0-only
/*
 * vbeacon: a software access point radio that sends beacons from a
 * delayed work, as rtl8180 and rtl8187 do. The work requeues itself; it
 * is stopped only in .bss_info_changed, which mac80211 calls with
 * BSS_CHANGED_BEACON_ENABLED and enable_beacon off when the AP stops,
 * before it removes the interface and long before ieee80211_unregister_hw()
 * returns. The callback cancels and then queues the work again only while
 * beacons are on: on the way down it stops the work.
 */
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/workqueue.h>
#include <net/mac80211.h>

struct vbeacon_vif {
	struct ieee80211_vif *vif;
	struct delayed_work beacon_work;
	bool enable_beacon;
};

static struct platform_device *vbeacon_pdev;
static struct ieee80211_hw *vbeacon_hw;

static struct ieee80211_channel vbeacon_channels[] = {
	{ .band = NL80211_BAND_2GHZ, .center_freq = 2412, .hw_value = 1 },
};

static struct ieee80211_rate vbeacon_rates[] = {
	{ .bitrate = 10 }, { .bitrate = 20 },
};

static struct ieee80211_supported_band vbeacon_band = {
	.band = NL80211_BAND_2GHZ,
	.channels = vbeacon_channels,
	.n_channels = ARRAY_SIZE(vbeacon_channels),
	.bitrates = vbeacon_rates,
	.n_bitrates = ARRAY_SIZE(vbeacon_rates),
};

static void vbeacon_beacon_work(struct work_struct *work)
{
	struct vbeacon_vif *vp = container_of(work, struct vbeacon_vif,
					      beacon_work.work);
	struct sk_buff *skb;

	skb = ieee80211_beacon_get(vbeacon_hw, vp->vif, 0);
	if (skb)
		dev_kfree_skb(skb);	/* no air to send it on */
	schedule_delayed_work(&vp->beacon_work,
			      usecs_to_jiffies(1024 *
					       vp->vif->bss_conf.beacon_int));
}

static void vbeacon_tx(struct ieee80211_hw *hw,
		       struct ieee80211_tx_control *control,
		       struct sk_buff *skb)
{
	ieee80211_free_txskb(hw, skb);
}

static int vbeacon_start(struct ieee80211_hw *hw)
{
	return 0;
}

static void vbeacon_stop(struct ieee80211_hw *hw)
{
}

static int vbeacon_add_interface(struct ieee80211_hw *hw,
				 struct ieee80211_vif *vif)
{
	struct vbeacon_vif *vp = (struct vbeacon_vif *)vif->drv_priv;

	vp->vif = vif;
	vp->enable_beacon = false;
	INIT_DELAYED_WORK(&vp->beacon_work, vbeacon_beacon_work);
	return 0;
}

static void vbeacon_remove_interface(struct ieee80211_hw *hw,
				     struct ieee80211_vif *vif)
{
}

static int vbeacon_config(struct ieee80211_hw *hw, u32 changed)
{
	return 0;
}

static void vbeacon_bss_info_changed(struct ieee80211_hw *hw,
				     struct ieee80211_vif *vif,
				     struct ieee80211_bss_conf *info,
				     u64 changed)
{
	struct vbeacon_vif *vp = (struct vbeacon_vif *)vif->drv_priv;

	if (changed & BSS_CHANGED_BEACON_ENABLED)
		vp->enable_beacon = info->enable_beacon;

	if (changed & (BSS_CHANGED_BEACON_ENABLED | BSS_CHANGED_BEACON)) {
		cancel_delayed_work_sync(&vp->beacon_work);
		if (vp->enable_beacon)
			schedule_work(&vp->beacon_work.work);
	}
}

static void vbeacon_configure_filter(struct ieee80211_hw *hw,
				     unsigned int changed_flags,
				     unsigned int *total_flags, u64 multicast)
{
	*total_flags = 0;
}

static const struct ieee80211_ops vbeacon_ops = {
	.tx = vbeacon_tx,
	.start = vbeacon_start,
	.stop = vbeacon_stop,
	.add_interface = vbeacon_add_interface,
	.remove_interface = vbeacon_remove_interface,
	.config = vbeacon_config,
	.bss_info_changed = vbeacon_bss_info_changed,
	.configure_filter = vbeacon_configure_filter,
};

static int __init vbeacon_init(void)
{
	u8 addr[ETH_ALEN];
	int err;

	vbeacon_pdev = platform_device_register_simple("vbeacon", -1, NULL, 0);
	if (IS_ERR(vbeacon_pdev))
		return PTR_ERR(vbeacon_pdev);

	vbeacon_hw = ieee80211_alloc_hw(0, &vbeacon_ops);
	if (!vbeacon_hw) {
		err = -ENOMEM;
		goto err_pdev;
	}
	SET_IEEE80211_DEV(vbeacon_hw, &vbeacon_pdev->dev);
	eth_random_addr(addr);
	SET_IEEE80211_PERM_ADDR(vbeacon_hw, addr);
	vbeacon_hw->vif_data_size = sizeof(struct vbeacon_vif);
	vbeacon_hw->wiphy->interface_modes = BIT(NL80211_IFTYPE_AP);
	vbeacon_hw->wiphy->bands[NL80211_BAND_2GHZ] = &vbeacon_band;

	err = ieee80211_register_hw(vbeacon_hw);
	if (err)
		goto err_hw;
	return 0;

err_hw:
	ieee80211_free_hw(vbeacon_hw);
err_pdev:
	platform_device_unregister(vbeacon_pdev);
	return err;
}

static void __exit vbeacon_exit(void)
{
	ieee80211_unregister_hw(vbeacon_hw);
	ieee80211_free_hw(vbeacon_hw);
	platform_device_unregister(vbeacon_pdev);
}

module_init(vbeacon_init);
module_exit(vbeacon_exit);
MODULE_DESCRIPTION("Software access point radio that beacons from a delayed work");
MODULE_LICENSE("GPL");
