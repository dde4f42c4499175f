/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A stand-in for the ARM compilers' <arm_neon.h>, which no compiler on
 * the scanning machine may have: the vector types, and the intrinsics
 * the kernel's NEON code calls, as declarations with the types the
 * compiler's header gives them. The checker parses with it; it never
 * runs. Intrinsics the compiler defines as macros (a lane or shift
 * count that must be a constant) are declared as functions. Those of
 * AArch64 alone are declared for it alone: 32-bit code defines some
 * of them itself.
 */
#ifndef _MODLIFE_ARM_NEON_H
#define _MODLIFE_ARM_NEON_H

/* the compiler's header includes its <stdint.h>: its types, as that
 * makes them from the compiler's own macros */
typedef __INT8_TYPE__ int8_t;
typedef __INT16_TYPE__ int16_t;
typedef __INT32_TYPE__ int32_t;
typedef __INT64_TYPE__ int64_t;
typedef __UINT8_TYPE__ uint8_t;
typedef __UINT16_TYPE__ uint16_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __UINT64_TYPE__ uint64_t;

typedef signed char int8x8_t __attribute__((__vector_size__(8)));
typedef signed char int8x16_t __attribute__((__vector_size__(16)));
typedef short int16x4_t __attribute__((__vector_size__(8)));
typedef short int16x8_t __attribute__((__vector_size__(16)));
typedef int int32x2_t __attribute__((__vector_size__(8)));
typedef int int32x4_t __attribute__((__vector_size__(16)));
typedef long long int64x1_t __attribute__((__vector_size__(8)));
typedef long long int64x2_t __attribute__((__vector_size__(16)));
typedef unsigned char uint8x8_t __attribute__((__vector_size__(8)));
typedef unsigned char uint8x16_t __attribute__((__vector_size__(16)));
typedef unsigned short uint16x4_t __attribute__((__vector_size__(8)));
typedef unsigned short uint16x8_t __attribute__((__vector_size__(16)));
typedef unsigned int uint32x2_t __attribute__((__vector_size__(8)));
typedef unsigned int uint32x4_t __attribute__((__vector_size__(16)));
typedef unsigned long long uint64x1_t __attribute__((__vector_size__(8)));
typedef unsigned long long uint64x2_t __attribute__((__vector_size__(16)));
typedef unsigned char poly8x8_t __attribute__((__vector_size__(8)));
typedef unsigned char poly8x16_t __attribute__((__vector_size__(16)));
typedef unsigned short poly16x8_t __attribute__((__vector_size__(16)));

typedef struct { uint8x8_t val[2]; } uint8x8x2_t;
typedef struct { uint8x16_t val[2]; } uint8x16x2_t;
typedef struct { uint8x16_t val[3]; } uint8x16x3_t;
typedef struct { uint8x16_t val[4]; } uint8x16x4_t;
typedef struct { uint64x2_t val[2]; } uint64x2x2_t;

uint8x16_t vld1q_u8(const unsigned char *p);
uint8x8_t vld1_u8(const unsigned char *p);
uint64x2_t vld1q_u64(const unsigned long long *p);
void vst1q_u8(unsigned char *p, uint8x16_t v);
void vst1_u8(unsigned char *p, uint8x8_t v);
void vst1q_u64(unsigned long long *p, uint64x2_t v);

uint8x16_t veorq_u8(uint8x16_t a, uint8x16_t b);
uint64x2_t veorq_u64(uint64x2_t a, uint64x2_t b);
uint8x16_t vandq_u8(uint8x16_t a, uint8x16_t b);
uint64x2_t vandq_u64(uint64x2_t a, uint64x2_t b);
uint8x16_t vorrq_u8(uint8x16_t a, uint8x16_t b);
uint8x16_t vceqq_u8(uint8x16_t a, uint8x16_t b);
uint8x16_t vdupq_n_u8(unsigned char v);
uint64x2_t vdupq_n_u64(unsigned long long v);
uint8x16_t vshlq_n_u8(uint8x16_t v, const int n);
uint8x16_t vshrq_n_u8(uint8x16_t v, const int n);
int8x16_t vshrq_n_s8(int8x16_t v, const int n);
uint64x2_t vshlq_n_u64(uint64x2_t v, const int n);
uint64x2_t vshrq_n_u64(uint64x2_t v, const int n);
uint16x8_t vrev32q_u16(uint16x8_t v);
poly8x16_t vmulq_p8(poly8x16_t a, poly8x16_t b);
uint8x8_t vtbl1_u8(uint8x8_t a, uint8x8_t idx);
uint8x8_t vtbl2_u8(uint8x8x2_t a, uint8x8_t idx);
uint8x16_t vcombine_u8(uint8x8_t lo, uint8x8_t hi);
uint8x8_t vget_low_u8(uint8x16_t v);
uint8x8_t vget_high_u8(uint8x16_t v);
uint8x16_t vextq_u8(uint8x16_t a, uint8x16_t b, const int n);
uint8x8_t vtbx1_u8(uint8x8_t v, uint8x8_t a, uint8x8_t idx);
uint8x8_t vtbx2_u8(uint8x8_t v, uint8x8x2_t a, uint8x8_t idx);
int8x8_t vget_low_s8(int8x16_t v);
int8x8_t vget_high_s8(int8x16_t v);
signed char vget_lane_s8(int8x8_t v, const int lane);
int8x8_t vpmin_s8(int8x8_t a, int8x8_t b);
uint64x1_t vmov_n_u64(unsigned long long v);
uint64x2_t vcombine_u64(uint64x1_t lo, uint64x1_t hi);
uint64x1_t vget_low_u64(uint64x2_t v);
uint64x1_t vget_high_u64(uint64x2_t v);

#ifdef __aarch64__
uint8x16x4_t vld1q_u8_x4(const unsigned char *p);
uint8x16_t vqtbl1q_u8(uint8x16_t t, uint8x16_t idx);
uint8x16_t vqtbx1q_u8(uint8x16_t v, uint8x16_t t, uint8x16_t idx);
uint8x16_t vqtbl4q_u8(uint8x16x4_t t, uint8x16_t idx);
uint8x16_t vqtbx4q_u8(uint8x16_t v, uint8x16x4_t t, uint8x16_t idx);
signed char vminvq_s8(int8x16_t v);
unsigned char vmaxvq_u8(uint8x16_t v);
uint8x16_t vaeseq_u8(uint8x16_t data, uint8x16_t key);
uint8x16_t vaesdq_u8(uint8x16_t data, uint8x16_t key);
uint8x16_t vaesmcq_u8(uint8x16_t data);
uint8x16_t vaesimcq_u8(uint8x16_t data);
uint64x2_t veor3q_u64(uint64x2_t a, uint64x2_t b, uint64x2_t c);
#endif

#endif /* _MODLIFE_ARM_NEON_H */
