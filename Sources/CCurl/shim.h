#ifndef HERALD_CCURL_SHIM_H
#define HERALD_CCURL_SHIM_H
#include <curl/curl.h>
// Extended attributes (not in Swift's Glibc module): a download's part keeps the ETag of the
// file it is of there (`PartValidator`).
#include <sys/xattr.h>

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic: Swift cannot call
// them. One typed wrapper per argument kind.

typedef size_t (*herald_curl_data_fn)(char *data, size_t size, size_t count, void *context);

static inline CURLcode hc_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode hc_setopt_offset(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode hc_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode hc_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode hc_setopt_list(CURL *easy, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode hc_setopt_data_fn(CURL *easy, CURLoption option, herald_curl_data_fn value) {
    return curl_easy_setopt(easy, option, value);
}
typedef int (*herald_curl_xferinfo_fn)(
    void *context, curl_off_t downloadTotal, curl_off_t downloaded, curl_off_t uploadTotal, curl_off_t uploaded);
static inline CURLcode hc_setopt_xferinfo_fn(CURL *easy, herald_curl_xferinfo_fn value) {
    return curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, value);
}
static inline CURLcode hc_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}
static inline CURLcode hc_getinfo_offset(CURL *easy, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(easy, info, value);
}
static inline CURLcode hc_getinfo_string(CURL *easy, CURLINFO info, char **value) {
    return curl_easy_getinfo(easy, info, value);
}
static inline CURLMcode hc_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
/// What a write callback returns to pause its transfer (curl keeps the bytes it offered).
static inline size_t hc_write_pause(void) { return CURL_WRITEFUNC_PAUSE; }
/// Resumes a paused transfer (the macro CURLPAUSE_CONT is an expression Swift cannot import).
static inline CURLcode hc_resume(CURL *easy) { return curl_easy_pause(easy, CURLPAUSE_CONT); }
/// The result code of a finished transfer (a member of an anonymous union in CURLMsg).
static inline CURLcode hc_message_result(const CURLMsg *message) { return message->data.result; }

#endif
