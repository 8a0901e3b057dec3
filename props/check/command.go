package check

import (
	"slices"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/props"
)

// Flags are the common flags a command takes beside its parameters. The command line
// defines and reads them; the library sees only what they set (Instance, Options) and
// fills what they ask for (Report.Trace, the evidence a picture is drawn from).
type Flags uint

// The common flags.
const (
	// FlagTopology: --topo T.
	FlagTopology Flags = 1 << iota
	// FlagNetwork: --faults LINKS (failed links turn the --topo grid into an irregular
	// network) and --booksim FILE (a BookSim2 configuration names the topology and, for
	// parameters not given, routing, vcs, buffers and length).
	FlagNetwork
	// FlagJSON: --json prints the report as one object (its Body, where it has one).
	FlagJSON
	// FlagSVG: --svg F draws the report's evidence to F.
	FlagSVG
	// FlagTrace: --trace F saves a violation's replayable trace (Report.Trace).
	FlagTrace
	// FlagPCAP: --pcap F writes the flit-level evidence as a pcap capture.
	FlagPCAP
	// FlagSearch: --prop, --workers, --max-states, --max-depth, --store, --symmetry,
	// --seed, --spill-dir, --search, --reduction: the property and the search's options
	// (Options).
	FlagSearch
	// FlagBudget: --max-memory MiB and --time-limit D stop the command, inconclusive.
	FlagBudget
	// FlagProgress: --progress shows progress lines on stderr (Options.Progress) even
	// when it is not a terminal.
	FlagProgress
	// FlagExplore: --explore steps through a violation's run in the browser (the
	// evidence's scene); `check` has it always.
	FlagExplore

	// CheckFlags are the flags of `wormcheck check`, every algorithm's.
	CheckFlags = FlagTopology | FlagNetwork | FlagJSON | FlagSVG | FlagTrace | FlagPCAP | FlagSearch | FlagBudget | FlagProgress
)

// Command makes an entry of the registry a command of its own: `wormcheck NAME [flags]`
// defines one flag per parameter of the entry and the common flags Flags names, builds
// the Instance and Options they say, runs it through Run, writes the files asked for and
// prints the report (its Body where the entry has an output of its own: routing's
// analysis, partition's subnetworks). A new command is one more entry of the registry
// with a Command: the command line lists, documents, parses and runs it unchanged.
type Command struct {
	// Name is the command (`wormcheck routing`).
	Name string
	// Usage is what `wormcheck help NAME` and --help print: synopsis, what the command
	// decides, its flags with examples.
	Usage string
	// Flags are the common flags it takes.
	Flags Flags
	// Property is the property each run checks ("": the entry's default).
	Property checker.Property
	// Only keeps the entry out of `check --algo`'s list: it runs as its own command
	// (partition's whole report), while Run and Lookup still find it by name.
	Only bool
	// ListFlags has --help list the flags with their defaults after Usage.
	ListFlags bool
	// Picture and Capture name the parameters whose values are the files the
	// evidence's picture (SVG) and capture (pcap) are written to, where the command
	// names them its own way (sim's plot and trace); the entry reads them too.
	Picture, Capture string
}

// Commands returns the entries of the registry that are commands of their own, sorted by
// command name.
func Commands() []Algorithm {
	var out []Algorithm
	for _, a := range registry() {
		if a.Command != nil {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(a, b Algorithm) int { return strings.Compare(a.Command.Name, b.Command.Name) })
	return out
}

// Stopped is the report of command (check, replay, routing, ...) running in that a
// signal, the memory budget or the time limit (cause: "interrupted", "the --time-limit
// of 1m passed") stopped before its entry returned a report of its own: verdict
// inconclusive, with the reason, for the instance as given. An entry whose output is
// its own says so in its own shape (Report.Body).
func Stopped(in Instance, property checker.Property, command, cause string) *props.Report {
	a, _ := Lookup(in.Algorithm)
	if a.stopped != nil {
		return a.stopped(in, cause)
	}
	params := map[string]any{}
	for k, v := range in.Params {
		if v != "" {
			params[k] = v
		}
	}
	rep := &props.Report{Schema: props.ReportSchema, Instance: props.Instance{Topology: in.Topology, Algorithm: in.Algorithm, Params: params},
		Verdict: props.Inconclusive, Reason: cause + " before " + command + " finished; nothing was decided"}
	rep.Property, rep.Semantics = a.propertyOf(property)
	return rep
}

// propertyOf names the property a run of a for property checks (the default where
// property is "") and the semantics it is judged in; "" where a does not support it.
func (a Algorithm) propertyOf(property checker.Property) (checker.Property, string) {
	if property == "" {
		property = a.DefaultProperty
	}
	if names := a.PropertyNames(); property == "" && len(names) == 1 {
		property = names[0]
	}
	for _, sp := range a.Properties {
		if sp.Property == property {
			return property, sp.Semantics
		}
	}
	return property, ""
}
