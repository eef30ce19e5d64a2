// kernel.cu: the CUDA kernel of package gpu, compiled to kernel.ptx by
// `go generate ./gpu` (ptx.sh: nvcc -ptx -arch=compute_80 -O3, or clang
// with clang_prelude.h) and loaded at run time through the CUDA driver API.
// count_tasks is search() in search.go, statement for statement: keep the
// two in step. Tests compile this file for the host too (testdata/), so it
// uses no CUDA name beyond those that host.cpp and fakecuda.cpp define.

#define MAX_ROWS 16 // gpu.MaxRows
#define BAD 0xffffffffffffffffULL // gpu.bad: a task the kernel refuses

// struct task is gpu.task: a partial placement of an n×n board. free: the
// free columns (as many as empty rows, m); d1: bit row+col, d2: bit
// col-row+n-1 of every queen placed; rows[0:m]: the empty rows in the
// order the search fills them; piece: used by the host only.
struct task {
	unsigned long long d1, d2;
	unsigned int free, piece;
	unsigned char rows[MAX_ROWS];
};
static_assert(sizeof(struct task) == 40, "struct task must match gpu.task");

// rotl rotates x left by k, 0 <= k < 64.
__device__ __forceinline__ unsigned long long rotl(unsigned long long x, unsigned int k)
{
	return (x << k) | (x >> ((64 - k) & 63));
}

// count_tasks writes to out[i] the number of completions of tasks[i], for
// i < count: a depth-first search of the rows in their given order with an
// explicit stack of 8 bytes a level, the diagonals kept rotated so that
// bit c is column c of the current row, the last two rows finished in
// registers.
extern "C" __global__ void count_tasks(const struct task *tasks, unsigned long long *out, unsigned int count, int n)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= count)
		return;
	const struct task *t = &tasks[i];
	int m = __popc(t->free);
	if (m < 3 || m > MAX_ROWS) {
		out[i] = BAD;
		return;
	}
	unsigned char r1[MAX_ROWS], r2[MAX_ROWS]; // rotations from level d to d+1
	for (int d = 0; d + 1 < m; d++) {
		r1[d] = (unsigned char)((t->rows[d] - t->rows[d + 1]) & 63);
		r2[d] = (unsigned char)((t->rows[d + 1] - t->rows[d]) & 63);
	}
	int r0 = t->rows[0];
	unsigned long long x1 = rotl(t->d1, (unsigned int)(-r0) & 63);
	unsigned long long x2 = rotl(t->d2, (unsigned int)(-(n - 1 - r0)) & 63);
	unsigned int f = t->free;
	unsigned int a = f & ~(unsigned int)(x1 | x2);
	int last = m - 3; // the level whose children are on the second to last row
	// A stack level holds the squares left to try and the queen placed;
	// going back up undoes the queen, rotating the diagonals back.
	unsigned int sa[MAX_ROWS], sbit[MAX_ROWS];
	int d = 0;
	unsigned long long sum = 0;
	for (;;) {
		if (a == 0) {
			if (d == 0)
				break;
			d--;
			unsigned int bit = sbit[d];
			a = sa[d];
			f |= bit;
			x1 = rotl(x1, (64 - r1[d]) & 63) & ~(unsigned long long)bit;
			x2 = rotl(x2, (64 - r2[d]) & 63) & ~(unsigned long long)bit;
			continue;
		}
		unsigned int bit = a & (0u - a);
		a &= a - 1;
		unsigned int nf = f ^ bit;
		unsigned long long nx1 = rotl(x1 | bit, r1[d]);
		unsigned long long nx2 = rotl(x2 | bit, r2[d]);
		unsigned int na = nf & ~(unsigned int)(nx1 | nx2);
		if (d == last) {
			// Of the two free columns p and q, each may take the second
			// to last row and leave the other to the last one.
			unsigned int k1 = r1[d + 1], k2 = r2[d + 1];
			unsigned int p = nf & (0u - nf);
			unsigned int q = nf ^ p;
			unsigned long long pq = (unsigned long long)q & ~(rotl(nx1 | p, k1) | rotl(nx2 | p, k2));
			unsigned long long qp = (unsigned long long)p & ~(rotl(nx1 | q, k1) | rotl(nx2 | q, k2));
			sum += (unsigned long long)((na & p) != 0 && pq != 0) + (unsigned long long)((na & q) != 0 && qp != 0);
			continue;
		}
		if (na != 0) {
			sa[d] = a;
			sbit[d] = bit;
			d++;
			a = na;
			f = nf;
			x1 = nx1;
			x2 = nx2;
		}
	}
	out[i] = sum;
}
