package checker

import "unsafe"

// Ids and parent records. A state's id is its position in breadth-first order: the
// initial states first, then each level in key order, so the states of a level have
// consecutive ids and a frontier needs no list of them (level.first). Its parent record
// says where it was first reached from: the parent's id and the index of the transition
// among the parent's successors (for an initial state, noParent and its index in
// Model.Init()). The record is packed in one word, (parent id + 1) << transBits | index,
// which is also the state's key within its level: keys of one level order its
// discoveries by (parent's place in the frontier, transition index), and every key of a
// level is larger than every record of the levels before it, since its parent ids are.

// noParent is the parent id of an initial state.
const noParent = ^uint64(0)

// transBits is the width of a record's transition index: a state may have at most
// maxTrans+1 successors (and a model at most that many initial states); the ids of
// parents then have 64-transBits bits, room for 2^44-1 states.
const (
	transBits = 20
	maxTrans  = 1<<transBits - 1
)

// parentRecord is a state's parent record unpacked.
type parentRecord struct {
	parent uint64
	trans  uint32
}

// packRecord returns the record, and level key, of a state first reached by transition
// trans of state parent (noParent and the index in Init() for an initial state).
func packRecord(parent uint64, trans uint32) uint64 {
	return (parent+1)<<transBits | uint64(trans)
}

// unpackRecord is the inverse of packRecord.
func unpackRecord(r uint64) parentRecord {
	return parentRecord{parent: r>>transBits - 1, trans: uint32(r & maxTrans)}
}

// recPageBits sets the size of a full page of records, 1<<recPageBits. Full pages are
// never copied or reallocated, so growth copies at most one page and the records cost
// their size plus the slack of the last page.
const recPageBits = 16

// records are the parent records of the stored states, by id, in pages.
type records struct {
	pages [][]uint64
	n     uint64 // records (ids) assigned
}

// add appends the record of the next id.
func (r *records) add(rec uint64) {
	if r.n&(1<<recPageBits-1) == 0 {
		r.pages = append(r.pages, make([]uint64, 0, 16)) // grows up to a page
	}
	page := &r.pages[len(r.pages)-1]
	if len(*page) == cap(*page) {
		// Grow by a quarter, not append's doubling: a small search's records are mostly
		// its last page, whose slack would be a third of them.
		c := min(cap(*page)+max(16, cap(*page)/4), 1<<recPageBits)
		*page = append(make([]uint64, 0, c), *page...)
	}
	*page = append(*page, rec)
	r.n++
}

// extend makes room for the records of ids below n, to be set by set, possibly from
// several goroutines at once (each on other ids).
func (r *records) extend(n uint64) {
	for r.n < n {
		if r.n&(1<<recPageBits-1) == 0 {
			r.pages = append(r.pages, nil)
		}
		page := &r.pages[len(r.pages)-1]
		want := min(uint64(len(*page))+n-r.n, 1<<recPageBits)
		if uint64(cap(*page)) < want {
			c := max(want, min(uint64(cap(*page))+uint64(cap(*page))/4, 1<<recPageBits))
			*page = append(make([]uint64, 0, c), *page...)
		}
		r.n += want - uint64(len(*page))
		*page = (*page)[:want]
	}
}

// set gives id its record; id must be below the n of the last extend.
func (r *records) set(id, rec uint64) {
	r.pages[id>>recPageBits][id&(1<<recPageBits-1)] = rec
}

// get returns the record of id.
func (r *records) get(id uint64) parentRecord {
	return unpackRecord(r.pages[id>>recPageBits][id&(1<<recPageBits-1)])
}

// bytes returns the memory the pages hold.
func (r *records) bytes() int64 {
	k := len(r.pages)
	if k == 0 {
		return 0
	}
	return (int64(k-1)<<recPageBits+int64(cap(r.pages[k-1])))*int64(unsafe.Sizeof(uint64(0))) + int64(cap(r.pages))*24
}
