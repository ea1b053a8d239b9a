/*
 * For tests/c/threads.c against a library built with rustc's
 * -Zsanitizer=thread (make test-tsan): rustc's LLVM instruments memcpy,
 * memmove and memset as calls to __tsan_memcpy, __tsan_memmove and
 * __tsan_memset, which gcc's older ThreadSanitizer runtime lacks. Here they
 * call the C functions, which that runtime intercepts and checks as the
 * reads and writes of a range.
 */
#include <string.h>

void *__tsan_memcpy(void *to, const void *from, size_t len);
void *__tsan_memmove(void *to, const void *from, size_t len);
void *__tsan_memset(void *to, int byte, size_t len);

void *__tsan_memcpy(void *to, const void *from, size_t len) { return memcpy(to, from, len); }
void *__tsan_memmove(void *to, const void *from, size_t len) { return memmove(to, from, len); }
void *__tsan_memset(void *to, int byte, size_t len) { return memset(to, byte, len); }
