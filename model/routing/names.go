package routing

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/wormcheck/wormcheck/model/topology"
)

// Builtin describes one built-in relation for people and for the command line.
type Builtin struct {
	Name    string
	Summary string
}

// Builtins lists the built-in relations in the order help texts show them. The
// budgeted non-minimal relation is listed as "nonminimal:B"; ByName accepts any budget
// B in 0..MaxMisrouteBudget.
func Builtins() []Builtin {
	return []Builtin{
		{"dor", "dimension order (XY, e-cube), dimension 0 first; dateline VC classes on tori (Dally & Seitz)"},
		{"dor-1vc", "dimension order on one VC, without dateline classes (deadlocks on tori: WH2)"},
		{"west-first", "turn model: west first, then adaptive (Glass & Ni); 2-D meshes"},
		{"north-last", "turn model: north last (Glass & Ni); 2-D meshes"},
		{"negative-first", "turn model: negative directions first (Glass & Ni); meshes and hypercubes"},
		{"odd-even", "odd-even turn model, column-parity rules (Chiu); 2-D meshes"},
		{"adaptive", "minimal fully adaptive on one VC (deadlocks: RT2)"},
		{"duato", "minimal fully adaptive with dimension-order escape VCs (Duato); meshes, tori, hypercubes"},
		{"duato-nodateline", "duato on 2 VCs without dateline classes: VC 1 adaptive, VC 0 dimension order (deadlocks on tori)"},
		{"nonminimal", "adaptive with misroutes (never back the way it came) and no budget; after a misroute it may turn back, productively (may livelock: RT6)"},
		{"nonminimal:B", "nonminimal with at most B misroutes per worm"},
		{"updown", "up*/down* from a breadth-first tree rooted at node 0, all shortest legal routes (Autonet, Schroeder et al. 1991); any network"},
		{"updown:ROOT", "up*/down* rooted at node ROOT (a name or number)"},
		{"shortest-path", "every next hop of a shortest path, one VC (BookSim's min_anynet; deadlocks on rings: AN2); any network"},
		{"dragonfly-min", "dragonfly minimal: local, global, local; VC 0 before the global channel, VC 1 from it (Kim, Dally, Scott & Abts 2008)"},
		{"dragonfly-min-1vc", "dragonfly minimal on one VC (deadlocks: AN3)"},
		{"dragonfly-valiant", "dragonfly Valiant: any intermediate group, then minimal; 3 VC classes (Kim et al. 2008)"},
		{"fattree-nca", "k-ary n-tree up/down: up on any port to a nearest common ancestor, then down (Petrini & Vanneschi 1997)"},
		{"booksim:FUNC[,vcs=N]", "BookSim2's routing function FUNC (routing_function as its configuration writes it: dim_order, romm, min_adapt, ugal, ...) for the network's topology, on N VCs (default 16); docs/booksim.md lists them"},
	}
}

// Names returns the names Builtins lists.
func Names() []string {
	bs := Builtins()
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.Name
	}
	return out
}

// IsBuiltin reports whether name is spelled like a built-in relation (ByName may still
// refuse it on a topology it does not fit).
func IsBuiltin(name string) bool {
	if strings.HasPrefix(name, "nonminimal:") || strings.HasPrefix(name, "updown:") || strings.HasPrefix(name, bookSimPrefix) {
		return true
	}
	for _, b := range Builtins() {
		if b.Name == name {
			return true
		}
	}
	return false
}

// ByName returns the built-in relation called name on g, or an error (one line,
// naming the relation) when there is no such relation or it is not defined on g.
func ByName(g *topology.Network, name string) (Relation, error) {
	if g == nil {
		return nil, fmt.Errorf("routing %q needs a mesh, torus or hypercube", name)
	}
	if strings.HasPrefix(name, bookSimPrefix) {
		fn, nv, err := parseBookSimName(name)
		if err != nil {
			return nil, err
		}
		return NewBookSim(g, fn, nv)
	}
	switch name {
	case "updown":
		return NewUpDown(g, 0)
	case "shortest-path":
		return NewShortestPath(g)
	case "dragonfly-min":
		return NewDragonflyMin(g, true)
	case "dragonfly-min-1vc":
		return NewDragonflyMin(g, false)
	case "dragonfly-valiant":
		return NewDragonflyValiant(g)
	case "fattree-nca":
		return NewFatTreeNCA(g)
	}
	if root, ok := strings.CutPrefix(name, "updown:"); ok {
		v, err := g.ParseRouter(root)
		if err != nil {
			return nil, fmt.Errorf("routing %q: root: %v", name, err)
		}
		return NewUpDown(g, v)
	}
	if base, ok := g.FaultBase(); ok && IsBuiltin(name) {
		rel, err := ByName(base, name)
		if err != nil {
			return nil, err
		}
		if _, reads := rel.(SourceClasser); reads {
			return nil, fmt.Errorf("routing %q reads the source of a worm; it is not supported on a network with failed links", name)
		}
		if _, b := rel.(Budgeted); b {
			return nil, fmt.Errorf("routing %q counts misroutes; it is not supported on a network with failed links", name)
		}
		return newOnFaults(rel, g), nil
	}
	if err := g.RequireDims("routing " + strconv.Quote(name)); err != nil && IsBuiltin(name) {
		return nil, fmt.Errorf("%v; on any network use updown, shortest-path or a routing table", err)
	}
	switch name {
	case "dor":
		return NewDOR(g, true), nil
	case "dor-1vc":
		return NewDOR(g, false), nil
	case "west-first":
		return NewTurn(g, WestFirst)
	case "north-last":
		return NewTurn(g, NorthLast)
	case "negative-first":
		return NewTurn(g, NegativeFirst)
	case "odd-even":
		return NewOddEven(g)
	case "adaptive":
		return NewAdaptive(g), nil
	case "duato":
		return NewDuato(g), nil
	case "duato-nodateline":
		return newDuatoNoDateline(g), nil
	case "nonminimal":
		return newNonMinimal(g), nil
	}
	if b, ok := strings.CutPrefix(name, "nonminimal:"); ok {
		n, err := strconv.Atoi(b)
		if err != nil {
			return nil, fmt.Errorf("routing %q: the misroute budget %q is not a number", name, b)
		}
		return newBudgetedNonMinimal(g, n)
	}
	return nil, fmt.Errorf("no built-in routing %q; built-ins are %s (or give a routing file)", name, strings.Join(Names(), ", "))
}

// Resolve returns the relation spec names on g: a built-in name (ByName) or the path
// of a routing file, read with readFile (the caller's I/O; this package does none).
// g may be nil for a file that names its topology.
func Resolve(g *topology.Network, spec string, readFile func(string) ([]byte, error)) (Relation, error) {
	if spec == "" {
		return nil, fmt.Errorf("routing: empty; give a built-in (%s) or a routing file", strings.Join(Names(), ", "))
	}
	if IsBuiltin(spec) {
		return ByName(g, spec)
	}
	data, err := readFile(spec)
	if err != nil {
		return nil, fmt.Errorf("routing %q is neither a built-in (%s) nor a readable file: %v", spec, strings.Join(Names(), ", "), err)
	}
	return ParseFile(data, g)
}

// Encode says how a saved trace names rel: a built-in by its name (file nil), a relation
// from a routing file by its JSON (name ""), so that replay rebuilds the same relation
// with Decode. Other relations (a user's Go type) cannot be saved: ok is false.
func Encode(rel Relation) (name string, file json.RawMessage, ok bool) {
	if s, isFile := rel.(interface{ Source() json.RawMessage }); isFile {
		return "", s.Source(), true
	}
	if _, per := Unreplicate(rel); per > 1 {
		return "", nil, false // a built-in's name, on more VCs than the built-in has
	}
	if IsBuiltin(rel.Name()) && ownType(rel) {
		// A relation of this package under a built-in name is that built-in: ByName
		// built it (rebuilding it to check would cost as much as building it, all
		// pairs' distances for shortest-path).
		return rel.Name(), nil, true
	}
	return "", nil, false
}

// ownType reports whether rel's type is one of this package's (a user's type may take
// a built-in's name and route otherwise).
func ownType(rel Relation) bool {
	t := reflect.TypeOf(rel)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t != nil && t.PkgPath() == reflect.TypeOf(File{}).PkgPath()
}

// Decode rebuilds a relation Encode named, on g: nil (dimension order, the caller's
// default) when both name and file are empty.
func Decode(g *topology.Network, name string, file json.RawMessage) (Relation, error) {
	switch {
	case name != "" && len(file) > 0:
		return nil, fmt.Errorf("routing: give a built-in name or a routing file, not both")
	case name != "":
		return ByName(g, name)
	case len(file) > 0:
		return ParseFile(file, g)
	}
	return nil, nil
}
