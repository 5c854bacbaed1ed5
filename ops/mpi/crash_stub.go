//go:build !mpi

package mpi

// CrashReport is the crash report's settings; without MPI there is nothing to report.
type CrashReport struct {
	Rank     int
	Host     string
	Trace    string
	Fallback string
	Launch   string
	Quiet    bool
}

// CrashWhereMax mirrors the MPI build.
const CrashWhereMax = 8191

func TempTrace(int) string                      { return "" }
func ArmCrashReport(CrashReport) error          { return nil }
func RearmCrashReport()                         {}
func CrashResults(string)                       {}
func CrashWhere(string, string, string, string) {}

func SelftestSegfault() {}
