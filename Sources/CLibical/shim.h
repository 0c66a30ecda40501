#ifndef ICSKIT_CLIBICAL_SHIM_H
#define ICSKIT_CLIBICAL_SHIM_H
// pkg-config gives no include flags for libical, so the header is named by its installed path.
#include <libical/ical.h>
// malloc_trim, for handing memory freed on worker threads back to the system (ProcessMemory).
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif
#endif
