package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/plots"
)

// docsDate is the date the man pages carry: fixed, so that regenerating them changes
// nothing unless the commands did (CI checks that docs/ is current).
var docsDate = time.Date(2026, time.November, 1, 0, 0, 0, 0, time.UTC)

// WriteDocs writes the CLI reference of root's commands (Markdown in dir/cli, man
// pages in dir/man) and the SKaMPI coverage table (dir/skampi-coverage.md, from the
// catalogue): `skampi docs` in the repository regenerates docs/.
func WriteDocs(root *cobra.Command, dir string) error {
	root.DisableAutoGenTag = true // no date in the Markdown: it would change every time
	md, man := filepath.Join(dir, "cli"), filepath.Join(dir, "man")
	for _, d := range []string{md, man} {
		if err := os.RemoveAll(d); err != nil {
			return err
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	if err := doc.GenMarkdownTree(root, md); err != nil {
		return fmt.Errorf("markdown: %w", err)
	}
	hdr := &doc.GenManHeader{Title: "SKAMPI", Section: "1", Source: "skampi", Manual: "skampi manual", Date: &docsDate}
	if err := doc.GenManTree(root, hdr, man); err != nil {
		return fmt.Errorf("man pages: %w", err)
	}
	return os.WriteFile(filepath.Join(dir, ops.SkampiCoverageFile), ops.SkampiMarkdown(), 0o644)
}

// Shell completion (skampi completion bash|zsh|fish|powershell) completes built-in
// suite names and files for -i, operation names for run, and formats.
func completeSuites(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	var out []string
	for _, n := range inputs.BuiltinNames() {
		if strings.HasPrefix(n, toComplete) {
			out = append(out, n)
		}
	}
	// Files too: a suite is a .toml file as often as a built-in name.
	return out, cobra.ShellCompDirectiveDefault
}

func completeOps(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	var out []string
	for _, in := range ops.All() {
		if strings.HasPrefix(in.Name, toComplete) && in.Family != "selftest" {
			out = append(out, in.Name+"\t"+in.Description)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

func completeList(values ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	}
}

// AddCompletions registers the completions on the commands that take these flags.
func AddCompletions(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Flags().Lookup("input") != nil {
			c.RegisterFlagCompletionFunc("input", completeSuites)
		}
		switch c.Name() {
		case "run":
			c.ValidArgsFunction = completeOps
		case "plot":
			c.RegisterFlagCompletionFunc("format", completeList(plots.Formats...))
		case "export":
			c.RegisterFlagCompletionFunc("format", completeList("csv", "sko", "gobench"))
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
