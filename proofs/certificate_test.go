package proofs

import (
	"context"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
)

// TestClaimsCarryCertificates: the flit and banyan deadlock claims that hold say that
// every message is delivered, by the progress measure checked on every transition of
// every instance explored; the violated ones claim no delivery.
func TestClaimsCarryCertificates(t *testing.T) {
	for _, tc := range []struct {
		id   string
		kind string
	}{{"WH1", checker.CertProgress}, {"WH2", checker.CertNone}, {"MN6", checker.CertProgress}, {"MN5", checker.CertNone}, {"RT5", checker.CertProgress}, {"RT1", checker.CertProgress}, {"RT3", checker.CertProgress}, {"RT4", checker.CertProgress}} {
		c, ok := Lookup(tc.id)
		if !ok {
			t.Fatalf("claim %s is not registered", tc.id)
		}
		r := Check(context.Background(), c, Options{Size: Quick})
		cert := r.Outcome.Certificate
		if cert == nil || cert.Kind != tc.kind || (tc.kind == checker.CertProgress && cert.Transitions == 0) {
			t.Fatalf("%s (%s): certificate %+v; want kind %s", tc.id, r.Outcome.Verdict, cert, tc.kind)
		}
	}
}
