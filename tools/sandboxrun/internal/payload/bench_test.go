//go:build !windows

package payload

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/windows-dev-agent/wda/internal/proc"
)

// cpuTime is the user and system time used so far by this process (RUSAGE_SELF) or
// its waited-for children (RUSAGE_CHILDREN).
func cpuTime(who int) time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// The staging benchmarks copy one tree with Stage and with `cp -r` (started through
// internal/proc) in the same run, alternating which goes first (A B, B A, …), on the
// same file system for source and destination, and report our speed as a fraction of
// cp's ("cp-ratio": cp's time over ours, 1.0 = as fast as cp, higher is faster) — both
// the ratio of the totals and the median of the per-pair ratios — and the same for CPU
// time ("cpu-ratio": cp's user+system time over ours), which a machine shared with
// other work disturbs far less than the clock. "stage" times Stage alone;
// "validate+stage" adds Validate, which sandbox_run runs before every staging.
//
// Each runs on tmpfs (/dev/shm, or WDA_BENCH_TMPFS) and on disk (WDA_BENCH_DISK, else
// the test's temporary directory, which must not be a tmpfs for the figure to mean
// disk). Reproduce (docs/tools/sandbox_run.md, staging):
//
//	go test -run '^$' -bench 'Stage' -benchtime 20x ./tools/sandboxrun/internal/payload/
//
// BenchmarkStageLarge uses a 64 MiB file by default; WDA_BENCH_LARGE_MIB=512 gives
// 512 MiB.

// BenchmarkStage5k200M: 5,000 files of 40 KiB in 50 folders, about 200 MB.
func BenchmarkStage5k200M(b *testing.B) {
	forEachFS(b, func(b *testing.B, base string) {
		src := filepath.Join(base, "src")
		buf := make([]byte, 40<<10)
		for d := range 50 {
			dir := filepath.Join(src, "tree", fmt.Sprintf("d%02d", d))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
			for i := range 100 {
				rand.Read(buf)
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.bin", i)), buf, 0o644); err != nil {
					b.Fatal(err)
				}
			}
		}
		benchStage(b, base, src, "tree", 5000*40<<10)
	})
}

// BenchmarkStage10kSmall: 10,000 entries (the budget): 99 folders of 100 files of 1 KiB.
func BenchmarkStage10kSmall(b *testing.B) {
	forEachFS(b, func(b *testing.B, base string) {
		src := filepath.Join(base, "src")
		buf := make([]byte, 1024)
		for d := range 99 {
			dir := filepath.Join(src, "tree", fmt.Sprintf("d%02d", d))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
			for i := range 100 {
				rand.Read(buf)
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.bin", i)), buf, 0o644); err != nil {
					b.Fatal(err)
				}
			}
		}
		benchStage(b, base, src, "tree", 99*100*1024)
	})
}

func BenchmarkStageLarge(b *testing.B) {
	mib := 64
	if v := os.Getenv("WDA_BENCH_LARGE_MIB"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 || int64(n)<<20 > MaxBytes {
			b.Fatalf("WDA_BENCH_LARGE_MIB=%q: want 1..1024", v)
		}
		mib = n
	}
	forEachFS(b, func(b *testing.B, base string) {
		src := filepath.Join(base, "src")
		if err := os.MkdirAll(filepath.Join(src, "tree"), 0o755); err != nil {
			b.Fatal(err)
		}
		f, err := os.Create(filepath.Join(src, "tree", "large.bin"))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.CopyN(f, rand.Reader, int64(mib)<<20); err != nil {
			b.Fatal(err)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
		benchStage(b, base, src, "tree", int64(mib)<<20)
	})
}

// forEachFS runs fn on a fresh folder of a tmpfs and of a disk.
func forEachFS(b *testing.B, fn func(b *testing.B, base string)) {
	tmpfs := os.Getenv("WDA_BENCH_TMPFS")
	if tmpfs == "" {
		tmpfs = "/dev/shm"
	}
	for _, fs := range []struct{ name, parent string }{{"tmpfs", tmpfs}, {"disk", os.Getenv("WDA_BENCH_DISK")}} {
		b.Run(fs.name, func(b *testing.B) {
			parent := fs.parent
			if parent == "" {
				parent = b.TempDir()
			}
			if fi, err := os.Stat(parent); err != nil || !fi.IsDir() {
				b.Skipf("%s is not available (%s)", fs.name, parent)
			}
			base, err := os.MkdirTemp(parent, "wda-bench-")
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { os.RemoveAll(base) })
			fn(b, base)
		})
	}
}

func benchStage(b *testing.B, base, ws, rel string, size int64) {
	cp, ok := proc.NewResolver(nil).Resolve("cp")
	if !ok {
		b.Skip("cp is not installed")
	}
	data, cpDst := filepath.Join(base, "data"), filepath.Join(base, "cp")
	for _, d := range []string{data, cpDst} {
		if err := os.Mkdir(d, 0o700); err != nil {
			b.Fatal(err)
		}
	}
	p := bind(b, ws)
	for _, withValidate := range []bool{false, true} {
		name := "stage"
		if withValidate {
			name = "validate+stage"
		}
		b.Run(name, func(b *testing.B) {
			sel, err := Validate(p, []string{rel})
			if err != nil {
				b.Fatal(err)
			}
			var ourCPU, cpCPU time.Duration
			runCp := func(i int) time.Duration {
				dst := filepath.Join(cpDst, strconv.Itoa(i))
				before := cpuTime(unix.RUSAGE_CHILDREN)
				start := time.Now()
				r := proc.Run(context.Background(), proc.Request{Argv: []string{cp, "-r", filepath.Join(ws, rel), dst}, Dir: ws, Timeout: 10 * time.Minute})
				d := time.Since(start)
				cpCPU += cpuTime(unix.RUSAGE_CHILDREN) - before
				if !r.Succeeded {
					b.Fatalf("cp -r failed: %s %s", r.Error, r.Stderr)
				}
				if err := os.RemoveAll(dst); err != nil {
					b.Fatal(err)
				}
				return d
			}
			var bundle *Bundle
			runOurs := func() time.Duration {
				before := cpuTime(unix.RUSAGE_SELF)
				defer func() { ourCPU += cpuTime(unix.RUSAGE_SELF) - before }()
				start := time.Now()
				s := sel
				if withValidate {
					if s, err = Validate(p, []string{rel}); err != nil {
						b.Fatal(err)
					}
				}
				bundle, err = Stage(data, s, "x")
				d := time.Since(start)
				if err != nil {
					b.Fatal(err)
				}
				return d
			}
			remove := func() {
				if err := Remove(bundle.Dir); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(size)
			var ours, theirs time.Duration
			var ratios []float64
			b.ResetTimer()
			b.StopTimer() // the timer is ours alone: cp and the clean-ups run outside it
			for i := 0; i < b.N; i++ {
				var o, c time.Duration
				if i%2 == 0 {
					b.StartTimer()
					o = runOurs()
					b.StopTimer()
					remove()
					c = runCp(i)
				} else {
					c = runCp(i)
					b.StartTimer()
					o = runOurs()
					b.StopTimer()
					remove()
				}
				ours, theirs = ours+o, theirs+c
				ratios = append(ratios, float64(c)/float64(o))
			}
			slices.Sort(ratios)
			b.ReportMetric(float64(theirs)/float64(ours), "cp-ratio")
			b.ReportMetric(ratios[len(ratios)/2], "cp-ratio-median")
			b.ReportMetric(float64(cpCPU)/float64(ourCPU), "cpu-ratio")
			b.ReportMetric(float64(ourCPU.Milliseconds())/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(cpCPU.Milliseconds())/float64(b.N), "cp-cpu-ms/op")
			b.ReportMetric(float64(size)*float64(b.N)/theirs.Seconds()/(1<<20), "cp-MB/s")
		})
	}
}
