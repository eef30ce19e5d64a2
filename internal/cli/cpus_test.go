package cli

import (
	"math"
	"runtime"
	"testing"
	"testing/fstest"
)

// TestCgroupCPUs reads CPU quotas from made-up cgroup trees of both
// versions, with the quota on the process's own cgroup or on an ancestor.
func TestCgroupCPUs(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	cases := []struct {
		name string
		fsys fstest.MapFS
		self string
		want float64 // 0: no quota
	}{
		{"v2 quota", fstest.MapFS{"kubepods/pod1/cpu.max": file("150000 100000\n")}, "0::/kubepods/pod1\n", 1.5},
		{"v2 unlimited", fstest.MapFS{"kubepods/cpu.max": file("max 100000\n")}, "0::/kubepods\n", 0},
		{"v2 parent tighter", fstest.MapFS{"a/cpu.max": file("100000 100000\n"), "a/b/cpu.max": file("400000 100000\n")}, "0::/a/b\n", 1},
		{"v2 container root", fstest.MapFS{"cpu.max": file("250000 100000\n")}, "0::/\n", 2.5},
		{"v1 quota", fstest.MapFS{"cpu/slurm/job1/cpu.cfs_quota_us": file("400000\n"), "cpu/slurm/job1/cpu.cfs_period_us": file("100000\n")},
			"4:memory:/slurm/job1\n1:cpu:/slurm/job1\n", 4},
		{"v1 none", fstest.MapFS{"cpu/cpu.cfs_quota_us": file("-1\n"), "cpu/cpu.cfs_period_us": file("100000\n")}, "3:cpu,cpuacct:/\n", 0},
		{"v1 cpu,cpuacct", fstest.MapFS{"cpu,cpuacct/cpu.cfs_quota_us": file("50000"), "cpu,cpuacct/cpu.cfs_period_us": file("100000")},
			"3:cpu,cpuacct:/\n", 0.5},
		{"garbage", fstest.MapFS{"cpu.max": file("lots\n")}, "0::/\n", 0},
		{"no cgroup", fstest.MapFS{}, "", 0},
	}
	for _, c := range cases {
		got, ok := cgroupCPUs(c.fsys, c.self)
		if !ok {
			got = 0
		}
		if math.Abs(got-c.want) > 1e-9 || ok != (c.want > 0) {
			t.Errorf("%s: cgroupCPUs = %v, %v; want %v", c.name, got, ok, c.want)
		}
	}
}

// TestAvailableCPUs checks the default of --threads on this machine: at
// least 1 and at most the CPUs of the affinity mask.
func TestAvailableCPUs(t *testing.T) {
	if n := availableCPUs(); n < 1 || n > runtime.NumCPU() {
		t.Errorf("availableCPUs() = %d, NumCPU %d", n, runtime.NumCPU())
	}
}
