// SPDX-License-Identifier: GPL-2.0-only
/*
 * xorblk: a toy 16-byte block cipher (XOR with the key), registered as a
 * plain crypto_alg. The crypto core pins an algorithm's module through
 * crypto_alg.cra_module (crypto_mod_get() -> try_module_get()) for every
 * transform allocated from it; the field is not named "owner", and it is
 * not set here: rmmod succeeds while a tfm is live, and the next
 * crypto_cipher_encrypt_one() calls freed module text.
 */
#include <crypto/algapi.h>
#include <linux/crypto.h>
#include <linux/module.h>
#include <linux/string.h>

#define XORBLK_BLOCK	16

struct xorblk_ctx {
	u8 key[XORBLK_BLOCK];
};

static int xorblk_setkey(struct crypto_tfm *tfm, const u8 *key,
			 unsigned int len)
{
	struct xorblk_ctx *ctx = crypto_tfm_ctx(tfm);

	if (len != XORBLK_BLOCK)
		return -EINVAL;
	memcpy(ctx->key, key, len);
	return 0;
}

static void xorblk_crypt(struct crypto_tfm *tfm, u8 *dst, const u8 *src)
{
	struct xorblk_ctx *ctx = crypto_tfm_ctx(tfm);
	int i;

	for (i = 0; i < XORBLK_BLOCK; i++)
		dst[i] = src[i] ^ ctx->key[i];
}

static struct crypto_alg xorblk_alg = {
	.cra_name		= "xorblk",
	.cra_driver_name	= "xorblk-generic",
	.cra_priority		= 100,
	.cra_flags		= CRYPTO_ALG_TYPE_CIPHER,
	.cra_blocksize		= XORBLK_BLOCK,
	.cra_ctxsize		= sizeof(struct xorblk_ctx),
	.cra_u			= {
		.cipher = {
			.cia_min_keysize	= XORBLK_BLOCK,
			.cia_max_keysize	= XORBLK_BLOCK,
			.cia_setkey		= xorblk_setkey,
			.cia_encrypt		= xorblk_crypt,
			.cia_decrypt		= xorblk_crypt,
		},
	},
};

static int __init xorblk_init(void)
{
	return crypto_register_alg(&xorblk_alg);
}

static void __exit xorblk_exit(void)
{
	crypto_unregister_alg(&xorblk_alg);
}

module_init(xorblk_init);
module_exit(xorblk_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Toy XOR block cipher (crypto_alg without cra_module)");
