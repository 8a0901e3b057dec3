package check

import (
	"context"
	"fmt"
	"strconv"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/subnetworks"
)

// subnetworksAlgorithm is `wormcheck partition`: the DDNs and DCNs of one type and
// dilation on one torus or mesh, their contention levels and every property of 001
// judged at once (subnetworks.Partition), in the command's own report. The entry
// "partition" checks one property at a time, for families too.
func subnetworksAlgorithm() Algorithm {
	return Algorithm{
		Name:       "subnetworks",
		Summary:    "DDN/DCN subnetworks of 001, their contention levels and P1-P5",
		Doc:        "The data-distributing and data-collecting networks of 001 on a 2-D torus or mesh, with their node and link contention levels and every property judged (wormcheck help partition).",
		Properties: []Support{{checker.PropP1P5, props.SemStatic}},
		Params: []Param{
			{"type", "", "DDN type: I, II, III or IV"},
			{"h", "0", "dilation h (divides both sides)"},
			{"delta", "", "Type III shift 1..h-1 (default h/2)"},
		},
		prepare: prepareSubnetworks,
		Command: &Command{Name: "partition", Usage: partitionHelp, Only: true,
			Flags: FlagTopology | FlagJSON | FlagSVG | FlagBudget},
	}
}

func prepareSubnetworks(r *request) (job, error) {
	h, err := r.integer("h", 0, 1<<20)
	if err != nil {
		return nil, err
	}
	spec := subnetworks.Spec{Topology: r.topology, Type: r.str("type"), H: h}
	if d := r.str("delta"); d != "" {
		if spec.Delta, err = strconv.Atoi(d); err != nil || spec.Delta == 0 {
			return nil, badf("--delta %s: the Type III shift is 1..h-1; leave --delta out for h/2", d)
		}
	}
	if need, n, ok := subnetworks.Bytes(r.topology); ok && r.opt.MaxMemoryBytes > 0 && need > r.opt.MaxMemoryBytes {
		// Building them would outgrow the budget faster than the process's watcher
		// reads it (a few large allocations): refused before anything is built.
		cause := fmt.Sprintf("memory budget: the subnetworks of %s take at least %d MiB (%d channels), more than the %d MiB allowed (--max-memory)", r.topology, need>>20, n, r.opt.MaxMemoryBytes>>20)
		return func(context.Context) (*props.Report, error) {
			rep := r.report(r.topology, map[string]any{"type": spec.Type, "h": spec.H})
			rep.Instance.Algorithm = "partition"
			rep.Verdict, rep.Reason = props.Inconclusive, cause+"; nothing was built"
			return rep, nil
		}, nil
	}
	return func(context.Context) (*props.Report, error) {
		sr, err := subnetworks.Partition(spec)
		if err != nil {
			return nil, inFlags(err, map[string]string{"Spec.Type": "type", "Spec.H": "h", "Spec.Topology": "topo", "Spec.Delta": "delta"})
		}
		rep := r.report(sr.Topology, map[string]any{"type": sr.Type, "h": sr.H, "delta": sr.Delta})
		rep.Instance.Algorithm = "partition"
		rep.Verdict, rep.Evidence, rep.Body = sr.Verdict, sr.Evidence, sr
		return rep, nil
	}, nil
}

const partitionHelp = `wormcheck partition --topo T --type I..IV --h H [--delta D] [--json] [--svg F]

Builds the data-distributing networks (DDNs) of the given type and the data-collecting
networks (DCNs) of 001 (Wang, Tseng, Shiu & Sheu) on a 2-D torus or mesh, counts their
node and link contention levels (Definition 3) and judges P1-P5 and the strong
connectivity of every subnetwork under its own channels. The exit code is 0 when every
property holds, 1 when one is violated (e.g. a directed type on a mesh), 3 when an
isomorphism search was inconclusive.

Flags:
  --topo T      torus:SxT or mesh:SxT (h must divide both sides)
  --type T      I, II, III or IV (Definitions 4-7)
  --h H         dilation
  --delta D     Type III shift, 1..h-1 (default h/2)
  --json        one object: version, command, topology, type, h, delta, "subnetworks"
                (count), "dcns" (count), "node_level", "link_level", witnesses, properties,
                and every DDN's members
  --svg F       draw the partition to F: a panel of the members and DCN blocks, then
                one panel per DDN with its own channels (at most 16 panels, a window
                of at most 24x24 nodes around what a violation names)
  --max-memory MiB, --time-limit D
                  stop inconclusive (exit 3) when the heap outgrows MiB (default 3/4 of
                  the memory available) or after D; Ctrl-C and SIGTERM do the same

Examples:
  wormcheck partition --topo torus:16x16 --type III --h 4 --delta 2 --svg fig3.svg
  wormcheck partition --topo mesh:8x8 --type IV --h 2
`
