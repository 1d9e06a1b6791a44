// libcurl, which Foundation already loads, reached through dlopen: there are no curl headers to
// build against, and curl_easy_setopt/getinfo are variadic, which Swift cannot call.
#ifndef COMMENT_TUI_CURL_SHIM_H
#define COMMENT_TUI_CURL_SHIM_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

typedef size_t (*ctui_curl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*ctui_curl_progress_callback)(void *context, int64_t downloadTotal, int64_t downloaded,
                                           int64_t uploadTotal, int64_t uploaded);

/// The few libcurl entry points the client uses, found once by name.
typedef struct {
    void *(*easy_init)(void);
    int (*easy_setopt)(void *, int, ...);
    int (*easy_perform)(void *);
    void (*easy_cleanup)(void *);
    void (*easy_reset)(void *);
    int (*easy_getinfo)(void *, int, ...);
    void *(*slist_append)(void *, const char *);
    void (*slist_free_all)(void *);
    int (*global_init)(long);
} ctui_curl_api;

/// Loads libcurl.so.4 and its entry points; 0 on success, -1 when any is missing.
static inline int ctui_curl_load(ctui_curl_api *api) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_GLOBAL);
    if (!library) return -1;
    api->easy_init = (void *(*)(void))dlsym(library, "curl_easy_init");
    api->easy_setopt = (int (*)(void *, int, ...))dlsym(library, "curl_easy_setopt");
    api->easy_perform = (int (*)(void *))dlsym(library, "curl_easy_perform");
    api->easy_cleanup = (void (*)(void *))dlsym(library, "curl_easy_cleanup");
    api->easy_reset = (void (*)(void *))dlsym(library, "curl_easy_reset");
    api->easy_getinfo = (int (*)(void *, int, ...))dlsym(library, "curl_easy_getinfo");
    api->slist_append = (void *(*)(void *, const char *))dlsym(library, "curl_slist_append");
    api->slist_free_all = (void (*)(void *))dlsym(library, "curl_slist_free_all");
    api->global_init = (int (*)(long))dlsym(library, "curl_global_init");
    if (!api->easy_init || !api->easy_setopt || !api->easy_perform || !api->easy_cleanup || !api->easy_reset
        || !api->easy_getinfo || !api->slist_append || !api->slist_free_all || !api->global_init) return -1;
    return api->global_init(3L /* CURL_GLOBAL_ALL */);
}

static inline int ctui_curl_set_long(const ctui_curl_api *api, void *easy, int option, long value) {
    return api->easy_setopt(easy, option, value);
}
static inline int ctui_curl_set_offset(const ctui_curl_api *api, void *easy, int option, int64_t value) {
    return api->easy_setopt(easy, option, (long long)value);
}
static inline int ctui_curl_set_pointer(const ctui_curl_api *api, void *easy, int option, const void *value) {
    return api->easy_setopt(easy, option, value);
}
static inline int ctui_curl_set_data_callback(const ctui_curl_api *api, void *easy, int option, ctui_curl_data_callback value) {
    return api->easy_setopt(easy, option, value);
}
static inline int ctui_curl_set_progress_callback(const ctui_curl_api *api, void *easy, int option, ctui_curl_progress_callback value) {
    return api->easy_setopt(easy, option, value);
}
static inline int ctui_curl_get_long(const ctui_curl_api *api, void *easy, int info, long *value) {
    return api->easy_getinfo(easy, info, value);
}

#endif
