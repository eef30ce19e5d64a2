// Package gpu counts the solutions of the N-Queens puzzle on an NVIDIA GPU,
// with the CUDA driver loaded at run time (libcuda.so.1, through purego:
// no cgo, no CUDA toolkit at build time). On other platforms than
// linux/amd64 and linux/arm64 it builds, and [Count] returns an error
// wrapping [ErrNoDevice].
//
// The work is split as in [backtrack.Count]: into the pieces of
// [backtrack.Subproblems], constellations of border queens weighted by
// the number of their images under the 8 symmetries. The host splits each
// piece further, placing queens the way backtrack's search does (the row
// with the fewest free squares next) until [Options].Rows rows are empty,
// and freezes the order of those rows. Each such task, a 40-byte record
//
//	d1, d2  uint64     diagonals taken: bit row+col, bit col-row+n-1
//	free    uint32     free columns, one per empty row (m of them)
//	piece   uint32     index of the piece the task belongs to
//	rows    [16]uint8  the m empty rows in the order they are filled
//
// is searched with backtrack's tight loop: a depth-first search with an
// explicit stack, the diagonals kept rotated to the current row, the last
// two rows finished in registers (kernel.cu). Two kernels do it, picked
// by [Options].Design: [DesignTask], one GPU thread per task with its
// stack in local memory, and [DesignLoop], persistent threads that take
// tasks by an atomic index and run one loop of uniform steps (a queen
// placed or taken back, chosen by selects) with the stack in shared
// memory, lane-interleaved, fed through pinned buffers on two streams so
// that splitting, copies and kernels overlap.
// The host adds each task's count to its piece, and multiplies by the
// piece's weight. The symmetric piece ([backtrack.Subproblem.Symmetric]), which counts the
// solutions a turn maps to themselves for the unique count by Burnside's
// lemma, is counted on the host by backtrack.
//
// [Reference] does the same on the CPU with the Go twins of the kernels
// (search and searchLoop), so that every machine tests the split, the
// loops and the sums.
// Tests also compile kernel.cu itself as C++ for the host, and run [Count]
// end to end against a fake libcuda.so.1 whose kernel launch runs that
// host build. The kernel is embedded as PTX (kernel.ptx, made by go
// generate with nvcc, or with clang's NVPTX back end where there is no
// nvcc) and compiled for the device by the driver when [Count] runs; a
// build whose kernel.ptx is empty returns [ErrKernel].
package gpu
