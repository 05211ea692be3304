// A C target for the same reason as CJack's (see Sources/CJack/shim.c).
#include "shim.h"
