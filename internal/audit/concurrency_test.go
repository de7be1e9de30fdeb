package audit

import (
	"sync"
	"testing"
	"time"
)

// TestConcurrentAppendInProcess: goroutines append fixed-length records under a small
// cap (a rotation every 21 records) while another goroutine keeps reading; every read
// must be a consistent snapshot (checkSnapshot) whose coverage of each writer never
// shrinks. Each goroutine opens its own lock handle, so this exercises the OS lock, not
// a mutex. Run it under -race.
func TestConcurrentAppendInProcess(t *testing.T) {
	dir := t.TempDir()
	const writers, per, pad = 8, 150, 40
	n := lineLen(t, pad)
	limit := int64(20*n + n/2) // k = 21 records per segment
	l := logFile{dir: dir, limit: limit, timeout: time.Minute}
	stop := make(chan struct{})
	readerDone := make(chan struct{})
	reads, last := 0, map[int]int{}
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
			next, err := checkSnapshot(useIDs(evs), false)
			if err != nil {
				t.Errorf("read %d: %v", reads, err)
				return
			}
			for w, k := range next {
				if k < last[w] {
					t.Errorf("read %d: writer %d: covered %d records, the read before %d", reads, w, k, last[w])
					return
				}
				last[w] = k
			}
			reads++
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
	t.Logf("%d reads", reads)
}
