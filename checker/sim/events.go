package sim

import (
	"github.com/emirpasic/gods/v2/trees/binaryheap"
)

// eventKind says what a scheduled event does when its cycle comes.
type eventKind uint8

const (
	evGenerate  eventKind = iota // a source generates its next message (a = node)
	evReady                      // a worm has passed its software start-up and joins its injection port (a = worm)
	evReceived                   // a destination has received a message and finished its receive software (a = worm, b = node)
	evUserStart                  // a schedule source starts at time 0 (a = node)
)

// event is one scheduled action. Events of the same cycle run in the order they were
// scheduled (seq), which keeps runs deterministic whatever the queue.
type event struct {
	t       int64
	seq     uint64
	kind    eventKind
	a, b, c int32
}

// eventQueue is the simulator's future-event list. popDue calls f for every event with
// t <= now in (t, seq) order, including events f itself schedules for now.
type eventQueue interface {
	push(e event)
	popDue(now int64, f func(event))
	len() int
}

// QueueKind selects the future-event list implementation.
type QueueKind uint8

// The event-queue implementations. BenchmarkEventQueue compares them; Calendar is the
// default because it won (see the package doc).
const (
	Calendar QueueKind = iota // a calendar queue with one-cycle days
	Heap                      // github.com/emirpasic/gods/v2 binary heap
)

func newQueue(k QueueKind) eventQueue {
	if k == Heap {
		return newHeapQueue()
	}
	return newCalendarQueue(4096)
}

// heapQueue is the gods v2 binary heap ordered by (t, seq). Push and pop cost O(log n).
type heapQueue struct {
	h *binaryheap.Heap[event]
}

func newHeapQueue() *heapQueue {
	return &heapQueue{h: binaryheap.NewWith(func(a, b event) int {
		switch {
		case a.t < b.t:
			return -1
		case a.t > b.t:
			return 1
		case a.seq < b.seq:
			return -1
		case a.seq > b.seq:
			return 1
		}
		return 0
	})}
}

func (q *heapQueue) push(e event) { q.h.Push(e) }
func (q *heapQueue) len() int     { return q.h.Size() }
func (q *heapQueue) popDue(now int64, f func(event)) {
	for {
		e, ok := q.h.Peek()
		if !ok || e.t > now {
			return
		}
		q.h.Pop()
		f(e)
	}
}

// calendarQueue is a calendar queue (Brown 1988) whose days are single cycles: bucket
// t mod len(days) holds the events of cycles t, t+len, t+2len, ... in scheduling order.
// The simulator visits every cycle in turn, so popDue scans one bucket per cycle; an
// event more than a year ahead is skipped (and kept) until its year comes. Push costs
// O(1); popDue costs O(bucket length).
type calendarQueue struct {
	days [][]event
	mask int64
	n    int
}

func newCalendarQueue(days int) *calendarQueue {
	return &calendarQueue{days: make([][]event, days), mask: int64(days - 1)}
}

func (q *calendarQueue) push(e event) {
	d := &q.days[e.t&q.mask]
	*d = append(*d, e)
	q.n++
}

func (q *calendarQueue) len() int { return q.n }

func (q *calendarQueue) popDue(now int64, f func(event)) {
	d := &q.days[now&q.mask]
	if len(*d) == 0 {
		return
	}
	// Events f schedules for now are appended to the same bucket and picked up by
	// the loop, which re-reads the slice header on every iteration.
	keep := 0
	for i := 0; i < len(*d); i++ {
		e := (*d)[i]
		if e.t <= now {
			q.n--
			f(e)
			continue
		}
		(*d)[keep] = e
		keep++
	}
	*d = (*d)[:keep]
}
