package booksim

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/wormcheck/wormcheck/model/input"
)

// MaxConfigBytes bounds a configuration file.
const MaxConfigBytes = 1 << 20

// Parse reads a BookSim2 configuration: "key = value;" statements, // comments (and
// /* */ comments, which BookSim does not have). A value is a number, a word, or a
// BookSim vector "{a,b}" for the keys that take one per traffic class. Every key the file
// does not set keeps BookSim's default; keys BookSim does not define are listed in
// Unknown. Errors are one line naming the line and the key. Cost O(len(data)).
func Parse(data []byte) (Config, error) {
	c := Defaults()
	c.Line = map[string]int{}
	data = input.TrimBOM(data)
	if len(data) > MaxConfigBytes {
		return c, fmt.Errorf("booksim: the configuration has %d bytes or more; at most %d", len(data), MaxConfigBytes)
	}
	stmts, err := statements(string(data))
	if err != nil {
		return c, err
	}
	ks := keys()
	v := reflect.ValueOf(&c).Elem()
	for _, st := range stmts {
		if _, seen := c.Line[st.key]; !seen {
			c.Set = append(c.Set, st.key)
		}
		c.Line[st.key] = st.line
		k, ok := ks.byName[st.key]
		if !ok {
			if !slices.Contains(c.Unknown, st.key) {
				c.Unknown = append(c.Unknown, st.key)
			}
			continue
		}
		if err := assign(v.FieldByIndex(k.index), st.value); err != nil {
			// A value may run over several lines (statements end at ';'): the message
			// shows it on one.
			return c, fmt.Errorf("booksim line %d: %s = %s: %v", st.line, st.key, strings.Join(strings.Fields(st.value), " "), err)
		}
	}
	return c, nil
}

// Defaults returns the configuration BookSim runs with an empty file: every key at the
// default booksim_config.cpp gives it.
func Defaults() Config {
	return keys().defaults
}

// Key describes one configuration key: its name, its default as BookSim's source
// writes it and the Go type of its field.
type Key struct {
	Name    string
	Default string
	Type    string
}

// Keys lists every key BookSim defines, in the order of Config's fields.
func Keys() []Key {
	ks := keys()
	out := make([]Key, len(ks.list))
	for i, k := range ks.list {
		out[i] = Key{Name: k.name, Default: k.def, Type: k.typ.String()}
	}
	return out
}

// IsKey reports whether BookSim defines key.
func IsKey(key string) bool {
	_, ok := keys().byName[key]
	return ok
}

type keyInfo struct {
	name, def string
	index     []int
	typ       reflect.Type
}

type keyTable struct {
	list     []keyInfo
	byName   map[string]keyInfo
	defaults Config
}

var keysOnce = sync.OnceValue(buildKeys)

func keys() *keyTable { return keysOnce() }

// buildKeys reads the key table from Config's tags and applies every default. A tag
// that does not parse is a bug of this file, caught by its tests.
func buildKeys() *keyTable {
	t := &keyTable{byName: map[string]keyInfo{}}
	v := reflect.ValueOf(&t.defaults).Elem()
	ct := v.Type()
	for i := 0; i < ct.NumField(); i++ {
		group := ct.Field(i)
		if group.Type.Kind() != reflect.Struct {
			continue
		}
		for j := 0; j < group.Type.NumField(); j++ {
			f := group.Type.Field(j)
			name, ok := f.Tag.Lookup("booksim")
			if !ok {
				continue
			}
			k := keyInfo{name: name, def: f.Tag.Get("default"), index: []int{i, j}, typ: f.Type}
			if _, dup := t.byName[name]; dup {
				panic("booksim: key " + name + " is defined twice")
			}
			if err := assign(v.FieldByIndex(k.index), k.def); err != nil && k.def != "" {
				panic(fmt.Sprintf("booksim: default of %s: %v", name, err))
			}
			t.list = append(t.list, k)
			t.byName[name] = k
		}
	}
	return t
}

// statement is one "key = value;" of a file.
type statement struct {
	key, value string
	line       int
}

// statements splits text into its statements, skipping comments.
func statements(text string) ([]statement, error) {
	var out []statement
	line := 1
	for len(text) > 0 {
		var stmt strings.Builder
		start, blank := line, true // blank: stmt holds only white space so far
		for len(text) > 0 {
			switch {
			case strings.HasPrefix(text, "//"):
				i := strings.IndexByte(text, '\n')
				if i < 0 {
					i = len(text)
				}
				text = text[i:]
				continue
			case strings.HasPrefix(text, "/*"):
				i := strings.Index(text, "*/")
				if i < 0 {
					return nil, fmt.Errorf("booksim line %d: a /* comment is not closed", line)
				}
				line += strings.Count(text[:i], "\n")
				text = text[i+2:]
				continue
			}
			ch := text[0]
			text = text[1:]
			if ch == '\n' {
				line++
				if blank {
					start = line
				}
			}
			if ch == ';' {
				break
			}
			if blank && !isSpace(ch) {
				blank = false
			}
			if !blank {
				stmt.WriteByte(ch)
			}
		}
		s := strings.TrimSpace(stmt.String())
		if s == "" {
			continue
		}
		k, v, ok := strings.Cut(s, "=")
		k, v = strings.TrimSpace(k), strings.Trim(strings.TrimSpace(v), `"`)
		if !ok || k == "" || strings.ContainsAny(k, " \t\r\n") {
			return nil, fmt.Errorf("booksim line %d: %q is not KEY = VALUE;", start, firstLine(s))
		}
		if v == "" {
			return nil, fmt.Errorf("booksim line %d: %s has no value", start, k)
		}
		out = append(out, statement{key: k, value: v, line: start})
	}
	return out, nil
}

// isSpace reports whether ch is white space as strings.TrimSpace sees an ASCII byte.
func isSpace(ch byte) bool {
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f'
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

var (
	typeSeed   = reflect.TypeFor[Seed]()
	typeInts   = reflect.TypeFor[[]int]()
	typeFloats = reflect.TypeFor[[]float64]()
	typeStrs   = reflect.TypeFor[[]string]()
	typeIntss  = reflect.TypeFor[[][]int]()
)

// assign parses value as the field's type wants it, as BookSim reads the key: an
// integer key takes a whole number, a floating-point key any number, a vector key a
// single value or "{a,b}".
func assign(f reflect.Value, value string) error {
	switch f.Type() {
	case typeSeed:
		if value == "time" {
			f.Set(reflect.ValueOf(Seed{Time: true}))
			return nil
		}
		n, err := whole(value)
		if err != nil {
			return fmt.Errorf("%v, nor the word time", err)
		}
		f.Set(reflect.ValueOf(Seed{Value: n}))
		return nil
	case typeInts:
		xs, err := ints(value)
		if err != nil {
			return err
		}
		f.Set(reflect.ValueOf(xs))
		return nil
	case typeFloats:
		var xs []float64
		for _, tok := range tokens(value) {
			x, err := number(tok)
			if err != nil {
				return err
			}
			xs = append(xs, x)
		}
		f.Set(reflect.ValueOf(xs))
		return nil
	case typeStrs:
		f.Set(reflect.ValueOf(tokens(value)))
		return nil
	case typeIntss:
		var xss [][]int
		for _, tok := range tokens(value) {
			xs, err := ints(tok)
			if err != nil {
				return err
			}
			xss = append(xss, xs)
		}
		f.Set(reflect.ValueOf(xss))
		return nil
	}
	switch f.Kind() {
	case reflect.Int:
		n, err := whole(value)
		if err != nil {
			return err
		}
		f.SetInt(int64(n))
	case reflect.Bool:
		n, err := whole(value)
		if err != nil {
			return err
		}
		f.SetBool(n != 0)
	case reflect.Float64:
		x, err := number(value)
		if err != nil {
			return err
		}
		f.SetFloat(x)
	case reflect.String:
		f.SetString(value)
	default:
		return fmt.Errorf("field of type %s", f.Type())
	}
	return nil
}

// whole reads a whole number as BookSim's lexer does (an optional minus and digits), in
// the range of a C int.
func whole(s string) (int, error) {
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	return int(n), nil
}

// number reads a finite decimal number.
func number(s string) (float64, error) {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || x != x || x > 1e300 || x < -1e300 || strings.ContainsAny(s, "xXpPnN_") {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return x, nil
}

// ints reads one whole number or a vector of them.
func ints(value string) ([]int, error) {
	var xs []int
	for _, tok := range tokens(value) {
		n, err := whole(tok)
		if err != nil {
			return nil, err
		}
		xs = append(xs, n)
	}
	return xs, nil
}

// tokens splits a BookSim vector "{a,{b,c},d}" into its top-level elements ("a",
// "{b,c}", "d"), as config_utils.cpp's tokenize_str; a value without braces is one
// element, and an empty value none.
func tokens(value string) []string {
	if value == "" {
		return nil
	}
	if value[0] != '{' {
		return []string{value}
	}
	var out []string
	depth, start := 0, 1
	for i := 1; i < len(value); i++ {
		switch value[i] {
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
				continue
			}
			fallthrough
		case ',':
			if depth > 0 {
				continue
			}
			if tok := strings.TrimSpace(value[start:i]); tok != "" {
				out = append(out, tok)
			}
			start = i + 1
		}
	}
	return out
}
