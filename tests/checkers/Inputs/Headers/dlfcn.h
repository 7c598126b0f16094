/* Minimal <dlfcn.h> (glibc values). Testing purposes only. */

#ifndef _DLFCN_H
#define _DLFCN_H

#define RTLD_LAZY 0x00001
#define RTLD_NOW 0x00002
#define RTLD_LOCAL 0
#define RTLD_GLOBAL 0x00100
#define RTLD_NEXT ((void *)-1l)
#define RTLD_DEFAULT ((void *)0)

#ifdef __cplusplus
extern "C" {
#endif

void *dlopen(const char *file, int mode);
void *dlsym(void *__restrict handle, const char *__restrict name);
int dlclose(void *handle);
char *dlerror(void);

#ifdef __cplusplus
}
#endif

#endif /* _DLFCN_H */
