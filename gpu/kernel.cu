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

// The second design: count_loop, a grid of persistent threads, each
// pulling tasks by an atomic index and searching them in one loop whose
// every iteration is one step, placing a queen or taking one back, made
// of the same instructions whichever it is (the choice is a select, not a
// branch), so that the 32 lanes of a warp stay in step whatever their
// tasks do. The only other branch is the fetch of a lane's next task, once
// per task. The stack lives in shared memory, lane-interleaved
// ([level][thread]: a warp's 32 accesses to one level are 32 consecutive
// words, one per bank), two words a level: the squares left to try, and
// the column of the queen placed with the rotation from this level's row
// to the next (the diagonals' rotation, r, bits 8..13; the other diagonal
// rotates by -r). Every mask is 32 bits but the two rotated diagonals.
// searchLoop in search.go is its Go twin, statement for statement.

#define LOOP_BLOCK 128 // gpu.loopBlock: threads per block of count_loop

// rotr rotates x right by k, 0 <= k < 64.
__device__ __forceinline__ unsigned long long rotr(unsigned long long x, unsigned int k)
{
	return (x >> k) | (x << ((64 - k) & 63));
}

// count_loop writes to out[i] the number of completions of tasks[i], for
// every i < count, the tasks taken in turn by the threads of the grid
// through *next (0 at launch).
extern "C" __global__ void __launch_bounds__(LOOP_BLOCK) count_loop(const struct task *tasks, unsigned long long *out,
								    unsigned int count, int n, unsigned int *next)
{
	__shared__ unsigned int sa[MAX_ROWS][LOOP_BLOCK]; // per level: the squares left to try
	__shared__ unsigned int sw[MAX_ROWS][LOOP_BLOCK]; // per level: column placed | rotation << 8
	const unsigned int me = threadIdx.x;
	unsigned int ti = 0xffffffffu; // the task searched (none yet)
	unsigned long long sum = 0, x1 = 0, x2 = 0;
	unsigned int a = 0, f = 0;
	unsigned int kl = 0, dl = 0; // the last two rows: the diagonals' rotation from one to the other, their distance
	int d = 0, last = 0;
	for (;;) {
		if (a == 0 && d == 0) { // the task is done: write its count, take the next
			if (ti < count)
				out[ti] = sum;
			ti = atomicAdd(next, 1u);
			if (ti >= count)
				break;
			const struct task *t = &tasks[ti];
			int m = __popc(t->free);
			sum = 0;
			if (m < 3 || m > MAX_ROWS) {
				sum = BAD;
				continue;
			}
			for (int j = 0; j + 1 < m; j++)
				sw[j][me] = (unsigned int)((t->rows[j] - t->rows[j + 1]) & 63) << 8;
			int r0 = t->rows[0];
			x1 = rotr(t->d1, (unsigned int)r0 & 63);
			x2 = rotr(t->d2, (unsigned int)(n - 1 - r0) & 63);
			f = t->free;
			a = f & ~(unsigned int)(x1 | x2);
			last = m - 3; // the level whose children are on the second to last row
			int dr = t->rows[m - 2] - t->rows[m - 1];
			kl = (unsigned int)dr & 63;
			dl = (unsigned int)(dr < 0 ? -dr : dr);
			continue;
		}
		// One step. pop: take back the queen of level d-1; else place the
		// lowest square of a on level d.
		const unsigned int pop = a == 0;
		const int dd = d - (int)pop;
		const unsigned int w = sw[dd][me], saved = sa[dd][me];
		const unsigned int k = (w >> 8) & 63, back = (64 - k) & 63;
		const unsigned int bit = pop ? 1u << (w & 31) : a & (0u - a);
		const unsigned int rest = a & (a - 1);
		const unsigned int nf = f ^ bit;
		// Placing rotates the diagonals with the queen forward (d1 left
		// by k, d2 right); taking it back rotates them backward and
		// clears it: one rotation each, its operands selected.
		const unsigned long long set = pop ? 0ull : (unsigned long long)bit, clear = pop ? (unsigned long long)bit : 0ull;
		const unsigned long long y1 = rotl(x1 | set, pop ? back : k) & ~clear;
		const unsigned long long y2 = rotl(x2 | set, pop ? k : back) & ~clear;
		const unsigned int na = nf & ~(unsigned int)(y1 | y2);
		// On the last level, of the two free columns p and q each may take
		// the second to last row and leave the other to the last one: the
		// last row's squares the queens so far attack, rotated there once,
		// and those the queen on the second to last row attacks, dl columns
		// either side (as rotating it there would give, n <= 32).
		const unsigned int att = (unsigned int)(rotl(y1, kl) | rotr(y2, kl));
		const unsigned int p = nf & (0u - nf), q = nf ^ p;
		const unsigned int pq = q & ~(att | p << dl | p >> dl);
		const unsigned int qp = p & ~(att | q << dl | q >> dl);
		const unsigned int atLast = !pop & (d == last);
		const unsigned int found = (unsigned int)(((na & p) != 0) & (pq != 0)) + (unsigned int)(((na & q) != 0) & (qp != 0));
		sum += found & (0u - atLast);
		const unsigned int push = !pop & (d != last) & (na != 0);
		if (push) {
			sa[d][me] = rest;
			sw[d][me] = ((unsigned int)__ffs(bit) - 1) | k << 8;
		}
		const unsigned int moves = pop | push;
		a = pop ? saved : push ? na : rest;
		f = moves ? nf : f;
		x1 = moves ? y1 : x1;
		x2 = moves ? y2 : x2;
		d = pop ? dd : d + (int)push;
	}
}
