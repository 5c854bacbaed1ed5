package tune

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// launchWords splits a launch command (--launcher) into words as a POSIX shell does:
// single and double quotes, backslash escapes, a leading ~ for the home directory.
// No shell runs it, so what a shell would do beyond making words (substitute a
// command or a variable, redirect, run a list or a pipeline, set a variable) is
// refused rather than passed on literally, where it would fail far from the flag.
func launchWords(s string) ([]string, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX), syntax.KeepComments(true)).Parse(strings.NewReader(s), "")
	if err != nil {
		var pe syntax.ParseError
		var le syntax.LangError
		switch {
		case errors.As(err, &pe):
			return nil, launcherErr("%s: %s", where(pe.Pos), pe.Text)
		case errors.As(err, &le):
			return nil, launcherErr("%s: %s, not POSIX shell", where(le.Pos), le.Feature)
		}
		return nil, launcherErr("%v", err)
	}
	if len(f.Stmts) == 0 {
		if len(f.Last) > 0 {
			return nil, &UsageError{Msg: "--launcher holds only a comment"}
		}
		return nil, &UsageError{Msg: "--launcher is empty"}
	}
	if len(f.Stmts) > 1 {
		n := f.Stmts[1]
		return nil, launcherErr("%s at %s starts a second command (after ';', '&' or a newline): give one command", text(s, n), where(n.Pos()))
	}
	st := f.Stmts[0]
	if len(st.Comments) > 0 || len(f.Last) > 0 {
		cs := append(st.Comments, f.Last...)
		return nil, launcherErr("%s at %s is a comment, which a shell would drop", text(s, &cs[0]), where(cs[0].Pos()))
	}
	switch {
	case st.Background:
		return nil, launcherErr("'&' at %s runs the command in the background", where(st.Semicolon))
	case st.Negated:
		return nil, launcherErr("'!' at %s negates the command's status", where(st.Pos()))
	case len(st.Redirs) > 0:
		return nil, refuse(s, st.Redirs[0], "a redirection")
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok {
		if b, isBin := st.Cmd.(*syntax.BinaryCmd); isBin {
			return nil, launcherErr("'%s' at %s joins two commands", b.Op, where(b.OpPos))
		}
		return nil, refuse(s, st.Cmd, "a compound command")
	}
	if len(call.Assigns) > 0 {
		a := call.Assigns[0]
		return nil, launcherErr("%s at %s sets a variable for the command: give it in the tune file's [env], or as `env %s ...`",
			text(s, a), where(a.Pos()), text(s, a))
	}
	for _, w := range call.Args {
		if err := plainWord(s, w.Parts); err != nil {
			return nil, err
		}
	}
	home, _ := os.UserHomeDir()
	words, err := expand.Fields(&expand.Config{Env: expand.ListEnviron("HOME=" + home)}, call.Args...)
	if err != nil {
		return nil, launcherErr("%v", err)
	}
	return words, nil
}

// plainWord refuses the parts of a word that only a shell could expand; what is
// left are literals and quotes.
func plainWord(s string, parts []syntax.WordPart) error {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if i := unescapedDollar(p.Value); i >= 0 {
				return launcherErr("'$' at %s is unquoted, which a shell would expand: quote or escape it (\\$)",
					where(syntax.NewPos(p.Pos().Offset()+uint(i), p.Pos().Line(), p.Pos().Col()+uint(i))))
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return refuse(s, p, "$'...' quoting")
			}
		case *syntax.DblQuoted:
			if p.Dollar {
				return refuse(s, p, `$"..." quoting`)
			}
			if err := plainWord(s, p.Parts); err != nil {
				return err
			}
		case *syntax.ParamExp:
			return refuse(s, p, "variable expansion")
		case *syntax.CmdSubst:
			return refuse(s, p, "command substitution")
		case *syntax.ArithmExp:
			return refuse(s, p, "arithmetic expansion")
		default:
			return refuse(s, p, "shell syntax")
		}
	}
	return nil
}

// unescapedDollar is the index of the first '$' in a literal's text that no
// backslash escapes, or -1.
func unescapedDollar(lit string) int {
	for i := 0; i < len(lit); i++ {
		switch lit[i] {
		case '\\':
			i++
		case '$':
			return i
		}
	}
	return -1
}

// refuse names what the launch command holds at n and why skampi cannot honour it.
func refuse(s string, n syntax.Node, what string) error {
	return launcherErr("%s at %s is %s, which needs a shell", text(s, n), where(n.Pos()), what)
}

// launcherErr is a mistake in --launcher, with how skampi reads it.
func launcherErr(format string, args ...any) error {
	return &UsageError{Msg: "--launcher: " + fmt.Sprintf(format, args...) +
		" (skampi runs the launch command without a shell, splitting it into words as sh does)"}
}

// text is the source of node n in s.
func text(s string, n syntax.Node) string {
	from, to := int(n.Pos().Offset()), int(n.End().Offset())
	if from < 0 || to > len(s) || from >= to {
		return "?"
	}
	return s[from:to]
}

// where is a position in the flag's value: its column, and its line once it has
// several.
func where(p syntax.Pos) string {
	if p.Line() > 1 {
		return fmt.Sprintf("line %d column %d", p.Line(), p.Col())
	}
	return fmt.Sprintf("column %d", p.Col())
}
