package checker

// Owner-partitioned insertion. With several workers, each level gives worker w the
// shards s with s mod workers == w: only w inserts into them, so the visited store
// needs no lock and its tables, records and arena stay in one core's cache. A worker
// that generates a successor whose shard another worker owns appends it to a batch for
// that owner and hands the batch over through the owner's inbox (a buffered channel)
// when it holds postBatch successors or the worker's share of the level is done; a
// worker absorbs its inbox after every chunk of frontier states it expands. Since
// discoveries then reach a shard out of key order, the store compares keys (store.keyed)
// and keeps the least one's parent record, as the locked store did: the verdict, counts
// and traces are the same for every worker count. Ownership changes only between
// levels, when no worker runs.
//
// Cost per forwarded successor: copying it and its encoding into a batch and out of it
// (a few dozen bytes), and one channel operation per postBatch successors, in place of
// a lock and unlock per successor.

// postBatch is the number of successors a worker gathers for one owner before handing
// them over.
const postBatch = 256

// routed is a successor on its way to its shard's owner: what store.insert needs (the
// parent's id is read from the frontier at index parent), with the end of its encoding
// in the batch's enc. It is kept to 32 bytes: forwarding is most of what a second
// worker adds per transition.
type routed struct {
	h      uint64
	parent uint64 // frontier index of the parent: the key's first half
	action Action
	trans  uint32 // the key's second half
	end    uint32
}

// batch is a group of successors for one owner, with their states unless the store
// keeps encodings (a FrontierDecoder).
type batch[S any] struct {
	items  []routed
	states []S
	enc    []byte
}

// postOffice links the workers of a search: inbox[w] carries batches to worker w (a nil
// batch says that its sender has finished the level) and free recycles emptied batches.
// A batch is handed over at size successors.
type postOffice[S any] struct {
	inbox []chan *batch[S]
	free  chan *batch[S]
	size  int
}

// newPostOffice links workers workers with batches of size successors and inboxes of
// depth batches (Explore: postBatch and 8*workers; a test makes both 1 so that
// inboxes are full all the time).
func newPostOffice[S any](workers, size, depth int) *postOffice[S] {
	p := &postOffice[S]{inbox: make([]chan *batch[S], workers), free: make(chan *batch[S], 4*workers*workers), size: size}
	for i := range p.inbox {
		p.inbox[i] = make(chan *batch[S], depth)
	}
	return p
}

// get returns an empty batch, recycled if one is free.
func (p *postOffice[S]) get() *batch[S] {
	select {
	case b := <-p.free:
		return b
	default:
		return &batch[S]{items: make([]routed, 0, p.size), enc: make([]byte, 0, p.size*16)}
	}
}

// owner returns the index of the worker that owns the shard of fingerprint h.
func (w *worker[S]) owner(h uint64) int { return int(shardOf(h) % uint64(len(w.out))) }

// send adds a successor to the batch for worker o, handing the batch over when full.
func (w *worker[S]) send(o int, h uint64, enc []byte, k key, a Action, s S) {
	b := w.out[o]
	if b == nil {
		b = w.post.get()
		w.out[o] = b
	}
	b.enc = append(b.enc, enc...)
	b.items = append(b.items, routed{h: h, parent: k.parent, action: a, trans: k.trans, end: uint32(len(b.enc))})
	if !w.e.store.encoded {
		b.states = append(b.states, s)
	}
	if len(b.items) >= w.post.size {
		w.out[o] = nil
		w.deliver(o, b)
	}
}

// deliver hands b (nil: this worker has finished the level) to worker o. While o's
// inbox is full it stores batches from its own, so that two workers sending to each
// other never both wait; it blocks, rather than spins, when neither can proceed.
func (w *worker[S]) deliver(o int, b *batch[S]) {
	select {
	case w.post.inbox[o] <- b:
		return
	default:
	}
	for {
		select {
		case w.post.inbox[o] <- b:
			return
		case x := <-w.post.inbox[w.id]:
			w.store(x)
		}
	}
}

// receive stores the successors of one batch from w's inbox, waiting for one if wait,
// and reports whether it took one.
func (w *worker[S]) receive(wait bool) bool {
	in := w.post.inbox[w.id]
	var b *batch[S]
	if wait {
		b = <-in
	} else {
		select {
		case b = <-in:
		default:
			return false
		}
	}
	w.store(b)
	return true
}

// store stores the successors of batch b from w's inbox; a nil batch counts a finished
// sender.
func (w *worker[S]) store(b *batch[S]) {
	if b == nil {
		w.ended++
		return
	}
	st := w.e.store
	// Touch every home slot first, as expand does, so that the misses overlap (the
	// slot's value, which a repeat's key comparison reads, is on the same cache line).
	var x uint64
	for i := range b.items {
		h := b.items[i].h
		x += st.shards[shardOf(h)].home(h)
	}
	w.touched += x
	start := uint32(0)
	var s S
	for i := range b.items {
		it := &b.items[i]
		if b.states != nil {
			s = b.states[i]
		}
		k := key{it.parent, it.trans}
		if st.insert(it.h, b.enc[start:it.end], k, w.frontier.ids[it.parent], it.action, s) {
			w.pending++
		}
		start = it.end
	}
	clear(b.states) // drop the states' references
	b.items, b.states, b.enc = b.items[:0], b.states[:0], b.enc[:0]
	select {
	case w.post.free <- b:
	default:
	}
}

// absorb stores every batch waiting in w's inbox.
func (w *worker[S]) absorb() {
	for w.receive(false) {
	}
}

// finishLevel hands over w's partial batches and its end of level to every other
// worker, then stores what they send until each of them has finished too.
func (w *worker[S]) finishLevel() {
	for o, b := range w.out {
		if o == w.id {
			continue
		}
		if b != nil {
			w.out[o] = nil
			w.deliver(o, b)
		}
		w.deliver(o, nil)
	}
	for w.ended < len(w.out)-1 {
		w.receive(true)
	}
}
