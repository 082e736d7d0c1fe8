#include "CLibFuzzer.h"
/* Nothing to define: the header declares a libFuzzer runtime function for Swift. */
