package proofs

import (
	"sync"
	"time"
)

// Meter counts the progress of the running claim: which family it is in, how many of
// that family's members are done out of how many (when the family knows), and the
// states explored by the whole claim. Judges add to it as members finish; a progress
// reporter reads Snapshot from another goroutine. The zero value is ready to use.
type Meter struct {
	mu       sync.Mutex
	claim    string
	families int
	family   int // 1-based index of the running family; 0 before the first
	name     string
	start    time.Time
	famStart time.Time
	done     int64
	total    int64 // 0 = unknown
	states   int64
}

// MeterSnapshot is what a progress line shows.
type MeterSnapshot struct {
	Claim            string
	Family           string
	FamilyIndex      int // 1-based
	Families         int
	Done, Total      int64 // members of the running family; Total 0 = unknown
	States           int64 // states of the whole claim so far
	Elapsed          time.Duration
	ETA              time.Duration // of the running family; 0 = unknown
	FamilyElapsedSec float64
}

func (m *Meter) reset(claim string, families int, start time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.claim, m.families, m.family, m.name, m.start = claim, families, 0, "", start
	m.famStart, m.done, m.total, m.states = time.Time{}, 0, 0, 0
}

func (m *Meter) startFamily(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.family++
	m.name, m.famStart, m.done, m.total = name, time.Now(), 0, 0
}

func (m *Meter) endFamily() {}

// Expect adds n members to the running family's known total.
func (m *Meter) Expect(n int64) {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.total += n
	m.mu.Unlock()
}

// Add records members finished members that explored states states.
func (m *Meter) Add(members, states int64) {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.done += members
	m.states += states
	m.mu.Unlock()
}

// Snapshot returns the counts now.
func (m *Meter) Snapshot() MeterSnapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	s := MeterSnapshot{Claim: m.claim, Family: m.name, FamilyIndex: m.family, Families: m.families,
		Done: m.done, Total: m.total, States: m.states}
	if !m.start.IsZero() {
		s.Elapsed = now.Sub(m.start)
	}
	if !m.famStart.IsZero() {
		fe := now.Sub(m.famStart)
		s.FamilyElapsedSec = fe.Seconds()
		if m.total > 0 && m.done > 0 && m.done <= m.total {
			s.ETA = time.Duration(float64(fe) * float64(m.total-m.done) / float64(m.done))
		}
	}
	return s
}
