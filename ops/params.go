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

// Polls are the calls a busy passive target can make while it computes (poll,
// Request.Poll): MPI_Iprobe (MPI's default), MPI_Win_flush of its own window, and
// shmem_quiet (OpenSHMEM's). The engine resolves the same names.
var Polls = []string{"iprobe", "flush", "quiet"}

// DataLayouts are the ways an operation with Layouts finds its payload in memory
// (data_layout): contiguous (as every other operation), or its elements stride elements
// apart, moved as an MPI vector, indexed or struct datatype committed once per point,
// or packed (MPI_Pack, send, MPI_Unpack in every step: the baseline). The kernels
// resolve the same names.
var DataLayouts = []string{"contiguous", "vector", "indexed", "struct", "packed"}

// TypeCommits: when a strided layout's datatype is built and committed (type_commit):
// once per point, outside the timing, or in every step, inside it.
var TypeCommits = []string{"once", "every_call"}

// Strided: a data layout whose payload is strided in memory (all but contiguous), so a
// message spans msg_bytes * stride bytes.
func Strided(layout string) bool { return layout != "" && layout != "contiguous" }

// layouts: the operation takes data_layout.
func layouts(in Info) Info { in.Layouts = true; return in }
