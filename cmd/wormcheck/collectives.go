package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/algos/dcf"
	"github.com/wormcheck/wormcheck/algos/edn"
	"github.com/wormcheck/wormcheck/algos/sbt"
	"github.com/wormcheck/wormcheck/algos/unicastmc"
	"github.com/wormcheck/wormcheck/algos/zblock"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
)

// The unicast-based collectives: broadcasts DCF, Z_block and EDN on 2-D tori (004), SBT
// on hypercubes (003), and the one-port multicasts separate addressing, U-mesh, U-torus
// and SPU (001). Each builds a model.Schedule and is judged by scheduleChecks.
//
//	--source N|(x,y)        the source (default node 0)
//	--dests LIST            multicast destinations: "3,5,(1,2)"; "all" = every other node
//	--multicasts LIST       several concurrent multicasts: "SRC:D,D;SRC:D,D" (umesh, utorus,
//	                        spu, separate); replaces --source/--dests
//	--ports one|all         override the port model (default: the algorithm's own)
//	--base D                SBT's base dimension (default 0)
//
// `wormcheck schedule --algo A --topo T -o F` can use collectiveScheduleFile with the same
// flags (defineCollectiveFlags).

// collectiveProps are the schedule properties every collective supports.
var collectiveProps = []string{
	props.PropStepwise, props.PropDepth, props.PropExactlyOnce, props.PropSteps,
	props.PropNodeContention, props.PropAnyDelay, props.PropValidity,
}

// collectiveSummaries names the collectives and says what each is.
var collectiveSummaries = []struct{ name, summary string }{
	{"dcf", "DCF broadcast on a 4^k or 2·4^k square torus, all-port (004 §5.2; Fig. 7 reconstructed)"},
	{"zblock", "Z_block broadcast on a 2^d x 2^d torus, all-port (004 §5.1)"},
	{"edn", "EDN broadcast on a 4^k or 2·4^k square torus, all-port (Tsai & McKinley; reconstructed)"},
	{"sbt", "spanning binomial tree broadcast on a hypercube, all-port, rotating base (003 §2.2)"},
	{"separate", "separate addressing multicast, one-port"},
	{"umesh", "U-mesh multicast, one-port (McKinley et al.; 001 §5.1)"},
	{"utorus", "U-torus multicast, one-port (Robinson et al.; 001 §4.2)"},
	{"spu", "source-partitioned U-mesh multicast, one-port (Kesavan & Panda; 001 §5.1)"},
}

func init() {
	for _, c := range collectiveSummaries {
		name := c.name
		registerAlgo(algo{
			Name:    name,
			Summary: c.summary,
			Props:   collectiveProps,
			Define: func(fs *flag.FlagSet, cm *common) func(ctx context.Context) (*props.Report, error) {
				f := defineCollectiveFlags(fs)
				return func(ctx context.Context) (*props.Report, error) {
					return checkCollective(name, cm, f)
				}
			},
		})
	}
}

// collectiveFlags are the flags of the collectives.
type collectiveFlags struct {
	Source     string
	Dests      string
	Multicasts string
	Ports      string
	Base       int
}

// defineCollectiveFlags adds the collectives' flags to fs.
func defineCollectiveFlags(fs *flag.FlagSet) *collectiveFlags {
	f := &collectiveFlags{}
	fs.StringVar(&f.Source, "source", "0", "source node: a number or coordinates like (1,2)")
	fs.StringVar(&f.Dests, "dests", "", `multicast destinations: "3,5,(1,2)" or "all"`)
	fs.StringVar(&f.Multicasts, "multicasts", "", `several multicasts: "SRC:D,D;SRC:D,D"`)
	fs.StringVar(&f.Ports, "ports", "", "port model override: one or all")
	fs.IntVar(&f.Base, "base", 0, "SBT base dimension")
	return f
}

// isCollective reports whether name is one of the collectives of this file.
func isCollective(name string) bool {
	for _, c := range collectiveSummaries {
		if c.name == name {
			return true
		}
	}
	return false
}

func checkCollective(name string, c *common, f *collectiveFlags) (*props.Report, error) {
	if c.Topo == "" {
		return nil, usagef("--topo is missing; e.g. --topo torus:16x16")
	}
	start := time.Now()
	s, err := buildCollective(name, c.Topo, f)
	if err != nil {
		return nil, err
	}
	r, err := scheduleChecks(s, c.Prop)
	if err != nil {
		return nil, err
	}
	r.Instance.Algorithm = name
	r.Instance.Params = map[string]any{"source": s.Topology.NodeName(s.Sources[0]), "ports": s.Ports.String(), "unicasts": len(s.Unicasts), "steps": s.Steps()}
	if name == "sbt" {
		r.Instance.Params["base"] = f.Base
	}
	if len(s.Sources) > 1 {
		r.Instance.Params["multicasts"] = len(s.Sources)
	}
	if r.Stats.Seconds == 0 {
		r.Stats.Seconds = time.Since(start).Seconds()
	}
	return r, nil
}

// collectiveScheduleFile builds collective name on topology topo with flags f and returns
// the schedule file (model.MarshalSchedule), for `wormcheck schedule --algo A --topo T
// -o F`. Errors are usage errors (exit 2).
func collectiveScheduleFile(name, topo string, f *collectiveFlags) ([]byte, error) {
	s, err := buildCollective(name, topo, f)
	if err != nil {
		return nil, err
	}
	b, err := scheduleFileBytes(s)
	if err != nil {
		return nil, usagef("schedule: %v", err)
	}
	return b, nil
}

// buildCollective parses the topology and flags and builds the schedule.
func buildCollective(name, topo string, f *collectiveFlags) (*model.Schedule, error) {
	t, err := model.ParseTopology(topo)
	if err != nil {
		return nil, usagef("--topo: %v", err)
	}
	g, ok := t.(*model.Grid)
	if !ok {
		return nil, usagef("--topo %s: --algo %s needs a mesh, torus or hypercube", topo, name)
	}
	srcArg := f.Source
	if strings.TrimSpace(srcArg) == "" {
		srcArg = "0"
	}
	src, err := parseNodeArg(g, srcArg)
	if err != nil {
		return nil, usagef("--source: %v", err)
	}
	var s *model.Schedule
	switch name {
	case "dcf":
		s, err = dcf.Build(g, src)
	case "zblock":
		s, err = zblock.Build(g, src)
	case "edn":
		s, err = edn.Build(g, src)
	case "sbt":
		s, err = sbt.Build(g, src, f.Base)
	case "separate", "umesh", "utorus", "spu":
		sch, _ := unicastmc.ParseScheme(name)
		var ms []unicastmc.Multicast
		ms, err = parseMulticasts(g, src, f)
		if err != nil {
			return nil, err
		}
		s, err = unicastmc.BuildMany(g, sch, ms)
	default:
		return nil, usagef("--algo %q is not a collective", name)
	}
	if err != nil {
		return nil, usagef("--algo %s: %v", name, err)
	}
	switch strings.ToLower(f.Ports) {
	case "":
	case "one":
		s.Ports = model.OnePort
	case "all":
		s.Ports = model.AllPort
	default:
		return nil, usagef("--ports %q is unknown; use one or all", f.Ports)
	}
	return s, nil
}

// parseMulticasts reads --multicasts, or --source with --dests.
func parseMulticasts(g *model.Grid, src model.NodeID, f *collectiveFlags) ([]unicastmc.Multicast, error) {
	if f.Multicasts != "" {
		var out []unicastmc.Multicast
		for i, part := range strings.Split(f.Multicasts, ";") {
			sp, dl, ok := strings.Cut(part, ":")
			if !ok {
				return nil, usagef("--multicasts: multicast %d %q has no ':'; write SRC:D,D", i+1, part)
			}
			s, err := parseNodeArg(g, sp)
			if err != nil {
				return nil, usagef("--multicasts: multicast %d source: %v", i+1, err)
			}
			ds, err := parseNodeList(g, s, dl)
			if err != nil {
				return nil, usagef("--multicasts: multicast %d: %v", i+1, err)
			}
			out = append(out, unicastmc.Multicast{Source: s, Destinations: ds})
		}
		return out, nil
	}
	if strings.TrimSpace(f.Dests) == "" {
		return nil, usagef(`--dests is missing; give destinations such as "3,5,(1,2)" or "all"`)
	}
	ds, err := parseNodeList(g, src, f.Dests)
	if err != nil {
		return nil, usagef("--dests: %v", err)
	}
	return []unicastmc.Multicast{{Source: src, Destinations: ds}}, nil
}

// parseNodeList reads a comma list of nodes (commas inside parentheses belong to
// coordinates), or "all" for every node but src.
func parseNodeList(g *model.Grid, src model.NodeID, list string) ([]model.NodeID, error) {
	if strings.TrimSpace(list) == "all" {
		var out []model.NodeID
		for v := 0; v < g.Nodes(); v++ {
			if model.NodeID(v) != src {
				out = append(out, model.NodeID(v))
			}
		}
		return out, nil
	}
	seen := map[model.NodeID]bool{}
	var out []model.NodeID
	for _, it := range model.SplitList(list) {
		v, err := parseNodeArg(g, it)
		if err != nil {
			return nil, err
		}
		if v == src {
			return nil, fmt.Errorf("destination %s is the source", g.NodeName(v))
		}
		if seen[v] {
			return nil, fmt.Errorf("destination %s is listed twice", g.NodeName(v))
		}
		seen[v] = true
		out = append(out, v)
	}
	return out, nil
}

// parseNodeArg reads a node number or coordinates "(x,y,...)" (model.Grid.ParseNode).
func parseNodeArg(g *model.Grid, s string) (model.NodeID, error) { return g.ParseNode(s) }
