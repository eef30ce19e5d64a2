package deploy

import (
	"bufio"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// moduleRoot is the repository root, seen from this package's directory
// (where go test runs the tests).
const moduleRoot = ".."

// goMod returns the module path and the go version of ../go.mod.
func goMod(t *testing.T) (module, goVersion string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleRoot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "module" {
			module = f[1]
		}
		if len(f) == 2 && f[0] == "go" {
			goVersion = f[1]
		}
	}
	if module == "" || goVersion == "" {
		t.Fatalf("go.mod: no module or go line")
	}
	return module, goVersion
}

// dockerBuild is the go build command of k8s/Dockerfile: the words after
// RUN, an environment assignment first.
type dockerBuild struct {
	env  []string // CGO_ENABLED=0
	args []string // build -trimpath ... PACKAGE
	out  int      // index in args of the -o value
}

var buildLine = regexp.MustCompile(`^RUN\s+(.*\bgo build\b.*)$`)

// parseDockerBuild finds the one RUN line of the Dockerfile that runs go
// build and splits it into words; it refuses shell syntax it cannot
// reproduce here (quotes, variables, several commands).
func parseDockerBuild(dockerfile string) (dockerBuild, error) {
	var b dockerBuild
	found := 0
	sc := bufio.NewScanner(strings.NewReader(dockerfile))
	for sc.Scan() {
		m := buildLine.FindStringSubmatch(strings.TrimSpace(sc.Text()))
		if m == nil {
			continue
		}
		found++
		if strings.ContainsAny(m[1], `"'$;&|\`+"`") {
			return b, fmt.Errorf("go build line %q: shell syntax the test cannot reproduce", m[1])
		}
		words := strings.Fields(m[1])
		for len(words) > 0 && strings.Contains(words[0], "=") {
			b.env = append(b.env, words[0])
			words = words[1:]
		}
		if len(words) < 2 || words[0] != "go" || words[1] != "build" {
			return b, fmt.Errorf("go build line %q: want [VAR=VALUE...] go build ...", m[1])
		}
		b.args = words[1:]
	}
	if found != 1 {
		return b, fmt.Errorf("%d RUN lines with go build, want 1", found)
	}
	b.out = -1
	for i, a := range b.args {
		if a == "-o" && i+1 < len(b.args) {
			b.out = i + 1
		}
	}
	if b.out < 0 {
		return b, fmt.Errorf("go build %v: no -o", b.args)
	}
	return b, nil
}

var (
	buildOnce sync.Once
	buildDir  string
	buildBin  string
	buildErr  error
)

// queensBinary builds queens once for all the tests of the package, with
// the Dockerfile's own go build command (output path aside), so that the
// binary under test is built the way the image's is.
func queensBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		data, err := os.ReadFile("k8s/Dockerfile")
		if err != nil {
			buildErr = err
			return
		}
		b, err := parseDockerBuild(string(data))
		if err != nil {
			buildErr = err
			return
		}
		// Not t.TempDir: the binary outlives the test that builds it.
		if buildDir, err = os.MkdirTemp("", "queens-deploy-"); err != nil {
			buildErr = err
			return
		}
		buildBin = filepath.Join(buildDir, "queens")
		args := append([]string(nil), b.args...)
		args[b.out] = buildBin
		cmd := exec.Command("go", args...)
		cmd.Dir = moduleRoot
		cmd.Env = append(os.Environ(), b.env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return buildBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// TestImageBinaryStatic checks that the Dockerfile's build gives a static
// binary: the distroless static image has no dynamic loader, and the GPU
// loader (purego) would need one, so the image is built with -tags nogpu.
func TestImageBinaryStatic(t *testing.T) {
	f, err := elf.Open(queensBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Fatal("the image's binary is dynamically linked (it asks for a program interpreter); build it with -tags nogpu")
		}
	}
}
