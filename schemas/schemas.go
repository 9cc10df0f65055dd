package schemas

import (
	"bufio"
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/lestrrat-go/helium"
	"github.com/lestrrat-go/helium/xsd"
)

// Files holds the four official schemas, unmodified, and the driver schema
// that imports them (xlink.xsd, mets.xsd, MARC21slim.xsd, premis-v3-0.xsd,
// driver.xsd).
//
//go:embed *.xsd
var Files embed.FS

// Driver is the name, in Files, of the schema that imports all the others.
const Driver = "driver.xsd"

// XLinkURL is the location from which mets.xsd imports XLink. Validate
// resolves it to the embedded xlink.xsd; nothing is ever fetched.
const XLinkURL = "http://www.loc.gov/standards/xlink/xlink.xsd"

var (
	compileOnce sync.Once
	compiled    *xsd.Schema
	compileErr  error
)

// schema compiles the driver schema on first use and returns it. A compiled
// schema is read-only and shared by every Validate call.
func schema() (*xsd.Schema, error) {
	compileOnce.Do(func() {
		compiled, compileErr = compile(context.Background())
	})
	return compiled, compileErr
}

// compile parses and compiles the driver schema from the embedded files.
func compile(ctx context.Context) (*xsd.Schema, error) {
	data, err := Files.ReadFile(Driver)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", Driver, err)
	}
	fsys := localFS{Files}
	doc, err := helium.NewParser().FS(fsys).Parse(ctx, data)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", Driver, err)
	}
	collector := helium.NewErrorCollector(ctx, helium.ErrorLevelNone)
	s, err := xsd.NewCompiler().FS(fsys).Label(Driver).ErrorHandler(collector).Compile(ctx, doc)
	if err != nil {
		return nil, fmt.Errorf("compile %s: %w", Driver, errors.Join(append([]error{err}, collector.Errors()...)...))
	}
	return s, nil
}

// localFS serves the embedded schemas and maps the canonical XLink URL to
// the embedded xlink.xsd. Any other absolute URL is reported as missing, so
// the compiler never reaches for the network.
type localFS struct{ fsys fs.FS }

// Open implements fs.FS.
func (l localFS) Open(name string) (fs.File, error) {
	if name == XLinkURL {
		name = "xlink.xsd"
	}
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return l.fsys.Open(name)
}

// Validate checks doc, an XML document, against METS 1.12.1 with XLink,
// MARC21slim and PREMIS 3 all active (so MARCXML and PREMIS inside
// mdWrap/xmlData are checked strictly). It returns every problem found, in
// document order, or nil when doc is valid. It is safe for concurrent use.
// A document over 1 MiB is validated in parts (ValidateReader).
func Validate(doc []byte) []Problem {
	if len(doc) > wholeUpTo {
		return validateParts(bufio.NewReader(bytes.NewReader(doc)))
	}
	return validateSmall(doc)
}

// validateSmall validates doc whole, or in parts when it nests deeper
// than the validator parses (a long reply chain is a deep structMap).
func validateSmall(doc []byte) []Problem {
	problems := validateWhole(doc)
	if len(problems) == 1 && strings.Contains(problems[0].Message, "exceeded max depth") && rootIsMETS(doc) {
		return validateParts(bufio.NewReader(bytes.NewReader(doc)))
	}
	return problems
}

// validateWhole validates doc as one document.
func validateWhole(doc []byte) []Problem {
	ctx := context.Background()
	s, err := schema()
	if err != nil {
		return []Problem{{Message: err.Error()}}
	}
	d, err := helium.NewParser().Parse(ctx, doc)
	if err != nil {
		return []Problem{parseProblem(err)}
	}
	collector := helium.NewErrorCollector(ctx, helium.ErrorLevelNone)
	verr := xsd.NewValidator(s).Label("document").ErrorHandler(collector).Validate(ctx, d)
	problems := problemsOf(collector.Errors())
	if verr != nil && len(problems) == 0 {
		problems = append(problems, Problem{Message: verr.Error()})
	}
	return problems
}

// problemsOf converts the validator's errors into Problems.
func problemsOf(errs []error) []Problem {
	var out []Problem
	for _, e := range errs {
		var ve *xsd.ValidationError
		if errors.As(e, &ve) {
			msg := ve.Message
			if ve.AttributeName != "" {
				msg = fmt.Sprintf("attribute %q: %s", ve.AttributeName, msg)
			}
			out = append(out, Problem{Line: ve.Line, Element: ve.Element, Message: msg})
			continue
		}
		out = append(out, Problem{Message: string(bytes.TrimSpace([]byte(e.Error())))})
	}
	return out
}

// parseProblem describes a document that is not well-formed XML.
func parseProblem(err error) Problem {
	var le interface{ LineNumber() int }
	p := Problem{Message: "not well-formed: " + err.Error()}
	if errors.As(err, &le) {
		p.Line = le.LineNumber()
	}
	return p
}
