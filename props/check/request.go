package check

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/input"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// request is one Run call after validation: the algorithm, the instance, the property
// with its semantics and the options. Parameters are read through its typed getters,
// which name the parameter in every error; a parameter given but never read is refused
// (unused), so a typo does not silently fall back to a default.
type request struct {
	work      work
	algo      Algorithm
	topology  string
	property  checker.Property
	semantics string
	opt       Options
	params    map[string]string
	read      map[string]bool
	relation  routing.Relation // Instance.Relation
	usedRel   bool             // the algorithm took relation
	walkers   int              // swarm walkers a portfolio gives (0: swarmWalkers' default)
	typed     string           // the typed request's Go type ("Unicast"); "" for Run
	bookSim   *BookSim         // Instance.BookSim
}

// swarmWalkers is how many walkers a swarm runs: what a portfolio gives it (the cores
// its exhaustive search leaves), else Options.Workers when above 1, else every core.
func (r *request) swarmWalkers() int {
	switch {
	case r.walkers > 0:
		return r.walkers
	case r.opt.Workers > 1:
		return r.opt.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// isSet says whether the caller set parameter name (else it has its default).
func (r *request) isSet(name string) bool {
	_, ok := r.params[name]
	return ok
}

// field names a parameter in an error as its caller wrote it: the flag ("--length")
// for Run, the field of the typed request ("Unicast.Spec.Length") for its Check.
func (r *request) field(flag, goField string) string {
	if r.typed != "" {
		return r.typed + "." + goField
	}
	return "--" + flag
}

func newRequest(a Algorithm, in Instance, property checker.Property, opt Options) (*request, error) {
	names := a.PropertyNames()
	if property == "" && a.DefaultProperty != "" {
		property = a.DefaultProperty
	}
	if property == "" {
		if len(names) != 1 {
			return nil, badf("--prop is missing; --algo %s supports %s", a.Name, propList(names))
		}
		property = names[0]
	}
	sem := ""
	for _, s := range a.Properties {
		if s.Property == property && (opt.Semantics == "" || opt.Semantics == s.Semantics) {
			sem = s.Semantics
			break
		}
	}
	if sem == "" {
		if !slices.Contains(names, property) {
			return nil, badf("--prop %q is not supported by --algo %s; it supports %s", property, a.Name, propList(names))
		}
		return nil, badf("semantics %q is not supported for %s of %s", opt.Semantics, property, a.Name)
	}
	if opt.Workers == 0 {
		opt.Workers = 1
	}
	switch {
	case opt.Workers < 1 || opt.Workers > 256:
		return nil, badf("workers %d is out of range; use 1..256", opt.Workers)
	case opt.MaxStates < 0:
		return nil, badf("max-states must not be negative")
	case opt.MaxDepth < 0:
		return nil, badf("max-depth must not be negative")
	case opt.MaxMemoryBytes < 0:
		return nil, badf("max-memory must not be negative")
	case opt.Store != checker.Exact && opt.Store != checker.Fingerprint:
		return nil, badf("store %v is unknown; use exact or fingerprint", opt.Store)
	}
	if opt.Seed == 0 {
		opt.Seed = 1
	}
	r := &request{algo: a, topology: in.Topology, property: property, semantics: sem, opt: opt,
		params: map[string]string{}, read: map[string]bool{}, relation: in.Relation, bookSim: in.BookSim}
	for k, v := range in.Params {
		if !slices.ContainsFunc(a.Params, func(p Param) bool { return p.Name == k }) {
			return nil, badf("parameter %q is unknown to %s; it has %s", k, a.Name, strings.Join(paramNames(a), ", "))
		}
		r.params[k] = v
	}
	if err := r.applyBookSim(); err != nil {
		return nil, err
	}
	if in.Faults != "" {
		if r.topology == "" {
			return nil, badf("--faults needs --topo (the grid whose links fail)")
		}
		r.topology += topology.FaultsSep + in.Faults
	}
	return r, nil
}

// applyBookSim takes the topology from the request's BookSim configuration, and, for
// an algorithm that reads them but sim (which runs BookSim's own experiment), the
// routing, VCs, buffers and length the caller did not set.
func (r *request) applyBookSim() error {
	bs := r.bookSim
	if bs == nil {
		return nil
	}
	if r.topology != "" {
		return badf("--topo and --booksim both name a topology; give one")
	}
	r.topology = bs.Mapping.Topology
	if r.algo.Name == "sim" {
		return nil
	}
	has := func(name string) bool {
		return slices.ContainsFunc(r.algo.Params, func(p Param) bool { return p.Name == name })
	}
	for name, v := range map[string]int{"vcs": bs.Mapping.VCs, "buffers": bs.Mapping.Buffer, "length": bs.Mapping.Length} {
		if has(name) && !r.isSet(name) && v > 0 {
			r.params[name] = strconv.Itoa(v)
		}
	}
	if has("routing") && !r.isSet("routing") {
		if bs.Mapping.Routing == "" {
			return badf("--routing is missing and --booksim gives none: %s", bs.Mapping.NoRouting)
		}
		r.params["routing"] = bs.Mapping.Routing
	}
	return nil
}

func paramNames(a Algorithm) []string {
	out := make([]string, len(a.Params))
	for i, p := range a.Params {
		out[i] = p.Name
	}
	return out
}

// str returns parameter name, or its documented default when it was not given.
func (r *request) str(name string) string {
	r.read[name] = true
	if v, ok := r.params[name]; ok {
		return v
	}
	for _, p := range r.algo.Params {
		if p.Name == name {
			return p.Default
		}
	}
	panic("check: parameter " + name + " is not declared by " + r.algo.Name) // a bug in this package
}

// integer returns parameter name as an int in [lo, hi].
func (r *request) integer(name string, lo, hi int) (int, error) {
	s := r.str(name)
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, badf("--%s %q is not an integer", name, s)
	}
	if n < lo || n > hi {
		return 0, badf("--%s %d is out of range; use %d..%d", name, n, lo, hi)
	}
	return n, nil
}

// boolean returns parameter name as a bool ("true"/"false", as Go's flag package writes
// them).
func (r *request) boolean(name string) (bool, error) {
	s := r.str(name)
	if s == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return false, badf("--%s %q is not true or false", name, s)
	}
	return b, nil
}

// unused refuses parameters that were given but that the check never read: they belong
// to another mode of the algorithm (a --family parameter given with --msgs).
func (r *request) unused() error {
	if r.relation != nil && !r.usedRel {
		return badf("algorithm %s takes no Go relation (Instance.Relation); unicast, tree-mcast and routing do", r.algo.Name)
	}
	var extra []string
	for k, v := range r.params {
		if !r.read[k] && v != "" && v != r.defaultOf(k) {
			extra = append(extra, k)
		}
	}
	if len(extra) == 0 {
		return nil
	}
	slices.Sort(extra)
	return badf("--%s has no effect here", strings.Join(extra, ", --"))
}

func (r *request) defaultOf(name string) string {
	for _, p := range r.algo.Params {
		if p.Name == name {
			return p.Default
		}
	}
	return ""
}

// checkerOptions converts the options into the explorer's.
func checkerOptions[S any](ctx context.Context, r *request) checker.Options[S] {
	return checker.Options[S]{
		Workers: r.opt.Workers, MaxStates: r.opt.MaxStates, MaxDepth: r.opt.MaxDepth,
		MaxMemoryBytes: r.opt.MaxMemoryBytes, Store: r.opt.Store, Progress: r.opt.Progress, Context: ctx,
		SpillDir: r.opt.SpillDir,
	}
}

// traceText renders a trace's labels for people: a headline and one numbered line per
// step.
func traceText(labels []string) string {
	return lassoText(labels, -1)
}

// lassoText renders a trace, or with cycleStart >= 0 a lasso whose steps from cycleStart
// on repeat forever, for people: a headline and one numbered line per step, the cycle's
// first step marked.
func lassoText(labels []string, cycleStart int) string {
	var b strings.Builder
	if cycleStart < 0 || cycleStart >= len(labels) {
		fmt.Fprintf(&b, "shortest trace (%d steps):\n", len(labels))
		cycleStart = -1
	} else {
		fmt.Fprintf(&b, "lasso: %d steps to a state, then a cycle of %d steps back to it, repeated forever:\n", cycleStart, len(labels)-cycleStart)
	}
	for i, l := range labels {
		if i == cycleStart {
			b.WriteString("  cycle:\n")
		}
		fmt.Fprintf(&b, "%d %s\n", i+1, l)
	}
	return b.String()
}

// report starts a Report for r with the instance's canonical topology and parameters.
func (r *request) report(topology string, params map[string]any) *props.Report {
	return &props.Report{
		Instance: props.Instance{Topology: topology, Algorithm: r.algo.Name, Params: params},
		Property: r.property, Semantics: r.semantics,
	}
}

// float returns parameter name as a float64.
func (r *request) float(name string) (float64, error) {
	s := r.str(name)
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, badf("--%s %q is not a number", name, s)
	}
	return f, nil
}

// given returns the parameters the caller set, for saving with a trace.
func (r *request) given() map[string]string {
	out := make(map[string]string, len(r.params))
	for k, v := range r.params {
		out[k] = v
	}
	return out
}

// seed is Options.Seed for algorithms that choose at random (0 means 1).
func (r *request) seed() uint64 {
	if r.opt.Seed == 0 {
		return 1
	}
	return uint64(r.opt.Seed)
}

// work counts what one check did that it should do at most once: topology parses,
// model builds and trace replays. A check that violates a property keeps the model and
// trace its search found (values travel whole), so that its report, pictures and
// capture cost no second build or replay; the tests read the counts.
type work struct {
	parses, builds, replays int
}

// readFile reads a file the request names (a routing file): at most k's cap lowered to
// a quarter of the memory budget (input.Kind.Within), stopped with Run's context.
func (r *request) readFile(k input.Kind) func(path string) ([]byte, error) {
	ctx := r.opt.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	return input.Reader(ctx, k.Within(r.opt.MaxMemoryBytes))
}

// readStopped is the error of a read that Run's context cut short (not bad input: the
// file may be fine), nil while the context lives.
func (r *request) readStopped() error {
	if ctx := r.opt.ctx; ctx != nil && ctx.Err() != nil {
		return fmt.Errorf("stopped while reading a file: %w", context.Cause(ctx))
	}
	return nil
}

// propList joins property names for a message.
func propList(ps []checker.Property) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = string(p)
	}
	return strings.Join(names, ", ")
}
