// Command booksim-compare runs BookSim2's example configurations in BookSim2 itself and
// in `wormcheck sim --booksim`, side by side, and writes the tables of
// docs/booksim-compare.md: for each configuration its saturation throughput in both
// (sim_type = throughput at an offered load of one flit per terminal per cycle) and, at
// loads below BookSim's saturation, the average packet latency and accepted throughput
// of both (the mean over several seeds; the two simulators draw from different random
// streams, so single runs differ by their sampling noise), with the error of wormcheck
// against BookSim and the CPU time each spends per simulated cycle.
//
// It builds and fetches nothing: it takes the path of a BookSim2 binary (-booksim or
// $BOOKSIM) that you built yourself from BookSim2's public repository
// (github.com/booksim/booksim2; its README says how), the directory of that
// checkout's src/examples, and a wormcheck binary (go build ./cmd/wormcheck):
//
//	BOOKSIM=/path/to/booksim go run ./scripts/booksim-compare \
//	    -wormcheck /path/to/wormcheck -examples /path/to/booksim2/src/examples \
//	    -commit <the BookSim2 commit you built> -o table.md
//
// -loads are fractions of BookSim's last stable load in latency mode, found by
// bisection, or with -bisect=false of its saturation throughput (fewer BookSim runs,
// for the large examples); -set KEY=VALUE,... appends keys to every run of both (the
// table says so), e.g. sample_period=1000 for the examples whose sample periods of
// 10000 or 100000 cycles make each run minutes long.
//
// Each configuration is copied to a temporary directory with the keys of a run
// appended ("key = value;": both read the last assignment), so both simulators read
// the same file.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// outcome is one run of one simulator: average packet latency (NaN when unstable),
// accepted flits per terminal per cycle, cycles simulated and CPU seconds.
type outcome struct {
	latency, accepted float64
	stable            bool
	cycles            int64
	cpu               float64
}

type options struct {
	booksim, wormcheck, examples, commit, out string
	configs                                   []string
	fractions                                 []float64
	seeds                                     int
	// bisect finds BookSim's last stable load in latency mode and takes the loads as
	// fractions of it; without it they are fractions of the saturation throughput
	// (fewer BookSim runs, for the large examples).
	bisect bool
	// set are keys appended to every configuration of every run (e.g. a shorter
	// sample_period), before each run's own keys.
	set [][2]string
}

func main() {
	var o options
	var configs, fractions string
	flag.StringVar(&o.booksim, "booksim", os.Getenv("BOOKSIM"), "the BookSim2 binary (default $BOOKSIM)")
	flag.StringVar(&o.wormcheck, "wormcheck", "wormcheck", "the wormcheck binary")
	flag.StringVar(&o.examples, "examples", "", "BookSim2's src/examples directory")
	flag.StringVar(&o.commit, "commit", "", "the BookSim2 commit the binary was built from (for the table)")
	flag.StringVar(&o.out, "o", "", "write the markdown table here (default stdout)")
	flag.StringVar(&configs, "configs", "mesh88_lat,torus88,anynet/anynet_config,fattree_config,dragonflyconfig,flatflyconfig,cmeshconfig,singleconfig", "configurations under -examples")
	flag.StringVar(&fractions, "loads", "0.1,0.3,0.5,0.7,0.85", "loads as fractions of BookSim's saturation throughput")
	flag.IntVar(&o.seeds, "seeds", 3, "seeds per load (the mean is compared)")
	flag.BoolVar(&o.bisect, "bisect", true, "take -loads as fractions of BookSim's last stable load in latency mode, found by bisection (else of its saturation throughput)")
	set := flag.String("set", "", "keys to set in every configuration, e.g. 'sample_period=1000' (comma-separated); the table says so")
	flag.Parse()
	for _, kv := range strings.Split(*set, ",") {
		if k, v, ok := strings.Cut(strings.TrimSpace(kv), "="); ok {
			o.set = append(o.set, [2]string{strings.TrimSpace(k), strings.TrimSpace(v)})
		} else if strings.TrimSpace(kv) != "" {
			fmt.Fprintf(os.Stderr, "booksim-compare: -set %q: want KEY=VALUE,...\n", *set)
			os.Exit(2)
		}
	}
	if o.booksim == "" || o.examples == "" {
		fmt.Fprintln(os.Stderr, "booksim-compare: give the BookSim2 binary (-booksim or BOOKSIM) and its src/examples directory (-examples)")
		os.Exit(2)
	}
	o.configs = strings.Split(configs, ",")
	for _, f := range strings.Split(fractions, ",") {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || x <= 0 {
			fmt.Fprintf(os.Stderr, "booksim-compare: -loads %q: want positive fractions\n", fractions)
			os.Exit(2)
		}
		o.fractions = append(o.fractions, x)
	}
	var w io.Writer = os.Stdout
	if o.out != "" {
		f, err := os.Create(o.out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "booksim-compare:", err)
			os.Exit(2)
		}
		defer f.Close()
		w = f
	}
	if err := compare(w, o); err != nil {
		fmt.Fprintln(os.Stderr, "booksim-compare:", err)
		os.Exit(1)
	}
}

// compare runs every configuration and writes the tables.
func compare(w io.Writer, o options) error {
	fmt.Fprintf(w, "BookSim2 commit %s; %s; seeds per load %d; CPU seconds per simulated cycle (user + system of each process).\n",
		o.commit, time.Now().UTC().Format("2006-01-02"), o.seeds)
	for _, kv := range o.set {
		fmt.Fprintf(w, "Every configuration also sets %s = %s (in both simulators).\n", kv[0], kv[1])
	}
	fmt.Fprintln(w)
	for _, name := range o.configs {
		fmt.Fprintf(os.Stderr, "%s\n", name)
		if err := compareOne(w, o, name); err != nil {
			fmt.Fprintf(w, "### %s\n\nnot compared: %v\n\n", name, err)
		}
	}
	return nil
}

// compareOne writes one configuration's saturation row and load rows.
func compareOne(w io.Writer, o options, name string) error {
	path := filepath.Join(o.examples, name)
	base, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	size, err := meanPacketSize(base)
	if err != nil {
		return err
	}
	sat := map[string]string{"sim_type": "throughput", "injection_rate_uses_flits": "1", "injection_rate": "0.999"}
	bsSat, err := o.run(true, path, base, sat, 1)
	if err != nil {
		return fmt.Errorf("BookSim: %v", err)
	}
	wcSat, err := o.run(false, path, base, sat, 1)
	if err != nil {
		return fmt.Errorf("wormcheck: %v", err)
	}
	knee := bsSat.accepted
	if o.bisect {
		if knee, err = o.knee(path, base, size, bsSat.accepted); err != nil {
			return fmt.Errorf("BookSim: %v", err)
		}
	}
	fmt.Fprintf(w, "### %s\n\n", name)
	fmt.Fprintf(w, "saturation throughput (flits/terminal/cycle, sim_type = throughput at an offered load of 1): BookSim %.4f, wormcheck %.4f (%+.1f%%)\n\n", bsSat.accepted, wcSat.accepted, pct(wcSat.accepted, bsSat.accepted))
	if o.bisect {
		fmt.Fprintf(w, "BookSim's last stable load in latency mode (seed 1, bisection): %.4f flits/terminal/cycle; the loads below are fractions of it.\n\n", knee)
	} else {
		fmt.Fprintf(w, "The loads below are fractions of BookSim's saturation throughput.\n\n")
	}
	fmt.Fprintln(w, "| load (flits) | BookSim latency | wormcheck latency | error | BookSim accepted | wormcheck accepted | BookSim s/cycle | wormcheck s/cycle |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, f := range o.fractions {
		load := f * knee
		keys := map[string]string{"injection_rate_uses_flits": "0", "injection_rate": strconv.FormatFloat(load/size, 'g', 6, 64)}
		bs, err := o.run(true, path, base, keys, o.seeds)
		if err != nil {
			return fmt.Errorf("BookSim at load %.4f: %v", load, err)
		}
		wc, err := o.run(false, path, base, keys, o.seeds)
		if err != nil {
			return fmt.Errorf("wormcheck at load %.4f: %v", load, err)
		}
		fmt.Fprintf(w, "| %.4f | %s | %s | %s | %.4f | %.4f | %s | %s |\n", load, lat(bs), lat(wc), latErr(wc, bs),
			bs.accepted, wc.accepted, perCycle(bs), perCycle(wc))
	}
	fmt.Fprintln(w)
	return nil
}

// knee finds BookSim's last stable load in latency mode by bisection between 0 and the
// saturation throughput sat (seed 1).
func (o options) knee(path string, base []byte, size, sat float64) (float64, error) {
	lo, hi := 0.0, sat
	for i := 0; i < 6; i++ {
		mid := (lo + hi) / 2
		keys := map[string]string{"injection_rate_uses_flits": "0", "injection_rate": strconv.FormatFloat(mid/size, 'g', 6, 64)}
		r, err := o.run(true, path, base, keys, 1)
		if err != nil {
			return 0, err
		}
		if r.stable {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, nil
}

// perCycle is the CPU seconds per simulated cycle of a run, or "-" when the simulator
// did not say how many cycles it ran (BookSim's unstable runs).
func perCycle(o outcome) string {
	if o.cycles <= 1 || !o.stable {
		return "-"
	}
	return fmt.Sprintf("%.2e", o.cpu/float64(o.cycles))
}

func lat(o outcome) string {
	if !o.stable {
		return "unstable"
	}
	return fmt.Sprintf("%.2f", o.latency)
}

func latErr(wc, bs outcome) string {
	if !wc.stable || !bs.stable {
		return "-"
	}
	return fmt.Sprintf("%+.1f%%", pct(wc.latency, bs.latency))
}

func pct(x, ref float64) float64 { return 100 * (x - ref) / ref }

// run runs one simulator on the configuration with keys appended, seeds times (seeds
// 1..n), and returns the mean outcome (unstable if any run was).
func (o options) run(booksim bool, path string, base []byte, keys map[string]string, seeds int) (outcome, error) {
	dir, err := os.MkdirTemp("", "booksim-compare")
	if err != nil {
		return outcome{}, err
	}
	defer os.RemoveAll(dir)
	var sum outcome
	sum.stable = true
	for s := 1; s <= seeds; s++ {
		cfg := append([]byte(nil), base...)
		cfg = append(cfg, '\n')
		for _, kv := range o.set {
			cfg = append(cfg, fmt.Sprintf("%s = %s;\n", kv[0], kv[1])...)
		}
		for k, v := range keys {
			cfg = append(cfg, fmt.Sprintf("%s = %s;\n", k, v)...)
		}
		if nf := networkFile(base); nf != "" && !filepath.IsAbs(nf) {
			cfg = append(cfg, fmt.Sprintf("network_file = %s;\n", filepath.Join(filepath.Dir(path), nf))...)
		}
		cfg = append(cfg, fmt.Sprintf("seed = %d;\n", s)...)
		file := filepath.Join(dir, filepath.Base(path))
		if err := os.WriteFile(file, cfg, 0o644); err != nil {
			return outcome{}, err
		}
		var r outcome
		if booksim {
			r, err = runBookSim(o.booksim, file)
		} else {
			r, err = runWormcheck(o.wormcheck, file, s)
		}
		if err != nil {
			return outcome{}, err
		}
		sum.stable = sum.stable && r.stable
		sum.latency += r.latency / float64(seeds)
		sum.accepted += r.accepted / float64(seeds)
		sum.cycles += r.cycles
		sum.cpu += r.cpu
	}
	return sum, nil
}

var (
	reLatency  = regexp.MustCompile(`(?m)^Packet latency average = ([0-9.eE+-]+) \(`)
	reAccepted = regexp.MustCompile(`(?m)^Accepted flit rate average = ([0-9.eE+-]+) \(`)
	reCycles   = regexp.MustCompile(`(?m)^Time taken is ([0-9]+) cycles`)
)

// runBookSim runs BookSim2 on file and reads its overall statistics.
func runBookSim(bin, file string) (outcome, error) {
	cmd := exec.Command(bin, filepath.Base(file))
	cmd.Dir = filepath.Dir(file)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// BookSim2 exits with status 255 when it succeeds (main returns -1): its output says
	// how the run went.
	if err := cmd.Run(); err != nil && cmd.ProcessState == nil {
		return outcome{}, err
	}
	r := outcome{cpu: cpuSeconds(cmd)}
	text := out.String()
	for _, m := range reCycles.FindAllStringSubmatch(text, -1) {
		n, _ := strconv.ParseInt(m[1], 10, 64)
		r.cycles += n
	}
	if strings.Contains(text, "Simulation unstable") {
		r.latency, r.accepted = math.NaN(), math.NaN()
		if r.cycles == 0 {
			r.cycles = 1
		}
		return r, nil
	}
	l, a := reLatency.FindStringSubmatch(text), reAccepted.FindStringSubmatch(text)
	if l == nil || a == nil {
		return r, fmt.Errorf("no overall statistics in BookSim's output: %s", lastLine(text))
	}
	r.stable = true
	r.latency, _ = strconv.ParseFloat(l[1], 64)
	r.accepted, _ = strconv.ParseFloat(a[1], 64)
	return r, nil
}

// runWormcheck runs wormcheck sim --booksim on file and reads its report.
func runWormcheck(bin, file string, seed int) (outcome, error) {
	cmd := exec.Command(bin, "sim", "--booksim", file, "--seed", strconv.Itoa(seed), "--json")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return outcome{}, fmt.Errorf("%v: %s", err, lastLine(errOut.String()))
	}
	var rep struct {
		BookSim struct {
			Points []struct {
				Latency  *float64 `json:"packet_latency"`
				Accepted *float64 `json:"accepted"`
				Stable   bool     `json:"stable"`
				Cycles   int64    `json:"cycles"`
			} `json:"points"`
		} `json:"booksim"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || len(rep.BookSim.Points) != 1 {
		return outcome{}, fmt.Errorf("unexpected report (%v): %s", err, lastLine(out.String()))
	}
	p := rep.BookSim.Points[0]
	r := outcome{cpu: cpuSeconds(cmd), cycles: p.Cycles, stable: p.Stable, latency: math.NaN(), accepted: math.NaN()}
	if p.Latency != nil && p.Accepted != nil {
		r.latency, r.accepted = *p.Latency, *p.Accepted
	}
	return r, nil
}

func cpuSeconds(cmd *exec.Cmd) float64 {
	return (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

var reKey = regexp.MustCompile(`^\s*([a-z_]+)\s*=\s*([^;]*);`)

// keyValue returns the last value the configuration gives key, or "".
func keyValue(cfg []byte, key string) string {
	v := ""
	sc := bufio.NewScanner(bytes.NewReader(cfg))
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		if m := reKey.FindStringSubmatch(line); m != nil && m[1] == key {
			v = strings.TrimSpace(m[2])
		}
	}
	return v
}

func networkFile(cfg []byte) string { return keyValue(cfg, "network_file") }

// meanPacketSize is the configuration's packet size (one size; BookSim's default 1).
func meanPacketSize(cfg []byte) (float64, error) {
	v := keyValue(cfg, "packet_size")
	if v == "" {
		return 1, nil
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, fmt.Errorf("packet_size %q: the comparison takes one size", v)
	}
	return x, nil
}
