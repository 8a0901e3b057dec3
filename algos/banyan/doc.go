// Package banyan holds the multicast algorithms of the wrap-around broadcast banyan MIN
// (002): the nonblocking pattern families of Property 1 with a fast bitset blocking
// check, the two-phase multicast of §3.1 (region-encoded copy to f consecutive outlets,
// then unicasts to the sorted destinations), and the multi-packet transition system of
// the unbuffered MIN with wormhole hold-and-wait at the SEs and a pluggable arbitration
// policy (free, or upper-input-link-first of Theorem 2), which the explorer searches for
// deadlocks.
//
// Everything here is deterministic: the random start s of phase 1 is never drawn; every
// start is enumerated (or given explicitly).
//
// Reference: 002 §2-§3.
package banyan
