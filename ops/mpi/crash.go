//go:build mpi

package mpi

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "crash.h"
*/
import "C"

import (
	"bufio"
	"debug/elf"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unsafe"
)

// CrashReport says where a crash inside C (the library or a kernel: SIGSEGV, SIGBUS,
// SIGILL, SIGFPE, SIGABRT) is reported: the rank's one line names the rank, its host,
// the phase or point (CrashWhere), the signal and the C function; the trace file holds
// that, the C stack and every goroutine's stack. No Go runtime dump reaches the
// terminal. A fault in Go code is left to Go (a panic).
type CrashReport struct {
	Rank     int    // -1: not known yet
	Host     string // "": this machine's name
	Trace    string // the trace file ("": a temporary file)
	Fallback string // where the trace goes when Trace cannot be written
	Launch   string // the launching skampi's token, written into the trace ("" under another launcher)
	Quiet    bool   // the launching skampi says the line, from the trace files
}

var (
	crashOnce  sync.Once
	crashArmed bool
	dumpReq    [2]int
	dumpRep    [2]int
)

// TempTrace is the trace file of a rank with no directory to write it to.
func TempTrace(rank int) string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("skampi-crash-%d-rank%d.txt", os.Getpid(), rank))
}

// ArmCrashReport installs the crash report, on the main thread (the one that calls
// MPI), before MPI_Init; again later with what became known since.
func ArmCrashReport(c CrashReport) error {
	if c.Host == "" {
		c.Host, _ = os.Hostname()
	}
	if c.Trace == "" {
		c.Trace = TempTrace(max(c.Rank, 0))
	}
	if c.Fallback == "" && c.Trace != TempTrace(max(c.Rank, 0)) {
		c.Fallback = TempTrace(max(c.Rank, 0))
	}
	req, rep := -1, -1
	var err error
	crashOnce.Do(func() {
		if err = syscall.Pipe2(dumpReq[:], syscall.O_CLOEXEC); err != nil {
			return
		}
		if err = syscall.Pipe2(dumpRep[:], syscall.O_CLOEXEC); err != nil {
			return
		}
		go goStacks(dumpReq[0], dumpRep[1])
		req, rep = dumpReq[1], dumpRep[0]
	})
	if err != nil {
		return fmt.Errorf("preparing the crash report: %w", err)
	}
	cs := func(s string) *C.char { return C.CString(s) }
	host, trace, fallback, token := cs(c.Host), cs(c.Trace), cs(c.Fallback), cs(c.Launch)
	defer func() {
		for _, p := range []*C.char{host, trace, fallback, token} {
			C.free(unsafe.Pointer(p))
		}
	}()
	quiet := C.int(0)
	if c.Quiet {
		quiet = 1
	}
	if C.sk_crash_arm(C.int(c.Rank), host, trace, fallback, token, quiet, C.int(req), C.int(rep)) != 0 {
		return fmt.Errorf("installing the crash handlers failed")
	}
	crashArmed = true
	return nil
}

// RearmCrashReport puts the crash handlers back on top after a library's start-up
// (MPI_Init, shmem_init) installed its own; theirs run for what is not a crash in C.
func RearmCrashReport() {
	C.sk_crash_rearm()
}

// CrashResults names the results file this rank appends a crash record to (""
// none): the rank that writes the results, under a launcher other than skampi's.
func CrashResults(path string) {
	p := C.CString(path)
	C.sk_crash_results(p)
	C.free(unsafe.Pointer(p))
}

// CrashWhereMax is the longest point or record part CrashWhere keeps whole.
const CrashWhereMax = 8191

// CrashWhere tells the crash report what the rank is doing: text for the line, point
// for the trace (a JSON fault record), and the crash record to append as pre + the
// line + post ("" and "": none). Longer than CrashWhereMax, they are cut.
func CrashWhere(text, point, pre, post string) {
	ct, cp, cpre, cpost := C.CString(text), C.CString(point), C.CString(pre), C.CString(post)
	C.sk_crash_where(ct, cp, cpre, cpost)
	for _, p := range []*C.char{ct, cp, cpre, cpost} {
		C.free(unsafe.Pointer(p))
	}
}

// goStacks waits for a crash, then adds to its trace file the names of the
// executable's own C functions on the C stack (the library's are named by the handler)
// and every goroutine's stack, and answers.
func goStacks(req, rep int) {
	var one [1]byte
	for {
		n, err := syscall.Read(req, one[:])
		if err == syscall.EINTR {
			continue
		}
		if n != 1 || err != nil {
			return
		}
		break
	}
	var fd C.int
	var pc C.uintptr_t
	var frames *unsafe.Pointer
	var nframes C.int
	C.sk_crash_info(&fd, &pc, &frames, &nframes)
	write := func(s string) {
		if fd < 0 {
			return
		}
		b := []byte(s)
		for len(b) > 0 {
			n, err := syscall.Write(int(fd), b)
			if err == syscall.EINTR {
				continue
			}
			if n <= 0 || err != nil {
				return
			}
			b = b[n:]
		}
	}
	syms := executableSymbols()
	setFunction := func(name string) {
		cn := C.CString(name)
		C.sk_crash_set_function(cn)
		C.free(unsafe.Pointer(cn))
		write("\nfunction: " + name + "\n")
	}
	if C.GoString(C.sk_crash_function()) == "" {
		if name := syms.name(uintptr(pc)); name != "" {
			setFunction(name)
		} else if name := callerName(syms, unsafe.Slice(frames, int(nframes))); name != "" {
			setFunction(name)
		}
	}
	if syms != nil {
		var named strings.Builder
		for _, f := range unsafe.Slice(frames, int(nframes)) {
			if name := syms.name(uintptr(f)); name != "" {
				fmt.Fprintf(&named, "%#x %s\n", uintptr(f), name)
			}
		}
		if named.Len() > 0 {
			write("\nC stack, the executable's own frames named:\n" + named.String())
		}
	}
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) || len(buf) >= 64<<20 {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	write("\nGo stacks:\n")
	write(string(buf))
	syscall.Write(rep, one[:])
}

// callerName names where a signal raised inside the C library (abort: stack smashing,
// a failed assertion) came from: the first frame outside libc, and the first of
// skampi's own functions that called it ("liboshmem.so.40+0x9244a, called from
// atomic_compare_swap_int").
func callerName(syms *symbols, frames []unsafe.Pointer) string {
	var obj, sym [512]C.char
	var off C.uintptr_t
	where := ""
	for i, f := range frames {
		if i < 2 { // the handler and the signal's return
			continue
		}
		if C.sk_crash_frame(f, &obj[0], C.int(len(obj)), &sym[0], C.int(len(sym)), &off) == 0 {
			continue
		}
		object := filepath.Base(C.GoString(&obj[0]))
		name := C.GoString(&sym[0])
		if name == "" {
			name = syms.name(uintptr(f))
		}
		if where == "" {
			if strings.HasPrefix(object, "libc.so") || strings.HasPrefix(object, "libc-") {
				continue
			}
			if name != "" {
				return name
			}
			where = fmt.Sprintf("%s+%#x", object, uintptr(off))
			continue
		}
		if name != "" {
			return where + ", called from " + name
		}
	}
	return where
}

// symbols are the executable's functions, by address as loaded.
type symbols struct {
	addr  []uintptr
	end   []uintptr
	names []string
}

func (s *symbols) lookup(pc uintptr) string {
	i := sort.Search(len(s.addr), func(i int) bool { return s.addr[i] > pc }) - 1
	if i < 0 || pc >= s.end[i] {
		return ""
	}
	return s.names[i]
}

func (s *symbols) name(pc uintptr) string {
	if s == nil {
		return ""
	}
	return s.lookup(pc)
}

// executableSymbols reads the executable's symbol table (nil when it is stripped).
func executableSymbols() *symbols {
	f, err := elf.Open("/proc/self/exe")
	if err != nil {
		return nil
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		return nil
	}
	bias := uintptr(0)
	if f.Type == elf.ET_DYN {
		bias = loadBase()
	}
	type sym struct {
		addr, end uintptr
		name      string
	}
	var list []sym
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) != elf.STT_FUNC || s.Value == 0 || s.Size == 0 {
			continue
		}
		list = append(list, sym{uintptr(s.Value) + bias, uintptr(s.Value+s.Size) + bias, s.Name})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].addr < list[j].addr })
	out := &symbols{}
	for _, s := range list {
		out.addr, out.end, out.names = append(out.addr, s.addr), append(out.end, s.end), append(out.names, s.name)
	}
	return out
}

// loadBase is where a position-independent executable was loaded: the start of its
// first mapping.
func loadBase() uintptr {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return 0
	}
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 6 && fields[5] == exe && fields[2] == "00000000" {
			lo, _, _ := strings.Cut(fields[0], "-")
			v, err := strconv.ParseUint(lo, 16, 64)
			if err == nil {
				return uintptr(v)
			}
		}
	}
	return 0
}

// SelftestSegfault writes through a NULL pointer in C: the self-test of a crash in
// start-up.
func SelftestSegfault() { C.sk_crash_selftest() }
