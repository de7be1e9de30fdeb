package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// progressLine is the live line a long call draws on a terminal's stderr: the elapsed
// time and the last line the work printed, redrawn in place with \r and cleared when
// the call ends (docs/cli.md, "Progress"). It writes only spaces and \r, no escape
// sequences, so every Windows console shows it. Nothing is drawn when stderr is not
// a terminal: a log gets no carriage returns.
type progressLine struct {
	w     io.Writer
	width int
	now   func() time.Time
	tick  time.Duration // redraw period while nothing is reported; 0: only on reports

	mu      sync.Mutex
	label   string
	start   time.Time
	msg     string
	drawn   int // characters on screen
	active  bool
	stopped chan struct{}
}

func newProgressLine(w io.Writer, width int) *progressLine {
	return &progressLine{w: w, width: width, now: time.Now, tick: time.Second}
}

// begin shows the line for a call labelled label and keeps its clock moving once a
// second, also while the work prints nothing.
func (p *progressLine) begin(label string) {
	p.mu.Lock()
	p.label, p.start, p.msg, p.active = label, p.now(), "", true
	stop := make(chan struct{})
	p.stopped = stop
	p.drawLocked()
	p.mu.Unlock()
	if p.tick <= 0 {
		return
	}
	go func() {
		t := time.NewTicker(p.tick)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				p.mu.Lock()
				if p.active {
					p.drawLocked()
				}
				p.mu.Unlock()
			}
		}
	}()
}

// update records the latest message of the running call and redraws.
func (p *progressLine) update(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.active {
		return // a notification that arrived after the call ended
	}
	p.msg = msg
	p.drawLocked()
}

// end clears the line; later updates are ignored.
func (p *progressLine) end() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.active {
		return
	}
	p.active = false
	close(p.stopped)
	if p.drawn > 0 {
		fmt.Fprint(p.w, "\r"+strings.Repeat(" ", p.drawn)+"\r")
		p.drawn = 0
	}
}

func (p *progressLine) drawLocked() {
	text := progressText(p.label, p.now().Sub(p.start), p.msg, p.width-1)
	n := utf8.RuneCountInString(text)
	pad := ""
	if p.drawn > n {
		pad = strings.Repeat(" ", p.drawn-n)
	}
	fmt.Fprint(p.w, "\r"+text+pad)
	p.drawn = n
}

// progressText is one frame of the line, at most width characters.
func progressText(label string, elapsed time.Duration, msg string, width int) string {
	text := fmt.Sprintf("%s %s", label, elapsedText(elapsed))
	if msg = strings.TrimSpace(strings.Map(printable, msg)); msg != "" {
		text += "  " + msg
	}
	if width > 0 && utf8.RuneCountInString(text) > width {
		r := []rune(text)
		if width > 1 {
			text = string(r[:width-1]) + "…"
		} else {
			text = string(r[:width])
		}
	}
	return text
}

func elapsedText(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s < 60 {
		return fmt.Sprintf("%ds", s)
	}
	return fmt.Sprintf("%dm%02ds", s/60, s%60)
}

// printable replaces control characters (tabs, escapes a tool printed) with spaces so
// a message can never move the cursor.
func printable(r rune) rune {
	if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
		return ' '
	}
	return r
}
