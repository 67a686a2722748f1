package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/dagq/dagq/incremental"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "report:", err)
		}
		os.Exit(2)
	}
}

// run is the whole command: it reads the results files named in args and
// writes the markdown report to -o (stdout by default) and the plots to
// -plots (none by default). Warnings about the input go to stderr.
func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the markdown `file` (default: standard output)")
	plots := fs.String("plots", "", "write the SVG plots into `dir` and link them from the markdown")
	def := fs.String("default", incremental.Default, "evaluate the goals for `strategy`")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: report [-o RESULTS.md] [-plots DIR] [-default STRATEGY] FILE...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errors.New("no results file")
	}

	d, err := read(fs.Args())
	if err != nil {
		return err
	}
	if d.durable, err = readDurable(fs.Args()); err != nil {
		return err
	}
	for _, w := range d.warnings {
		fmt.Fprintln(stderr, "report: warning:", w)
	}
	if len(d.cells) == 0 && d.durable == nil {
		if len(d.warnings) > 0 { // BenchmarkOps alone, say
			return fmt.Errorf("no benchmark results that the report draws in %v (it draws Submit, Lifecycle, DeadLetters and Durable); read the others with benchstat", fs.Args())
		}
		return fmt.Errorf("no benchmark results in %v", fs.Args())
	}

	opt := markdownOptions{def: *def}
	for _, f := range fs.Args() {
		opt.files = append(opt.files, filepath.Base(f))
	}
	if *plots != "" {
		if err := d.writePlots(*plots); err != nil {
			return err
		}
		rel, err := plotsFrom(*out, *plots)
		if err != nil {
			return err
		}
		opt.plots = rel
	}

	var md bytes.Buffer
	if err := d.writeMarkdown(&md, opt); err != nil {
		return err
	}
	if *out == "" {
		_, err := stdout.Write(md.Bytes())
		return err
	}
	return os.WriteFile(*out, md.Bytes(), 0o644)
}

// plotsFrom returns the folder of the plots as a link from the markdown
// file out ("" for standard output, read from the current folder).
func plotsFrom(out, plots string) (string, error) {
	from := "."
	if out != "" {
		from = filepath.Dir(out)
	}
	absFrom, err := filepath.Abs(from)
	if err != nil {
		return "", err
	}
	absPlots, err := filepath.Abs(plots)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(absFrom, absPlots)
	if err != nil {
		return "", err
	}
	return filepath.ToSlash(rel), nil
}
