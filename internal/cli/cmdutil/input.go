package cmdutil

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/queens-dev/queens/internal/memlimit"
	"github.com/queens-dev/queens/sat"
	"github.com/urfave/cli/v2"
)

// Inputs (decode's answer, --cnf and --proof, merge's files, stdin) are
// read within a cap on their decompressed bytes, and every wait on one
// (the open of a FIFO with no writer, a read of a pipe or terminal) ends
// with the run's context: Ctrl-C, SIGTERM or --timeout.

// The default of --max-input follows the memory the process may use
// (memlimit.Usable: the least of the machine's memory, the control
// Group's limit and what ulimit -v leaves): that over memPerInputByte,
// within minMaxInput and maxInputLimit. What reads an input keeps at most
// memPerInputByte bytes of memory for each byte read, measured at its
// worst, a pairwise CNF checked against a proof (decode -n 100 --cnf
// --proof: 334 MB peak resident for the 22.8 MB file, 14.6 bytes a
// byte). So a machine with 24 GB reads 1.5 GiB by default (every CNF
// queens writes up to n = 1000 and more), and a process under ulimit -v
// 1500000 (about 250 MB left beyond the Go runtime's reservation)
// reads minMaxInput, which fits there.
const (
	memPerInputByte = 16
	// minMaxInput is the least default, in MiB.
	minMaxInput = 16
	// maxInputLimit bounds --max-input (MiB): 16 GiB.
	maxInputLimit = 16 << 10
)

// defaultMaxInput returns the default of --max-input, in MiB.
func defaultMaxInput() int {
	mib := memlimit.Usable() / memPerInputByte >> 20
	return int(min(max(mib, minMaxInput), maxInputLimit))
}

// MaxInputFlag is --max-input MIB: how much of each input, after
// decompression, decode and merge read at most.
func MaxInputFlag() cli.Flag {
	def := defaultMaxInput()
	f := IntFlag("max-input", def, 1, maxInputLimit,
		fmt.Sprintf("read at most `MIB` mebibytes of each input, after decompression (1 to %d)", maxInputLimit))
	f.DefaultText = fmt.Sprintf("the memory the process may use / %d, at least %d: %d here", memPerInputByte, minMaxInput, def)
	return f
}

// ErrInputSize is the error of an input read past its cap.
var ErrInputSize = errors.New("over the input limit")

// inputFile is an opened input file, decompressed (see decompress) and
// capped.
type inputFile struct {
	io.Reader
	F    *os.File
	stop func() bool // ends the close on ctx
}

// OpenInputLimit is openInput with the context and cap given.
func OpenInputLimit(ctx context.Context, path string, limit int64) (*inputFile, error) {
	return openInput(ctx, path, limit, nil)
}

// InputOpener opens inputs one after another as OpenInputLimit does, all
// read through one buffer: a merge of a parts directory of one-line files
// allocates no 64 KiB buffer a file (2^24 files: 2 TiB allocated and
// cleared, most of the merge's CPU). Each input must be done with before
// the next is opened. The zero InputOpener is ready to use.
type InputOpener struct {
	br *bufio.Reader
}

// Open opens the input path as OpenInputLimit does, through o's buffer.
func (o *InputOpener) Open(ctx context.Context, path string, limit int64) (*inputFile, error) {
	if o.br == nil {
		o.br = bufio.NewReaderSize(nil, 64<<10)
	}
	return openInput(ctx, path, limit, o.br)
}

// openInput is OpenInputLimit reading through br (nil: a new buffer).
func openInput(ctx context.Context, path string, limit int64, br *bufio.Reader) (*inputFile, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := inputKind(path, st); err != nil {
		return nil, err
	}
	var f *os.File
	if st.Mode()&fs.ModeNamedPipe != 0 {
		// Open blocks until there is a writer: raced against ctx, the
		// open left to the exit if nobody ever writes.
		f, err = sat.Detach(ctx, func() (*os.File, error) { return os.Open(path) })
		if err != nil && ctx.Err() != nil {
			return nil, fmt.Errorf("interrupted while waiting for a writer of %s: %w", path, ctx.Err())
		}
	} else if st.Mode().IsRegular() {
		f, err = openRegular(path)
	} else {
		f, err = os.Open(path) // a terminal is polled: a read of it ends with ctx
	}
	if err != nil {
		return nil, err
	}
	if st, err = f.Stat(); err == nil {
		err = inputKind(path, st)
	}
	if err == nil && st.Mode().IsRegular() && st.Size() > 2*limit+(1<<20) {
		// Even compressed, a file this large decompresses past the cap
		// (and a sparse file would only waste the time to read it).
		err = &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%d bytes, %w of %d MiB (--max-input)", st.Size(), ErrInputSize, limit>>20)}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	// A read of a pipe or terminal waits for the writer: closing the file
	// ends it (Go's poller), and the reader then says why.
	stop := context.AfterFunc(ctx, func() { f.Close() })
	r, err := inputReader(&ctxReader{ctx: ctx, r: f}, limit, br)
	if err != nil {
		stop()
		f.Close()
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return &inputFile{Reader: r, F: f, stop: stop}, nil
}

// inputKind refuses what is no input: a directory, a block device, a
// socket.
func inputKind(path string, st fs.FileInfo) error {
	switch m := st.Mode(); {
	case m.IsDir():
		return &fs.PathError{Op: "read", Path: path, Err: errors.New("is a directory")}
	case m&fs.ModeDevice != 0 && m&fs.ModeCharDevice == 0:
		return &fs.PathError{Op: "read", Path: path, Err: errors.New("is a block device, not a file")}
	case m&fs.ModeSocket != 0:
		return &fs.PathError{Op: "read", Path: path, Err: errors.New("is a socket, not a file")}
	}
	return nil
}

// InputReader returns r decompressed (see decompress) and capped at
// Limit bytes: a read past them fails with ErrInputSize.
func InputReader(ctx context.Context, r io.Reader, limit int64) (io.Reader, error) {
	return inputReader(r, limit, nil)
}

// inputReader is InputReader reading through br (nil: a new buffer).
func inputReader(r io.Reader, limit int64, br *bufio.Reader) (io.Reader, error) {
	r, err := decompress(r, br)
	if err != nil {
		return nil, err
	}
	return &capReader{r: r, left: limit, limit: limit}, nil
}

// AsyncReader is a reader whose reads end with ctx's error once ctx ends,
// even where the read itself cannot be interrupted (a blocking stdin):
// the read goes on in a goroutine of its own, left to the exit.
type AsyncReader struct {
	Ctx     context.Context
	R       io.Reader
	buf     []byte
	rest    []byte // read, not yet returned
	err     error  // the error of the read rest came from
	done    chan readResult
	pending bool
}

type readResult struct {
	n   int
	err error
}

// Read reads from the reader underneath in a goroutine of its own, and
// returns early with the context's error once it is done.
func (ar *AsyncReader) Read(p []byte) (int, error) {
	if err := ar.Ctx.Err(); err != nil {
		return 0, err
	}
	if len(ar.rest) > 0 {
		n := copy(p, ar.rest)
		ar.rest = ar.rest[n:]
		if len(ar.rest) == 0 {
			return n, ar.err
		}
		return n, nil
	}
	if ar.err != nil {
		return 0, ar.err
	}
	if !ar.pending {
		if ar.done == nil {
			ar.buf, ar.done = make([]byte, 64<<10), make(chan readResult, 1)
		}
		ar.pending = true
		go func() {
			n, err := ar.R.Read(ar.buf)
			ar.done <- readResult{n, err}
		}()
	}
	select {
	case res := <-ar.done:
		ar.pending = false
		n := copy(p, ar.buf[:res.n])
		if n < res.n {
			ar.rest, ar.err = ar.buf[n:res.n], res.err
			return n, nil // the error comes with the rest
		}
		return n, res.err
	case <-ar.Ctx.Done():
		return 0, ar.Ctx.Err()
	}
}

// Close closes the file.
func (in *inputFile) Close() error {
	in.stop()
	err := in.F.Close()
	if errors.Is(err, os.ErrClosed) {
		return nil // by the end of the context
	}
	return err
}

// capReader is a reader that fails past limit bytes, rather than end as
// io.LimitReader does: a cut input must not look whole.
type capReader struct {
	r           io.Reader
	left, limit int64
}

func (cr *capReader) Read(p []byte) (int, error) {
	if cr.left <= 0 {
		// One byte more tells a file of exactly limit bytes from a
		// longer one.
		var one [1]byte
		if n, err := cr.r.Read(one[:]); n == 0 {
			return 0, err
		}
		return 0, fmt.Errorf("%w of %d MiB (--max-input)", ErrInputSize, cr.limit>>20)
	}
	if int64(len(p)) > cr.left {
		p = p[:cr.left]
	}
	n, err := cr.r.Read(p)
	cr.left -= int64(n)
	return n, err
}

// ctxReader is a reader that fails with ctx's error once ctx ends (its
// file closed under it, or before a read).
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (cr *ctxReader) Read(p []byte) (int, error) {
	if err := cr.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := cr.r.Read(p)
	if err != nil && err != io.EOF && cr.ctx.Err() != nil {
		return n, cr.ctx.Err()
	}
	return n, err
}
