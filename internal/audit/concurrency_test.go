package audit

import (
	"sync"
	"testing"
	"time"
)

// TestConcurrentAppendInProcess: goroutines append fixed-length records under a small
// cap (many rotations) while another goroutine keeps reading. Each goroutine opens its
// own lock handle, so this exercises the OS lock, not a mutex. Run it under -race.
func TestConcurrentAppendInProcess(t *testing.T) {
	dir := t.TempDir()
	const writers, per, pad = 8, 150, 40
	n := lineLen(t, pad)
	limit := int64(20*n + n/2) // k = 21 records per segment
	l := logFile{dir: dir, limit: limit, timeout: time.Minute}
	stop := make(chan struct{})
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		for {
			select {
			case <-stop:
				return
			default:
			}
			evs, err := Read(dir)
			if err != nil {
				t.Error(err)
				return
			}
			for _, ev := range evs {
				if ev["execution_outcome"] != Succeeded {
					t.Errorf("reader saw a damaged record: %v", ev)
					return
				}
			}
		}
	}()
	var wg sync.WaitGroup
	errs := make(chan error, writers*per)
	for w := range writers {
		wg.Go(func() {
			for i := range per {
				if err := l.append(seqRecord(w, i, pad)); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	<-readerDone
	close(errs)
	for err := range errs {
		t.Fatalf("append failed: %v", err)
	}
	checkSequenced(t, dir, writers, per, n, limit)
}
