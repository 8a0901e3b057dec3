package cdg

import (
	"reflect"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// routingPkg is the import path of the package whose relations keep their promises.
const routingPkg = "github.com/wormcheck/wormcheck/model/routing"

// trusted reports whether rel's optional promises (routing.Positional,
// routing.SourceClasser, routing.DestClassed, routing.SourceReached,
// routing.EscapeOrdered, routing.EscapeLeveled) may be used to merge headers: the
// relations of package model/routing (the built-ins and routing files) keep them by
// construction and by their tests (a routing.Replicated forwards its base's, so it is
// trusted when its base is). A user's type may not — a relation that reads
// Header.Src without implementing routing.SourceClasser would lose the dependencies
// of every source but the first — so its headers are never merged (plain).
func trusted(rel routing.Relation) bool {
	if base, per := routing.Unreplicate(rel); per > 1 {
		return trusted(base) // it forwards the base's promises
	}
	t := reflect.TypeOf(rel)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t != nil && t.PkgPath() == routingPkg
}

// plain returns rel unchanged when it is trusted, else a relation that routes as rel
// does but shows none of its promises: every source is its own source class (so the
// searches keep a header's source whatever Route reads), and only the interfaces that
// carry semantics rather than promises remain (routing.Escaping names the escape
// subfunction Duato's condition judges; routing.Budgeted the misroute budget the flit
// model counts). It costs a factor of the node count in header states.
func plain(rel routing.Relation) routing.Relation {
	if trusted(rel) {
		return rel
	}
	u := untrusted{rel}
	e, esc := rel.(routing.Escaping)
	b, bud := rel.(routing.Budgeted)
	switch {
	case esc && bud:
		return struct {
			untrusted
			routing.Escaping
			routing.Budgeted
		}{u, e, b}
	case esc:
		return struct {
			untrusted
			routing.Escaping
		}{u, e}
	case bud:
		return struct {
			untrusted
			routing.Budgeted
		}{u, b}
	}
	return u
}

// untrusted is a relation seen without its promises, with one source class per node.
type untrusted struct{ r routing.Relation }

func (u untrusted) Name() string            { return u.r.Name() }
func (u untrusted) Grid() *topology.Network { return u.r.Grid() }
func (u untrusted) VCs() int                { return u.r.VCs() }
func (u untrusted) Route(h routing.Header, out []routing.Output) []routing.Output {
	return u.r.Route(h, out)
}
func (u untrusted) SourceClasses() int             { return u.r.Grid().Nodes() }
func (untrusted) SourceClass(h routing.Header) int { return int(h.Src) }
func (untrusted) everySource()                     {}
