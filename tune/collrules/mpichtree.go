package collrules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
)

// MPICH's collective selection tree (src/mpi/coll/src/csel.c, 4.0 and 4.2): a JSON
// object whose keys are tests ("collective=allreduce", "comm_type=intra",
// "comm_size<=8", "avg_msg_size<=4096", "comm_hierarchy=parent", ...) or, at the
// leaves, the algorithm ("algorithm=MPIR_Allreduce_intra_recursive_doubling": {}).
// MPICH tries an object's keys in their order and descends into the first whose test
// holds; a key ending in "=any" always holds and must come last. Order matters, so
// the tree is kept as ordered keys, not as a Go map.

// Tree is one object of a selection tree, its keys in order.
type Tree struct {
	Keys []string
	Sub  []*Tree
}

// ParseTree reads a selection tree. Every value is an object, as MPICH requires.
func ParseTree(data []byte) (*Tree, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	t, err := parseObject(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("selection tree: more after the top object")
	}
	return t, nil
}

func parseObject(dec *json.Decoder) (*Tree, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("selection tree: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("selection tree: %v where an object should be (offset %d)", tok, dec.InputOffset())
	}
	t := &Tree{}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("selection tree: %w", err)
		}
		sub, err := parseObject(dec)
		if err != nil {
			return nil, err
		}
		t.Keys = append(t.Keys, k.(string))
		t.Sub = append(t.Sub, sub)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("selection tree: %w", err)
	}
	return t, nil
}

// Get is the subtree under key, nil if none.
func (t *Tree) Get(key string) *Tree {
	for i, k := range t.Keys {
		if k == key {
			return t.Sub[i]
		}
	}
	return nil
}

func (t *Tree) set(key string, sub *Tree) {
	for i, k := range t.Keys {
		if k == key {
			t.Sub[i] = sub
			return
		}
	}
	t.Keys = append(t.Keys, key)
	t.Sub = append(t.Sub, sub)
}

func (t *Tree) add(key string, sub *Tree) *Tree {
	t.Keys = append(t.Keys, key)
	t.Sub = append(t.Sub, sub)
	return t
}

// MarshalIndent writes the tree as JSON in its order, indented like MPICH's own files.
func (t *Tree) MarshalIndent() []byte {
	var b bytes.Buffer
	t.write(&b, 0)
	b.WriteByte('\n')
	return b.Bytes()
}

func (t *Tree) write(b *bytes.Buffer, depth int) {
	if len(t.Keys) == 0 {
		b.WriteString("{}")
		return
	}
	b.WriteString("{\n")
	for i, k := range t.Keys {
		b.WriteString(strings.Repeat("    ", depth+1))
		b.Write(jsonString(k))
		b.WriteString(": ")
		t.Sub[i].write(b, depth+1)
		if i+1 < len(t.Keys) {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(strings.Repeat("    ", depth))
	b.WriteByte('}')
}

// jsonString is s as a JSON string, with < and > as they are (json.Marshal would
// write them \u003c, which MPICH reads the same but people do not).
func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimRight(b.Bytes(), "\n")
}

// Check says what MPICH would refuse or misread: a key after an "=any" key of the
// same object (MPICH requires "any" last), and an algorithm key that is not one of
// names (the library's own "algorithm=..." strings; nil: not checked).
func (t *Tree) Check(names map[string]bool) error {
	for i, k := range t.Keys {
		if strings.HasSuffix(k, "=any") && i+1 < len(t.Keys) {
			return fmt.Errorf("selection tree: %q is followed by %q: MPICH wants the =any key last", k, t.Keys[i+1])
		}
		if strings.HasPrefix(k, "algorithm=") && names != nil && !names[k] {
			return fmt.Errorf("selection tree: this MPICH has no %q", k)
		}
		if err := t.Sub[i].Check(names); err != nil {
			return err
		}
	}
	return nil
}

// MPICHLibrary is what skampi reads of MPICH's shared library (libmpi.so): its own
// selection tree, compiled in as a string (MPII_coll_generic_json, from
// maint/tuning/coll/mpir/generic.json), which a selection file replaces whole; and
// the algorithm names its tree reader accepts, which are strings in it too.
type MPICHLibrary struct {
	Tree  *Tree
	Names map[string]bool
}

var algorithmString = regexp.MustCompile(`algorithm=MPIR_[A-Za-z0-9_]+`)

// ReadMPICHLibrary finds the MPIR-level tree and the algorithm names in the bytes of
// MPICH's shared library: the NUL-terminated JSON objects that start with
// {"collective= and name MPIR_ algorithms (the CH4 and POSIX trees name MPIDI_ ones).
func ReadMPICHLibrary(lib []byte) (MPICHLibrary, error) {
	m := MPICHLibrary{Names: map[string]bool{}}
	for _, s := range algorithmString.FindAll(lib, -1) {
		m.Names[string(s)] = true
	}
	for off := 0; ; {
		i := bytes.Index(lib[off:], []byte(`{"collective=`))
		if i < 0 {
			break
		}
		start := off + i
		end := bytes.IndexByte(lib[start:], 0)
		if end < 0 {
			end = len(lib) - start
		}
		s := lib[start : start+end]
		off = start + end
		if !bytes.Contains(s, []byte("algorithm=MPIR_")) {
			continue
		}
		t, err := ParseTree(s)
		if err != nil {
			continue
		}
		if m.Tree != nil {
			return MPICHLibrary{}, fmt.Errorf("the library holds two MPIR selection trees")
		}
		m.Tree = t
	}
	if m.Tree == nil {
		return MPICHLibrary{}, fmt.Errorf("no MPIR collective selection tree in the library (is it MPICH 4?)")
	}
	return m, nil
}

// NamesFromList reads algorithm names one a line.
func NamesFromList(text string) map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Fields(text) {
		m[l] = true
	}
	return m
}

// sortedNames is names in order, for messages.
func sortedNames(m map[string]bool, prefix string) []string {
	var out []string
	for k := range m {
		if strings.HasPrefix(k, prefix) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
