#ifndef TONENODE_FUZZER_DRIVER_H
#define TONENODE_FUZZER_DRIVER_H
#include <stddef.h>
#include <stdint.h>
// libFuzzer's entry for programs that bring their own main (compiler-rt, FuzzerDriver.cpp).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif
