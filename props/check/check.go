// Package check is wormcheck's one entry: it checks one instance of one algorithm (or
// a family of them, or a command's run) for one property under one semantics and
// returns one props.Report: verdict, stats, witness, and the evidence the command line
// draws (the library never draws).
//
// Run is the one door. From Go a request is typed, one per algorithm family: Unicast,
// TreeMulticast, TwoPhase, BanyanRoute, Partition, Collective, ... (each with a Check
// method that is Run); a Family field makes it a family, whose members algos enumerate
// and the entry's one family driver checks; RunSchedule and RunModel check a schedule
// or a transition system of the caller's own; property names are props.Prop*. The
// command line names an instance by strings: an Instance (an algorithm of the
// registry, a topology spec and the algorithm's parameters as the flags name them).
// The registry (Algorithms, Lookup) also holds the commands of their own (Commands:
// routing, partition, ...), which the command line runs through Run unchanged; Merge
// joins family results, Replay re-executes a saved counterexample and Saved reads a
// saved file for its evidence; props/check/checktest wraps the entry for tests.
//
//	g, _ := topology.Parse("torus:4")
//	rep, err := check.Unicast{Grid: g, Spec: unicast.Spec{
//		Pairs: []unicast.Pair{{Src: 0, Dst: 2}, {Src: 1, Dst: 3}, {Src: 2, Dst: 0}, {Src: 3, Dst: 1}},
//		Dateline: unicast.DatelineOff}}.Check(ctx, checker.PropDeadlock, check.Options{})
package check

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/booksim"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/props"
)

// ErrBadInput marks errors caused by the caller's input (props.ErrBadInput):
// errors.Is(err, ErrBadInput) holds for them, and the message is one line naming the
// field. Any other error is internal.
const ErrBadInput = props.ErrBadInput

// badf returns a bad-input error with a formatted one-line message.
func badf(format string, args ...any) error { return props.BadInputf(format, args...) }

// inFlags writes the fields a library's error names (props.FieldError) as the flags
// that set them: fields maps a field's Go name to its parameter. Other errors are
// returned as they are.
func inFlags(err error, fields map[string]string) error {
	var fe *props.FieldError
	if !errors.As(err, &fe) {
		return err
	}
	return badf("%s", fe.Named(func(field string) string {
		if p, ok := fields[field]; ok {
			return "--" + p
		}
		return field
	}))
}

// Instance names what to check: an algorithm of the registry, a topology spec
// ("mesh:3x3", "torus:4", "banyan:16") and the algorithm's parameters by name. A
// parameter left out takes its documented default.
type Instance struct {
	Algorithm string
	Topology  string
	Params    map[string]string
	// Relation, when set, is a Go routing relation used where the "routing" parameter
	// would name one (algorithms unicast, tree-mcast and routing): a user's own
	// relation, checked by the flit explorer and the static decision like a built-in.
	// It must route on the instance's topology; the two exclude each other.
	Relation routing.Relation
	// BookSim, when not nil, is the BookSim2 configuration the instance comes from: it
	// names the topology (Topology must be "") and gives the routing, VCs, buffers and
	// packet length of the parameters of those names that Params does not set; sim runs
	// BookSim's own experiment for it.
	BookSim *BookSim
	// Faults, when set, fails links of the topology's grid: "A-B" both ways or "A->B",
	// comma-separated (--faults); the grid becomes an irregular network
	// (topology.WithFaults).
	Faults string
}

// BookSim is a BookSim2 configuration file (--booksim): its name, every key as BookSim
// reads it (defaults applied; Config.Unknown lists the keys BookSim does not define) and
// what wormcheck checks of it (Mapping).
type BookSim struct {
	Name    string
	Config  booksim.Config
	Mapping booksim.Mapping
}

// ReadBookSim reads the BookSim2 configuration file name, whose contents are data; the
// network file it may name is read relative to name's directory. Errors are bad input
// naming the file, the line and the key.
func ReadBookSim(name string, data []byte) (*BookSim, error) {
	cfg, err := booksim.Parse(data)
	if err != nil {
		return nil, badf("--booksim %s: %v", name, err)
	}
	m, err := cfg.Map(filepath.Dir(name))
	if err != nil {
		return nil, badf("--booksim %s: %v", name, err)
	}
	return &BookSim{Name: name, Config: cfg, Mapping: m}, nil
}

// Options bound and tune a check. The zero value is an exhaustive search with one worker,
// the exact store, no bounds and no progress output.
type Options struct {
	// Workers is the number of explorer workers (0 means 1); the verdict and the state
	// count do not depend on it.
	Workers int
	// MaxStates, MaxDepth and MaxMemoryBytes bound the search (0 = none); reaching one
	// gives verdict inconclusive.
	MaxStates      int64
	MaxDepth       int
	MaxMemoryBytes int64
	// Store selects the visited store (checker.Exact or checker.Fingerprint).
	Store checker.StoreMode
	// Symmetry reduces by the topology's symmetries where the algorithm supports it; an
	// algorithm that does not is refused with ErrBadInput rather than silently ignored.
	Symmetry bool
	// Progress, if not nil, receives progress lines of long searches.
	Progress io.Writer
	// Seed seeds algorithms that choose at random (0 means 1).
	Seed int64
	// Resume, for a family run, is the result (Report.Result) an earlier, interrupted run
	// of the same family, parameters and shard wrote: its checked members are skipped
	// and its figures carried over. nil starts afresh.
	Resume []byte
	// Checkpoint, for a family run, receives the result so far (the bytes Report.Result
	// will hold at the end, marked partial) as members finish, at most once per
	// CheckpointEvery (0 = a second), and the final result; an error from it ends the
	// run. Writing each atomically leaves a resumable file whenever the process dies.
	Checkpoint      func(result []byte) error
	CheckpointEvery time.Duration
	// Steps is the claimed step count of a schedule: the steps property checks at most
	// this many (0: only the lower bound), steps-exact exactly this many (0 is refused).
	// The collectives of the registry take it as their "steps" parameter.
	Steps int
	// Semantics overrides the semantics a property is judged in, where the algorithm
	// supports the property under more than one; "" takes the first the registry lists.
	Semantics string
	// SpillDir, if set, keeps an explorer search's frontier and parent records in files
	// under it (checker.Options.SpillDir) instead of memory; the verdict, counts and
	// trace are the same. The model must decode its states (the flit models do); a
	// search of one that does not ends in an error naming SpillDir.
	SpillDir string
	// Swarm hunts with randomised walks on every core (checker.Swarm) instead of the
	// exhaustive search, where the algorithm supports it (unicast): a found deadlock is
	// minimised to the messages it involves, searched exhaustively and replayed on the
	// instance; finding nothing is inconclusive, never holds. For liveness a walk's
	// deadlock or weakly fair lasso (a livelock or starvation) refutes it. Context
	// bounds it.
	Swarm bool
	// Static asks the static decision about a unicast instance's routing relation first,
	// under the instance's virtual channels (props/cdg): a relation without a deadlock
	// configuration holds for every placement, packet length, buffer depth and port
	// model, so the instance holds with no flit search (Report.Static says so; for
	// liveness, when every route of its worms is minimal). Otherwise the flit search
	// decides, after PortfolioLead or as soon as the static answer is known
	// (docs/semantics.md, "Static verdicts and flit verdicts"). Deadlock,
	// global-deadlock and liveness of single unicast instances; the command line turns
	// it on by default (--search auto).
	Static bool
	// Portfolio runs swarm walkers (checker.Swarm) beside the exhaustive search of a
	// single unicast or tree-multicast instance once that has run PortfolioLead without
	// deciding, on the cores the search leaves free, under the same context and memory
	// budget; the first that decides answers (a walker only with a violation, minimised
	// and replayed as with Swarm), and Report.Strategies says which and what each did.
	// The command line turns it on by default (--search auto).
	Portfolio bool
	// Reduction explores the flit models' deadlock checks with partial-order reduction
	// (flit.Reduced's stubborn sets) where it is sound: unicast and tree-multicast
	// deadlock properties under a minimal relation, without symmetry. Verdicts are the
	// same; state counts are smaller, and the report names the reduction that produced
	// them (Stats.Reduction). The command line turns it on by default.
	Reduction bool
	// FlitModel searches the flit model itself (every flit move a step, every free
	// virtual channel a header's choice) instead of its lean model (flit.Model.Lean),
	// and without partial-order reduction: the same verdicts, more states, and a
	// shortest trace counted in flit moves (unicast).
	FlitModel bool
	// ReducedOnly, with Reduction, lets the reduced search decide every single instance
	// (unicast, tree-mcast): it skips the bounded unreduced first pass that otherwise
	// finds shallow local deadlocks at their true depth and decides small instances
	// alone. Verdicts are the same; it is how the soundness tests exercise the reduction
	// on small instances.
	ReducedOnly bool
	// Text, when not nil, receives lines for people as a long run makes them (a sim
	// sweep's loads, a comparison's rows); the report's Body then writes the rest.
	Text io.Writer
	// Meter, when not nil, is told a family run's member count (Expect) and then each
	// finished member with its states (Add), on the run's goroutine: the caller's own
	// progress display (prove's claims).
	Meter Meter
	// ctx is Run's context, set by Run: it stops the reads of the files a check names
	// (routing files) while the check is prepared.
	ctx context.Context
}

// Meter counts a family run's members as they finish (Options.Meter).
type Meter interface {
	Expect(members int64)
	Add(done, states int64)
}

// Param is one documented parameter of an algorithm: the command line defines a flag
// --Name with this default and usage line. A parameter whose default is "false" or
// "true" is a switch (IsBool): the command line defines a boolean flag for it.
type Param struct {
	Name    string
	Default string
	Usage   string
}

// IsBool says whether the parameter is a switch.
func (p Param) IsBool() bool { return p.Default == "false" || p.Default == "true" }

// Support is one property an algorithm can be checked for, with the semantics the
// verdict is judged in.
type Support struct {
	Property  checker.Property
	Semantics string
}

// Algorithm is one entry of the registry.
type Algorithm struct {
	// Name is the --algo value ("unicast", "tree-mcast").
	Name string
	// Summary is one line for lists.
	Summary string
	// Doc explains the algorithm and its parameters in a few sentences, with sources.
	Doc string
	// Properties lists what it can be checked for; the first is the default when an
	// algorithm supports only one.
	Properties []Support
	// DefaultProperty, if set, is the property checked when none is named, although the
	// algorithm supports more than one (unicast: deadlock, the question its users ask;
	// liveness is asked for by name).
	DefaultProperty checker.Property
	// Params are its documented parameters, in the order help lists them.
	Params []Param
	// Families says whether the algorithm checks families of instances (the "family"
	// parameter); a family run may produce a mergeable result (Report.Result).
	Families bool

	// prepare reads and validates the parameters and returns the check to run, so that
	// every input error is reported before any search starts.
	prepare func(r *request) (job, error)
	// schedule builds the unicast schedule of a schedule-building algorithm (nil for the
	// others) under ctx; BuildSchedule calls it.
	schedule func(ctx context.Context, r *request) (*model.Schedule, error)
	replay   func(ctx context.Context, tf *tracefile.File) (*props.Report, error)
	// stopped, when not nil, is the entry's own report of a run that cause stopped
	// before it returned (Stopped).
	stopped func(in Instance, cause string) *props.Report
	// merge, for an entry with families, joins its family results (Merge); results
	// names the algorithm the results carry when it is not Name.
	merge   func(files []string, read func(string) ([]byte, error)) (*Merged, error)
	results string

	// Command, when not nil, also makes the entry a command of its own (Commands).
	Command *Command
}

// BuildsSchedules says whether the algorithm builds a unicast schedule (BuildSchedule
// returns it; `wormcheck schedule` writes it).
func (a Algorithm) BuildsSchedules() bool { return a.schedule != nil }

// Replayable says whether the algorithm's counterexamples can be saved and replayed.
func (a Algorithm) Replayable() bool { return a.replay != nil }

// PropertyNames lists the distinct property names the algorithm supports, in registry
// order.
func (a Algorithm) PropertyNames() []checker.Property {
	var out []checker.Property
	for _, s := range a.Properties {
		if !slices.Contains(out, s.Property) {
			out = append(out, s.Property)
		}
	}
	return out
}

// Algorithms returns the algorithms `check --algo` takes, sorted by name: the registry
// but the entries that run only as commands of their own (Command.Only). It is built on
// every call: there is no process-wide table to mutate.
func Algorithms() []Algorithm {
	var as []Algorithm
	for _, a := range registry() {
		if a.Command == nil || !a.Command.Only {
			as = append(as, a)
		}
	}
	slices.SortFunc(as, func(a, b Algorithm) int { return strings.Compare(a.Name, b.Name) })
	return as
}

// registry is every entry, unsorted.
func registry() []Algorithm {
	return append(singleAlgorithms(), collectiveAlgorithms("")...)
}

// singleAlgorithms are the registry's entries other than the collectives, unsorted.
func singleAlgorithms() []Algorithm {
	return []Algorithm{
		unicastAlgorithm(),
		simAlgorithm(),
		treeMcastAlgorithm(),
		banyanRouteAlgorithm(),
		twoPhaseAlgorithm(),
		multinodeAlgorithm(),
		partitionAlgorithm(),
		regionRouteAlgorithm(),
		routingAlgorithm(),
		subnetworksAlgorithm(),
		fabricAlgorithm(),
		banyanLoadAlgorithm(),
		cubeLoadAlgorithm(),
		mcastLoadAlgorithm(),
	}
}

// Lookup finds an algorithm of the registry by name. It builds only what it must (Run
// calls it once per check, and sweeps of many small checks go through Run).
func Lookup(name string) (Algorithm, bool) {
	for _, a := range singleAlgorithms() {
		if a.Name == name {
			return a, true
		}
	}
	if cs := collectiveAlgorithms(name); len(cs) == 1 {
		return cs[0], true
	}
	return Algorithm{}, false
}

// algorithmNames lists the registry's algorithm names, sorted.
func algorithmNames() []string {
	var out []string
	for _, a := range Algorithms() {
		out = append(out, a.Name)
	}
	return out
}

// Run is the entry's one door: it checks one request (an instance, or a family of
// them, or a command's run: routing, partition, ...) for one property and returns its
// Report: verdict, stats and, for a violation, the witness (with the initial-state
// index and a replayable trace in Report.Trace) and its evidence. Errors wrapping
// ErrBadInput are the caller's; any other error is internal. Cancelling ctx ends the
// search with verdict inconclusive.
func Run(ctx context.Context, req Request, property checker.Property, opt Options) (*props.Report, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	opt.ctx = ctx
	j, err := req.jobFor(property, opt)
	if err != nil {
		return nil, err
	}
	return runJob(ctx, j)
}

// Request is what Run checks: an Instance, which names an algorithm of the registry,
// its topology and parameters by strings (the command line's form), or a typed request
// of one family (Unicast, TreeMulticast, TwoPhase, BanyanRoute, Partition, Collective,
// ...), whose errors name its Go fields.
type Request interface {
	jobFor(property checker.Property, opt Options) (job, error)
}

// jobFor validates the instance for property under opt and returns its job (Request).
func (in Instance) jobFor(property checker.Property, opt Options) (job, error) {
	_, j, err := prepare(in, property, opt)
	return j, err
}

// typedJob is the job of a typed request of algorithm a on topology, the Go type typed
// ("Unicast"): the property and options validated as Run validates them, then prep's
// job. Its errors name the request's fields (request.field).
func typedJob(a Algorithm, typed, topology string, property checker.Property, opt Options, prep func(r *request) (job, error)) (job, error) {
	r, err := newRequest(a, Instance{Algorithm: a.Name, Topology: topology}, property, opt)
	if err != nil {
		return nil, err
	}
	r.typed = typed
	return prep(r)
}

// runJob runs a prepared check and stamps its report with the schema.
func runJob(ctx context.Context, j job) (*props.Report, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	rep, err := j(ctx)
	if err != nil {
		return nil, err
	}
	rep.Schema = props.ReportSchema
	return rep, nil
}

// prepare validates a check and returns its request (whose work counts what the check
// does) and the job that runs it; every input error is reported here, before any
// search starts.
func prepare(in Instance, property checker.Property, opt Options) (*request, job, error) {
	a, ok := Lookup(in.Algorithm)
	if !ok {
		if in.Algorithm == "" {
			return nil, nil, badf("algorithm is missing; one of %s", strings.Join(algorithmNames(), ", "))
		}
		return nil, nil, badf("algorithm %q is unknown; one of %s", in.Algorithm, strings.Join(algorithmNames(), ", "))
	}
	if opt.Swarm && !a.FlitSearch() {
		return nil, nil, badf("--search swarm is for --algo unicast and tree-mcast; %s is checked exhaustively", a.Name)
	}
	r, err := newRequest(a, in, property, opt)
	if err != nil {
		return nil, nil, err
	}
	j, err := a.prepare(r)
	if err != nil {
		return nil, nil, err
	}
	if err := r.unused(); err != nil {
		return nil, nil, err
	}
	return r, j, nil
}

// FlitSearch says whether a's checks search a flit-level state space (unicast,
// tree-mcast): only those take a swarm search (Options.Swarm) and a partial-order
// reduction (Options.Reduction).
func (a Algorithm) FlitSearch() bool { return a.Name == "unicast" || a.Name == "tree-mcast" }

// job is a validated check, ready to run.
type job func(ctx context.Context) (*props.Report, error)

// ReadTrace reads a saved trace file (wormcheck-trace/1, checker/tracefile) for Replay;
// a malformed file is bad input naming the field.
func ReadTrace(data []byte) (*tracefile.File, error) {
	tf, err := tracefile.Parse(data)
	if err != nil {
		return nil, badf("%v", err)
	}
	return tf, nil
}

// Replay re-executes a saved trace against the model it names and reports Violated when
// the last state shows the recorded violation, Holds when it replays but shows none.
// A file that names an unknown algorithm, or whose actions do not replay, is bad input.
func Replay(ctx context.Context, tf *tracefile.File) (*props.Report, error) {
	if tf == nil {
		return nil, badf("no trace to replay")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	a, ok := Lookup(tf.Algorithm)
	if !ok || a.replay == nil {
		return nil, badf("trace file field \"algorithm\" is %q, which has no replayable traces", tf.Algorithm)
	}
	rep, err := a.replay(ctx, tf)
	if err != nil {
		if errors.Is(err, ErrBadInput) || errors.Is(err, ErrInternal) {
			return nil, err
		}
		return nil, badf("%v", err)
	}
	rep.Schema = props.ReportSchema
	return rep, nil
}

// errNoViolation is the answer to a trace whose actions replay but whose last state
// shows no violation (a trace cut short or edited by hand): it is no counterexample, and
// a replay cannot show that anything holds, so it is bad input.
func errNoViolation(tf *tracefile.File) error {
	recorded := ""
	if tf.Violation != "" {
		kind, _, _ := strings.Cut(tf.Violation, ":")
		recorded = fmt.Sprintf(" (the file records a %s)", kind)
	}
	return badf("the trace does not replay to a violation: its %d actions replay but the last state shows none%s", len(tf.Actions), recorded)
}

// ErrInternal marks a failure of wormcheck itself (a witness that does not replay, two
// checks that disagree): errors.Is(err, ErrInternal) holds for them; wormcheck exits 4.
var ErrInternal = errors.New("internal error")

// internalf returns an internal error with a formatted message.
func internalf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInternal, fmt.Sprintf(format, args...))
}
