// Package docs_test checks dagq's documentation: README.md and the pages
// of docs/. Every relative link and picture resolves to a file of the
// repository (and a #fragment to a heading of a Markdown file), every page
// is linked from the README, and the README's Go example is core's package
// example, which go test runs.
package docs_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// root is the repository's root, seen from this package's folder.
const root = ".."

// pages returns README.md and docs/*.md, relative to root.
func pages(t *testing.T) []string {
	t.Helper()
	md, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(md) == 0 {
		t.Fatal("no docs/*.md")
	}
	out := []string{"README.md"}
	for _, m := range md {
		rel, err := filepath.Rel(root, m)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

// link matches a Markdown link or picture: [text](target) or
// ![alt](target), with an optional "title" after the target.
var link = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// codeSpan matches inline code, whose brackets are not links.
var codeSpan = regexp.MustCompile("`[^`]*`")

// mdLink is a link of a page: its target and the line it is on.
type mdLink struct {
	target string
	line   int
}

// prose returns the lines of a Markdown text outside fenced code blocks
// (the others blank); code blocks are returned apart, each with
// its info string (go, sh, …) and its text.
func prose(text string) (lines []string, blocks []codeBlock) {
	var fence string
	var cur *codeBlock
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		trimmed := strings.TrimSpace(l)
		switch {
		case fence == "" && strings.HasPrefix(trimmed, "```"):
			fence = "```"
			cur = &codeBlock{info: strings.TrimPrefix(trimmed, "```"), line: n}
			lines = append(lines, "")
		case fence != "" && trimmed == fence:
			fence = ""
			blocks = append(blocks, *cur)
			cur = nil
			lines = append(lines, "")
		case fence != "":
			cur.text += l + "\n"
			lines = append(lines, "")
		default:
			lines = append(lines, l)
		}
	}
	return lines, blocks
}

// codeBlock is a fenced code block: its info string, its text and the line
// of its opening fence.
type codeBlock struct {
	info string
	text string
	line int
}

// links returns the links of a Markdown text, outside code.
func links(text string) []mdLink {
	lines, _ := prose(text)
	var out []mdLink
	for i, l := range lines {
		l = codeSpan.ReplaceAllString(l, "``")
		for _, m := range link.FindAllStringSubmatch(l, -1) {
			out = append(out, mdLink{target: m[1], line: i + 1})
		}
	}
	return out
}

// slug is the anchor a heading gets: lower case, spaces as hyphens,
// punctuation other than - and _ dropped.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the anchors of a Markdown text's headings.
func anchors(text string) map[string]bool {
	lines, _ := prose(text)
	out := map[string]bool{}
	for _, l := range lines {
		if h, ok := strings.CutPrefix(l, "#"); ok {
			out[slug(strings.TrimLeft(h, "#"))] = true
		}
	}
	return out
}

// TestLinksResolve holds every relative link and picture of README.md and
// docs/*.md to a file or folder of the repository, and a fragment on a
// Markdown file to one of its headings.
func TestLinksResolve(t *testing.T) {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range pages(t) {
		text, err := os.ReadFile(filepath.Join(root, page))
		if err != nil {
			t.Fatal(err)
		}
		ls := links(string(text))
		if page == "README.md" && len(ls) < 10 {
			t.Errorf("README.md: %d links found: is its Markdown read right?", len(ls))
		}
		for _, l := range ls {
			target := l.target
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			path := filepath.Join(root, filepath.Dir(page), filepath.FromSlash(file))
			if file == "" {
				path = filepath.Join(root, page)
			}
			abs, err := filepath.Abs(path)
			if err != nil {
				t.Fatal(err)
			}
			if rel, err := filepath.Rel(absRoot, abs); err != nil || strings.HasPrefix(rel, "..") {
				t.Errorf("%s:%d: %s points outside the repository", page, l.line, target)
				continue
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s:%d: %s: no such file in the repository", page, l.line, target)
				continue
			}
			if frag != "" && strings.HasSuffix(path, ".md") {
				doc, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if !anchors(string(doc))[frag] {
					t.Errorf("%s:%d: %s: no heading #%s there", page, l.line, target, frag)
				}
			}
		}
	}
}

// TestEveryPageIsLinkedFromTheReadme: a page of docs/ that the README does
// not link is a page nobody finds.
func TestEveryPageIsLinkedFromTheReadme(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, l := range links(string(readme)) {
		file, _, _ := strings.Cut(l.target, "#")
		linked[file] = true
	}
	for _, page := range pages(t)[1:] {
		if !linked[page] {
			t.Errorf("README.md does not link %s", page)
		}
	}
}

// TestReadmeStartsWithGo holds the README to its shape: at most 220 lines,
// with Go code in its first 60.
func TestReadmeStartsWithGo(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(readme, []byte("\n")); n > 220 {
		t.Errorf("README.md has %d lines, over 220: move the detail into docs/", n)
	}
	_, blocks := prose(string(readme))
	for _, b := range blocks {
		if b.info == "go" {
			if b.line > 60 {
				t.Errorf("README.md's first Go code is on line %d, after line 60", b.line)
			}
			return
		}
	}
	t.Error("README.md has no Go code")
}

// TestReadmeExampleIsCoresExample holds the README's first Go block, and
// the output block after it, to the body and the output of core's package
// example (core/example_test.go), which go test ./core runs.
func TestReadmeExampleIsCoresExample(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, "core", "example_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	body, output, ok := exampleBody(string(src), "Example")
	if !ok {
		t.Fatal("core/example_test.go has no func Example() with an // Output: comment")
	}
	_, blocks := prose(string(readme))
	for i, b := range blocks {
		if b.info != "go" {
			continue
		}
		if b.text != body {
			t.Errorf("README.md's first Go block (line %d) is not core's Example; the Example's body is:\n%s", b.line, body)
		}
		if i+1 >= len(blocks) || blocks[i+1].text != output {
			t.Errorf("README.md's block after its first Go block is not the Example's output:\n%s", output)
		}
		return
	}
	t.Error("README.md has no Go code")
}

// exampleBody returns the body of func name() in src, one tab of indent
// taken off, up to its // Output: comment, and the output it expects.
func exampleBody(src, name string) (body, output string, ok bool) {
	_, rest, ok := strings.Cut(src, "\nfunc "+name+"() {\n")
	if !ok {
		return "", "", false
	}
	code, rest, ok := strings.Cut(rest, "\t// Output:\n")
	if !ok {
		return "", "", false
	}
	rest, _, ok = strings.Cut(rest, "\n}\n")
	if !ok {
		return "", "", false
	}
	var b, o strings.Builder
	for _, l := range strings.SplitAfter(code, "\n") {
		b.WriteString(strings.TrimPrefix(l, "\t"))
	}
	for _, l := range strings.Split(rest, "\n") {
		o.WriteString(strings.TrimPrefix(strings.TrimPrefix(l, "\t//"), " ") + "\n")
	}
	return b.String(), o.String(), true
}
