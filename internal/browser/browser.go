// Package browser drives a headless Chromium for the tests of the pages
// worldcook writes (simulate --html): it opens a file with the network
// cut off, records every request the page makes, evaluates script in it,
// clicks and takes screenshots. Tests skip, saying why, on a machine with
// no Chromium.
package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// candidates are where a Chromium is looked for, after $WORLDCOOK_CHROMIUM:
// Debian's chromium-headless-shell package and its full browser.
var candidates = []string{
	"chromium-headless-shell", "/usr/lib/chromium/chromium-headless-shell",
	"headless-shell", "chromium", "chromium-browser", "google-chrome",
}

// Path finds a Chromium to run.
func Path() (string, error) {
	if p := os.Getenv("WORLDCOOK_CHROMIUM"); p != "" {
		if _, err := exec.LookPath(p); err != nil {
			return "", fmt.Errorf("WORLDCOOK_CHROMIUM=%s: %v", p, err)
		}
		return p, nil
	}
	for _, c := range candidates {
		if p, err := exec.LookPath(c); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no Chromium found (install Debian's chromium-headless-shell, or set WORLDCOOK_CHROMIUM to a Chromium binary)")
}

// Browser is a running Chromium.
type Browser struct {
	ctx    context.Context
	cancel func()
}

// New starts a browser for the test, stopped when it ends; it skips the
// test where no browser is installed.
func New(t testing.TB) *Browser {
	t.Helper()
	path, err := Path()
	if err != nil {
		t.Skipf("skipping the browser test: %v", err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.WindowSize(1600, 1000),
		chromedp.UserDataDir(t.TempDir()),
	)
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		acancel()
		t.Fatalf("starting %s: %v", path, err)
	}
	b := &Browser{ctx: ctx, cancel: func() { cancel(); acancel() }}
	t.Cleanup(b.cancel)
	return b
}

// Page is a file open in a tab.
type Page struct {
	t   testing.TB
	ctx context.Context
	// Load is how long the page took to load, its script run.
	Load time.Duration

	mu       sync.Mutex
	url      string
	requests []string
	errors   []string
}

// Open opens file in a new tab with the network offline, and waits until
// the page has loaded and its script has set ready (a global's name, such
// as "worldcook").
func (b *Browser) Open(t testing.TB, file, ready string) *Page {
	t.Helper()
	return b.OpenAt(t, file, "", ready)
}

// OpenAt is Open with a fragment in the page's address ("frame-10" opens
// file#frame-10).
func (b *Browser) OpenAt(t testing.TB, file, fragment, ready string) *Page {
	t.Helper()
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	page := (&url.URL{Scheme: "file", Path: abs}).String()
	u := (&url.URL{Scheme: "file", Path: abs, Fragment: fragment}).String()
	p := &Page{t: t, url: page}
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithListener(func(ev any) {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			p.requests = append(p.requests, e.Request.URL)
		case *runtime.EventExceptionThrown:
			d := e.ExceptionDetails
			msg := fmt.Sprintf("%d:%d: %s", d.LineNumber+1, d.ColumnNumber+1, d.Text)
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			p.errors = append(p.errors, msg)
		}
	}))
	t.Cleanup(cancel)
	p.ctx = ctx
	offline := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}},
		}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: true, DownloadThroughput: -1, UploadThroughput: -1})
		return err
	})
	if err := chromedp.Do(ctx, offline); err != nil {
		t.Fatalf("cutting the network off: %v", err)
	}
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate(u)); err != nil {
		t.Fatalf("opening %s: %v", file, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool]("window."+ready+" !== undefined")); err != nil {
		t.Fatalf("waiting for %s to set %s: %v (script errors: %q)", file, ready, err, p.Errors())
	}
	p.Load = time.Since(start)
	return p
}

// Requests are the URLs the page asked for besides its own.
func (p *Page) Requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, r := range p.requests {
		if r != p.url {
			out = append(out, r)
		}
	}
	return out
}

// Errors are the uncaught exceptions of the page's script.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errors...)
}

// Eval evaluates expr in the page and decodes its value into T.
func Eval[T any](p *Page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// EvalAsync evaluates expr, which gives a promise, and decodes the value
// it resolves to.
func EvalAsync[T any](p *Page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// WaitFor waits until expr, evaluated in the page, is true: for what the
// page does on its own time (a timer, an animation frame).
func (p *Page) WaitFor(expr string) {
	p.t.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[bool](expr)); err != nil {
		p.t.Fatalf("waiting for %s: %v", expr, err)
	}
}

// Click clicks the first element sel (a CSS selector) matches, as a
// mouse does.
func (p *Page) Click(sel string) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		p.t.Fatalf("clicking %s: %v", sel, err)
	}
}

// Keys for Key.
const (
	ArrowLeft  = kb.ArrowLeft
	ArrowRight = kb.ArrowRight
)

// Key sends a key press to the page (chromedp's kb names, or a
// character).
func (p *Page) Key(key string) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.KeyEvent(key)); err != nil {
		p.t.Fatalf("pressing %q: %v", key, err)
	}
}

// Hover moves the mouse to (x, y), in the page's CSS pixels, as a person
// does: the page sees the mouse move there.
func (p *Page) Hover(x, y float64) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.MouseEvent(chromedp.MouseMoved, x, y)); err != nil {
		p.t.Fatalf("moving the mouse to (%g, %g): %v", x, y, err)
	}
}

// ClickAt clicks at (x, y), in the page's CSS pixels.
func (p *Page) ClickAt(x, y float64) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.MouseClickXY(x, y)); err != nil {
		p.t.Fatalf("clicking at (%g, %g): %v", x, y, err)
	}
}

// Viewport is the screenshot of what a person sees first: the top of the
// page as large as the window, written as a PNG to file.
func (p *Page) Viewport(file string) {
	p.t.Helper()
	png, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(file, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// Screenshot writes a PNG of the whole page to file.
func (p *Page) Screenshot(file string) {
	p.t.Helper()
	// From the top, so that a sticky header is where a reader sees it.
	if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool]("window.scrollTo(0, 0), true")); err != nil {
		p.t.Fatal(err)
	}
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(file, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}
