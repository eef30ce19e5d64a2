package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// wasmPackage is the command that [Export] compiles to WebAssembly.
const wasmPackage = "github.com/queens-dev/queens/internal/serve/wasm"

// ExportResult says what [Export] wrote.
type ExportResult struct {
	Files []string // the names written, in dir
	Bytes int64    // their total size
	Wasm  int64    // the size of queens.wasm
}

// Export writes the page as a static site to the new directory dir: the
// page's files, queens.wasm (the server's handler, compiled to
// WebAssembly by the go command found on PATH, run in the current
// directory, which must be in the queens module or one that requires it)
// and the Go distribution's wasm_exec.js that starts it (from the same
// Go's GOROOT, lib/wasm or misc/wasm: it must match the compiler). The
// site needs no server of its own: any static web host serves it, and
// the engines run in the browser. dir must not exist; the files are
// written to a temporary directory beside it, renamed to dir at the end,
// so that an interrupted export leaves nothing half written. Errors say
// what is missing (the go command, the queens source) or what failed.
func Export(ctx context.Context, dir string) (ExportResult, error) {
	var res ExportResult
	if _, err := os.Lstat(dir); err == nil {
		return res, fmt.Errorf("export: %s exists: give a new directory", dir)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return res, fmt.Errorf("export: %w", err)
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return res, errors.New("export: the site's engines are compiled to WebAssembly by Go, and no go command is on PATH (Go is needed where the site is exported, nothing where it is served)")
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".queens-export-*")
	if err != nil {
		return res, fmt.Errorf("export: %w", err)
	}
	defer os.RemoveAll(tmp) // empty after the rename
	if err := os.Chmod(tmp, 0o755); err != nil {
		return res, fmt.Errorf("export: %w", err)
	}
	if err := writePage(tmp); err != nil {
		return res, err
	}
	if err := buildWasm(ctx, goCmd, tmp); err != nil {
		return res, err
	}
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return res, fmt.Errorf("export: %w", err)
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			return res, fmt.Errorf("export: %w", err)
		}
		res.Files = append(res.Files, e.Name())
		res.Bytes += info.Size()
		if e.Name() == "queens.wasm" {
			res.Wasm = info.Size()
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		return res, fmt.Errorf("export: %w", err)
	}
	return res, nil
}

// writePage writes the page's files to dir, index.html loading
// static.js (which starts worker.js, the engines) before the page's script.
func writePage(dir string) error {
	for _, name := range []string{"app.js", "style.css", "favicon.svg", "static.js", "worker.js", "index.html"} {
		data, err := static.ReadFile("static/" + name)
		if err != nil {
			return fmt.Errorf("export: %w", err) // unreachable: embedded
		}
		if name == "index.html" {
			const app = `<script src="app.js" defer></script>`
			if !bytes.Contains(data, []byte(app)) {
				return errors.New("export: index.html does not load app.js") // a bug
			}
			data = bytes.Replace(data, []byte(app), []byte(`<script src="static.js" defer></script>
`+app), 1)
			data = bytes.Replace(data, []byte("queens serve: everything runs on this machine; nothing is loaded from elsewhere."),
				[]byte("queens, exported by queens serve --export: the engines run in this browser (Go compiled to WebAssembly); nothing is loaded from elsewhere."), 1)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	return nil
}

// buildWasm compiles wasmPackage to dir/queens.wasm with the go command
// goCmd and copies its wasm_exec.js beside it.
func buildWasm(ctx context.Context, goCmd, dir string) error {
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, goCmd, "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, "queens.wasm"), wasmPackage)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("export: go build %s for js/wasm: %v: %s (run the export in a checkout of queens: its source is what is compiled)",
			wasmPackage, err, strings.TrimSpace(stderr.String()))
	}
	out, err := exec.CommandContext(ctx, goCmd, "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("export: go env GOROOT: %w", err)
	}
	root := strings.TrimSpace(string(out))
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} {
		src, err := os.Open(filepath.Join(root, p))
		if err != nil {
			continue
		}
		defer src.Close()
		dst, err := os.OpenFile(filepath.Join(dir, "wasm_exec.js"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		_, err = io.Copy(dst, src)
		if cerr := dst.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("export: wasm_exec.js: %w", err)
		}
		return nil
	}
	return fmt.Errorf("export: no wasm_exec.js in %s (lib/wasm or misc/wasm): the Go distribution is incomplete", root)
}
