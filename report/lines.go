package report

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash"
	"io"
)

// Limits of what one source (a file or stdin) may hold. They keep an endless or hostile
// input (/dev/zero, a FIFO, a binary file) from taking all memory: a line longer than
// MaxLineBytes is a problem, skipped without being kept; a source longer than
// MaxSourceBytes or with more than MaxSourceLines non-blank lines is an error naming the
// file, and nothing after the limit is read. A real result file is far below both: a
// point with 10,000 repetitions is about 200 KB.
var (
	MaxLineBytes   = 16 << 20
	MaxSourceBytes = int64(4 << 30)
	MaxSourceLines = 4_000_000
)

// maxProblems is how many problems one source lists; the rest are counted in one more.
const maxProblems = 1000

var bom = []byte("\xef\xbb\xbf")

// lineReader reads a source line by line within the limits.
type lineReader struct {
	br    *bufio.Reader
	name  string
	sum   hash.Hash // when set, sees every byte read
	bytes int64
	line  int // number of the line last returned
	lines int // non-blank lines so far
	buf   []byte
}

func newLineReader(r io.Reader, name string) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 1<<16), name: name}
}

// next returns the next line without its line end and surrounding blanks (and the
// byte-order mark some editors put first). long: the line was longer than MaxLineBytes
// and b is empty; complete: it ended with a newline. At the end err is io.EOF; a limit
// reached is a Problem; anything else is an I/O error.
func (lr *lineReader) next() (b []byte, long, complete bool, err error) {
	lr.buf = lr.buf[:0]
	got := false
	for {
		chunk, rerr := lr.br.ReadSlice('\n')
		got = got || len(chunk) > 0
		lr.bytes += int64(len(chunk))
		if lr.sum != nil {
			lr.sum.Write(chunk)
		}
		if lr.bytes > MaxSourceBytes {
			return nil, false, false, lr.limit(fmt.Sprintf("more than %s of input, the limit of one source: nothing after this line is read", Bytes(MaxSourceBytes)))
		}
		if !long {
			if len(lr.buf)+len(chunk) > MaxLineBytes+1 {
				long, lr.buf = true, lr.buf[:0]
			} else {
				lr.buf = append(lr.buf, chunk...)
			}
		}
		switch {
		case rerr == nil:
			complete = true
		case errors.Is(rerr, bufio.ErrBufferFull):
			continue
		case rerr == io.EOF:
			if !got {
				return nil, false, false, io.EOF
			}
		default:
			return nil, false, false, fmt.Errorf("reading %s: %w", lr.name, rerr)
		}
		break
	}
	lr.line++
	b = lr.buf
	if lr.line == 1 {
		b = bytes.TrimPrefix(b, bom)
	}
	b = bytes.TrimSpace(b)
	if len(b) > 0 || long {
		lr.lines++
		if lr.lines > MaxSourceLines {
			return nil, false, false, lr.limit(fmt.Sprintf("more than %d lines, the limit of one source: nothing after this line is read", MaxSourceLines))
		}
	}
	return b, long, complete, nil
}

func (lr *lineReader) limit(msg string) error {
	return &Problem{File: lr.name, Line: lr.line + 1, Msg: msg}
}

// problems collects a source's problems, listing at most maxProblems.
type problems struct {
	res            *Results
	name           string
	hidden, errors int
}

func (ps *problems) add(line int, msg string, warning bool) {
	if len(ps.res.Problems) < maxProblems {
		ps.res.Problems = append(ps.res.Problems, Problem{File: ps.name, Line: line, Msg: msg, Warning: warning})
		return
	}
	ps.hidden++
	if !warning {
		ps.errors++
	}
}

// close adds the count of the problems not listed.
func (ps *problems) close(line int) {
	if ps.hidden > 0 {
		ps.res.Problems = append(ps.res.Problems, Problem{File: ps.name, Line: line, Warning: ps.errors == 0,
			Msg: fmt.Sprintf("%d more problem(s) not listed (%d of them errors)", ps.hidden, ps.errors)})
	}
}
