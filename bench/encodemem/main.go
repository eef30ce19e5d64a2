// Encodemem writes the n-queens CNF to a file the old way (the whole
// formula built as a [encode.CNF], then written) or streamed
// ([encode.DIMACS.WriteEncoder]), so that bench/encode-mem.sh can compare
// their peak memory with GNU time. Usage:
//
//	go run ./bench/encodemem -n 1000 [-encoding auto] [-mode stream|cnf|flat] [-o /dev/null]
//
// Mode flat fills an int32 literal buffer with [encode.Encoder.AppendFlat],
// as a solver fed directly would.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/queens-dev/queens/encode"
)

func main() {
	n := flag.Int("n", 1000, "board size")
	name := flag.String("encoding", "auto", "at-most-one encoding")
	mode := flag.String("mode", "stream", "stream, cnf or flat")
	out := flag.String("o", "/dev/null", "output file")
	flag.Parse()
	if err := run(*n, *name, *mode, *out); err != nil {
		fmt.Fprintln(os.Stderr, "encodemem:", err)
		os.Exit(1)
	}
}

func run(n int, name, mode, out string) error {
	enc, err := encode.ParseEncoding(name)
	if err != nil {
		return err
	}
	e, err := encode.NewEncoder(n, encode.Options{Encoding: enc})
	if err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	ctx := context.Background()
	switch mode {
	case "stream":
		err = e.WriteDIMACS(ctx, f)
	case "cnf":
		var cnf *encode.CNF
		if cnf, err = e.CNF(ctx); err == nil {
			err = encode.WriteDIMACS(f, cnf)
		}
	case "flat":
		_, c := e.Size()
		var flat []int32
		if flat, err = e.AppendFlat(ctx, make([]int32, 0, 3*c+c/2)); err == nil {
			w := bufio.NewWriter(f)
			fmt.Fprintln(w, len(flat), "literals and zeros")
			err = w.Flush()
		}
	default:
		return fmt.Errorf("unknown mode %q", mode)
	}
	if err != nil {
		return err
	}
	return f.Close()
}
