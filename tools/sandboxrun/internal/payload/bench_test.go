//go:build !windows

package payload

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/windows-dev-agent/wda/internal/proc"
)

// The benchmarks stage a tree and, in the same run, copy the same tree with `cp -r`
// (started through internal/proc), reporting our throughput as a fraction of cp's
// ("cp-ratio": 1.0 means as fast as cp, higher is faster). Validation is included in
// our time because sandbox_run validates and stages on every execute.
//
// BenchmarkStageLarge uses a 64 MiB file by default; WDA_BENCH_LARGE_MIB=512 gives the
// issue's 512 MiB.

func BenchmarkStage10kSmall(b *testing.B) {
	src := b.TempDir()
	// 10,000 entries: the root, 99 folders, 9,900 files of 1 KiB.
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
	benchStage(b, src, "tree", 99*100*1024)
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
	src := b.TempDir()
	if err := os.Mkdir(filepath.Join(src, "tree"), 0o755); err != nil {
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
	benchStage(b, src, "tree", int64(mib)<<20)
}

func benchStage(b *testing.B, ws, rel string, size int64) {
	cp, ok := proc.NewResolver(nil).Resolve("cp")
	if !ok {
		b.Skip("cp is not installed")
	}
	data, cpDst := b.TempDir(), b.TempDir()
	b.SetBytes(size)
	var ours, theirs time.Duration
	b.ResetTimer()
	runCp := func(i int) {
		dst := filepath.Join(cpDst, strconv.Itoa(i))
		start := time.Now()
		r := proc.Run(context.Background(), proc.Request{Argv: []string{cp, "-r", filepath.Join(ws, rel), dst}, Dir: ws, Timeout: 10 * time.Minute})
		theirs += time.Since(start)
		if !r.Succeeded {
			b.Fatalf("cp -r failed: %s %s", r.Error, r.Stderr)
		}
		if err := os.RemoveAll(dst); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < b.N; i++ {
		// Alternate which copy goes first, so page-cache and writeback state left by
		// one does not always penalise the other.
		b.StopTimer()
		if i%2 == 1 {
			runCp(i)
		}
		b.StartTimer()
		start := time.Now()
		sel, err := Validate(bind(b, ws), []string{rel})
		if err != nil {
			b.Fatal(err)
		}
		bundle, err := Stage(data, sel, "x")
		if err != nil {
			b.Fatal(err)
		}
		ours += time.Since(start)
		b.StopTimer()
		if err := Remove(bundle.Dir); err != nil {
			b.Fatal(err)
		}
		if i%2 == 0 {
			runCp(i)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(theirs)/float64(ours), "cp-ratio")
	b.ReportMetric(float64(size)*float64(b.N)/theirs.Seconds()/(1<<20), "cp-MB/s")
}
