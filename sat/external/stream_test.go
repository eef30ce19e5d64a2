package external

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
)

// repeatReader yields head, then body over and over up to size bytes.
type repeatReader struct {
	head, body string
	size, off  int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.off >= r.size {
		return 0, io.EOF
	}
	k := 0
	for k < len(p) && r.off < r.size {
		var c byte
		if r.off < int64(len(r.head)) {
			c = r.head[r.off]
		} else {
			body := r.off - int64(len(r.head))
			c = r.body[body%int64(len(r.body))]
		}
		p[k] = c
		k++
		r.off++
	}
	return k, nil
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestReadResultStreams: an answer is judged as it is read, so that a
// hostile one costs memory only up to its first duplicate variable, and a
// model of distinct variables costs a few bytes per byte read.
func TestReadResultStreams(t *testing.T) {
	const size = 40 << 20
	var err error
	got := allocated(func() {
		_, err = ReadResult(&repeatReader{head: "s SATISFIABLE\nv", body: " 1", size: size})
	})
	var re *ResultError
	if !errors.As(err, &re) || re.Line != 2 || !strings.Contains(err.Error(), "variable 1 given twice (also on line 2)") {
		t.Errorf("ReadResult(v 1 1 1 ...) = %v; want variable 1 given twice on line 2", err)
	}
	if got > 1<<20 {
		t.Errorf("ReadResult(%d MB of v 1 1 1 ...) allocated %d bytes; want under 1 MiB (it stops at the second literal)", size>>20, got)
	}
	// One literal of the largest variable costs no table of all variables.
	got = allocated(func() { _, err = ReadResult(strings.NewReader("v 2147483646 -2147483645 0\n")) })
	if err != nil || got > 1<<20 {
		t.Errorf("ReadResult(v 2147483646 -2147483645 0) = %v after %d bytes allocated; want nil, under 1 MiB", err, got)
	}
	// Distinct variables, 1 to 2^20 (about 7.9 bytes a literal): the
	// model (8 bytes a literal, 40 with all the slices its growth
	// allocates and frees) and little more; even never freed, well
	// within the 16 bytes a byte that --max-input assumes.
	var b strings.Builder
	b.WriteString("s SATISFIABLE\nv")
	for v := 1; v <= 1<<20; v++ {
		b.WriteString(" -")
		b.WriteString(itoa(v))
	}
	b.WriteString(" 0\n")
	in := b.String()
	var res *Result
	got = allocated(func() { res, err = ReadResult(strings.NewReader(in)) })
	if err != nil || len(res.Model) != 1<<20 {
		t.Fatalf("ReadResult(distinct) = %v", err)
	}
	if perByte := float64(got) / float64(len(in)); perByte > 8 {
		t.Errorf("ReadResult(%d bytes, %d literals) allocated %.1f bytes per byte; want at most 8", len(in), 1<<20, perByte)
	}
	// A duplicate far from its first mention is named with both lines.
	_, err = ReadResult(strings.NewReader("v 1 2\nv 3\nv -2 0\n"))
	if !errors.As(err, &re) || re.Line != 3 || !strings.Contains(err.Error(), "variable 2 given twice (also on line 1)") {
		t.Errorf("ReadResult(2 twice) = %v; want variable 2 given twice on line 3, also on line 1", err)
	}
}

func itoa(v int) string {
	var buf [20]byte
	i := len(buf)
	for v > 0 {
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
	}
	return string(buf[i:])
}
