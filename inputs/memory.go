package inputs

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

// memTotal reports the physical memory of the machine parsing the suite, in bytes; ok
// is false when it is unknown, and then buffers are not checked against it. Tests
// replace it.
var memTotal = sync.OnceValues(procMemTotal)

// procMemTotal reads MemTotal from /proc/meminfo (Linux).
func procMemTotal() (int64, bool) {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	return parseMemTotal(data)
}

// parseMemTotal finds "MemTotal:  16318412 kB" in the text of /proc/meminfo.
func parseMemTotal(data []byte) (int64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, false
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || kb <= 0 || kb > 1<<52 {
			return 0, false
		}
		return kb << 10, true
	}
	return 0, false
}

// fitsMemory rejects a buffer (per rank and direction) when the send and receive
// buffers of one rank together exceed this machine's memory. The message leaves the
// memory size out so that it reads the same on every machine.
func fitsMemory(buffer int64) error {
	mem, ok := memTotal()
	if !ok || 2*buffer <= mem {
		return nil
	}
	return fmt.Errorf("%s per direction (%s per rank for send and receive) is more than this machine's memory",
		FormatSize(buffer), FormatSize(2*buffer))
}

// fitsRecvSlots rejects per-message receive slots (slots messages of size bytes, plus
// the send buffer) that exceed this machine's memory, before anything runs.
func fitsRecvSlots(size int64, slots int) error {
	mem, ok := memTotal()
	if !ok || size <= mem/int64(slots+1) {
		return nil
	}
	return fmt.Errorf(`%d receive slots of %s (recv_slots = "per-message") and the send buffer are more than this machine's memory: lower window or the sizes, or use recv_slots = "shared"`,
		slots, FormatSize(size))
}
