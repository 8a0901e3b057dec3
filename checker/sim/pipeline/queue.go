package pipeline

import "math/rand/v2"

// fifo is a first-in first-out queue on a growable ring: push and pop cost O(1)
// amortised, and a queue that drains reuses its storage.
type fifo[T any] struct {
	buf        []T
	head, size int
}

func (q *fifo[T]) len() int { return q.size }

func (q *fifo[T]) push(x T) {
	if q.size == len(q.buf) {
		n := max(4, 2*len(q.buf))
		nb := make([]T, n)
		for i := 0; i < q.size; i++ {
			nb[i] = q.buf[(q.head+i)%len(q.buf)]
		}
		q.buf, q.head = nb, 0
	}
	i := q.head + q.size
	if i >= len(q.buf) {
		i -= len(q.buf)
	}
	q.buf[i] = x
	q.size++
}

// front returns a pointer to the oldest element; the queue must not be empty.
func (q *fifo[T]) front() *T { return &q.buf[q.head] }

// at returns a pointer to the i-th oldest element (0 = front).
func (q *fifo[T]) at(i int) *T {
	j := q.head + i
	if j >= len(q.buf) {
		j -= len(q.buf)
	}
	return &q.buf[j]
}

func (q *fifo[T]) pop() T {
	x := q.buf[q.head]
	q.head++
	if q.head == len(q.buf) {
		q.head = 0
	}
	q.size--
	return x
}

// newRand returns the run's random stream for seed (PCG, as checker/sim).
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}
