#ifndef ICSKIT_CLIBICAL_SHIM_H
#define ICSKIT_CLIBICAL_SHIM_H
// pkg-config gives no include flags for libical, so the header is named by its installed path.
#include <libical/ical.h>
#endif
