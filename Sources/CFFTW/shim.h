#ifndef TONENODE_CFFTW_SHIM_H
#define TONENODE_CFFTW_SHIM_H
#include <fftw3.h>
#endif
