#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
#include <openssl/opensslv.h>
#endif
