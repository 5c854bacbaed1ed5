package tune

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"regexp"
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
	// Components are what a framework's selection parameter (pml, btl, ...) may name,
	// as ompi_info lists them; Framework is that framework.
	Components []string
	Framework  string
	// Help is the library's description of the parameter (ompi_info's help line,
	// mpivars' last column): MPICH names its algorithms' values only there.
	Help string
}

// Catalog is a library's parameters by name.
type Catalog map[string]ParamInfo

// ParseOMPIInfo reads `ompi_info --param all all --level 9 --parsable`: lines
// mca:FRAMEWORK:COMPONENT:param:NAME:FIELD:VALUE..., and the components of each
// framework from mca:FRAMEWORK:COMPONENT:version:... lines.
func ParseOMPIInfo(text string) Catalog {
	c := Catalog{}
	components := map[string][]string{}
	defer addComponents(c, components)
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), ":", 7)
		if len(f) >= 4 && f[0] == "mca" && f[3] == "version" && f[2] != "base" {
			components[f[1]] = append(components[f[1]], f[2])
		}
		if len(f) < 7 || f[0] != "mca" || f[3] != "param" {
			continue
		}
		name, field, rest := f[4], f[5], f[6]
		p := c[name]
		p.Name = name
		switch field {
		case "type":
			p.Type = rest
		case "help":
			p.Help = rest
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
// "\tNAME=VALUE\tSCOPE\tBINDING\tTYPE\tVERBOSITY\tDESCRIPTION". MPICH 4.2 prints a
// description's line breaks: the lines after a variable's, up to the next line that
// starts with a tab, are its description's, kept with their breaks (4.0 joined them
// with none). The variables are listed again later without values ("\tNAME :\t..."):
// those lines define nothing.
func ParseMPIVars(text string) Catalog {
	c := Catalog{}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	last := "" // the variable the lines that follow continue
	for sc.Scan() {
		raw := sc.Text()
		line := strings.TrimLeft(raw, "\t ")
		f := strings.Split(line, "\t")
		name, _, valued := strings.Cut(f[0], "=")
		switch {
		case strings.HasPrefix(line, "MPIR_CVAR_") && valued:
			p := ParamInfo{Name: strings.TrimSpace(name)}
			if len(f) > 3 {
				p.Type = f[3]
			}
			if len(f) > 5 {
				p.Help = f[5]
			}
			c[p.Name], last = p, p.Name
		case last != "" && raw != "" && raw[0] != '\t' && !mpivarsSection.MatchString(raw):
			p := c[last]
			p.Help += "\n" + raw
			c[last] = p
		default:
			last = ""
		}
	}
	return c
}

// mpivarsSection is a heading of mpivars' output ("438 MPI Control Variables").
var mpivarsSection = regexp.MustCompile(`^\d+ MPI`)

// Check says whether value suits the parameter's type: an integer within its C
// type's range (a negative size would reach the library as a huge unsigned one), a
// finite number, a boolean, or one of its enumerators.
func (p ParamInfo) Check(value string) error {
	if len(p.Components) > 0 {
		return p.checkComponents(value)
	}
	if len(p.Enums) > 0 && !slices.Contains(p.Enums, value) {
		var names []string
		for i := 0; i+1 < len(p.Enums); i += 2 {
			names = append(names, p.Enums[i])
		}
		return fmt.Errorf("%q is not one of %s's values (%s)", value, p.Name, strings.Join(names, ", "))
	}
	if bits, signed, ok := intType(p.Type); ok {
		if len(p.Enums) > 0 {
			return nil
		}
		return checkInt(p, value, bits, signed)
	}
	switch p.Type {
	case "double", "MPI_DOUBLE":
		f, err := strconv.ParseFloat(value, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return fmt.Errorf("%s is a finite number (%s), got %q", p.Name, p.Type, value)
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

// intType is the width and signedness of an integer type as ompi_info and mpivars
// name it.
func intType(t string) (bits int, signed, ok bool) {
	switch t {
	case "int", "int32_t", "MPI_INT":
		return 32, true, true
	case "unsigned_int", "uint32_t", "MPI_UNSIGNED":
		return 32, false, true
	case "long", "int64_t", "MPI_LONG", "MPI_LONG_LONG", "MPI_COUNT", "MPI_AINT", "MPI_OFFSET":
		return 64, true, true
	case "unsigned_long", "unsigned_long_long", "size_t", "uint64_t", "MPI_UNSIGNED_LONG", "MPI_UNSIGNED_LONG_LONG":
		return 64, false, true
	}
	return 0, false, false
}

// checkInt says whether value is a decimal integer the type holds.
func checkInt(p ParamInfo, value string, bits int, signed bool) error {
	if signed {
		_, err := strconv.ParseInt(value, 10, bits)
		if errors.Is(err, strconv.ErrRange) {
			lo, hi := -(int64(1) << (bits - 1)), int64(1)<<(bits-1)-1
			return fmt.Errorf("%s is a %d-bit integer (%s): %s is outside %d to %d", p.Name, bits, p.Type, value, lo, hi)
		}
		if err != nil {
			return fmt.Errorf("%s is an integer (%s), got %q", p.Name, p.Type, value)
		}
		return nil
	}
	if strings.HasPrefix(value, "-") {
		if _, err := strconv.ParseInt(value, 10, 64); err == nil || errors.Is(err, strconv.ErrRange) {
			return fmt.Errorf("%s is an unsigned integer (%s): %s is negative", p.Name, p.Type, value)
		}
	}
	_, err := strconv.ParseUint(value, 10, bits)
	if errors.Is(err, strconv.ErrRange) {
		return fmt.Errorf("%s is a %d-bit unsigned integer (%s): %s is more than %d", p.Name, bits, p.Type, value, uint64(math.MaxUint64)>>(64-bits))
	}
	if err != nil {
		return fmt.Errorf("%s is an integer (%s), got %q", p.Name, p.Type, value)
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
