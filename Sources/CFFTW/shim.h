#ifndef TONENODE_CFFTW_SHIM_H
#define TONENODE_CFFTW_SHIM_H
#include <fftw3.h>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

// Subnormal floats make x86 arithmetic (FFTW's included) much slower. Audio
// never needs them: with `on`, results flush to zero and subnormal inputs read
// as zero on the calling thread (MXCSR FTZ|DAZ on x86, FPCR.FZ on arm64).
static inline void tn_set_denormal_flushing(int on) {
#if defined(__x86_64__) || defined(__i386__)
    unsigned int csr = _mm_getcsr();
    _mm_setcsr(on ? (csr | 0x8040u) : (csr & ~0x8040u));
#elif defined(__aarch64__)
    unsigned long fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    fpcr = on ? (fpcr | (1UL << 24)) : (fpcr & ~(1UL << 24));
    __asm__ volatile("msr fpcr, %0" : : "r"(fpcr));
#endif
}
#endif
