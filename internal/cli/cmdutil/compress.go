package cmdutil

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/zstd"
	"github.com/queens-dev/queens/internal/quote"
	"github.com/ulikunitz/xz"
)

// Compressed files: an output whose name ends in .gz, .xz or .zst (in any
// case: .GZ, .Zst) is written compressed (gzip, xz, zstd), and one with
// the suffix of another compressor or of an archive (.bz2, .lz4, .tgz,
// .zip, ...) is refused rather than written plain;
// every input is read through decompress, which recognises gzip, xz,
// zstd and bzip2 by their magic bytes, whatever the file's name, and
// refuses the other compressed formats it knows by theirs.

var (
	gzipMagic  = []byte{0x1f, 0x8b}
	xzMagic    = []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}
	zstdMagic  = []byte{0x28, 0xb5, 0x2f, 0xfd}
	bzip2Magic = []byte{'B', 'Z', 'h'}
)

// unreadMagic are compressed formats queens does not read, by their
// magic bytes: an input in one is refused by name, not misread as text.
var unreadMagic = []struct {
	magic []byte
	name  string
}{
	{[]byte{0x04, 0x22, 0x4d, 0x18}, "lz4"},
	{[]byte{0x89, 'L', 'Z', 'O'}, "lzop"},
	{[]byte{'L', 'Z', 'I', 'P'}, "lzip"},
	{[]byte{0x1f, 0x9d}, "compress (.Z)"},
	{[]byte{'P', 'K', 0x03, 0x04}, "zip"},
	{[]byte{'7', 'z', 0xbc, 0xaf, 0x27, 0x1c}, "7z"},
	{[]byte{0x5d, 0x00, 0x00}, "lzma"},
}

// unwrittenSuffixes are the suffixes (lower case, matched in any case) of
// compressors and archives queens does not write: an output named so is
// refused, not written as plain text under a name that says otherwise.
// The tar shorthands (.tgz, .txz, ...) are among them: queens writes no
// tar archive, whatever compresses it.
var unwrittenSuffixes = []string{
	".bz2", ".bz", ".lz4", ".lzo", ".lz", ".lzma", ".z", ".zip", ".7z", ".br", ".sz", ".zstd", ".rar", ".lrz",
	".tar", ".tgz", ".taz", ".txz", ".tbz", ".tbz2", ".tb2", ".tlz", ".tz2", ".tzst", ".tzs", ".cpio", ".arj", ".cab", ".jar",
}

// hasSuffixFold reports whether path ends in suffix, in any case.
func hasSuffixFold(path, suffix string) bool {
	return len(path) >= len(suffix) && strings.EqualFold(path[len(path)-len(suffix):], suffix)
}

// zstdMaxWindow bounds the window a zstd input may ask for (zstd -19
// takes 8 MiB, --long 128 MiB): a forged frame header does not size
// memory.
const zstdMaxWindow = 128 << 20

// compressor returns a writer that compresses into w as the suffix of
// path says (.gz: gzip, .xz: xz, .zst: zstd, in any case), or nil for a name that is
// no compressor's. Close writes the end of the compressed stream, not
// closing w.
func compressor(path string, w io.Writer) (io.WriteCloser, error) {
	switch {
	case hasSuffixFold(path, ".gz"):
		return gzip.NewWriter(w), nil
	case hasSuffixFold(path, ".xz"):
		zw, err := xz.NewWriter(w)
		if err != nil {
			return nil, fmt.Errorf("xz: %w", err)
		}
		return zw, nil
	case hasSuffixFold(path, ".zst"):
		zw, err := zstd.NewWriter(w, zstd.WithEncoderConcurrency(1))
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		return zw, nil
	}
	return nil, unwrittenSuffix(path)
}

// unwrittenSuffix refuses an output name with the suffix of a compressor
// or archive queens does not write.
func unwrittenSuffix(path string) error {
	for _, suffix := range unwrittenSuffixes {
		if hasSuffixFold(path, suffix) {
			return fmt.Errorf("queens does not write %s files: it writes gzip (.gz), xz (.xz) and zstd (.zst), "+
				"plain text under any other name; or pipe the output to the compressor", quote.Text(path[len(path)-len(suffix):]))
		}
	}
	return nil
}

// decompress returns r decompressed if it starts with the magic bytes of
// gzip (any number of members, as gzip -d reads them), xz, zstd or
// bzip2, else r as it is (read through a buffer). An input in another
// compressed format it knows is an error that names it. It reads through
// br, reset to r, where br is not nil (the buffer of an earlier input,
// done with), else through a new 64 KiB buffer.
func decompress(r io.Reader, br *bufio.Reader) (io.Reader, error) {
	if br == nil {
		br = bufio.NewReaderSize(r, 64<<10)
	} else {
		br.Reset(r)
	}
	head, _ := br.Peek(len(xzMagic)) // a short file is not compressed
	for _, u := range unreadMagic {
		if bytes.HasPrefix(head, u.magic) {
			return nil, fmt.Errorf("%s-compressed input is not read: decompress it first (queens reads gzip, xz, zstd and bzip2)", u.name)
		}
	}
	switch {
	case bytes.HasPrefix(head, zstdMagic):
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(zstdMaxWindow))
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		return zr.IOReadCloser(), nil
	case bytes.HasPrefix(head, bzip2Magic) && len(head) >= 4 && head[3] >= '1' && head[3] <= '9':
		return bzip2.NewReader(br), nil
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
