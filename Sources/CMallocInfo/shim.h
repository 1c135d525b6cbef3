// glibc's heap statistics (`mallinfo2`), which the Glibc module leaves out; the crash child
// measures allocations with them.
#if __has_include(<malloc.h>)
#include <malloc.h>
#endif
