package maestro

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"gnnsim/internal/boundedio"
)

// maxOperand bounds literal operands so that products of tile sizes stay
// far from overflow.
const maxOperand = 1 << 24

// maxSource bounds the size of a dataflow text.
const maxSource = 1 << 20

// Parse reads a MAESTRO dataflow: either a "Dataflow { ... }" block, as in
// MAESTRO's .m mapping files, or the bare directive list. Directives end
// with ';' and are
//
//	TemporalMap(size, offset) Dim;
//	SpatialMap(size, offset) Dim;
//	Cluster(size, P);   // or L
//
// where size and offset are positive integers or Sz(Dim), and Dim is one
// of C K M N R S X X' Y Y'. Comments run from "//" to the end of the line.
// Errors name the line. The result is validated (see Dataflow.Validate).
func Parse(r io.Reader) (Dataflow, error) {
	src, err := io.ReadAll(io.LimitReader(r, maxSource+1))
	if err != nil {
		return Dataflow{}, fmt.Errorf("maestro: reading dataflow: %w", err)
	}
	if len(src) > maxSource {
		return Dataflow{}, fmt.Errorf("maestro: dataflow text longer than %d bytes", maxSource)
	}
	return ParseString(string(src))
}

// ParseString parses a dataflow held in a string; see Parse.
func ParseString(src string) (Dataflow, error) {
	p := parser{lx: lexer{src: src, line: 1}}
	df, err := p.parse()
	if err != nil {
		return Dataflow{}, fmt.Errorf("maestro: %w", err)
	}
	if err := df.Validate(); err != nil {
		return Dataflow{}, err
	}
	return df, nil
}

// ParseFile parses the dataflow in the named file; the dataflow is named
// after the file without its extension.
func ParseFile(path string) (Dataflow, error) {
	f, err := boundedio.Open(path, boundedio.Spec)
	if err != nil {
		return Dataflow{}, fmt.Errorf("maestro: %w", err)
	}
	defer f.Close()
	df, err := Parse(f)
	if err != nil {
		return Dataflow{}, fmt.Errorf("%s: %w", path, err)
	}
	df.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	return df, nil
}

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tNum
	tPunct
)

type token struct {
	kind tokKind
	text string
	line int
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tNum:
		return "number " + t.text
	}
	return strconv.Quote(t.text)
}

type lexer struct {
	src  string
	pos  int
	line int
}

func isIdentStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// next returns the next token, skipping blanks and comments.
func (l *lexer) next() (token, error) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == '\n':
			l.line++
			l.pos++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			l.pos++
		case c == '/' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '/':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
		case isIdentStart(c):
			start := l.pos
			for l.pos < len(l.src) && (isIdentStart(l.src[l.pos]) || isDigit(l.src[l.pos]) || l.src[l.pos] == '\'') {
				l.pos++
			}
			return token{tIdent, l.src[start:l.pos], l.line}, nil
		case isDigit(c):
			start := l.pos
			for l.pos < len(l.src) && isDigit(l.src[l.pos]) {
				l.pos++
			}
			return token{tNum, l.src[start:l.pos], l.line}, nil
		case strings.IndexByte("(),;{}", c) >= 0:
			l.pos++
			return token{tPunct, string(c), l.line}, nil
		default:
			r, _ := utf8.DecodeRuneInString(l.src[l.pos:])
			return token{}, fmt.Errorf("line %d: unexpected character %q", l.line, r)
		}
	}
	return token{tEOF, "", l.line}, nil
}

type parser struct {
	lx   lexer
	tok  token
	peek bool
}

func (p *parser) next() (token, error) {
	if p.peek {
		p.peek = false
		return p.tok, nil
	}
	t, err := p.lx.next()
	p.tok = t
	return t, err
}

func (p *parser) unread() { p.peek = true }

func (p *parser) expect(punct string) (token, error) {
	t, err := p.next()
	if err != nil {
		return t, err
	}
	if t.kind != tPunct || t.text != punct {
		return t, fmt.Errorf("line %d: expected %q, found %s", t.line, punct, t)
	}
	return t, nil
}

func (p *parser) parse() (Dataflow, error) {
	var df Dataflow
	t, err := p.next()
	if err != nil {
		return df, err
	}
	block := t.kind == tIdent && t.text == "Dataflow"
	if block {
		if _, err := p.expect("{"); err != nil {
			return df, err
		}
	} else {
		p.unread()
	}
	for {
		t, err := p.next()
		if err != nil {
			return df, err
		}
		switch {
		case t.kind == tEOF:
			if block {
				return df, fmt.Errorf("line %d: missing '}' closing the Dataflow block", t.line)
			}
			return df, nil
		case block && t.kind == tPunct && t.text == "}":
			if end, err := p.next(); err != nil {
				return df, err
			} else if end.kind != tEOF {
				return df, fmt.Errorf("line %d: unexpected %s after the Dataflow block", end.line, end)
			}
			return df, nil
		case t.kind == tIdent && (t.text == "TemporalMap" || t.text == "SpatialMap"):
			d, err := p.mapDirective(t)
			if err != nil {
				return df, err
			}
			df.Directives = append(df.Directives, d)
		case t.kind == tIdent && t.text == "Cluster":
			d, err := p.clusterDirective(t)
			if err != nil {
				return df, err
			}
			df.Directives = append(df.Directives, d)
		default:
			return df, fmt.Errorf("line %d: expected TemporalMap, SpatialMap or Cluster, found %s", t.line, t)
		}
		if len(df.Directives) > 64 {
			return df, fmt.Errorf("line %d: more than 64 directives", t.line)
		}
	}
}

func (p *parser) mapDirective(kw token) (Directive, error) {
	d := Directive{Kind: TemporalMap, Line: kw.line}
	if kw.text == "SpatialMap" {
		d.Kind = SpatialMap
	}
	if _, err := p.expect("("); err != nil {
		return d, err
	}
	var err error
	if d.Size, err = p.operand(); err != nil {
		return d, err
	}
	if _, err := p.expect(","); err != nil {
		return d, err
	}
	if d.Offset, err = p.operand(); err != nil {
		return d, err
	}
	if _, err := p.expect(")"); err != nil {
		return d, err
	}
	if d.Dim, err = p.dim(); err != nil {
		return d, err
	}
	_, err = p.expect(";")
	return d, err
}

func (p *parser) clusterDirective(kw token) (Directive, error) {
	d := Directive{Kind: Cluster, Line: kw.line}
	if _, err := p.expect("("); err != nil {
		return d, err
	}
	var err error
	if d.Size, err = p.operand(); err != nil {
		return d, err
	}
	if _, err := p.expect(","); err != nil {
		return d, err
	}
	t, err := p.next()
	if err != nil {
		return d, err
	}
	switch {
	case t.kind == tIdent && t.text == "P":
	case t.kind == tIdent && t.text == "L":
		d.Logical = true
	default:
		return d, fmt.Errorf("line %d: cluster type must be P or L, found %s", t.line, t)
	}
	if _, err := p.expect(")"); err != nil {
		return d, err
	}
	_, err = p.expect(";")
	return d, err
}

// operand reads a positive integer or Sz(Dim).
func (p *parser) operand() (Size, error) {
	t, err := p.next()
	if err != nil {
		return Size{}, err
	}
	switch {
	case t.kind == tNum:
		n, err := strconv.Atoi(t.text)
		if err != nil || n > maxOperand {
			return Size{}, fmt.Errorf("line %d: operand %s is larger than %d", t.line, t.text, maxOperand)
		}
		if n == 0 {
			return Size{}, fmt.Errorf("line %d: sizes, offsets and cluster sizes must be positive, found 0", t.line)
		}
		return Lit(n), nil
	case t.kind == tIdent && t.text == "Sz":
		if _, err := p.expect("("); err != nil {
			return Size{}, err
		}
		d, err := p.dim()
		if err != nil {
			return Size{}, err
		}
		if _, err := p.expect(")"); err != nil {
			return Size{}, err
		}
		return Sz(d), nil
	}
	return Size{}, fmt.Errorf("line %d: expected a positive integer or Sz(Dim), found %s", t.line, t)
}

func (p *parser) dim() (Dim, error) {
	t, err := p.next()
	if err != nil {
		return 0, err
	}
	if t.kind != tIdent {
		return 0, fmt.Errorf("line %d: expected a dimension, found %s", t.line, t)
	}
	d, err := ParseDim(t.text)
	if err != nil {
		return 0, fmt.Errorf("line %d: unknown dimension %q (want one of %s)", t.line, t.text, strings.Join(dimNames[:], " "))
	}
	return d, nil
}
