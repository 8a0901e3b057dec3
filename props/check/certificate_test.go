package check_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// TestReportsCarryCertificatesAndStore: the flit and banyan deadlock checks that hold say
// how delivery is certified (progress, on every transition), single instances and
// families alike, and a fingerprint run names its store and prints its collision bound in
// the text and the JSON report.
func TestReportsCarryCertificatesAndStore(t *testing.T) {
	tm := check.Instance{Algorithm: "tree-mcast", Topology: "mesh:2x2", Params: map[string]string{
		"msgs": "(0,0)->(1,0),(0,1);(1,1)->(0,1),(1,0)", "pruning": "on-stop", "buffers": "1"}}
	tmFamily := check.Instance{Algorithm: "tree-mcast", Topology: "mesh:2x2", Params: map[string]string{"family": "pairs:1", "buffers": "1"}}
	uniFamily := check.Instance{Algorithm: "unicast", Topology: "mesh:2x2", Params: map[string]string{"family": "all-placements:2"}}
	banyan := check.Instance{Algorithm: "two-phase", Topology: "banyan:16", Params: map[string]string{
		"msgs": "1->5,6,7,8;15->7-12", "arbitration": "upper-first", "starts": "5,7"}}
	for _, in := range []check.Instance{tm, tmFamily, uniFamily, banyan, wh2} {
		for _, store := range []checker.StoreMode{checker.Exact, checker.Fingerprint} {
			in.Params = withDateline(in)
			rep, err := check.Run(context.Background(), in, "deadlock", check.Options{Store: store})
			if err != nil {
				t.Fatalf("%s %v: %v", in.Algorithm, in.Params, err)
			}
			c := rep.Certificate
			if rep.Verdict != props.Holds || c == nil || c.Kind != checker.CertProgress || c.Transitions != rep.Stats.Transitions || c.Transitions == 0 {
				t.Fatalf("%s %v: %v, certificate %+v over %d transitions; want holds certified by progress on every transition", in.Algorithm, in.Params, rep.Verdict, c, rep.Stats.Transitions)
			}
			js, err := json.Marshal(rep)
			if err != nil {
				t.Fatal(err)
			}
			text := rep.String()
			if !strings.Contains(string(js), `"certificate":{"kind":"progress"`) || !strings.Contains(text, "certificate (progress): deadlock-free implies every message is delivered") {
				t.Fatalf("%s: the certificate is missing from the JSON or the text:\n%s\n%s", in.Algorithm, js, text)
			}
			fp := store == checker.Fingerprint
			if rep.Stats.Store != store.String() || (rep.Stats.CollisionBound > 0) != fp ||
				strings.Contains(string(js), `"fingerprint_collision_bound"`) != fp || strings.Contains(text, "store: fingerprint") != fp {
				t.Fatalf("%s %v: store %q, bound %g; JSON %s; text %s", in.Algorithm, store, rep.Stats.Store, rep.Stats.CollisionBound, js, text)
			}
		}
	}
}

// withDateline turns wh2 (which deadlocks) into its dateline twin (which holds); other
// instances are returned unchanged.
func withDateline(in check.Instance) map[string]string {
	if in.Params["dateline"] == "off" {
		return map[string]string{"msgs": in.Params["msgs"]}
	}
	return in.Params
}
