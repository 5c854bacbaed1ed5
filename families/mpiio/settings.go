package mpiio

import (
	"fmt"
	"strings"

	"github.com/skampi/skampi/inputs"
)

// settingDir names the family's setting: the directory under test.
const settingDir = "io_dir"

func init() {
	inputs.RegisterSetting(inputs.FamilySetting{
		Name:     settingDir,
		Doc:      `MPI-IO operations: the directory under test, where each point's file is made and deleted after it (default "": a temporary directory made for the run, under TMPDIR; on a cluster, a directory of the shared file system)`,
		Default:  "",
		Parse:    parseDir,
		Applies:  func(m *inputs.Measurement) bool { return m.Op.IO },
		What:     "MPI-IO operations (File_Write_At, File_Read_All, ...)",
		Recorded: []string{}, // where the file is, not how it is measured
	})
	// A window of writes past what a file offset reaches: a question of the plan.
	inputs.RegisterPointCheck(windowTooBig)
	// Before any process starts: every io_dir a directory to write in, and a window of
	// writes (IMB-IO's aggregate mode) the space free there.
	inputs.RegisterStartCheck(inputs.StartCheck{
		Setting: settingDir,
		Value:   func(v any) error { return checkDir(v.(string)) },
		What:    "the MPI-IO measurements",
		Points:  checkSpace,
	})
}

// parseDir reads io_dir: a directory name whose files' paths the library takes.
func parseDir(v any) (any, error) {
	str, ok := v.(string)
	switch {
	case !ok:
		return nil, fmt.Errorf("must be a directory name, a string, got %s", inputs.TypeName(v))
	case strings.ContainsRune(str, 0):
		return nil, fmt.Errorf("must not contain a NUL byte")
	}
	if err := pathFits(str); err != nil {
		return nil, err
	}
	return str, nil
}

// dirSetting is the point's directory under test ("": the temporary directory).
func dirSetting(s inputs.Settings) string { return s.Value(settingDir).(string) }

// ioDirs are the directories the plan's MPI-IO measurements write in ("" for the
// default temporary one), each once, in the plan's order.
func ioDirs(plan *inputs.Plan) []string {
	var out []string
	for _, v := range plan.SettingValues(settingDir) {
		out = append(out, v.(string))
	}
	return out
}
