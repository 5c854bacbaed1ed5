package tune

import (
	"bufio"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/skampi/skampi/inputs"
)

// ParamInfo is what a library says of one of its parameters.
type ParamInfo struct {
	Name  string
	Type  string   // "int", "bool", "string", ... as the library names it
	Enums []string // allowed values by name (Open MPI enumerators), if any
}

// Catalog is a library's parameters by name.
type Catalog map[string]ParamInfo

// ParseOMPIInfo reads `ompi_info --param all all --level 9 --parsable`: lines
// mca:FRAMEWORK:COMPONENT:param:NAME:FIELD:VALUE...
func ParseOMPIInfo(text string) Catalog {
	c := Catalog{}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), ":", 7)
		if len(f) < 7 || f[0] != "mca" || f[3] != "param" {
			continue
		}
		name, field, rest := f[4], f[5], f[6]
		p := c[name]
		p.Name = name
		switch field {
		case "type":
			p.Type = rest
		case "enumerator":
			// value:N:NAME
			if g := strings.SplitN(rest, ":", 3); len(g) == 3 {
				p.Enums = append(p.Enums, g[2], g[1])
			}
		}
		c[name] = p
	}
	return c
}

// ParseMPIVars reads MPICH's `mpivars`: a line per control variable,
// "\tNAME=VALUE\tSCOPE\tBINDING\tTYPE\tVERBOSITY\tDESCRIPTION".
func ParseMPIVars(text string) Catalog {
	c := Catalog{}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimLeft(sc.Text(), "\t ")
		if !strings.HasPrefix(line, "MPIR_CVAR_") {
			continue
		}
		f := strings.Split(line, "\t")
		name, _, _ := strings.Cut(f[0], "=")
		p := ParamInfo{Name: strings.TrimSpace(name)}
		if len(f) > 3 {
			p.Type = f[3]
		}
		c[p.Name] = p
	}
	return c
}

// Check says whether value suits the parameter's type.
func (p ParamInfo) Check(value string) error {
	if len(p.Enums) > 0 && !slices.Contains(p.Enums, value) {
		var names []string
		for i := 0; i+1 < len(p.Enums); i += 2 {
			names = append(names, p.Enums[i])
		}
		return fmt.Errorf("%q is not one of %s's values (%s)", value, p.Name, strings.Join(names, ", "))
	}
	switch p.Type {
	case "int", "unsigned_int", "long", "unsigned_long", "unsigned_long_long", "size_t", "int32_t", "uint64_t",
		"MPI_INT", "MPI_UNSIGNED", "MPI_LONG", "MPI_UNSIGNED_LONG", "MPI_UNSIGNED_LONG_LONG", "MPI_COUNT":
		if len(p.Enums) > 0 {
			return nil
		}
		if _, err := strconv.ParseInt(value, 10, 64); err != nil {
			return fmt.Errorf("%s is an integer (%s), got %q", p.Name, p.Type, value)
		}
	case "double", "MPI_DOUBLE":
		if _, err := strconv.ParseFloat(value, 64); err != nil {
			return fmt.Errorf("%s is a number (%s), got %q", p.Name, p.Type, value)
		}
	case "bool":
		switch strings.ToLower(value) {
		case "true", "false", "0", "1", "yes", "no", "enabled", "disabled":
		default:
			return fmt.Errorf("%s is a boolean, got %q", p.Name, value)
		}
	}
	return nil
}

// Validate checks every [mca] and [cvar] parameter of t against the catalogues of
// the libraries it runs (nil: that library's list could not be had, which is an
// error when the tune file names its parameters). Problems carry the tune file's
// positions, in an inputs.ErrorList.
func Validate(t *inputs.Tune, ompi, mpich Catalog) error {
	el := &inputs.ErrorList{File: t.Source}
	for _, p := range t.Params {
		var cat Catalog
		var what, tool string
		switch p.Kind {
		case "mca":
			cat, what, tool = ompi, "Open MPI", "ompi_info --param all all --level 9"
		case "cvar":
			cat, what, tool = mpich, "MPICH", "mpivars"
		default:
			continue
		}
		if cat == nil {
			el.Errors = append(el.Errors, &inputs.Error{File: t.Source, Pos: p.Pos,
				Msg: fmt.Sprintf("%s.%s: %s's parameter list could not be read (%s), so it cannot be checked", p.Kind, p.Name, what, tool)})
			continue
		}
		info, ok := cat[p.Name]
		if !ok {
			msg := fmt.Sprintf("%s.%s: %s has no parameter %q (%s lists them)", p.Kind, p.Name, what, p.Name, tool)
			if s := closest(p.Name, cat); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			el.Errors = append(el.Errors, &inputs.Error{File: t.Source, Pos: p.Pos, Msg: msg})
			continue
		}
		for i, v := range p.Values {
			if err := info.Check(v); err != nil {
				el.Errors = append(el.Errors, &inputs.Error{File: t.Source, Pos: p.ValPos[i], Msg: fmt.Sprintf("%s.%s: %v", p.Kind, p.Name, err)})
			}
		}
	}
	if len(el.Errors) > 0 {
		return el
	}
	return nil
}

// closest is the catalogue's name nearest to name, when it is plausibly a typo.
func closest(name string, cat Catalog) string {
	names := make([]string, 0, len(cat))
	for k := range cat {
		names = append(names, k)
	}
	slices.Sort(names)
	return inputs.Suggest(name, names)
}
