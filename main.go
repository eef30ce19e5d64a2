// Queens solves, enumerates and counts N-Queens placements two independent
// ways and checks one against the other: a native backtracker (with a fast
// bitboard counter) and a CNF encoding solved by the gini SAT solver or any
// DIMACS solver.
//
// Usage:
//
//	queens COMMAND [flags]
//
// Commands:
//
//	backtrack  solve, enumerate or count with the native backtracker
//	sat        solve, enumerate or count as SAT (gini, or --solver CMD)
//	dimacs     write the puzzle as a DIMACS CNF (--encoding E)
//	decode     read a SAT solver's output, draw and verify the board
//	trace      the backtracking search step by step: text, boards, JSON
//	           Lines or an animated GIF (--gif FILE)
//	compare    cross-check the engines, external solvers and published counts;
//	           --strategies: the backtracker's algorithms side by side
//	           (queens placed and time per algorithm, every solution checked)
//	merge      sum the results of backtrack --count --shard I/K, checked
//	board      draw the queens given with --place, no search (a partial
//	           board; --format attacks: how many queens attack each square)
//	check      read an answer (perm, coords, matrix, board or json, as
//	           arguments or on stdin): valid, or which queens attack each
//	           other (exit status 1)
//	serve      the interactive board in a browser (--addr HOST:PORT, --open):
//	           place queens, see the attacks, solve, count, step through
//	           the search, the gallery of solutions, export
//	version    the version (the name merge compares across shards), the VCS
//	           revision and the Go version; queens --version prints the same
//
// Run "queens help COMMAND" for a command's flags. Shared flags:
//
//	-n N            board size (each command states its own upper limit)
//	--place R:C     a pre-placed queen, 1-based row (from the top) and
//	                column (from the left); repeatable
//	--all           every solution, as a stream
//	--count         the number of solutions only
//	--limit K       at most K solutions
//	--unique        only solutions distinct up to rotation and reflection
//	                (with --count: also the number of those classes);
//	                --unique=rotations: up to rotation only (24 for n = 8);
//	                with --place, the classes of the completions under the
//	                symmetries that keep the placed queens in place
//	--order O       rows (the default) or columns: the lines the backtracker
//	                fills, one queen each (backtrack, trace)
//	--strategy S    the algorithm (backtrack, trace): lex (the textbook
//	                order), iterative (lex without recursion), cells (any
//	                free cell of the board, n <= 10), generate (every
//	                permutation, tested once complete, n <= 10); backtrack
//	                also heuristic and auto (lex to n = 24, then heuristic)
//	--format F      board, matrix, coords, perm, json, svg, png, fen or attacks;
//	                sat also competition (s/v lines, exit status 10 or 20)
//	--attacks       with svg or png, shade the squares the queens attack
//	--numbers       with svg or png, write the attack count in each square
//	-o FILE         write the result to FILE. A regular file (or the one a
//	                symbolic link leads to) is written to a temporary name
//	                next to it, .FILE.queens-tmp-HOST-ID-PID-RANDOM, and
//	                renamed, so that an interrupted run leaves no half file;
//	                it keeps the permission bits of the file it replaces, a
//	                new one gets those the umask allows. A temporary file
//	                left by a run killed with SIGKILL is removed by the next
//	                run writing to that directory on the same machine (ID:
//	                host name, boot and PID namespace), or by any run once
//	                untouched for 24 hours (a live run touches its file
//	                hourly); only names of exactly that form are removed.
//	                Another host's run on shared storage keeps its file. A character device (/dev/null) and a FIFO are
//	                written directly, /dev/stdout (/dev/fd/N) through the
//	                descriptor queens inherited; a block device is refused.
//	--stats         statistics on stderr, after the results (one JSON
//	                object with --format json)
//	--threads T     worker threads, 1 to 1024 (default: GOMAXPROCS, the CPUs
//	                the process may use: its affinity mask and its cgroup CPU limit)
//	--timeout D     give up after D (a Go duration, not negative), exit
//	                status 1; it covers encoding and loading too
//
// Numbers are decimal (-n 010 is ten), and an empty value (-o "") is a
// usage error.
//
// Counting engines (backtrack --count):
//
//	--engine E      join: the half-board join (meet in the middle: the
//	                placements of the top and the bottom half rows, matched
//	                512 at a time by their diagonals with AVX-512, 64 at a
//	                time elsewhere); constellations: the bitboard counter
//	                (border queens in canonical form, each completed by a
//	                search). auto, the default, takes join for
//	                8 <= N <= 20, where it measured faster on one thread
//	                (n = 16: 0.15 s against 1.2 s of CPU, n = 18: 4 s
//	                against 52 s), and constellations else and always for --place,
//	                --gpu, --shard and --checkpoint. --engine join with
//	                --shard or --checkpoint counts the join's own pieces
//	                (scheme join-parts-3: the parts named by the middle-row
//	                queen and the outer columns of the top half, and the
//	                symmetric piece); merge takes join shards only with
//	                join shards and --verify recounts them with the join.
//	--memory M      with the join, the memory its halves may take at once
//	                (256MiB, 4GiB; at most half of what the process may
//	                use: RAM, cgroup limit, ulimit -v; default 20MiB a
//	                thread up to N = 19, 4 times more a size beyond);
//	                less counts in more, smaller parts, to the same count,
//	                also with --shard and --checkpoint; below 1MiB is a
//	                usage error
//
// Counting across machines (backtrack --count):
//
//	--gpu           count on an NVIDIA GPU (the CUDA driver, loaded at run
//	                time); --gpu=auto: on the GPU when one is usable
//	--gpu-kernel K  the GPU kernel: task (the first design, the default) or
//	                loop (persistent threads in one uniform loop, two streams)
//
//	--shard I/K     count shard I of K (0-based; --shard-base 1 for 1-based);
//	                the index may also come from JOB_COMPLETION_INDEX or
//	                SLURM_ARRAY_TASK_ID, K from --shard-count or
//	                SLURM_ARRAY_TASK_COUNT; prints one JSON line for merge
//	--split M       split each constellation into M sub-parts (2 to 65536;
//	                auto: 2^(N-16) from N = 24, else whole), the pieces of
//	                --shard and --checkpoint, for shards of a few core-hours
//	                at N = 28 (the scheme round-robin-split; not with --gpu)
//	--checkpoint F  record finished pieces in F; the same command again
//	                continues where an interrupted run stopped (-o naming
//	                F or F.lock, by any path or link, is a usage error)
//	--progress-every D  with --count and stderr not a terminal (a
//	                batch log): a progress line every D (1m; 0: none). --count --shard takes N <= 32 (128-bit sums; no
//	                count is published beyond 27), a whole --count N <= 27.
//
// merge (queens merge [flags] FILE... | DIR... | -) checks and sums the
// lines, one at a time (a directory: its *.jsonl files):
//
//	--verify K|P%   recount K pieces drawn at random (or as many as catch,
//	                with probability P, a worker that forged --forged of
//	                them); the seed is random unless --seed S, and printed,
//	                with the chance of catching a worker that forged 1
//	                piece and 1% of the pieces (--forged F or P%)
//	--record F      write the record of the merge (count, versions,
//	                engines, seed, pieces recounted, each line's checksum,
//	                host and elapsed) to F; --check-record F FILE... checks
//	                it against the lines, recounting the same pieces
//	--confirm A B FILE... check the records A and B of one count by two
//	                independent engines (the constellations and the join)
//	                against their lines, exit 0 only when both check and agree
//	--threads T     recount on T threads (--verify, --check-record, --confirm)
//	--progress DIR... how far a running count is (pieces, work, ETA,
//	                shards whose checkpoint is older than --stale)
//	--max-input MIB read at most MIB mebibytes of each input after
//	                decompression (default: the memory the process may use,
//	                RAM, cgroup or ulimit -v, over 16, at least 16; decode
//	                takes it too). Inputs
//	                compressed with gzip, xz, zstd or bzip2 are read by their
//	                magic bytes; -o FILE.gz, .xz or .zst (any case) writes
//	                gzip, xz or zstd, and the suffixes of other compressors
//	                and archives (.bz2, .tgz, .zip, ...) are refused.
//
// Output formats (results on stdout, everything else on stderr):
//
//	board    the board drawn with Q and ., rows and columns labelled from 1
//	matrix   the 0/1 matrix, one row per line
//	coords   1-based ROW:COL of each queen on one line: 1:2 2:4 3:1 4:3
//	perm     1-based column of the queen in each row:   2 4 1 3
//	json     JSON Lines, 0-based: {"n":4,"queens":[1,3,0,2]}
//	attacks  for every square the number of queens attacking it, -1 a queen
//	fen      n = 8 only: a chess FEN, white queens, one line per solution:
//	         Q7/4Q3/7Q/5Q2/2Q5/6Q1/1Q6/3Q4 w - - 0 1
//	svg      a picture of the board (checkerboard, labels, queens; pre-placed
//	png      queens in blue; --attacks shades attacked squares), n <= 256.
//	         One solution per picture: to stdout or -o FILE with --limit 1
//	         (or without --all), or -o DIR/ for one file per solution,
//	         DIR/queens-N-0001.svg, ... (at most 10000 files, checked
//	         before the first: --limit K, or --all on a board with at most
//	         10000 solutions). A PNG is not written to a terminal.
//
// Block formats (board, matrix) separate solutions with a blank line. A
// count prints "T solutions" ("1 solution" for one), or "T solutions (U
// unique)" with --unique; in JSON, {"n":8,"total":92,"unique":12}. No solution (n = 2 or 3, or
// pre-placed queens that cannot be completed) is an answer: "no solution",
// exit status 0.
//
// Exit status: 0 success (including "no solution"); 1 a failed check, a
// run stopped by --timeout or a failing external solver; 2 a usage or input
// error (bad flag, bad file, n out of range, a --solver that is not
// installed); 3 an answer printed but verified by no referee and no proof
// (a solver's UNSATISFIABLE or count beyond the referee's reach, or an
// UNSATISFIABLE of a --cnf that is not exactly the queens instance; stderr
// says "queens: unverified: ...", and the JSON of the answer has
// "verified": false); 10 and 20 the answers of sat --format competition
// (SATISFIABLE and UNSATISFIABLE, as SAT solvers exit; never 0 in that
// format); 75 a shard that cannot run here now (its checkpoint
// in use, or the machine's memory too small for the join's pieces: the
// cluster plans retry it elsewhere); 130 interrupted (Ctrl-C, SIGTERM, SIGHUP or SIGQUIT: the run says how
// far it got and leaves no file; under nohup, SIGHUP stays ignored). A failed write to stdout (a full disk,
// /dev/full) is exit status 1, for every command, help included. When
// stdout is closed early (queens ... | head), the process ends silently by
// SIGPIPE (141 in a shell). Solutions written to a pipe or terminal are
// flushed as they come when the engine is slow (the first one at once).
package main

import (
	"os"

	"github.com/queens-dev/queens/internal/cli"
)

func main() { os.Exit(cli.Run(os.Args, os.Stdout, os.Stderr)) }
