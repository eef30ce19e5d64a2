package cli

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ulikunitz/xz"
)

// Compressed files: an output whose name ends in .gz or .xz is written
// compressed (gzip, xz); every input is read through decompress, which
// recognises gzip and xz by their magic bytes, whatever the file's name.

var (
	gzipMagic = []byte{0x1f, 0x8b}
	xzMagic   = []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}
)

// compressor returns a writer that compresses into w as the suffix of
// path says (.gz: gzip, .xz: xz), or nil for any other name. Close
// writes the end of the compressed stream, not closing w.
func compressor(path string, w io.Writer) (io.WriteCloser, error) {
	switch {
	case strings.HasSuffix(path, ".gz"):
		return gzip.NewWriter(w), nil
	case strings.HasSuffix(path, ".xz"):
		zw, err := xz.NewWriter(w)
		if err != nil {
			return nil, fmt.Errorf("xz: %w", err)
		}
		return zw, nil
	}
	return nil, nil
}

// decompress returns r decompressed if it starts with the magic bytes of
// gzip (any number of members, as gzip -d reads them) or xz, else r as it
// is (read through a buffer).
func decompress(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(len(xzMagic)) // a short file is not compressed
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return zr, nil
	case bytes.Equal(head, xzMagic):
		zr, err := xz.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("xz: %w", err)
		}
		return zr, nil
	}
	return br, nil
}

// inputFile is an opened input file, decompressed (see decompress).
type inputFile struct {
	io.Reader
	f *os.File
}

// openInput opens path for reading, decompressing it if it is gzip or
// xz. The error of a failed open is that of os.Open; that of a corrupt
// compressed header says what it is.
func openInput(path string) (*inputFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := decompress(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &inputFile{Reader: r, f: f}, nil
}

// Close closes the file.
func (in *inputFile) Close() error { return in.f.Close() }
