// liblo (OSC), used by ToneOSC only to decode the datagrams it receives.
#ifndef TONENODE_CLIBLO_SHIM_H
#define TONENODE_CLIBLO_SHIM_H
#include <lo/lo.h>
#endif
