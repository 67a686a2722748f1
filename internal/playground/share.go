package playground

import (
	"strconv"
	"strings"
)

// link returns the link to what the page shows: a library scenario, while
// its script is unchanged, by name; anything else by its script. (The page
// names a scenario only while its text is the library's: acting makes the
// script one's own, Undo brings the name back with the text.)
func (p *Page) link() Link {
	l := Link{Step: p.s.Cursor(), HasStep: true, Strategy: p.strategy, Embed: p.embed, Panels: p.Panels(), Show: p.filter}
	if p.name != "" {
		l.Scenario = p.name
	} else {
		l.Script, l.HasScript = p.s.Text(), true
		switch {
		case p.live != "":
			l.Script = p.liveScript
		case p.s == p.unrunOf && l.Script == "":
			l.Script = p.unrun
		}
	}
	return l
}

// Address returns what the address bar should say, after the page's path,
// for the page as shown: "?scenario=NAME&step=N…" for an unchanged
// library scenario, else "#script=…&step=N…"; a reload shows the same
// step, strategy and script. The script's encoding is kept between calls,
// so that stepping through a long script does not compress it again.
func (p *Page) Address() string {
	if p.live != "" {
		return p.liveAddress()
	}
	l := p.link()
	if !l.HasScript {
		return l.Query()
	}
	if l.Script != p.encText || p.encoded == "" {
		p.encText = l.Script
		p.encoded, p.compressed = EncodeScript(l.Script)
	}
	var b strings.Builder
	b.WriteString("#script=")
	b.WriteString(p.encoded)
	if p.compressed {
		b.WriteString("&enc=" + Deflate)
	}
	l.HasScript = false
	if rest := l.params(); rest != "" {
		b.WriteString("&" + rest)
	}
	return b.String()
}

// FullAddress returns the address of the page as shown, not embedded: the
// target of an embedded page's "Open in the playground" link.
func (p *Page) FullAddress() string {
	embed := p.embed
	p.embed = false
	defer func() { p.embed = embed }()
	return p.Address()
}

// Share is what the Share panel offers: the link to this step, an iframe
// snippet that embeds it, the picture of this step and the animation of the
// whole script as images (the site's /svg) with a Markdown snippet of each,
// for a README or an issue, where iframes are stripped; and a sentence
// saying what the link shows.
type Share struct {
	Link, Embed, Status          string
	Image, ImageMarkdown         string // the picture of this step
	Animation, AnimationMarkdown string // the whole script, animated
}

// Share returns the share panel for the step shown; base is the page's
// address without query or fragment (origin and path).
func (p *Page) Share(base string) Share {
	l := p.link()
	l.Embed = false
	link := base + p.format(l)
	l.Embed = true
	embed := base + p.format(l)
	what := "this script"
	if !l.HasScript {
		what = "the " + l.Scenario + " scenario"
	}
	// The pictures: /svg beside the page, named by the same parameters.
	dir := base[:strings.LastIndexByte(base, '/')+1]
	l.Embed = false
	params := strings.TrimPrefix(p.format(l), "?")
	params = strings.TrimPrefix(params, "#")
	image := dir + "svg?" + params
	l.HasStep = false
	animation := dir + "svg?" + strings.TrimPrefix(strings.TrimPrefix(p.format(l), "?"), "#")
	if animation == dir+"svg?" {
		animation += "animate=1"
	} else {
		animation += "&animate=1"
	}
	title := p.Title()
	alt := strings.NewReplacer("[", "(", "]", ")").Replace(title)
	return Share{
		Link:              link,
		Embed:             `<iframe src="` + htmlAttr(embed) + `" title="dagq scenario" width="760" height="520" style="border:0" loading="lazy"></iframe>`,
		Status:            "Anyone opening the link sees " + what + " at step " + strconv.Itoa(p.s.Cursor()) + ".",
		Image:             image,
		ImageMarkdown:     "![" + alt + ", step " + strconv.Itoa(p.s.Cursor()) + "](" + image + ")",
		Animation:         animation,
		AnimationMarkdown: "![" + alt + ", animated](" + animation + ")",
	}
}

// format writes a link as the page links: by query for a scenario, by
// fragment for a script.
func (p *Page) format(l Link) string {
	if l.HasScript {
		return l.Fragment()
	}
	return l.Query()
}

// htmlAttr escapes a value for an HTML attribute in double quotes.
func htmlAttr(s string) string {
	return strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;").Replace(s)
}
