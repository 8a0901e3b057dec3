package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/subnetworks"
)

// The `partition` command: the subnetworks of 001 (subnetworks.Partition), printed or written.

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
  --svg F       draw the DDNs (one colour each) and the DCN blocks to F
  --max-memory MiB, --time-limit D
                  stop inconclusive (exit 3) when the heap outgrows MiB (default 3/4 of
                  the memory available) or after D; Ctrl-C and SIGTERM do the same

Examples:
  wormcheck partition --topo torus:16x16 --type III --h 4 --delta 2 --svg fig3.svg
  wormcheck partition --topo mesh:8x8 --type IV --h 2
`

func init() {
	registerCommand(&command{Name: "partition", Summary: "DDN/DCN subnetworks of 001, their contention levels and P1-P5", Help: partitionHelp, Run: runPartition})
}

func runPartition(ctx context.Context, e *env, args []string) (int, error) {
	var o subnetworks.Spec
	fs := newFlagSet("partition")
	fs.StringVar(&o.Topology, "topo", "", "topology: torus:SxT or mesh:SxT")
	fs.StringVar(&o.Type, "type", "", "DDN type: I, II, III or IV")
	fs.IntVar(&o.H, "h", 0, "dilation h (divides both sides)")
	fs.IntVar(&o.Delta, "delta", 0, "Type III shift 1..h-1 (default h/2)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	svgPath := fs.String("svg", "", "draw the subnetworks to this SVG file")
	bud := defineBudget(fs)
	if code, done, err := parseOrHelp(e, fs, args, partitionHelp, false); done {
		return code, err
	}
	if given(fs, "delta") && o.Delta == 0 {
		return 0, usagef("--delta 0: the Type III shift is 1..h-1; leave --delta out for h/2")
	}
	ctx, release, err := bud.context(ctx)
	if err != nil {
		return 0, err
	}
	defer release()
	rep, err := budgeted(ctx, func() (*subnetworks.Report, error) { return subnetworks.Partition(o) })
	if errors.Is(err, errStopped) {
		in := props.Instance{Topology: o.Topology, Algorithm: "partition", Params: map[string]any{"type": o.Type, "h": o.H, "delta": o.Delta}}
		return stoppedReport(ctx, e, "partition", in, "P1-P5", "static", *asJSON)
	}
	if err != nil {
		return 0, usagef("%v", err)
	}
	rep.Version = toolVersion()
	if *svgPath != "" {
		if err := writeOutput(*svgPath, rep.SVG, 0o644); err != nil {
			return 0, fmt.Errorf("writing picture: %v", err)
		}
	}
	if *asJSON {
		if err := writeJSON(e.Stdout, rep); err != nil {
			return 0, err
		}
	} else {
		fmt.Fprint(e.Stdout, rep.Text())
	}
	return rep.Verdict.ExitCode(), nil
}
