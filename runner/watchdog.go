package runner

import (
	"sync"
	"time"

	"github.com/skampi/skampi/record"
)

// Watchdog notices a point that never ends. The main goroutine is then blocked inside
// the library (in C), which no stop rule can see; the watchdog's timer fires on its
// own goroutine and hands the point, as a timeout fault, to Expire.
type Watchdog struct {
	// Expire is called at most once per point, on the timer's goroutine.
	Expire func(*record.Fault)

	mu      sync.Mutex
	timer   *time.Timer
	current *record.Fault
	started time.Time
}

// Start arms the watchdog for the point f describes.
func (w *Watchdog) Start(f record.Fault, timeout time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopLocked()
	w.current, w.started = &f, time.Now()
	cur := w.current
	w.timer = time.AfterFunc(timeout, func() {
		w.mu.Lock()
		if w.current != cur { // the point ended as the timer fired
			w.mu.Unlock()
			return
		}
		f := *cur
		f.Kind, f.Fault = record.KindFault, record.FaultTimeout
		f.ElapsedS = time.Since(w.started).Seconds()
		f.Time = time.Now().UTC()
		w.mu.Unlock()
		if w.Expire != nil {
			w.Expire(&f)
		}
	})
}

// Stop disarms the watchdog: the point ended.
func (w *Watchdog) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopLocked()
}

func (w *Watchdog) stopLocked() {
	if w.timer != nil {
		w.timer.Stop()
	}
	w.timer, w.current = nil, nil
}

// Current returns the point in flight (nil between points) and how long it has run.
func (w *Watchdog) Current() (*record.Fault, time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.current == nil {
		return nil, 0
	}
	f := *w.current
	return &f, time.Since(w.started)
}
