/* Errors: the per-thread last error and the entry and exit of every exported function (the
 * CJWSTesting.h functions cjwst_last_error and cjwst_free). */
#include "internal.h"

#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>

/* The only definition of the last failure's message; written by cjwst_internal_finish alone. */
static _Thread_local char last_error[512];

/* Clears the OpenSSL error queue; called on entry of every exported function. */
void cjwst_internal_begin(void) { ERR_clear_error(); }

/* Records a failure message (function, failed step, first queued OpenSSL error) when `ok` is 0,
 * then drains the error queue. Returns `ok`. */
int cjwst_internal_finish(int ok, const char *function, const char *step) {
    if (!ok) {
        unsigned long code = ERR_peek_error();
        char reason[256] = "";
        if (code != 0) {
            ERR_error_string_n(code, reason, sizeof reason);
        }
        snprintf(last_error, sizeof last_error, "%s: %s%s%s", function,
                 step != NULL ? step : "failed", code != 0 ? ": " : "", reason);
    }
    ERR_clear_error();
    return ok;
}

size_t cjwst_last_error(char *buffer, size_t capacity) {
    size_t length = strlen(last_error);
    if (buffer != NULL && capacity > 0) {
        size_t copied = length < capacity - 1 ? length : capacity - 1;
        memcpy(buffer, last_error, copied);
        buffer[copied] = '\0';
    }
    return length;
}

void cjwst_free(void *buffer) { OPENSSL_free(buffer); }
