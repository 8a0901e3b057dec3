package routing

import (
	"fmt"

	"github.com/wormcheck/wormcheck/model/topology"
)

// Replicated is a relation on a network with more virtual channels than it names: its
// VC r (a class) owns the network's VCs r*Per .. (r+1)*Per-1 of every physical channel,
// and a header it permits on (channel, r) may take any of them. A header on VC v is
// routed as the base relation routes a header on VC v/Per. It is the flit model's
// reading of a relation with flit.Config.VCs a multiple of the relation's VCs (BookSim's
// num_vcs, check's --vcs), stated as a relation of its own so that the static decision
// judges that network: more VCs per class can remove a deadlock (four worms round a
// ring of four channels need four channels' worth of room per VC).
//
// Its promises are the base's: Positional, SourceClasser and Budgeted are forwarded,
// Escaping maps the output to its class; the class-based hints (DestClassed,
// EscapeOrdered, ...) are not, since they speak of the base's VCs.
type Replicated struct {
	Base Relation
	Per  int
}

// Replicate returns rel on a network of vcs virtual channels per physical channel: rel
// itself when vcs is 0 or rel.VCs(), else a Replicated (a Replicated one with an
// Escaping base is Escaping too). vcs must be a multiple of rel.VCs().
func Replicate(rel Relation, vcs int) (Relation, error) {
	n := rel.VCs()
	switch {
	case vcs == 0 || vcs == n:
		return rel, nil
	case vcs < 0 || n < 1 || vcs%n != 0:
		return nil, fmt.Errorf("routing %q uses %d virtual channels; the network's %d must be a multiple of them (each of its VC classes takes as many)", rel.Name(), n, vcs)
	}
	r := &Replicated{Base: rel, Per: vcs / n}
	if e, ok := rel.(Escaping); ok {
		return &replicatedEscaping{r, e}, nil
	}
	return r, nil
}

// Name is the base's name.
func (r *Replicated) Name() string { return r.Base.Name() }

// Grid is the base's topology.
func (r *Replicated) Grid() *topology.Network { return r.Base.Grid() }

// VCs is the base's times Per.
func (r *Replicated) VCs() int { return r.Base.VCs() * r.Per }

// Route routes h as the base routes it on its VC's class and offers every VC of each
// output's class.
func (r *Replicated) Route(h Header, out []Output) []Output {
	if h.In.Channel != Injection {
		h.In.VC /= r.Per
	}
	start := len(out)
	out = r.Base.Route(h, out)
	base := append([]Output(nil), out[start:]...)
	out = out[:start]
	for _, o := range base {
		for i := range r.Per {
			out = append(out, Output{Channel: o.Channel, VC: o.VC*r.Per + i, Misroute: o.Misroute})
		}
	}
	return out
}

// Positional is the base's.
func (r *Replicated) Positional() bool {
	p, ok := r.Base.(Positional)
	return ok && p.Positional()
}

// SourceClasses is the base's (1 when it reads no source).
func (r *Replicated) SourceClasses() int {
	if s, ok := r.Base.(SourceClasser); ok {
		return s.SourceClasses()
	}
	return 1
}

// SourceClass is the base's for h on its VC's class.
func (r *Replicated) SourceClass(h Header) int {
	s, ok := r.Base.(SourceClasser)
	if !ok {
		return 0
	}
	if h.In.Channel != Injection {
		h.In.VC /= r.Per
	}
	return s.SourceClass(h)
}

// MisrouteBudget is the base's (0 when it has none: no misroute is offered then
// beyond what the base offers, and none is counted).
func (r *Replicated) MisrouteBudget() int {
	if b, ok := r.Base.(Budgeted); ok {
		return b.MisrouteBudget()
	}
	return 0
}

// replicatedEscaping is a Replicated whose base names an escape subfunction.
type replicatedEscaping struct {
	*Replicated
	esc Escaping
}

// Escape is the base's for h and o on their VCs' classes.
func (r *replicatedEscaping) Escape(h Header, o Output) bool {
	if h.In.Channel != Injection {
		h.In.VC /= r.Per
	}
	o.VC /= r.Per
	return r.esc.Escape(h, o)
}

// Unreplicate returns the relation a Replicated replicates and its VCs per class, or
// rel and 1 for any other relation.
func Unreplicate(rel Relation) (base Relation, per int) {
	switch r := rel.(type) {
	case *Replicated:
		return r.Base, r.Per
	case *replicatedEscaping:
		return r.Base, r.Per
	}
	return rel, 1
}
