// libcurl's easy interface for System/HTTPExchange. curl_easy_setopt and curl_easy_getinfo are
// variadic, which Swift cannot call, so each kind of value an option takes gets a typed wrapper;
// the option names and result codes come from <curl/curl.h> itself.
#ifndef COMMENT_TUI_CURL_SHIM_H
#define COMMENT_TUI_CURL_SHIM_H

#include <curl/curl.h>

/// Sets an option taking a `long` (flags, milliseconds, protocol masks).
static inline CURLcode ctui_curl_set_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

/// Sets an option taking a `curl_off_t` (the `_LARGE` sizes).
static inline CURLcode ctui_curl_set_offset(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

/// Sets an option taking a pointer: a string, a buffer, a list, or a callback's context.
static inline CURLcode ctui_curl_set_pointer(CURL *easy, CURLoption option, const void *value) {
    return curl_easy_setopt(easy, option, value);
}

/// Sets a body or header callback (CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION).
static inline CURLcode ctui_curl_set_write_callback(CURL *easy, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(easy, option, value);
}

/// Sets the progress callback (CURLOPT_XFERINFOFUNCTION).
static inline CURLcode ctui_curl_set_progress_callback(CURL *easy, CURLoption option, curl_xferinfo_callback value) {
    return curl_easy_setopt(easy, option, value);
}

/// Reads information that is a `long` (CURLINFO_RESPONSE_CODE).
static inline CURLcode ctui_curl_get_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}

#endif
