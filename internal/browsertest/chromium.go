package browsertest

import (
	"errors"
	"os/exec"

	"github.com/chromedp/chromedp"
)

// Chromium returns the options that start Debian's chromium for a test:
// headless, without the sandbox (tests run as root in CI), and without the
// background connections that this machine's closed network refuses. It
// fails, saying what to install, when chromium is not on the PATH.
func Chromium() ([]chromedp.ExecAllocatorOption, error) {
	path, err := exec.LookPath("chromium")
	if err != nil {
		return nil, errors.New("the browser tests need Debian's chromium: apt-get install chromium (make test installs it when run as root)")
	}
	return append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-quic", true),
		chromedp.WindowSize(1280, 900),
	), nil
}
