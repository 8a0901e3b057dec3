package proofs

// This file states the import rules of wormcheck's top-level layout, so that data
// flows one way — topology -> routing -> algorithm -> checker / simulator -> properties
// -> report -> command line — and a test fails when an import breaks it (layout_test.go
// parses every Go file of the module). The layout is itself a claim the catalogue checks.

// ImportRule forbids packages under From (a path prefix inside the module, "" for any),
// except those under Except, to import packages under any of To; Why says what the rule
// protects.
type ImportRule struct {
	From   string
	To     []string
	Why    string
	Except []string
}

// ImportRules are the module's import rules. A prefix "p" matches p and p/...
func ImportRules() []ImportRule {
	return []ImportRule{
		{"model", []string{"checker", "props", "algos", "proofs", "cmd"},
			"models describe transition systems (model/system); the explorer, properties and algorithms build on them, never the reverse", nil},
		{"checker", []string{"props", "algos", "proofs", "cmd"},
			"the explorer and the simulator know transition systems, not properties or algorithms", nil},
		{"props/simulate", []string{"props/check", "proofs", "cmd"},
			"the simulator's front-end names the algorithms whose schedules it runs, judges each run against its formula and draws its plots; the command line calls it, never the entry or the catalogue", nil},
		{"algos", []string{"props", "proofs", "cmd"},
			"algorithms build models and schedules; properties and their verdicts, pictures, the entry, the catalogue and the command line come after them (verdicts are checker.Verdict, trace files checker/tracefile)", nil},
		{"props/render", []string{"props/check", "algos"},
			"pictures draw the evidence the entry returns, as values; the command line calls them, never the reverse, and they know no algorithm", nil},
		{"props", []string{"props/render"},
			"the library decides and returns typed evidence (props.Evidence); only the command line draws it, when --svg, --pcap, --explore or --witness-dir ask", []string{"props/render"}},
		{"proofs", []string{"props/render"},
			"the catalogue returns its witnesses' evidence; prove --witness-dir draws it in the command line", nil},
		{"props", []string{"proofs", "cmd"},
			"properties and the entry are libraries that the catalogue and the command line call", nil},
		{"proofs", []string{"cmd"},
			"the catalogue is data run through the entry; the command line prints it", nil},
	}
}

// SiblingAlgos lists the imports allowed between packages of algos, each with its
// reason; any other import of one algorithm package by another is refused (in
// particular, none may borrow another's rendering).
func SiblingAlgos() map[[2]string]string {
	return map[[2]string]string{
		{"algos/dcf", "algos/plan"}:                         "the schedule builder",
		{"algos/edn", "algos/plan"}:                         "the schedule builder",
		{"algos/sbt", "algos/plan"}:                         "the schedule builder",
		{"algos/unicastmc", "algos/plan"}:                   "the schedule builder",
		{"algos/zblock", "algos/plan"}:                      "the schedule builder",
		{"algos/dcf", "algos/zblock"}:                       "a 2·4^k DCF'_block ends with a Z_block step (004 §5.2)",
		{"algos/edn", "algos/zblock"}:                       "EDN on (2·4^k)^2 ends with a Z_block step, as DCF' does",
		{"algos/multinode", "algos/partition"}:              "the multi-node multicast runs over the DDN/DCN subnetworks (001 §2.3)",
		{"algos/multinode", "algos/unicastmc"}:              "phase 2 is a U-torus / U-mesh chain inside each DDN (001 §4)",
		{"algos/partition/partitiongen", "algos/partition"}: "generators of the package they generate for",
	}
}
