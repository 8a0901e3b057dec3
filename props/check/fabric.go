package check

import (
	"context"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/creditloop"
)

// fabricAlgorithm is `wormcheck fabric`: an InfiniBand fabric's routes, credit loops
// and, per loop, whether a deadlock is reachable under the vct semantics
// (props/creditloop), in the command's own report.
func fabricAlgorithm() Algorithm {
	return Algorithm{
		Name:    "fabric",
		Summary: "an InfiniBand fabric from its own files: every route, the credit loops, and whether each deadlocks",
		Doc: `An InfiniBand subnet read from its own files (subnet list and LFT dump, or a topology that
wormcheck routes as OpenSM's minhop or updn): every route traced through the tables, lost
routes named, the (port, VL) dependency graph's credit loops listed as ibdmchk lists them,
and each loop decided under the vct semantics (virtual cut-through, credit-based flow
control): violated with the minimal deadlock as a replayable trace, holds when no loop can
fill (wormcheck help fabric).`,
		Properties: []Support{{checker.PropDeadlock, props.SemVCT}},
		Params: []Param{
			{"fabric", "", "the fabric: a subnet list (subnet.lst, opensm-subnet.lst), an ibsim or ibnetdiscover net file, an ibdm cable list or topology file"},
			{"lft", "", "the forwarding tables: OpenSM's dump (opensm.fdbs, osm.fdbs or opensm-lfts.dump)"},
			{"sl2vl", "", "SL-to-VL tables (opensm-sl2vl.dump, or ibdmchk's -d form); without: VL = SL"},
			{"path-sl", "", "the SL of each path (saquery path records, or ibdmchk's -c form); without: SL 0"},
			{"lmc", "0", "LMC: each CA port has 2^LMC LIDs"},
			{"route", "", "route the fabric as OpenSM's engine: minhop or updn (instead of --lft)"},
			{"roots", "", "updn's root switches, comma-separated names or 0xGUIDs"},
			{"all", "false", "trace routes from and to the switches too, not only between CAs (ibdmchk -a)"},
			{"mtu", "2048", "packet size in bytes (the MTU: 256..4096)"},
			{"buffer", "4096", "buffer of one port and VL in bytes (64-byte credits)"},
			{"faults", "", "failed links, comma-separated, each by one end NODE/PORT (a name or 0xGUID)"},
			{"max-states", "1048576", "bound of the exhaustive search of a loop that no construction fills"},
		},
		prepare: prepareFabric,
		replay:  replayFabric,
		Command: &Command{Name: "fabric", Usage: fabricHelp, Only: true,
			Flags: FlagJSON | FlagSVG | FlagTrace | FlagPCAP | FlagBudget | FlagProgress | FlagExplore},
	}
}

func prepareFabric(r *request) (job, error) {
	lmc, err := r.integer("lmc", 0, 7)
	if err != nil {
		return nil, err
	}
	mtu, err := r.integer("mtu", 256, 4096)
	if err != nil {
		return nil, err
	}
	buffer, err := r.integer("buffer", 256, 1<<24)
	if err != nil {
		return nil, err
	}
	all, err := r.boolean("all")
	if err != nil {
		return nil, err
	}
	maxStates, err := r.integer("max-states", 1, 1<<30)
	if err != nil {
		return nil, err
	}
	spec := creditloop.Spec{
		Files: fabric.Files{Topology: r.str("fabric"), LFTs: r.str("lft"), SL2VL: r.str("sl2vl"), PathSL: r.str("path-sl"), LMC: lmc},
		Route: r.str("route"), Roots: list(r.str("roots")), Faults: list(r.str("faults")),
		All: all, MTU: mtu, Buffer: buffer, MaxStates: int64(maxStates), MaxMemoryBytes: r.opt.MaxMemoryBytes, Progress: r.opt.Progress,
	}
	if spec.Files.Topology == "" {
		return nil, badf("--fabric is missing: the subnet list, net file, cable list or topology file (wormcheck help fabric)")
	}
	return func(ctx context.Context) (*props.Report, error) {
		fr, err := creditloop.Check(ctx, spec)
		if err != nil {
			return nil, inFlags(err, fabricFields)
		}
		rep := fr.Report
		rep.Body = fr
		return &rep, nil
	}, nil
}

// fabricFields names the parameter that sets each field of creditloop.Spec its errors
// name (props.FieldError).
var fabricFields = map[string]string{"Spec.MTU": "mtu", "Spec.Buffer": "buffer", "Spec.Files.LFTs": "lft",
	"Spec.Route": "route", "Spec.Roots": "roots", "Spec.Faults": "faults"}

func replayFabric(_ context.Context, tf *tracefile.File) (*props.Report, error) {
	rep, _, err := creditloop.Replay(tf)
	return rep, err
}

// list splits a comma-separated flag value, dropping blanks.
func list(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

const fabricHelp = `wormcheck fabric --fabric FILE (--lft DUMP | --route minhop|updn) [--sl2vl F] [--path-sl F]
                 [--lmc N] [--all] [--mtu B] [--buffer B] [--faults LINKS] [--json] [--svg F] [--trace F] [--pcap F] [--explore]

Checks an InfiniBand fabric from its own files. It traces every route the forwarding
tables give (each CA port to each destination LID, on the path's SL; with --all the
switches' management ports too, as ibdmchk -a), names every route that is lost (dropped
at port 0 or at a down port, delivered to the wrong node, or looping), builds the
dependency graph over (port, VL) channels that ibdmchk builds, and lists its credit
loops in ibdmchk's words: the switch that drives the link (GUID and description), its
port and the VL. Then, for each loop, it decides whether a deadlock is reachable at the
given packet and buffer sizes under the vct semantics (docs/semantics.md): virtual
cut-through with credit-based flow control per port and VL, every packet one MTU, each
buffer one FIFO. A violated loop comes with its minimal deadlock (the fewest packets, on
a shortest cycle of the loop) as the steps that reach it from the empty network;
--trace saves them, 'wormcheck replay F.json' re-runs them against the tables the file
carries, 'wormcheck explore F.json' steps through them. A fabric without credit loops
holds; a loop that no run can fill holds too (ibdmchk would still report it).

Exit codes: 0 no reachable deadlock, 1 a reachable deadlock, 2 bad input (one line
naming the file, line and field), 3 a bound was reached (a loop left undecided).

The files (docs/fabrics.md says which tool writes each):
  --fabric F    a subnet list (ibdm subnet.lst, OpenSM's opensm-subnet.lst), an ibsim or
                ibnetdiscover net file, an ibdm cable list or topology file; told apart
                by their content. Cable lists and topology files name system types
                (Reindeer, MTS400, Cougar, ...); a chassis of several switches needs its
                IBNL definition and is refused by name
  --lft F       the LFT dump: OpenSM's opensm.fdbs (ibdm's osm.fdbs) or opensm-lfts.dump
  --sl2vl F     SL-to-VL tables: opensm-sl2vl.dump (opensm -Q) or ibdmchk's -d form
  --path-sl F   path SLs: saquery path records (OpenSM 3.3.23 gives the SLs LASH, DFSSSP
                and torus-2QoS choose only through its SA), or ibdmchk's -c form
  --lmc N       LIDs per CA port 2^N (a subnet list does not record it)
  --route E     instead of --lft: route as OpenSM 3.3.23's minhop or updn does (the
                tests compare the tables with OpenSM's); a topology without LIDs gets
                them first, breadth-first from its first CA
  --roots R     updn's root switches: names or 0xGUIDs, comma-separated

Sizes: --mtu B (default 2048) is the packet, --buffer B (default 4096) the buffer of one
port and VL; with 64-byte credits a buffer holds buffer/mtu packets, and a deadlock
needs that many in every buffer of its cycle.

  --max-states N
                bound of the exhaustive search of a loop that no construction fills
                (default 2^20); reaching it leaves the loop inconclusive
  --faults L    fail links (each named by one end, NODE/PORT, comma-separated) and say
                what changes: the routes the same tables no longer deliver, and with
                --route the loops the re-routed fabric has that the intact one had not
  --json        the report object (docs/report.md) with "fabric": routes, lost routes,
                the graph, every loop with its cycle, verdict and deadlock
  --svg F       draw the fabric with the first deadlocked (else the first) credit loop
  --pcap F      the deadlock's packet moves as a capture of InfiniBand packets (one
                record per move; tshark decodes them, docs/fabrics.md)
  --explore     step through the deadlock in the browser (as wormcheck explore F.json)
  --progress    progress lines on stderr (destinations traced, routes/s, loops decided),
                at most once a second; shown on a terminal without it
  --max-memory MiB, --time-limit D
                stop inconclusive (exit 3)

Examples (from the project root; the files are in ../shared/fabrics/ib):
  wormcheck fabric --fabric ../shared/fabrics/ib/subnet.lst --lft ../shared/fabrics/ib/osm.fdbs --all
  wormcheck fabric --fabric ../shared/fabrics/ib/CreditLoopDemo.cables --route minhop --trace loop.json
  wormcheck fabric --fabric ../shared/fabrics/ib/CreditLoopDemo.cables --route updn --roots RD1
  wormcheck fabric --fabric opensm-subnet.lst --lft opensm.fdbs --sl2vl opensm-sl2vl.dump --path-sl path-sl.txt
`
