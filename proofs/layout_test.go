package proofs_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/proofs"
)

const module = "github.com/wormcheck/wormcheck/"

// imports maps every package directory of the module (relative, "algos/dcf") to the
// module packages its non-test Go files import.
func imports(t *testing.T) map[string][]string {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if q, ok := strings.CutPrefix(p, module); ok && !slices.Contains(out[rel], q) {
				out[rel] = append(out[rel], q)
			}
		}
		if _, ok := out[rel]; !ok {
			out[rel] = nil
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func under(p, prefix string) bool { return p == prefix || strings.HasPrefix(p, prefix+"/") }

func sortedKeys(m map[string][]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func TestImportRules(t *testing.T) {
	g := imports(t)
	if len(g) < 20 {
		t.Fatalf("found %d packages; the walk missed the tree", len(g))
	}
	for _, pkg := range sortedKeys(g) {
		for _, r := range proofs.ImportRules() {
			if !under(pkg, r.From) || slices.ContainsFunc(r.Except, func(e string) bool { return under(pkg, e) }) {
				continue
			}
			for _, im := range g[pkg] {
				for _, to := range r.To {
					if under(im, to) && !(r.From == "props" && under(pkg, to)) {
						t.Errorf("%s imports %s: %s", pkg, im, r.Why)
					}
				}
			}
		}
	}
}

func TestSiblingAlgosImportOnlyWhatIsListed(t *testing.T) {
	g := imports(t)
	allowed := proofs.SiblingAlgos()
	for _, pkg := range sortedKeys(g) {
		if !under(pkg, "algos") {
			continue
		}
		for _, im := range g[pkg] {
			if under(im, "algos") && !under(im, pkg) {
				if _, ok := allowed[[2]string{pkg, im}]; !ok {
					t.Errorf("%s imports its sibling %s; only the imports of proofs.SiblingAlgos are allowed (an algorithm never borrows another's rendering)", pkg, im)
				}
			}
		}
	}
	for k := range allowed {
		if !slices.Contains(g[k[0]], k[1]) {
			t.Errorf("proofs.SiblingAlgos allows %s -> %s, which no longer exists; remove it", k[0], k[1])
		}
	}
}

// TestRulesCatchAViolation plants forbidden imports of an algorithm package (the
// properties root, pictures, the entry) in a file and checks that the rules see each,
// so the tests above cannot pass vacuously.
func TestRulesCatchAViolation(t *testing.T) {
	for _, bad := range []string{"props", "props/render", "props/check", "cmd/wormcheck"} {
		dir := t.TempDir()
		src := "package treemcast\n\nimport _ \"" + module + bad + "\"\n"
		if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, "x.go"), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := strconv.Unquote(f.Imports[0].Path.Value)
		im := strings.TrimPrefix(p, module)
		caught := false
		for _, r := range proofs.ImportRules() {
			if under("algos/treemcast", r.From) {
				for _, to := range r.To {
					caught = caught || under(im, to)
				}
			}
		}
		if !caught {
			t.Errorf("an algos package importing %s is not caught by proofs.ImportRules", bad)
		}
	}
}
