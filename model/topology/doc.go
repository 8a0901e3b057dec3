// Package topology holds wormcheck's topologies: networks of routers (meshes, tori,
// hypercubes, dragonflies, k-ary n-tree fat-trees, random networks and networks read
// from files, each optionally with failed links) as one type, Network, and the
// wrap-around broadcast banyan MIN, Banyan. Both number their nodes and directed
// channels densely and stably (NodeID, ChannelID) and name them for people (Topology).
//
// Parse is the one parser of network specs ("torus:8x8", "file:PATH", ...);
// ParseBanyan reads "banyan:N". A network carries its deterministic routing: dimension
// order with dateline virtual-channel classes (DOR), ties on even rings (TieDirs) and
// explicit walks (Network.CheckWalk); a banyan its self-routing and region routing.
//
// Everything here is pure and deterministic: no goroutines, clocks or randomness (a
// random network is drawn from an explicit seed). The one I/O is reading the file of a
// "file:PATH" spec, bounded by MaxTopologyFileBytes. A topology is immutable once built
// and safe to share between goroutines.
package topology
