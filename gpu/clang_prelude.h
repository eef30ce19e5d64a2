// clang_prelude.h defines, for clang (which compiles kernel.cu to PTX
// without the CUDA toolkit: -nocudainc), the few CUDA names kernel.cu uses
// that the toolkit's headers would. ptx.sh includes it with -include.
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __launch_bounds__(n) __attribute__((launch_bounds(n)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#include <__clang_cuda_builtin_vars.h>
#define __popc __builtin_popcount
#define __ffs __builtin_ffs
#define atomicAdd(p, v) ((unsigned int)__nvvm_atom_add_gen_i((int *)(p), (int)(v)))
