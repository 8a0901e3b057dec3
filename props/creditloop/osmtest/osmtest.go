// Package osmtest routes a fabric with the real subnet manager, for tests and for the
// table in docs/fabrics.md: it starts ibsim (ibsim-utils) on the fabric's net file,
// runs OpenSM 3.3.23 under ibsim-run with one routing engine until the subnet is up,
// keeps OpenSM's dumps (opensm-subnet.lst, opensm.fdbs, opensm-lfts.dump, and
// opensm-sl2vl.dump with QoS), and, where an engine chooses SLs (LASH, DFSSSP,
// torus-2QoS), asks OpenSM's SA for every CA pair's path record with saquery, the only
// way OpenSM 3.3.23 gives them out. It also runs ibdmchk on the same dumps.
//
// Every process gets its own ibsim socket name and is stopped when the call returns.
// Available says in one line why the tools are missing, CanStart why they cannot run
// here (tests skip with it).
package osmtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/wormcheck/wormcheck/model/fabric"
)

// Request says how to route one fabric.
type Request struct {
	Fabric *fabric.Fabric
	// Engine is OpenSM's -R: minhop, updn, dfsssp, lash, ftree, torus-2QoS.
	Engine string
	// Roots are the root switches' GUIDs (updn and ftree: -a FILE).
	Roots []uint64
	// QoS enables OpenSM's QoS (-Q), which programs and dumps the SL2VL tables.
	QoS bool
	// PathSLs asks the SA for the path record of every CA pair (saquery).
	PathSLs bool
	// TorusConf is the torus-2QoS configuration (written to torus-2QoS.conf).
	TorusConf string
}

// Result is a routed fabric: Dir holds OpenSM's dumps, path-sl.txt (saquery's path
// records, with PathSLs) and ibdm-psl.txt (the same SLs in ibdmchk's -c form). Engine
// is the engine OpenSM says configured the tables (it falls back to minhop when the
// asked one fails).
type Result struct {
	Dir    string
	Engine string
	Log    string
}

// Files returns the fabric files of a result for model/fabric.Load.
func (r *Result) Files() fabric.Files {
	f := fabric.Files{Topology: filepath.Join(r.Dir, "opensm-subnet.lst"), LFTs: filepath.Join(r.Dir, "opensm.fdbs")}
	if p := filepath.Join(r.Dir, "opensm-sl2vl.dump"); exists(p) {
		f.SL2VL = p
	}
	if p := filepath.Join(r.Dir, "path-sl.txt"); exists(p) {
		f.PathSL = p
	}
	return f
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

var tools = []string{"ibsim", "ibsim-run", "opensm", "saquery"}

// Available returns nil when ibsim, ibsim-run, opensm and saquery are installed, or an
// error that says which is missing.
func Available() error {
	for _, t := range tools {
		if _, err := exec.LookPath(t); err != nil {
			if _, err2 := exec.LookPath("/usr/sbin/" + t); err2 != nil {
				return fmt.Errorf("%s is not installed (Debian packages opensm, ibsim-utils, infiniband-diags)", t)
			}
		}
	}
	return nil
}

// probeNet is the smallest fabric OpenSM routes: one switch, two hosts.
const probeNet = "Switch 4 \"probe\"\n[1] \"h1\"[1]\n[2] \"h2\"[1]\n\nHca 1 \"h1\"\n[1] \"probe\"[1]\n\nHca 1 \"h2\"\n[1] \"probe\"[2]\n"

var probe struct {
	once sync.Once
	err  error
}

// CanStart returns nil when ibsim and OpenSM start and route a fabric here (tried once
// per process, on a switch with two hosts), or an error that says in one line why not:
// a tool missing (Available), or ibsim or OpenSM installed but unable to run (no
// sockets, no /proc, a sandbox).
func CanStart() error {
	probe.once.Do(func() {
		if probe.err = Available(); probe.err != nil {
			return
		}
		f, err := fabric.ParseNet("probe", strings.NewReader(probeNet))
		if err != nil {
			probe.err = err
			return
		}
		dir, err := os.MkdirTemp("", "osmtest-probe")
		if err != nil {
			probe.err = err
			return
		}
		defer os.RemoveAll(dir)
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		if _, err := Route(ctx, dir, Request{Fabric: f, Engine: "minhop"}); err != nil {
			probe.err = fmt.Errorf("ibsim and OpenSM are installed but do not route a two-host fabric here: %v", err)
		}
	})
	return probe.err
}

// IbdmchkAvailable returns nil when ibdmchk is installed, or an error that says so.
func IbdmchkAvailable() error {
	if _, err := exec.LookPath("ibdmchk"); err != nil {
		return errors.New("ibdmchk is not installed (Debian package ibutils)")
	}
	return nil
}

func lookPath(t string) string {
	if p, err := exec.LookPath(t); err == nil {
		return p
	}
	return "/usr/sbin/" + t
}

var seq atomic.Int64

// Route simulates the fabric with ibsim and routes it with OpenSM's engine; dir is an
// empty directory for the files.
func Route(ctx context.Context, dir string, req Request) (*Result, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	net := filepath.Join(dir, "fabric.net")
	var b bytes.Buffer
	if err := fabric.WriteNet(&b, req.Fabric); err != nil {
		return nil, err
	}
	if err := os.WriteFile(net, b.Bytes(), 0o644); err != nil {
		return nil, err
	}
	sock := fmt.Sprintf("wormcheck-%d-%d", os.Getpid(), seq.Add(1))
	// OSM_CACHE_DIR keeps OpenSM's persistent files (guid2lid, neighbors) in this
	// run's directory, so that no run sees another's.
	env := append(os.Environ(), "IBSIM_SOCKNAME="+sock, "OSM_CACHE_DIR="+dir)
	sim := exec.Command(lookPath("ibsim"), "-s", "-n", net)
	sim.Env = env
	sim.Dir = dir
	simLog, err := os.Create(filepath.Join(dir, "ibsim.log"))
	if err != nil {
		return nil, err
	}
	defer simLog.Close()
	sim.Stdout, sim.Stderr = simLog, simLog
	sim.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := sim.Start(); err != nil {
		return nil, fmt.Errorf("ibsim: %v", err)
	}
	defer stop(sim)
	if err := waitFor(ctx, 10*time.Second, func() bool { return listening(sock) }); err != nil {
		return nil, fmt.Errorf("ibsim did not start listening (%v): %s", err, tail(filepath.Join(dir, "ibsim.log")))
	}
	return runOpenSM(ctx, dir, env, req)
}

func runOpenSM(ctx context.Context, dir string, env []string, req Request) (*Result, error) {
	log := filepath.Join(dir, "osm.log")
	args := []string{lookPath("opensm"), "-F", "/dev/null", "-D", "0x43", "-d", "2", "--dump_files_dir", dir, "-R", req.Engine, "-f", log}
	if len(req.Roots) > 0 {
		roots := filepath.Join(dir, "roots.txt")
		var b strings.Builder
		for _, g := range req.Roots {
			fmt.Fprintf(&b, "0x%016x\n", g)
		}
		if err := os.WriteFile(roots, []byte(b.String()), 0o644); err != nil {
			return nil, err
		}
		args = append(args, "-a", roots)
	}
	if req.QoS {
		args = append(args, "-Q")
	}
	if req.TorusConf != "" {
		conf := filepath.Join(dir, "torus-2QoS.conf")
		if err := os.WriteFile(conf, []byte(req.TorusConf), 0o644); err != nil {
			return nil, err
		}
		args = append(args, "--torus_config", conf)
	}
	sm := exec.Command(lookPath("ibsim-run"), args...)
	sm.Env, sm.Dir = env, dir
	out, err := os.Create(filepath.Join(dir, "opensm.out"))
	if err != nil {
		return nil, err
	}
	defer out.Close()
	sm.Stdout, sm.Stderr = out, out
	sm.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := sm.Start(); err != nil {
		return nil, fmt.Errorf("opensm: %v", err)
	}
	defer stop(sm)
	up := func() bool {
		data, _ := os.ReadFile(log)
		return bytes.Contains(data, []byte("SUBNET UP")) && exists(filepath.Join(dir, "opensm.fdbs"))
	}
	if err := waitFor(ctx, 60*time.Second, up); err != nil {
		return nil, fmt.Errorf("opensm -R %s: the subnet did not come up (%v): %s", req.Engine, err, tail(log))
	}
	res := &Result{Dir: dir, Log: log, Engine: engineUsed(log)}
	if req.PathSLs {
		if err := pathRecords(ctx, dir, env); err != nil {
			return nil, err
		}
	}
	return res, nil
}

var configured = regexp.MustCompile(`(\S+) tables configured on all switches`)

// engineUsed returns the engine OpenSM's log says configured the tables.
func engineUsed(log string) string {
	data, _ := os.ReadFile(log)
	m := configured.FindAllSubmatch(data, -1)
	if len(m) == 0 {
		return ""
	}
	return string(m[len(m)-1][1])
}

// pathRecords asks the SA for the path record of every ordered pair of CA LIDs and
// writes them to path-sl.txt (saquery's form) and ibdm-psl.txt (ibdmchk -c: source node
// GUID, destination LID, SL).
func pathRecords(ctx context.Context, dir string, env []string) error {
	f, err := fabric.ReadSubnetList(filepath.Join(dir, "opensm-subnet.lst"))
	if err != nil {
		return err
	}
	type ca struct {
		lid  uint16
		node uint64
	}
	var cas []ca
	for _, n := range f.Nodes {
		if n.Kind == fabric.Switch {
			continue
		}
		for p := 1; p < len(n.Ports); p++ {
			if n.Ports[p].LID != 0 && n.Ports[p].Remote.Valid() {
				cas = append(cas, ca{n.Ports[p].LID, n.GUID})
			}
		}
	}
	var all, psl bytes.Buffer
	sl := regexp.MustCompile(`sl\.+0x([0-9a-fA-F]+)`)
	for _, s := range cas {
		for _, d := range cas {
			if s == d {
				continue
			}
			q := exec.CommandContext(ctx, lookPath("ibsim-run"), lookPath("saquery"), "-p", "--src-to-dst", fmt.Sprintf("%d:%d", s.lid, d.lid))
			q.Env, q.Dir = env, dir
			var out bytes.Buffer
			q.Stdout = &out
			if err := q.Run(); err != nil {
				return fmt.Errorf("saquery %d:%d: %v", s.lid, d.lid, err)
			}
			m := sl.FindSubmatch(out.Bytes())
			if m == nil {
				return fmt.Errorf("saquery %d:%d: no path record in %q", s.lid, d.lid, out.String())
			}
			all.Write(out.Bytes())
			var v int
			fmt.Sscanf(string(m[1]), "%x", &v)
			fmt.Fprintf(&psl, "0x%016x %d %d\n", s.node, d.lid, v)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "path-sl.txt"), all.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "ibdm-psl.txt"), psl.Bytes(), 0o644)
}

// listening reports whether ibsim's control socket (abstract "@NAME:ctl") is bound.
func listening(sock string) bool {
	data, err := os.ReadFile("/proc/net/unix")
	return err == nil && bytes.Contains(data, []byte("@"+sock+":ctl"))
}

// waitFor polls cond every 50 ms until it holds, the timeout passes or ctx ends.
func waitFor(ctx context.Context, timeout time.Duration, cond func() bool) error {
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			return fmt.Errorf("not within %v", timeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return nil
}

// stop ends a process group this package started: SIGTERM, then SIGKILL after 2 s.
func stop(c *exec.Cmd) {
	if c.Process == nil {
		return
	}
	pgid := c.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = c.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-done
	}
}

// tail returns the last lines of a file, for error messages.
func tail(path string) string {
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) > 3 {
		lines = lines[len(lines)-3:]
	}
	return strings.Join(lines, " | ")
}

// Ibdmchk runs ibdmchk's verification mode on the dumps of a result (with the path SLs
// and SL2VL tables where present and withSLs is set: -c and -d), with -a for every path
// including the switches' when all is set, and returns whether it reports a credit loop
// and its output.
func Ibdmchk(ctx context.Context, r *Result, withSLs, all bool) (bool, string, error) {
	var psl, sl2vl string
	if withSLs {
		if q := filepath.Join(r.Dir, "ibdm-psl.txt"); exists(q) {
			psl = q
		}
		if q := filepath.Join(r.Dir, "opensm-sl2vl.dump"); exists(q) {
			sl2vl = q
		}
	}
	return IbdmchkFiles(ctx, r.Dir, filepath.Join(r.Dir, "opensm-subnet.lst"), filepath.Join(r.Dir, "opensm.fdbs"), psl, sl2vl, all)
}

// IbdmchkFiles runs ibdmchk's verification mode on a subnet list and an LFT dump (with
// a path-SL file in ibdmchk's -c form and an SL2VL file where given), in dir (where it
// may write its reports).
func IbdmchkFiles(ctx context.Context, dir, subnet, fdbs, psl, sl2vl string, all bool) (bool, string, error) {
	if err := IbdmchkAvailable(); err != nil {
		return false, "", err
	}
	p, _ := exec.LookPath("ibdmchk")
	args := []string{"-s", subnet, "-f", fdbs, "-m", os.DevNull}
	if all {
		args = append(args, "-a")
	}
	if psl != "" {
		args = append(args, "-c", psl)
	}
	if sl2vl != "" {
		args = append(args, "-d", sl2vl)
	}
	cmd := exec.CommandContext(ctx, p, args...)
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput() // ibdmchk may crash after its report; the report decides
	s := string(out)
	switch {
	case strings.Contains(s, "Found credit loop"):
		return true, s, nil
	case strings.Contains(s, "no credit loops found"):
		return false, s, nil
	}
	return false, s, fmt.Errorf("ibdmchk gave no credit-loop verdict: %s", tail2(s))
}

func tail2(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > 3 {
		lines = lines[len(lines)-3:]
	}
	return strings.Join(lines, " | ")
}
