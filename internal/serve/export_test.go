package serve

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestExportRefuses checks what Export refuses before compiling
// anything: a directory that exists (a file, a link, an empty directory)
// and a machine without Go; nothing is left behind.
func TestExportRefuses(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("keep"), 0o644)
	os.Symlink(file, filepath.Join(dir, "link"))
	os.Mkdir(filepath.Join(dir, "empty"), 0o755)
	for _, name := range []string{"file", "link", "empty"} {
		if _, err := Export(context.Background(), filepath.Join(dir, name)); err == nil || !strings.Contains(err.Error(), "exists") {
			t.Errorf("%s: %v, want exists", name, err)
		}
	}
	t.Setenv("PATH", "")
	if _, err := Export(context.Background(), filepath.Join(dir, "site")); err == nil || !strings.Contains(err.Error(), "no go command") {
		t.Errorf("without go: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("left behind: %v", entries)
	}
	if b, _ := os.ReadFile(file); string(b) != "keep" {
		t.Error("the file was changed")
	}
}

// TestBrowserExport exports the site (compiling queens.wasm: tens of
// seconds the first time, so not with -short), serves it with a plain
// static file server and drives it in Chromium as TestBrowser drives the
// server: placing queens, solving with both engines, counting, stepping
// through the search, cancelling a long count. It logs the export's size and the time to the
// first answer of the engines in the page.
func TestBrowserExport(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the export compiles queens.wasm")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command: the export compiles queens.wasm with it")
	}
	ctx, jsErrors := browser(t)
	site := filepath.Join(t.TempDir(), "site")
	start := time.Now()
	res, err := Export(context.Background(), site)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("export: %v, %d files, %d bytes (queens.wasm %d)", time.Since(start).Round(time.Millisecond), len(res.Files), res.Bytes, res.Wasm)
	srv := httptest.NewServer(http.FileServer(http.Dir(site)))
	defer srv.Close()
	const n = 8
	start = time.Now()
	run(t, ctx, chromedp.Navigate(srv.URL), waitJS(`document.querySelectorAll("#board .sq[data-attacks]").length === 64`))
	t.Logf("load: %v from the navigation to the attack counts the wasm computed; first paint at %.0f ms", time.Since(start).Round(time.Millisecond), firstPaint(t, ctx))
	if s := text(t, ctx, "footer"); !strings.Contains(s, "WebAssembly") {
		t.Errorf("footer %q", s)
	}
	browserPlace(t, ctx, n)
	browserSolve(t, ctx, n)
	browserTrace(t, ctx, n)
	// The engines run in a Web Worker: a count streams its progress, the
	// page stays free to cancel it, and a new worker answers after.
	browserCancel(t, ctx)
	run(t, ctx, chromedp.SetValue(chromedp.CSS("#n"), "8"), void(chromedp.Evaluate[bool](`document.querySelector("#n").dispatchEvent(new Event("change"))`)),
		waitJS(`document.querySelectorAll("#board .sq[data-attacks]").length === 64`),
		chromedp.Click(chromedp.CSS("#count")), waitJS(`document.querySelector("#count-result").textContent.includes(" in ")`))
	if s := text(t, ctx, "#count-result"); !strings.HasPrefix(s, "92 solutions (12 unique") {
		t.Errorf("count after a cancelled one: %q", s)
	}
	if errs := jsErrors(); len(errs) > 0 {
		t.Errorf("JavaScript errors:\n%s", strings.Join(errs, "\n"))
	}
}

// firstPaint returns the page's first contentful paint, in milliseconds
// since the navigation began (0 if the browser has none).
func firstPaint(t *testing.T, ctx context.Context) float64 {
	return eval[float64](t, ctx, `(performance.getEntriesByName("first-contentful-paint")[0] || {startTime: 0}).startTime`)
}
