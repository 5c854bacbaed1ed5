//go:build mpi

package mpi

/*
#include "skampi.h"
#include "runtime.h"
*/
import "C"

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

var mpichDevice = regexp.MustCompile(`(?m)^MPICH Device:\s*(\S+)`)

// ReadLibraryView reads the library's components and the control variables named
// (matched without case; MPICH's carry its MPIR_CVAR_ prefix, Open MPI's none). Call
// it after Init, on one rank: MPI_T is local.
func ReadLibraryView(names []string) (LibraryView, error) {
	v := LibraryView{Components: map[string][]string{}, Vars: map[string]string{}}
	if Build == "mpich" {
		var buf [8192]C.char
		var ver, sub C.int
		C.sk_library_version(&buf[0], C.int(len(buf)), &ver, &sub)
		if m := mpichDevice.FindStringSubmatch(C.GoString(&buf[0])); m != nil {
			v.Components["device"] = []string{m[1]}
		}
	}
	if rc := C.sk_mpit_start(); rc != C.MPI_SUCCESS {
		return v, fmt.Errorf("MPI_T_init_thread: error %d", int(rc))
	}
	var n C.int
	if rc := C.sk_mpit_cvar_count(&n); rc != C.MPI_SUCCESS {
		return v, fmt.Errorf("MPI_T_cvar_get_num: error %d", int(rc))
	}
	want := map[string]bool{}
	for _, name := range names {
		want[strings.ToLower(name)] = true
	}
	var name [256]C.char
	var val [4096]C.char
	for i := C.int(0); i < n; i++ {
		if C.sk_mpit_cvar_name(i, &name[0], C.int(len(name))) != C.MPI_SUCCESS {
			continue // a closed component's variable
		}
		s := C.GoString(&name[0])
		if Build != "mpich" {
			addComponent(v.Components, s)
		}
		if want[strings.ToLower(s)] && C.sk_mpit_cvar_read(i, &val[0], C.int(len(val))) == C.MPI_SUCCESS {
			v.Vars[s] = C.GoString(&val[0])
		}
	}
	for fw := range v.Components {
		slices.Sort(v.Components[fw])
	}
	return v, nil
}
