/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A stand-in for the LoongArch compiler's <larchintrin.h>, which no
 * compiler on the scanning machine may have: the base built-in functions
 * as declarations, with the types the compiler's header gives them. The
 * checker parses with it; it never runs. Those the compiler defines as
 * macros (their arguments must be constants) are declared as functions.
 */
#ifndef _MODLIFE_LARCHINTRIN_H
#define _MODLIFE_LARCHINTRIN_H

typedef struct drdtime {
	unsigned long dvalue;
	unsigned long dtimeid;
} __drdtime_t;

typedef struct rdtime {
	unsigned int value;
	unsigned int timeid;
} __rdtime_t;

__drdtime_t __rdtime_d(void);
__rdtime_t __rdtimeh_w(void);
__rdtime_t __rdtimel_w(void);

unsigned int __movfcsr2gr(unsigned int fcsr);
void __movgr2fcsr(unsigned int fcsr, unsigned int value);
void __cacop_d(unsigned long op, unsigned long addr, long offset);
unsigned int __cpucfg(unsigned int word);
void __asrtle_d(long a, long b);
void __asrtgt_d(long a, long b);
long __lddir_d(long base, unsigned long level);
void __ldpte_d(long base, unsigned long level);

int __crc_w_b_w(char data, int crc);
int __crc_w_h_w(short data, int crc);
int __crc_w_w_w(int data, int crc);
int __crc_w_d_w(long data, int crc);
int __crcc_w_b_w(char data, int crc);
int __crcc_w_h_w(short data, int crc);
int __crcc_w_w_w(int data, int crc);
int __crcc_w_d_w(long data, int crc);

unsigned int __csrrd_w(unsigned int csr);
unsigned int __csrwr_w(unsigned int value, unsigned int csr);
unsigned int __csrxchg_w(unsigned int value, unsigned int mask,
			 unsigned int csr);
unsigned long __csrrd_d(unsigned int csr);
unsigned long __csrwr_d(unsigned long value, unsigned int csr);
unsigned long __csrxchg_d(unsigned long value, unsigned long mask,
			  unsigned int csr);

unsigned char __iocsrrd_b(unsigned int addr);
unsigned short __iocsrrd_h(unsigned int addr);
unsigned int __iocsrrd_w(unsigned int addr);
unsigned long __iocsrrd_d(unsigned int addr);
void __iocsrwr_b(unsigned char value, unsigned int addr);
void __iocsrwr_h(unsigned short value, unsigned int addr);
void __iocsrwr_w(unsigned int value, unsigned int addr);
void __iocsrwr_d(unsigned long value, unsigned int addr);

void __dbar(unsigned int hint);
void __ibar(unsigned int hint);
void __syscall(unsigned int code);
void __break(unsigned int code);

#endif
