package collrules

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Open MPI's dynamic rules file, as coll/tuned reads it
// (ompi/mca/coll/tuned/coll_tuned_dynamic_file.c, 4.1 and 5.0; numbers read with
// fscanf("%li"), '#' to the end of the line a comment):
//
//	[rule-file-version-2]        optional, 5.0.7 and later only
//	NCOL                         number of collectives
//	  COLID                      Open MPI's COLLTYPE id (allreduce 2, bcast 7, ...)
//	  NCOMSIZES
//	    COMSIZE NMSGSIZES
//	      MSGSIZE ALG FANINOUT SEGSIZE [MAXREQ]   MAXREQ only in version 2, on the same line
//
// Open MPI uses the rules of the largest communicator size at or below the
// communicator's (the first when all are larger), and in them the last message rule
// at or below the call's message size; the first message rule must be for size 0.
// Algorithm 0 falls through to Open MPI's fixed decision: the default.

// OMPIFile is a rules file as Open MPI reads it.
type OMPIFile struct {
	Version int // 1 without a header
	Colls   []OMPIColl
}

// OMPIColl is one collective's rules in the file.
type OMPIColl struct {
	ID    int
	Comms []OMPIComm
}

// OMPIComm is one communicator size's message size rules.
type OMPIComm struct {
	Size int
	Msgs []OMPIMsg
}

// OMPIMsg is one message size rule. MaxReq is -1 when the file does not give it.
type OMPIMsg struct {
	Size                           int64
	Alg, Faninout, SegSize, MaxReq int64
}

// OMPIFile builds the file for rules (their Library must be OpenMPI): explicit
// default rules (algorithm 0) at communicator size 0, above every measured
// communicator size that the next one does not follow, and around every size range
// with a winner, so wherever Rules.Choose says default Open MPI decides as it would
// without the file.
func (r Rules) OMPIFile() (OMPIFile, error) {
	if r.Library != OpenMPI {
		return OMPIFile{}, fmt.Errorf("rules for %s, not Open MPI", r.Library)
	}
	f := OMPIFile{Version: 1}
	def := OMPIMsg{MaxReq: -1}
	for _, cr := range r.Colls {
		c, err := Lookup(cr.Collective)
		if err != nil {
			return OMPIFile{}, err
		}
		if c.OMPIID < 0 {
			return OMPIFile{}, fmt.Errorf("Open MPI's tuned component has no dynamic rules for %s", c.Name)
		}
		oc := OMPIColl{ID: c.OMPIID, Comms: []OMPIComm{{Size: 0, Msgs: []OMPIMsg{def}}}}
		for i, comm := range cr.Comms {
			msgs, err := ompiMsgs(c, comm)
			if err != nil {
				return OMPIFile{}, err
			}
			oc.Comms = append(oc.Comms, OMPIComm{Size: comm.NP, Msgs: msgs})
			if i+1 == len(cr.Comms) || cr.Comms[i+1].NP > comm.NP+1 {
				oc.Comms = append(oc.Comms, OMPIComm{Size: comm.NP + 1, Msgs: []OMPIMsg{def}})
			}
		}
		f.Colls = append(f.Colls, oc)
	}
	return f, nil
}

// ompiMsgs are one communicator size's message rules, in the sizes Open MPI
// compares for the collective.
func ompiMsgs(c Collective, comm CommRules) ([]OMPIMsg, error) {
	def := OMPIMsg{MaxReq: -1}
	rule := func(size int64, ch Choice) OMPIMsg {
		return OMPIMsg{Size: size, Alg: int64(ch.ID), Faninout: int64(ch.Faninout), SegSize: ch.SegSize, MaxReq: -1}
	}
	if len(comm.Sizes) == 0 {
		return []OMPIMsg{def}, nil
	}
	if c.OMPIKey == KeyNone {
		ch := comm.Sizes[0].Choice
		for _, s := range comm.Sizes[1:] {
			if s.Choice != ch {
				return nil, fmt.Errorf("Open MPI chooses %s's algorithm by communicator size alone, but on %d processes the rules name %s and %s", c.Name, comm.NP, ch.Algorithm, s.Algorithm)
			}
		}
		return []OMPIMsg{rule(0, ch)}, nil
	}
	var msgs []OMPIMsg
	chosen := comm.chosen()
	for i, s := range chosen {
		from := c.OMPIKey.key(s.From, comm.NP)
		if len(msgs) == 0 && from > 0 {
			msgs = append(msgs, def)
		}
		msgs = append(msgs, rule(from, s.Choice))
		end := c.OMPIKey.key(s.To, comm.NP) + 1
		if i+1 == len(chosen) || c.OMPIKey.key(chosen[i+1].From, comm.NP) > end {
			d := def
			d.Size = end
			msgs = append(msgs, d)
		}
	}
	if len(msgs) == 0 {
		msgs = append(msgs, def)
	}
	return msgs, nil
}

// Write writes the file with comments that name each collective and algorithm
// (algs: the algorithms by collective, as ompi_info lists them; may be nil).
func (f OMPIFile) Write(w io.Writer, algs map[string][]Algorithm) error {
	b := &strings.Builder{}
	if f.Version > 1 {
		fmt.Fprintf(b, "rule-file-version-%d\n", f.Version)
	}
	fmt.Fprintf(b, "# Open MPI coll/tuned dynamic rules, written by skampi tune\n")
	fmt.Fprintf(b, "# use: OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_dynamic_rules_filename=<this file>\n")
	fmt.Fprintf(b, "%d # collectives\n", len(f.Colls))
	for _, c := range f.Colls {
		name := fmt.Sprintf("collective id %d", c.ID)
		coll, ok := byOMPIID(c.ID)
		if ok {
			name = coll.Name
		}
		fmt.Fprintf(b, "%d # %s\n", c.ID, name)
		fmt.Fprintf(b, "%d # communicator sizes\n", len(c.Comms))
		for _, comm := range c.Comms {
			fmt.Fprintf(b, "%d %d # from %d processes up: %d message size rules\n", comm.Size, len(comm.Msgs), comm.Size, len(comm.Msgs))
			for _, m := range comm.Msgs {
				fmt.Fprintf(b, "%d %d %d %d", m.Size, m.Alg, m.Faninout, m.SegSize)
				if f.Version > 1 && m.MaxReq >= 0 {
					fmt.Fprintf(b, " %d", m.MaxReq)
				}
				fmt.Fprintf(b, " # from %d bytes: %s\n", m.Size, algName(algs[coll.Name], m.Alg))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func algName(algs []Algorithm, id int64) string {
	if id == 0 {
		return "Open MPI's own decision"
	}
	for _, a := range algs {
		if int64(a.ID) == id {
			return a.Name
		}
	}
	return fmt.Sprintf("algorithm %d", id)
}

// ParseOMPI reads a rules file as Open MPI does, and refuses what Open MPI would
// refuse (it then ignores the whole file and says so only with verbose output) and
// what it would read differently from what was meant: words outside comments, which
// its reader skips character by character, and sizes out of order, which its look-up
// assumes increasing.
func ParseOMPI(r io.Reader) (OMPIFile, error) {
	toks, version, err := ompiTokens(r)
	if err != nil {
		return OMPIFile{}, err
	}
	p := &ompiParser{toks: toks}
	f := OMPIFile{Version: version}
	ncol := p.next("number of collectives")
	if p.err == nil && ncol > ompiCollCount {
		p.fail("%d collectives: Open MPI has %d", ncol, ompiCollCount)
	}
	for i := int64(0); i < ncol && p.err == nil; i++ {
		c := OMPIColl{ID: int(p.next("collective id"))}
		if p.err == nil && c.ID >= ompiCollCount {
			p.fail("collective id %d: Open MPI's ids are 0 to %d", c.ID, ompiCollCount-1)
		}
		for _, prev := range f.Colls {
			if prev.ID == c.ID && p.err == nil {
				p.fail("collective id %d given twice", c.ID)
			}
		}
		ncs := p.next("number of communicator sizes")
		for j := int64(0); j < ncs && p.err == nil; j++ {
			comm := OMPIComm{Size: int(p.next("communicator size"))}
			if n := len(c.Comms); n > 0 && p.err == nil && comm.Size <= c.Comms[n-1].Size {
				p.fail("communicator size %d after %d: sizes must increase", comm.Size, c.Comms[n-1].Size)
			}
			nms := p.next("number of message sizes")
			for k := int64(0); k < nms && p.err == nil; k++ {
				m := OMPIMsg{Size: p.next("message size"), MaxReq: -1}
				if k == 0 && m.Size != 0 && p.err == nil {
					p.fail("the first message size of a communicator size must be 0, not %d", m.Size)
				}
				if n := len(comm.Msgs); n > 0 && p.err == nil && m.Size <= comm.Msgs[n-1].Size {
					p.fail("message size %d after %d: sizes must increase", m.Size, comm.Msgs[n-1].Size)
				}
				m.Alg = p.next("algorithm")
				m.Faninout = p.next("fan-in/out")
				line := p.line()
				m.SegSize = p.next("segment size")
				if version > 1 && p.more() && p.line() == line {
					m.MaxReq = p.next("max requests")
				}
				comm.Msgs = append(comm.Msgs, m)
			}
			c.Comms = append(c.Comms, comm)
		}
		f.Colls = append(f.Colls, c)
	}
	if p.err == nil && p.more() {
		p.fail("more numbers after the last collective's rules")
	}
	return f, p.err
}

type ompiToken struct {
	v    int64
	line int
}

// ompiTokens splits the file into its numbers, reading the optional version header
// as Open MPI does: only as the file's very first characters.
func ompiTokens(r io.Reader) ([]ompiToken, int, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	version := 1
	var toks []ompiToken
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if n == 1 && strings.HasPrefix(text, "rule-file-version-") {
			head, rest, _ := strings.Cut(text, " ")
			if _, err := fmt.Sscanf(head, "rule-file-version-%d", &version); err != nil || version < 1 {
				return nil, 0, fmt.Errorf("line 1: %q is not a rule-file-version-N header", head)
			}
			text = rest
		}
		text, _, _ = strings.Cut(text, "#")
		for _, w := range strings.Fields(text) {
			// %li reads 010 as octal and 0x10 as hex: only plain decimals mean what they say.
			v, err := strconv.ParseInt(w, 10, 64)
			if err != nil || strconv.FormatInt(v, 10) != w {
				return nil, 0, fmt.Errorf("line %d: %q is not a plain decimal number (Open MPI reads it otherwise or skips it character by character; put words after #)", n, w)
			}
			toks = append(toks, ompiToken{v, n})
		}
	}
	return toks, version, sc.Err()
}

type ompiParser struct {
	toks []ompiToken
	i    int
	err  error
}

func (p *ompiParser) more() bool { return p.i < len(p.toks) }

func (p *ompiParser) line() int {
	if p.i < len(p.toks) {
		return p.toks[p.i].line
	}
	return -1
}

func (p *ompiParser) fail(format string, args ...any) {
	if p.err != nil {
		return
	}
	at := "end of file"
	if i := min(p.i, len(p.toks)) - 1; i >= 0 {
		at = fmt.Sprintf("line %d", p.toks[i].line)
	}
	p.err = fmt.Errorf("%s: %s", at, fmt.Sprintf(format, args...))
}

func (p *ompiParser) next(what string) int64 {
	if p.err != nil {
		return 0
	}
	if p.i >= len(p.toks) {
		p.fail("the file ends where the %s should be", what)
		return 0
	}
	t := p.toks[p.i]
	p.i++
	if t.v < 0 {
		p.fail("%s %d: Open MPI refuses negative numbers", what, t.v)
	}
	return t.v
}

// Choose is the rule Open MPI takes for a collective (by id) on np processes with
// the message size it compares (key), and whether the file has rules for it.
func (f OMPIFile) Choose(id, np int, key int64) (OMPIMsg, bool) {
	for _, c := range f.Colls {
		if c.ID != id || len(c.Comms) == 0 {
			continue
		}
		comm := c.Comms[0]
		for _, x := range c.Comms {
			if x.Size > np {
				break
			}
			comm = x
		}
		if len(comm.Msgs) == 0 {
			return OMPIMsg{}, false
		}
		m := comm.Msgs[0]
		for _, x := range comm.Msgs {
			if x.Size > key {
				break
			}
			m = x
		}
		return m, true
	}
	return OMPIMsg{}, false
}

// Check says whether every algorithm the file names is one this Open MPI has (algs:
// by collective, as ompi_info lists them), and every collective one its tuned
// component takes rules for: Open MPI reads an unknown algorithm number without a
// word and fails only when a call reaches it.
func (f OMPIFile) Check(algs map[string][]Algorithm) error {
	for _, c := range f.Colls {
		coll, ok := byOMPIID(c.ID)
		if !ok {
			return fmt.Errorf("collective id %d: no collective of Open MPI's tuned component", c.ID)
		}
		for _, comm := range c.Comms {
			for _, m := range comm.Msgs {
				if m.Alg != 0 && algName(algs[coll.Name], m.Alg) == fmt.Sprintf("algorithm %d", m.Alg) {
					return fmt.Errorf("%s, %d processes, from %d bytes: this Open MPI has no %s algorithm %d (ompi_info --param coll tuned --level 9)", coll.Name, comm.Size, m.Size, coll.Name, m.Alg)
				}
			}
		}
	}
	return nil
}
