#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's own byte-level mutator, callable from LLVMFuzzerCustomMutator. Defined by the
/// libFuzzer runtime that `-sanitize=fuzzer` links; only fuzz binaries may call it.
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

#endif
