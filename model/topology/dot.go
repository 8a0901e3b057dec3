package topology

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// parseDOT reads a network written in Graphviz's DOT language: "graph { a -- b -- c }"
// (each edge a channel each way) or "digraph { a -> b }" (each edge one channel). Nodes
// are numbered in order of first appearance. Attributes read: a node's pos="x,y" (as
// Graphviz writes it, a trailing ! allowed) places it, terminal=true makes it a
// terminal; an edge's weight=N is its latency in cycles. Other attributes, attribute
// statements (node [...], graph [...]) and graph attributes (a=b) are accepted and
// ignored; subgraphs and ports (a:p) are refused. Comments (//, /* */, and lines
// starting with #) are skipped.
func parseDOT(spec string, data []byte) (*Network, error) {
	p := &dotParser{src: string(data), line: 1}
	g, err := p.graph(spec)
	if err != nil && p.errLine > 0 {
		return nil, fmt.Errorf("dot line %d: %v", p.errLine, err)
	}
	if err != nil {
		return nil, fmt.Errorf("dot: %v", err)
	}
	return g, nil
}

type dotToken struct {
	text   string
	quoted bool // a "string" (never a keyword or punctuation)
	line   int
}

type dotParser struct {
	src     string
	pos     int
	line    int
	peeked  *dotToken
	errLine int
}

func (p *dotParser) fail(t dotToken, format string, args ...any) error {
	p.errLine = t.line
	return fmt.Errorf(format, args...)
}

// next returns the next token; text "" at the end of the input.
func (p *dotParser) next() (dotToken, error) {
	if t := p.peeked; t != nil {
		p.peeked = nil
		return *t, nil
	}
	atLineStart := p.pos == 0 || p.src[p.pos-1] == '\n'
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '\n':
			p.line++
			p.pos++
			atLineStart = true
			continue
		case c == ' ' || c == '\t' || c == '\r':
			p.pos++
			continue
		case c == '#' && atLineStart:
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
			continue
		case strings.HasPrefix(p.src[p.pos:], "//"):
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
			continue
		case strings.HasPrefix(p.src[p.pos:], "/*"):
			end := strings.Index(p.src[p.pos+2:], "*/")
			if end < 0 {
				p.errLine = p.line
				return dotToken{}, errors.New("a /* comment is not closed")
			}
			p.line += strings.Count(p.src[p.pos:p.pos+2+end], "\n")
			p.pos += end + 4
			continue
		}
		break
	}
	t := dotToken{line: p.line}
	if p.pos >= len(p.src) {
		return t, nil
	}
	c := p.src[p.pos]
	switch {
	case strings.HasPrefix(p.src[p.pos:], "--"), strings.HasPrefix(p.src[p.pos:], "->"):
		t.text = p.src[p.pos : p.pos+2]
		p.pos += 2
	case strings.ContainsRune("{}[];,=:", rune(c)):
		t.text = string(c)
		p.pos++
	case c == '"':
		var b strings.Builder
		p.pos++
		for {
			if p.pos >= len(p.src) {
				p.errLine = t.line
				return t, errors.New("a quoted string is not closed")
			}
			c := p.src[p.pos]
			if c == '"' {
				p.pos++
				break
			}
			if c == '\\' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '"' {
				c = '"'
				p.pos++
			}
			if c == '\n' {
				p.line++
			}
			b.WriteByte(c)
			p.pos++
		}
		t.text, t.quoted = b.String(), true
	case isDOTIDByte(c):
		start := p.pos
		for p.pos < len(p.src) && isDOTIDByte(p.src[p.pos]) {
			p.pos++
		}
		t.text = p.src[start:p.pos]
	default:
		p.errLine = t.line
		return t, fmt.Errorf("unexpected character %q", c)
	}
	return t, nil
}

func isDOTIDByte(c byte) bool {
	return c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func (p *dotParser) peek() (dotToken, error) {
	t, err := p.next()
	if err == nil {
		p.peeked = &t
	}
	return t, err
}

// keyword reports whether t is the unquoted keyword kw (DOT keywords ignore case).
func keyword(t dotToken, kw string) bool { return !t.quoted && strings.EqualFold(t.text, kw) }

func isID(t dotToken) bool {
	return t.quoted || t.text != "" && isDOTIDByte(t.text[0])
}

func (p *dotParser) expect(want string) error {
	t, err := p.next()
	if err != nil {
		return err
	}
	if t.quoted || t.text != want {
		return p.fail(t, "expected %q, found %q", want, t.text)
	}
	return nil
}

type dotAttr struct {
	key, value string
	line       int
}

// attrs reads zero or more [a=b, c=d] lists.
func (p *dotParser) attrs() ([]dotAttr, error) {
	var out []dotAttr
	for {
		t, err := p.peek()
		if err != nil {
			return nil, err
		}
		if t.quoted || t.text != "[" {
			return out, nil
		}
		p.next()
		for {
			k, err := p.next()
			if err != nil {
				return nil, err
			}
			if !k.quoted && k.text == "]" {
				break
			}
			if !isID(k) {
				return nil, p.fail(k, "expected an attribute name, found %q", k.text)
			}
			if err := p.expect("="); err != nil {
				return nil, err
			}
			v, err := p.next()
			if err != nil {
				return nil, err
			}
			if !isID(v) {
				return nil, p.fail(v, "attribute %s: expected a value, found %q", k.text, v.text)
			}
			out = append(out, dotAttr{key: k.text, value: v.text, line: k.line})
			if s, err := p.peek(); err == nil && !s.quoted && (s.text == "," || s.text == ";") {
				p.next()
			}
		}
	}
}

func (p *dotParser) graph(spec string) (*Network, error) {
	t, err := p.next()
	if err != nil {
		return nil, err
	}
	if keyword(t, "strict") {
		if t, err = p.next(); err != nil {
			return nil, err
		}
	}
	directed := keyword(t, "digraph")
	if !directed && !keyword(t, "graph") {
		return nil, p.fail(t, "expected graph or digraph, found %q", t.text)
	}
	edgeOp := "--"
	if directed {
		edgeOp = "->"
	}
	if t, err = p.next(); err != nil {
		return nil, err
	}
	if isID(t) && !(!t.quoted && t.text == "{") {
		if t, err = p.next(); err != nil {
			return nil, err
		}
	}
	if t.quoted || t.text != "{" {
		return nil, p.fail(t, "expected '{', found %q", t.text)
	}
	b := newNetBuilder()
	for {
		t, err := p.next()
		if err != nil {
			return nil, err
		}
		switch {
		case !t.quoted && t.text == "}":
			if end, err := p.next(); err != nil || end.text != "" {
				if err != nil {
					return nil, err
				}
				return nil, p.fail(end, "text after the graph's closing '}'")
			}
			return newGraph(spec, b.nodes, b.linkList(), nil)
		case t.text == "" && !t.quoted:
			return nil, p.fail(t, "the graph is not closed: '}' is missing")
		case !t.quoted && t.text == ";":
			continue
		case keyword(t, "subgraph") || !t.quoted && t.text == "{":
			return nil, p.fail(t, "subgraphs are not supported; list nodes and edges at the top level")
		case keyword(t, "node") || keyword(t, "edge") || keyword(t, "graph"):
			if _, err := p.attrs(); err != nil {
				return nil, err
			}
			continue
		case !isID(t):
			return nil, p.fail(t, "expected a node, edge or attribute statement, found %q", t.text)
		}
		nx, err := p.peek()
		if err != nil {
			return nil, err
		}
		if !nx.quoted && nx.text == "=" { // a graph attribute: a = b
			p.next()
			if v, err := p.next(); err != nil || !isID(v) {
				if err != nil {
					return nil, err
				}
				return nil, p.fail(v, "attribute %s: expected a value, found %q", t.text, v.text)
			}
			continue
		}
		if !nx.quoted && nx.text == ":" {
			return nil, p.fail(nx, "node %q: ports (a:p) are not supported", t.text)
		}
		chain := []dotToken{t}
		for {
			op, err := p.peek()
			if err != nil {
				return nil, err
			}
			if op.quoted || op.text != "--" && op.text != "->" {
				break
			}
			if op.text != edgeOp {
				return nil, p.fail(op, "edge %s in a %s; use %s", op.text, map[bool]string{true: "digraph", false: "graph"}[directed], edgeOp)
			}
			p.next()
			n, err := p.next()
			if err != nil {
				return nil, err
			}
			if !isID(n) {
				return nil, p.fail(n, "expected a node after %s, found %q", op.text, n.text)
			}
			chain = append(chain, n)
		}
		attrs, err := p.attrs()
		if err != nil {
			return nil, err
		}
		ids := make([]NodeID, len(chain))
		for i, n := range chain {
			if err := checkNodeName(n.text); err != nil {
				return nil, p.fail(n, "node %v", err)
			}
			ids[i] = b.node(n.text)
		}
		if len(chain) == 1 {
			if err := p.nodeAttrs(b, ids[0], attrs); err != nil {
				return nil, err
			}
			continue
		}
		weight := 0
		for _, a := range attrs {
			if a.key == "weight" {
				w, err := strconv.Atoi(a.value)
				if err != nil || w < 1 || w > 1<<20 {
					p.errLine = a.line
					return nil, fmt.Errorf("edge attribute weight %q: must be a whole number 1..%d", a.value, 1<<20)
				}
				weight = w
			}
		}
		for i := 0; i+1 < len(chain); i++ {
			pairs := [][2]NodeID{{ids[i], ids[i+1]}}
			if !directed {
				pairs = append(pairs, [2]NodeID{ids[i+1], ids[i]})
			}
			for _, pr := range pairs {
				if pr[0] == pr[1] {
					return nil, p.fail(chain[i], "edge %s %s %s is a self-loop", chain[i].text, edgeOp, chain[i+1].text)
				}
				if _, dup := b.links[pr]; dup {
					return nil, p.fail(chain[i], "the channel %s->%s is given twice", b.nodes[pr[0]].Name, b.nodes[pr[1]].Name)
				}
				b.links[pr] = weight
			}
		}
	}
}

// nodeAttrs applies the attributes of a node statement.
func (p *dotParser) nodeAttrs(b *netBuilder, v NodeID, attrs []dotAttr) error {
	for _, a := range attrs {
		switch a.key {
		case "pos":
			xs, ys, ok := strings.Cut(strings.TrimSuffix(a.value, "!"), ",")
			x, errX := strconv.ParseFloat(strings.TrimSpace(xs), 64)
			y, errY := strconv.ParseFloat(strings.TrimSpace(ys), 64)
			if !ok || errX != nil || errY != nil {
				p.errLine = a.line
				return fmt.Errorf("node %s: pos %q is not \"x,y\"", b.nodes[v].Name, a.value)
			}
			b.nodes[v].At, b.nodes[v].Placed = Point{X: x, Y: -y}, true // DOT's y grows upward
		case "terminal":
			t, err := strconv.ParseBool(a.value)
			if err != nil {
				p.errLine = a.line
				return fmt.Errorf("node %s: terminal %q is not true or false", b.nodes[v].Name, a.value)
			}
			b.nodes[v].Terminal = t
		}
	}
	return nil
}
