package proofs

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/wormcheck/wormcheck/checker/tracefile"
)

// TestWH2 finds the ring deadlock with a 4-step witness whose trace file parses.
func TestWH2(t *testing.T) {
	if testing.Short() {
		t.Skip("the catalogue test runs WH2's verdict; this checks its witness files")
	}
	c, ok := Lookup("WH2")
	if !ok {
		t.Fatal("WH2 not registered")
	}
	o := Check(context.Background(), c, Options{Size: Quick}).Outcome
	if o.Verdict != Violated || o.Err != nil {
		t.Fatalf("WH2: %s %v", o.Verdict, o.Err)
	}
	w, _ := json.Marshal(o.Witness)
	tf, err := tracefile.Parse(o.Files["json"])
	if err != nil || len(tf.Actions) != 4 {
		t.Fatalf("WH2 trace file: %v (%d actions); witness %s", err, len(tf.Actions), w)
	}
}

// TestWHQuick runs WH1 and WH3 in quick mode (skipped with -short).
func TestWHQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("quick families take seconds")
	}
	for _, id := range []string{"WH1", "WH3"} {
		c, _ := Lookup(id)
		o := Check(context.Background(), c, Options{Size: Quick}).Outcome
		if o.Verdict != Holds || o.Err != nil || o.States == 0 {
			t.Fatalf("%s: %s %v (%s)", id, o.Verdict, o.Err, o.Note)
		}
	}
}
