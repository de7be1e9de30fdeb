package audit

import (
	"fmt"
	"sync"
	"testing"
)

// TestNoRecordLostWhileReading is issue 15.5: readers that loop over the whole log while
// writers append must neither make a writer give up (at the production lock timeout) nor
// see a record twice or miss one. The records are sized so that exactly one rotation
// happens and nothing is discarded: every record ever written must be in the final log
// exactly once, and every read must be a prefix of each writer's sequence that never
// shrinks from one read to the next.
//
// Appends are much faster than reads, so left alone the writers would finish before
// the readers had read a few times. Each writer therefore pauses after every batch
// until two more reads have completed: reads and writes interleave all the way through,
// the rotation included, without any timing assumption.
func TestNoRecordLostWhileReading(t *testing.T) {
	const writers, per, pad, readers, batch = 4, 400, 330, 4, 10
	n := lineLen(t, pad)
	limit := int64(writers * per * n * 2 / 3) // one rotation, no discard
	l := logFile{dir: t.TempDir(), limit: limit, timeout: LockTimeout}
	done := make(chan struct{})
	var (
		mu         sync.Mutex
		readDone   = sync.NewCond(&mu)
		readsTotal int
		readerGone bool
		rg         sync.WaitGroup
		readErrs   = make(chan error, readers)
		reads      = make([]int, readers)
	)
	for r := range readers {
		rg.Go(func() {
			defer func() { // a reader that stops must not leave writers waiting
				mu.Lock()
				readerGone = true
				readDone.Broadcast()
				mu.Unlock()
			}()
			last := map[int]int{}
			for {
				select {
				case <-done:
					return
				default:
				}
				// Half the readers decode (as logs_query does); the others only pick
				// out the ids, so they read far more often while the writers run.
				var ids []string
				if r%2 == 0 {
					evs, err := Read(l.dir)
					if err != nil {
						readErrs <- err
						return
					}
					ids = useIDs(evs)
				} else {
					var err error
					if ids, err = rawIDs(l.dir); err != nil {
						readErrs <- err
						return
					}
				}
				next, err := checkSnapshot(ids, true)
				if err != nil {
					readErrs <- err
					return
				}
				for w, k := range last {
					if next[w] < k {
						readErrs <- errShrunk(w, k, next[w])
						return
					}
				}
				last = next
				reads[r]++
				mu.Lock()
				readsTotal++
				readDone.Broadcast()
				mu.Unlock()
			}
		})
	}
	var wg sync.WaitGroup
	writeErrs := make(chan error, writers*per)
	for w := range writers {
		wg.Go(func() {
			for i := range per {
				if err := l.append(seqRecord(w, i, pad)); err != nil {
					writeErrs <- err
				}
				if i%batch == batch-1 {
					mu.Lock()
					for target := readsTotal + 2; readsTotal < target && !readerGone; {
						readDone.Wait()
					}
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	close(done)
	rg.Wait()
	close(writeErrs)
	close(readErrs)
	lost := 0
	for err := range writeErrs {
		if lost == 0 {
			t.Errorf("append failed: %v", err)
		}
		lost++
	}
	if lost > 0 {
		t.Errorf("%d of %d appends failed", lost, writers*per)
	}
	for err := range readErrs {
		t.Errorf("reader: %v", err)
	}
	evs, err := Read(l.dir)
	if err != nil {
		t.Fatal(err)
	}
	next, err := checkSnapshot(useIDs(evs), true)
	if err != nil {
		t.Fatal(err)
	}
	for w := range writers {
		if next[w] != per {
			t.Errorf("writer %d: %d of %d records in the log", w, next[w], per)
		}
	}
	if len(evs) != writers*per {
		t.Errorf("log holds %d records, want %d", len(evs), writers*per)
	}
	t.Logf("reads per reader: %v", reads)
}

func errShrunk(w, before, after int) error {
	return fmt.Errorf("writer %d: a later read covers %d records, an earlier one %d", w, after, before)
}
