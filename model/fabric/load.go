package fabric

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Format is a kind of fabric file.
type Format uint8

// The topology formats Load tells apart by their content.
const (
	SubnetList Format = iota + 1 // ibdm subnet.lst, opensm-subnet.lst
	NetFile                      // ibsim net file, ibnetdiscover output
	CableList                    // ibdm cable list
	TopoFile                     // ibdm topology file
)

var formatNames = [...]string{"?", "subnet list", "net file", "cable list", "topology file"}

// String names the format.
func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return "?"
}

// HasTables says whether files of this format carry LIDs (a subnet list does; the
// others are topologies that a subnet manager must still assign and route).
func (f Format) HasTables() bool { return f == SubnetList }

// Files names the files of one fabric: a topology (any Format) and, optionally, the
// tables that route it.
type Files struct {
	Topology string
	LFTs     string // forwarding tables (ParseLFTs); "" for none
	SL2VL    string // SL-to-VL tables (ParseSL2VL); "" for VL = SL
	PathSL   string // path SLs (ParsePathSL); "" for SL 0
	LMC      int    // LIDs per CA port = 2^LMC (a subnet list does not record it)
	// Read, if set, reads a file whole (the command line's bounded, stoppable reader,
	// model/input); nil opens the files here, bounded by MaxFileBytes.
	Read func(path string) ([]byte, error)
}

// source opens one of the files for a parser; done releases it.
func (fs Files) source(path string) (r io.Reader, done func(), err error) {
	if fs.Read != nil {
		data, err := fs.Read(path)
		if err != nil {
			return nil, nil, err
		}
		return bytes.NewReader(data), func() {}, nil
	}
	f, err := open(path)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// table reads one table file with parse.
func (fs Files) table(path string, parse func(name string, r io.Reader) error) error {
	r, done, err := fs.source(path)
	if err != nil {
		return err
	}
	defer done()
	return parse(path, r)
}

// Load reads the files of a fabric: the topology, told apart by its content, then the
// tables. Errors are one line naming the file, line and field.
func Load(files Files) (*Fabric, Format, error) {
	if files.Topology == "" {
		return nil, 0, errors.New("no topology file")
	}
	if files.LMC < 0 || files.LMC > 7 {
		return nil, 0, fmt.Errorf("LMC %d: it must be 0..7", files.LMC)
	}
	src, done, err := files.source(files.Topology)
	if err != nil {
		return nil, 0, err
	}
	defer done()
	br := bufio.NewReaderSize(src, 64<<10)
	head, _ := br.Peek(64 << 10)
	format := DetectFormat(head)
	f, err := Parse(format, files.Topology, br)
	if err != nil {
		return nil, 0, err
	}
	f.LMC = uint8(files.LMC)
	if err := f.Index(); err != nil {
		return nil, 0, err
	}
	if files.LFTs != "" {
		if !format.HasTables() && !f.hasLIDs() {
			return nil, 0, fmt.Errorf("%s: a %s has no LIDs for forwarding tables to refer to; give the subnet list the subnet manager wrote (opensm-subnet.lst) with its tables", files.Topology, format)
		}
		if err := files.table(files.LFTs, f.ParseLFTs); err != nil {
			return nil, 0, err
		}
	}
	if files.SL2VL != "" {
		if err := files.table(files.SL2VL, f.ParseSL2VL); err != nil {
			return nil, 0, err
		}
	}
	if files.PathSL != "" {
		if err := files.table(files.PathSL, f.ParsePathSL); err != nil {
			return nil, 0, err
		}
	}
	return f, format, nil
}

// Parse parses a topology file of the given format.
func Parse(format Format, name string, r io.Reader) (*Fabric, error) {
	switch format {
	case SubnetList:
		return ParseSubnetList(name, r)
	case NetFile:
		return ParseNet(name, r)
	case CableList:
		return ParseCables(name, r)
	case TopoFile:
		return ParseTopo(name, r)
	}
	return nil, &ParseError{File: name, Msg: "not a fabric file: neither a subnet list, an ibsim/ibnetdiscover net file, an ibdm cable list nor an ibdm topology file"}
}

// DetectFormat tells a topology format from the start of a file: "{" starts a subnet
// list; a Switch/Hca/Ca/Rt header with a quoted id, or a KEY=VALUE line, a net file; six
// fields without an arrow a cable list; anything with "->" or a two-word system line a
// topology file. 0 when none fits.
func DetectFormat(head []byte) Format {
	for _, line := range strings.Split(string(head), "\n") {
		s := strings.TrimSpace(line)
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		fs := strings.Fields(s)
		switch {
		case strings.HasPrefix(s, "{"):
			return SubnetList
		case strings.Contains(s, "\"") && (strings.HasPrefix(s, "Switch") || strings.HasPrefix(s, "Hca") || strings.HasPrefix(s, "Ca") || strings.HasPrefix(s, "Rt")):
			return NetFile
		case strings.Contains(fs[0], "=") && len(fs) == 1:
			return NetFile
		case strings.Contains(s, "->"):
			return TopoFile
		case len(fs) == 6:
			return CableList
		case len(fs) == 2 || (len(fs) >= 3 && strings.HasPrefix(fs[2], "CFG:")):
			return TopoFile
		default:
			return 0
		}
	}
	return 0
}

// hasLIDs reports whether some port has a LID.
func (f *Fabric) hasLIDs() bool { return f.MaxLIDInUse() > 0 }
