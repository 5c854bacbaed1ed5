package runner

import (
	"sync"
	"time"

	"github.com/skampi/skampi/record"
)

// Watchdog notices a point that never ends. The main goroutine is then blocked inside
// the library (in C), which no stop rule can see; the watchdog polls on its own
// goroutine and hands the point, as a timeout fault, to Expire.
//
// It judges progress, not elapsed time: with Progress set (this rank's count of
// finished steps, bumped by the C loops), a point is hung only when the count has not
// moved for the whole timeout. A point slowed down by the scheduler keeps moving and is
// left to its time cap; one blocked in the library stops moving and is caught within
// the timeout, as before. Without Progress the timeout counts from Start.
type Watchdog struct {
	// Expire is called at most once per point, on the watchdog's goroutine.
	Expire func(*record.Fault)
	// Progress reads a counter that moves while the rank works; nil: none.
	Progress func() uint64
	// Note, when set, is told of every point or phase as it starts (nil: it ended),
	// on the goroutine that starts it: the crash report says what the rank was doing.
	Note func(*record.Fault)

	mu      sync.Mutex
	timer   *time.Timer
	current *record.Fault
	started time.Time
}

// Start arms the watchdog for the point f describes.
func (w *Watchdog) Start(f record.Fault, timeout time.Duration) {
	if w.Note != nil {
		note := f
		w.Note(&note)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopLocked()
	w.current, w.started = &f, time.Now()
	cur := w.current
	last, moved := w.progress(), w.started
	// Polled often enough that a stop is seen within a tenth of the timeout (at most a
	// second late), rarely enough to cost nothing.
	poll := min(max(timeout/10, 5*time.Millisecond), time.Second)
	var check func()
	check = func() {
		w.mu.Lock()
		if w.current != cur { // the point ended meanwhile
			w.mu.Unlock()
			return
		}
		now := time.Now()
		if p := w.progress(); p != last {
			last, moved = p, now
		}
		if still := now.Sub(moved); still < timeout {
			w.timer = time.AfterFunc(min(poll, timeout-still), check)
			w.mu.Unlock()
			return
		}
		f := *cur
		f.MarkAt(record.FaultTimeout, f.Detail, now)
		f.ElapsedS = now.Sub(w.started).Seconds()
		f.StalledS = now.Sub(moved).Seconds()
		w.mu.Unlock()
		if w.Expire != nil {
			w.Expire(&f)
		}
	}
	w.timer = time.AfterFunc(min(poll, timeout), check)
}

func (w *Watchdog) progress() uint64 {
	if w.Progress == nil {
		return 0
	}
	return w.Progress()
}

// Stop disarms the watchdog: the point ended.
func (w *Watchdog) Stop() {
	if w.Note != nil {
		w.Note(nil)
	}
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
