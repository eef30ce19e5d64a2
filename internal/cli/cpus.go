package cli

import (
	"io/fs"
	"math"
	"os"
	"path"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// availableCPUs is the default of --threads: the CPUs this process may
// use. runtime.NumCPU counts the CPUs of its affinity mask (taskset, Slurm
// and Kubernetes cpusets); a CPU quota of the process's cgroup (Kubernetes
// limits, Slurm cpus-per-task under cgroup enforcement, docker --cpus)
// lowers it further, rounded up: 1.5 CPUs give 2 threads. It is read once
// per process: every command's --threads flag asks for it at start-up.
var availableCPUs = sync.OnceValue(func() int {
	n := runtime.NumCPU()
	self, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return n
	}
	if quota, ok := cgroupCPUs(os.DirFS("/sys/fs/cgroup").(fs.ReadFileFS), string(self)); ok {
		n = min(n, max(1, int(math.Ceil(quota))))
	}
	return n
})

// fsReader is what cgroupCPUs needs of a file system: os.DirFS, or a
// test's fstest.MapFS.
type fsReader = fs.ReadFileFS

// cgroupCPUs returns the tightest CPU quota (in CPUs) of the cgroup that
// /proc/self/cgroup (self) names and of its ancestors, read from the
// cgroup file system mounted at the root of fsys: cgroup v2's cpu.max
// ("QUOTA PERIOD" or "max PERIOD") or cgroup v1's cpu.cfs_quota_us and
// cpu.cfs_period_us (-1: none). ok is false when no quota applies.
func cgroupCPUs(fsys fsReader, self string) (cpus float64, ok bool) {
	cpus = math.Inf(1)
	for _, line := range strings.Split(self, "\n") {
		// hierarchy-ID:controller-list:cgroup-path
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		var dir string
		var read func(dir string) (float64, bool)
		switch {
		case parts[0] == "0" && parts[1] == "":
			dir, read = "", func(d string) (float64, bool) { return cpuMax(fsys, d) }
			if _, err := fsys.ReadFile("unified/cgroup.controllers"); err == nil {
				dir = "unified" // a hybrid v1/v2 mount
			}
		case hasController(parts[1], "cpu"):
			dir, read = "cpu", func(d string) (float64, bool) { return cfsQuota(fsys, d) }
			if _, err := fsys.ReadFile("cpu,cpuacct/cpu.cfs_period_us"); err == nil {
				dir = "cpu,cpuacct"
			}
		default:
			continue
		}
		// The cgroup's own directory and each parent up to the mount;
		// inside a container the path may name the host's view, so the
		// mount's root counts too.
		for p := path.Clean("/" + parts[2]); ; p = path.Dir(p) {
			if q, found := read(strings.TrimPrefix(path.Join(dir, p), "/")); found {
				cpus, ok = math.Min(cpus, q), true
			}
			if p == "/" {
				break
			}
		}
	}
	return cpus, ok
}

// hasController reports whether the comma-separated list names c.
func hasController(list, c string) bool {
	for _, x := range strings.Split(list, ",") {
		if x == c {
			return true
		}
	}
	return false
}

// cpuMax reads cgroup v2's DIR/cpu.max.
func cpuMax(fsys fsReader, dir string) (float64, bool) {
	data, err := fsys.ReadFile(path.Join(dir, "cpu.max"))
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(data))
	if len(f) != 2 || f[0] == "max" {
		return 0, false
	}
	return ratio(f[0], f[1])
}

// cfsQuota reads cgroup v1's DIR/cpu.cfs_quota_us and cpu.cfs_period_us.
func cfsQuota(fsys fsReader, dir string) (float64, bool) {
	q, err1 := fsys.ReadFile(path.Join(dir, "cpu.cfs_quota_us"))
	p, err2 := fsys.ReadFile(path.Join(dir, "cpu.cfs_period_us"))
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return ratio(strings.TrimSpace(string(q)), strings.TrimSpace(string(p)))
}

// ratio parses quota/period, both positive integers.
func ratio(quota, period string) (float64, bool) {
	q, err1 := strconv.ParseInt(quota, 10, 64)
	p, err2 := strconv.ParseInt(period, 10, 64)
	if err1 != nil || err2 != nil || q <= 0 || p <= 0 {
		return 0, false
	}
	return float64(q) / float64(p), true
}
