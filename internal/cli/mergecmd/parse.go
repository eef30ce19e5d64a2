package mergecmd

import (
	"errors"

	"github.com/queens-dev/queens/shard"
)

// parsePipeline parses the lines of a merge on several goroutines and
// adds them, in the order read, on one: batches of lines go to the
// parsers and, in order, to the adder, at most a few per parser in
// flight, so that memory stays that of a few batches.
type parsePipeline struct {
	add    func(shard.Result) error
	cur    *lineBatch
	jobs   chan *lineBatch // to the parsers
	order  chan *lineBatch // to the adder, in the order read
	stop   chan struct{}   // closed when the adder fails
	result chan error      // the adder's first error, or nil
}

// lineBatch is a batch of lines and, once done is closed, their results.
type lineBatch struct {
	names []string
	lines []int
	texts [][]byte
	size  int
	res   []shard.Result // of the lines before err's
	err   error          // the first line's that does not parse
	done  chan struct{}
}

// batchLines and batchBytes bound a batch.
const (
	batchLines = 256
	batchBytes = 256 << 10
)

// errStopped stops the reading of lines once the adder failed.
var errStopped = errors.New("merge stopped")

// newParsePipeline starts threads parsers and an adder calling add.
func newParsePipeline(threads int, add func(shard.Result) error) *parsePipeline {
	p := &parsePipeline{add: add, jobs: make(chan *lineBatch, threads), order: make(chan *lineBatch, threads),
		stop: make(chan struct{}), result: make(chan error, 1)}
	for range threads {
		go func() {
			for b := range p.jobs {
				for i, text := range b.texts {
					r, err := parseLine(b.names[i], b.lines[i], text)
					if err != nil {
						b.err = err
						break
					}
					b.res = append(b.res, r)
				}
				b.texts = nil
				close(b.done)
			}
		}()
	}
	go func() {
		var err error
		for b := range p.order {
			<-b.done
			if err != nil {
				continue // drained
			}
			for _, r := range b.res {
				if err = addFailed(p.add(r)); err != nil {
					break
				}
			}
			if err == nil {
				err = b.err
			}
			if err != nil {
				close(p.stop)
			}
		}
		p.result <- err
	}()
	return p
}

// emit adds a line (text, copied) to the batch being filled, sending it
// On when full; it returns errStopped once the adder failed.
func (p *parsePipeline) emit(name string, line int, text []byte) error {
	select {
	case <-p.stop:
		return errStopped
	default:
	}
	if p.cur == nil {
		p.cur = &lineBatch{done: make(chan struct{})}
	}
	b := p.cur
	b.names, b.lines, b.texts = append(b.names, name), append(b.lines, line), append(b.texts, append([]byte(nil), text...))
	if b.size += len(text); len(b.texts) >= batchLines || b.size >= batchBytes {
		p.send()
	}
	return nil
}

// send sends the batch being filled to the adder and the parsers.
func (p *parsePipeline) send() {
	p.order <- p.cur
	p.jobs <- p.cur
	p.cur = nil
}

// close sends the last batch, waits for every line to be added and
// returns the adder's first error (a parse error or add's), or nil.
func (p *parsePipeline) close() error {
	if p.cur != nil {
		p.send()
	}
	close(p.order)
	close(p.jobs)
	return <-p.result
}
