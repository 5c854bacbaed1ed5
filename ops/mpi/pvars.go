//go:build mpi

package mpi

/*
#include <stdlib.h>
#include "skampi.h"
#include "runtime.h"
*/
import "C"

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// StartPVars reads the library's performance variables named ("all": every one it
// offers) on this rank now, bound to the operation's communicator or window where the
// library binds them there: PVars reads them again after the runs. It reads nothing
// inside a run.
func (o *Op) StartPVars(names []string) error {
	if o.ctx == nil || o.pv != nil {
		return fmt.Errorf("%s: performance variables started twice or after close", o.call)
	}
	list := C.CString(strings.Join(names, ","))
	defer C.free(unsafe.Pointer(list))
	if rc := C.sk_pvars_start(o.ctx, list, openComponents(), &o.pv); rc != C.MPI_SUCCESS {
		return check(rc, "MPI_T pvar session")
	}
	o.pvOf = names
	return nil
}

// openComponents lists Open MPI's components whose performance variables are safe to
// read, "framework_component,...": those open after MPI_Init, the MTLs only under pml
// cm. NULL for MPICH (none of Open MPI's frameworks). Asked once per process.
var openComponents = sync.OnceValue(func() *C.char {
	if Build == "mpich" {
		return nil
	}
	v, err := ReadLibraryView(nil)
	if err != nil {
		return C.CString("") // nothing known to be open: no component's variables
	}
	var open []string
	for fw, comps := range v.Components {
		if fw == "mtl" && !slices.Equal(v.Components["pml"], []string{"cm"}) {
			continue
		}
		for _, c := range comps {
			open = append(open, fw+"_"+c)
		}
	}
	return C.CString(strings.Join(open, ",")) // kept for the process's life
})

// PVars reads the started variables again: a counter, aggregate or timer as its change
// since StartPVars, any other (levels, sizes, watermarks) as its value now; one value
// per element (per peer, for the monitoring variables). missing names the variables
// asked for that the library does not offer, binds to another object or cannot read here.
func (o *Op) PVars() (vals map[string][]float64, missing []string, err error) {
	if o.pv == nil {
		return nil, nil, nil
	}
	vals = map[string][]float64{}
	for i := 0; i < int(C.sk_pvars_count(o.pv)); i++ {
		var name *C.char
		var cls, count C.int
		if rc := C.sk_pvars_get(o.pv, C.int(i), &name, &cls, &count, nil, nil); rc != C.MPI_SUCCESS {
			return nil, nil, check(rc, "MPI_T_pvar_read")
		}
		start, end := make([]float64, int(count)), make([]float64, int(count))
		if rc := C.sk_pvars_get(o.pv, C.int(i), &name, &cls, &count, (*C.double)(&start[0]), (*C.double)(&end[0])); rc != C.MPI_SUCCESS {
			return nil, nil, check(rc, "MPI_T_pvar_read")
		}
		if C.sk_pvars_is_delta(cls) != 0 {
			for j := range end {
				end[j] -= start[j]
			}
		}
		vals[C.GoString(name)] = end
	}
	for _, n := range o.pvOf {
		if _, ok := vals[n]; !ok && n != "all" {
			missing = append(missing, n)
		}
	}
	slices.Sort(missing)
	return vals, missing, nil
}
