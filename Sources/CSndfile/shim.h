#ifndef TONENODE_CSNDFILE_SHIM_H
#define TONENODE_CSNDFILE_SHIM_H
#include <sndfile.h>
#endif
