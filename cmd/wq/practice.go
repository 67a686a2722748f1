package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"text/template"

	"github.com/dagq/dagq/core/queuetest"
)

// dagqModule is the module path the practice module requires.
const dagqModule = "github.com/dagq/dagq"

// goLine is the go directive of the practice module: dagq's own (a test
// keeps the two equal), so that the module may require dagq.
const goLine = "1.26.0"

// practiceCmd is "wq practice": init is its only subcommand.
func practiceCmd(args []string, stdout io.Writer) error {
	if len(args) == 0 || args[0] != "init" {
		return usageError{errors.New("practice needs a subcommand: init DIR")}
	}
	return practiceInit(args[1:], stdout)
}

// starter is what the practice module is written from.
type starter struct {
	Module  string          // the module path
	Package string          // the package name, the module path's last element
	Level   queuetest.Level // the level its test runs
	// Dagq is where dagq comes from: Replace, a directory (a checkout), or
	// Version, a published version.
	Replace, Version string
}

// L5 and L6 report whether the starter's level has their methods.
func (s starter) L5() bool { return s.Level >= queuetest.L5 }
func (s starter) L6() bool { return s.Level >= queuetest.L6 }

// practiceInit is "wq practice init [--level L] [--module PATH] [--dagq
// DIR|VERSION] DIR": it writes a Go module with a stub queue and a test
// that runs dagq's conformance suite on it at the level. DIR must not exist
// or be empty: nothing is overwritten, and on an error nothing is left.
func practiceInit(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("practice init", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	level := fs.String("level", "L4", "the level the test runs: L4, L5 or L6")
	module := fs.String("module", "", "the module path (default: example.com/ and DIR's name)")
	dagq := fs.String("dagq", "", "where dagq comes from: a checkout's directory, or a published version (default: the checkout wq runs in, else wq's own version)")
	var pos []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			return usageError{fmt.Errorf("practice init: %v", err)}
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(pos) != 1 {
		return usageError{fmt.Errorf("practice init takes one directory (got %d arguments)", len(pos))}
	}
	dir := pos[0]
	lv, err := queuetest.ParseLevel(*level)
	if err != nil {
		return usageError{fmt.Errorf("practice init: --level %q: want L4, L5 or L6", *level)}
	}
	s := starter{Level: lv, Module: *module}
	if s.Module == "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return err
		}
		s.Module = "example.com/" + packageName(filepath.Base(abs))
	}
	if !modulePathRE.MatchString(s.Module) {
		return usageError{fmt.Errorf("practice init: --module %q is not a module path (as example.com/myqueue)", s.Module)}
	}
	s.Package = packageName(s.Module[strings.LastIndexByte(s.Module, '/')+1:])
	if s.Replace, s.Version, err = whichDagq(*dagq); err != nil {
		return err
	}
	files, err := s.files()
	if err != nil {
		return err
	}
	if err := writeNew(dir, files); err != nil {
		return err
	}
	from, next := "dagq "+s.Version, "go mod tidy && go test" // go.sum needs the published module's sums
	if s.Replace != "" {
		from, next = "the dagq checkout in "+s.Replace, "go test"
	}
	fmt.Fprintf(stdout, "wrote %s: a stub queue and a test at %s, against %s\n", dir, s.Level, from)
	fmt.Fprintf(stdout, "next: cd %s && %s\n", dir, next)
	return nil
}

var modulePathRE = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]*(/[A-Za-z0-9_.-]+)*$`)

// packageName makes a Go package name of s: its letters and digits,
// lower case, "myqueue" if none or if it would start with a digit.
func packageName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 || b.String()[0] <= '9' {
		return "myqueue"
	}
	return b.String()
}

// whichDagq decides where the practice module gets dagq: flag, a
// directory or a version; without it, the dagq checkout around the
// working directory, else the version this wq was built from.
func whichDagq(flagValue string) (replace, version string, err error) {
	switch {
	case strings.HasPrefix(flagValue, "v"):
		return "", flagValue, nil
	case flagValue != "":
		root, err := filepath.Abs(flagValue)
		if err != nil {
			return "", "", err
		}
		if !isDagqRoot(root) {
			return "", "", usageError{fmt.Errorf("practice init: --dagq %s: no go.mod of %s there", flagValue, dagqModule)}
		}
		return root, "", nil
	}
	if wd, err := os.Getwd(); err == nil {
		for d := wd; ; d = filepath.Dir(d) {
			if isDagqRoot(d) {
				return d, "", nil
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Path == dagqModule && strings.HasPrefix(bi.Main.Version, "v") && !strings.HasSuffix(bi.Main.Version, "+dirty") {
		return "", bi.Main.Version, nil
	}
	return "", "", usageError{errors.New("practice init: which dagq? run it inside a dagq checkout, or pass --dagq DIR (a checkout) or --dagq VERSION (as v0.3.0)")}
}

// isDagqRoot reports whether dir holds dagq's go.mod.
func isDagqRoot(dir string) bool {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, "module ") {
			return strings.Trim(strings.TrimSpace(strings.TrimPrefix(line, "module")), `"`) == dagqModule
		}
	}
	return false
}

// files renders the module's files, by name.
func (s starter) files() (map[string][]byte, error) {
	out := map[string][]byte{}
	for name, text := range starterFiles {
		var b bytes.Buffer
		if err := template.Must(template.New(name).Parse(text)).Execute(&b, s); err != nil {
			return nil, err
		}
		out[name] = b.Bytes()
	}
	return out, nil
}

// writeNew writes files into dir, which must not exist or be empty; on an
// error it removes what it wrote, and dir if it made it.
func writeNew(dir string, files map[string][]byte) (err error) {
	made := false
	switch entries, rerr := os.ReadDir(dir); {
	case errors.Is(rerr, os.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		made = true
	case rerr != nil:
		return rerr
	case len(entries) > 0:
		return usageError{fmt.Errorf("practice init: %s is not empty: it writes a new module only into a new or empty directory", dir)}
	}
	var wrote []string
	defer func() {
		if err != nil {
			for _, p := range wrote {
				os.Remove(p)
			}
			if made {
				os.Remove(dir)
			}
		}
	}()
	for _, name := range []string{"go.mod", "queue.go", "queue_test.go", "README.md"} {
		p := filepath.Join(dir, name)
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		wrote = append(wrote, p)
		_, werr := f.Write(files[name])
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return werr
		}
	}
	return nil
}
