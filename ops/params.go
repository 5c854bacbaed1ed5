package ops

// Datatypes are the element types collective data can take, with their sizes in bytes
// (the C types on LP64 Linux, as MPI maps them). The kernels resolve the same names.
var Datatypes = map[string]int64{"byte": 1, "char": 1, "int": 4, "long": 8, "float": 4, "double": 8}

// ReduceOps are the reduction operators reductions take.
var ReduceOps = []string{"sum", "prod", "min", "max", "band", "bor", "bxor"}

// RMAWindows are the kinds of window one-sided operations run on (rma_window):
// MPI_Win_allocate, MPI_Win_create, MPI_Win_create_dynamic + MPI_Win_attach. The
// kernels resolve the same names.
var RMAWindows = []string{"allocate", "create", "dynamic"}
