// Command house prints figures of how the module's code is built, for
// reviews of its structure (issue 41): what one object reaches, how often a
// shared policy is read, where archived files are read by path, and how long
// the walk of one page job is. It reads the source with go/types; it runs
// nothing of the project.
//
//	cd eval && go run ./house -repo ..
//
// The figures, each for non-test files only:
//
//   - for each type named by -types (package.Type, package as its import
//     path below the module): the fields reachable from it (its own and,
//     through embedding, those of the types it embeds), the methods of its
//     pointer's method set (promoted ones included), the files those
//     methods are declared in, and the reachable fields that none of those
//     methods reads or writes ("unused": a field a role holds and does not
//     use), and, for a type with exported methods, how many of its
//     methods and which of its fields the static calls from those methods
//     reach (a field no call reaches is held and not used by that role,
//     such as one nil by role);
//   - for each package named by -pol: the selector expressions that read a
//     field of a value named pol (x.pol.F or pol.F), and the files holding
//     them;
//   - the calls outside package aip that open an archived file by its path:
//     os.ReadFile, os.Open or os.OpenFile of the Path field of a
//     blogharvest.File;
//   - the walk of -walk (package.Type.method or package.func): a depth-first
//     walk of static calls in source order into the module's own functions,
//     each function entered once; it counts the calls followed, the files
//     entered and the returns to a file other than the callee's ("returns to
//     a file already left"). Calls through interfaces and function values are
//     not followed.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"log"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

func main() {
	repo := flag.String("repo", "..", "the module's checkout")
	typeList := flag.String("types", "harvest.crawl harvest.pageWorker harvest.site daemon.Daemon daemon.ClusterScheduler daemon.Worker", "types to measure (package.Type)")
	polPkgs := flag.String("pol", "harvest", "packages whose pol reads are counted")
	walk := flag.String("walk", "harvest.pageWorker.process", "the function whose walk is measured (package.Type.method or package.func)")
	flag.Parse()
	log.SetFlags(0)

	h, err := load(*repo)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range strings.Fields(*typeList) {
		h.reach(t)
	}
	for _, p := range strings.Fields(*polPkgs) {
		h.polReads(p)
	}
	h.archivedReads()
	if *walk != "" {
		h.walk(*walk)
	}
}

// house is the loaded module.
type house struct {
	module string
	root   string
	fset   *token.FileSet
	pkgs   map[string]*packages.Package // by path below the module ("." for the root)
	decls  map[string]*ast.FuncDecl     // by types.Func.FullName
	files  map[*ast.FuncDecl]string     // the file of each declaration, relative to the root
	info   map[*ast.FuncDecl]*types.Info
}

func load(repo string) (*house, error) {
	root, err := filepath.Abs(repo)
	if err != nil {
		return nil, err
	}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes |
			packages.NeedTypesInfo | packages.NeedModule,
		Dir: root,
	}
	ps, err := packages.Load(cfg, "./...")
	if err != nil {
		return nil, err
	}
	h := &house{root: root, pkgs: map[string]*packages.Package{}, decls: map[string]*ast.FuncDecl{},
		files: map[*ast.FuncDecl]string{}, info: map[*ast.FuncDecl]*types.Info{}}
	for _, p := range ps {
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("%s: %v", p.PkgPath, p.Errors[0])
		}
		if p.Module != nil && p.Module.Main && h.module == "" {
			h.module = p.Module.Path
		}
		h.fset = p.Fset
	}
	for _, p := range ps {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.PkgPath, h.module), "/")
		if rel == "" {
			rel = "."
		}
		h.pkgs[rel] = p
		for _, f := range p.Syntax {
			name, _ := filepath.Rel(root, p.Fset.File(f.Pos()).Name())
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				obj, ok := p.TypesInfo.Defs[fd.Name].(*types.Func)
				if !ok {
					continue
				}
				h.decls[obj.FullName()] = fd
				h.files[fd] = name
				h.info[fd] = p.TypesInfo
			}
		}
	}
	return h, nil
}

// lookup finds pkg.Name in the loaded packages.
func (h *house) lookup(qualified string) (*packages.Package, types.Object) {
	i := strings.LastIndex(qualified, ".")
	if i < 0 {
		return nil, nil
	}
	p := h.pkgs[qualified[:i]]
	if p == nil {
		return nil, nil
	}
	return p, p.Types.Scope().Lookup(qualified[i+1:])
}

// reach prints the fields and methods reachable from the named type.
func (h *house) reach(qualified string) {
	_, obj := h.lookup(qualified)
	tn, ok := obj.(*types.TypeName)
	if !ok {
		fmt.Printf("type %s: not found\n", qualified)
		return
	}
	fields := map[*types.Var]bool{}
	var collect func(t types.Type)
	collect = func(t types.Type) {
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return
		}
		for i := range st.NumFields() {
			f := st.Field(i)
			if fields[f] {
				continue
			}
			fields[f] = true
			if f.Embedded() {
				collect(f.Type())
			}
		}
	}
	collect(tn.Type())
	ms := types.NewMethodSet(types.NewPointer(tn.Type()))
	files := map[string]bool{}
	used := map[*types.Var]bool{}
	for i := range ms.Len() {
		fn := ms.At(i).Obj().(*types.Func)
		fd := h.decls[fn.FullName()]
		if fd == nil {
			continue
		}
		files[h.files[fd]] = true
		h.fieldUses(fd, fields, used)
	}
	var unused []string
	for f := range fields {
		if !used[f] && !f.Embedded() {
			unused = append(unused, f.Name())
		}
	}
	sort.Strings(unused)
	// What the type's exported methods reach: the functions their static
	// calls lead to (anywhere in the module), and the type's fields those
	// functions use.
	var roots []*ast.FuncDecl
	for i := range ms.Len() {
		fn := ms.At(i).Obj().(*types.Func)
		if fd := h.decls[fn.FullName()]; fd != nil && fn.Exported() {
			roots = append(roots, fd)
		}
	}
	reached := h.reached(roots)
	inSet, usedByAPI := 0, map[*types.Var]bool{}
	for i := range ms.Len() {
		if fd := h.decls[ms.At(i).Obj().(*types.Func).FullName()]; fd != nil && reached[fd] {
			inSet++
		}
	}
	for fd := range reached {
		h.fieldUses(fd, fields, usedByAPI)
	}
	var idle []string
	for f := range fields {
		if !usedByAPI[f] && !f.Embedded() {
			idle = append(idle, f.Name())
		}
	}
	sort.Strings(idle)
	fmt.Printf("type %s: %d fields reachable, %d methods in %d files, %d fields no method uses %v\n",
		qualified, len(fields), ms.Len(), len(files), len(unused), unused)
	if len(roots) > 0 {
		fmt.Printf("\tits %d exported methods reach %d of its methods; %d fields nothing they reach uses %v\n",
			len(roots), inSet, len(idle), idle)
	}
}

// fieldUses marks in used the fields of fields that fd selects.
func (h *house) fieldUses(fd *ast.FuncDecl, fields, used map[*types.Var]bool) {
	info := h.info[fd]
	ast.Inspect(fd, func(n ast.Node) bool {
		if se, ok := n.(*ast.SelectorExpr); ok {
			if sel := info.Selections[se]; sel != nil {
				if v, ok := sel.Obj().(*types.Var); ok && fields[v] {
					used[v] = true
				}
			}
		}
		return true
	})
}

// reached returns the functions of the module that static calls from roots
// lead to, roots included.
func (h *house) reached(roots []*ast.FuncDecl) map[*ast.FuncDecl]bool {
	seen := map[*ast.FuncDecl]bool{}
	stack := slices.Clone(roots)
	for len(stack) > 0 {
		fd := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[fd] {
			continue
		}
		seen[fd] = true
		info := h.info[fd]
		ast.Inspect(fd.Body, func(x ast.Node) bool {
			if call, ok := x.(*ast.CallExpr); ok {
				if fn, ok := typeutilCallee(info, call).(*types.Func); ok {
					if callee := h.decls[fn.FullName()]; callee != nil && !seen[callee] {
						stack = append(stack, callee)
					}
				}
			}
			return true
		})
	}
	return seen
}

// polReads prints the reads of a value named pol in package rel.
func (h *house) polReads(rel string) {
	p := h.pkgs[rel]
	if p == nil {
		fmt.Printf("pol reads in %s: package not found\n", rel)
		return
	}
	n, files := 0, map[string]bool{}
	for _, f := range p.Syntax {
		name, _ := filepath.Rel(h.root, p.Fset.File(f.Pos()).Name())
		ast.Inspect(f, func(x ast.Node) bool {
			se, ok := x.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			switch inner := se.X.(type) {
			case *ast.Ident:
				if inner.Name == "pol" {
					n++
					files[name] = true
				}
			case *ast.SelectorExpr:
				if inner.Sel.Name == "pol" {
					n++
					files[name] = true
				}
			}
			return true
		})
	}
	fmt.Printf("pol reads in %s: %d in %d files\n", rel, n, len(files))
}

// archivedReads prints the calls outside aip that open a blogharvest.File's
// Path.
func (h *house) archivedReads() {
	var at []string
	for rel, p := range h.pkgs {
		if rel == "aip" || strings.HasPrefix(rel, "aip/") || strings.HasPrefix(rel, "internal/") {
			continue
		}
		for _, f := range p.Syntax {
			ast.Inspect(f, func(x ast.Node) bool {
				call, ok := x.(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					return true
				}
				fn, ok := typeutilCallee(p.TypesInfo, call).(*types.Func)
				if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "os" ||
					!slices.Contains([]string{"ReadFile", "Open", "OpenFile"}, fn.Name()) {
					return true
				}
				se, ok := call.Args[0].(*ast.SelectorExpr)
				if !ok || se.Sel.Name != "Path" {
					return true
				}
				t := p.TypesInfo.TypeOf(se.X)
				if pt, ok := t.(*types.Pointer); ok {
					t = pt.Elem()
				}
				if named, ok := t.(*types.Named); ok && named.Obj().Pkg() != nil &&
					named.Obj().Pkg().Path() == h.module && named.Obj().Name() == "File" {
					at = append(at, p.Fset.Position(call.Pos()).String())
				}
				return true
			})
		}
	}
	sort.Strings(at)
	fmt.Printf("archived files opened by path outside aip: %d\n", len(at))
	for _, a := range at {
		rel, _ := filepath.Rel(h.root, a)
		fmt.Printf("\t%s\n", rel)
	}
}

// typeutilCallee returns the function or method a call statically calls,
// or nil.
func typeutilCallee(info *types.Info, call *ast.CallExpr) types.Object {
	var id *ast.Ident
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = fun
	case *ast.SelectorExpr:
		id = fun.Sel
	case *ast.IndexExpr: // generic instantiation f[T](...)
		switch x := fun.X.(type) {
		case *ast.Ident:
			id = x
		case *ast.SelectorExpr:
			id = x.Sel
		}
	default:
		return nil
	}
	if id == nil {
		return nil
	}
	fn, ok := info.Uses[id].(*types.Func)
	if !ok {
		return nil
	}
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		if types.IsInterface(sig.Recv().Type()) {
			return nil // dynamic: not followed
		}
	}
	return fn.Origin()
}

// walk prints the depth-first walk of static calls from the named function:
// into the whole module, and into its own package only.
func (h *house) walk(qualified string) {
	start := h.find(qualified)
	if start == nil {
		fmt.Printf("walk of %s: not found\n", qualified)
		return
	}
	calls, files, returns := h.walkFrom(start, func(*ast.FuncDecl) bool { return true })
	dir := filepath.Dir(h.files[start])
	pkgCalls, pkgFiles, pkgReturns := h.walkFrom(start, func(fd *ast.FuncDecl) bool { return filepath.Dir(h.files[fd]) == dir })
	fmt.Printf("walk of %s: %d calls, %d files, %d returns to a file already left (module); "+
		"%d calls, %d files, %d returns (its own package)\n",
		qualified, calls, files, returns, pkgCalls, pkgFiles, pkgReturns)
}

// walkFrom walks static calls depth-first in source order from start into
// the functions within says yes to, each entered once; it returns the calls
// followed, the files entered and the returns to a file other than the
// callee's.
func (h *house) walkFrom(start *ast.FuncDecl, within func(*ast.FuncDecl) bool) (calls, files, returns int) {
	seen := map[*ast.FuncDecl]bool{start: true}
	entered := map[string]bool{h.files[start]: true}
	var visit func(fd *ast.FuncDecl)
	visit = func(fd *ast.FuncDecl) {
		info := h.info[fd]
		ast.Inspect(fd.Body, func(x ast.Node) bool {
			call, ok := x.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, ok := typeutilCallee(info, call).(*types.Func)
			if !ok {
				return true
			}
			callee := h.decls[fn.FullName()]
			if callee == nil || seen[callee] || !within(callee) {
				return true
			}
			seen[callee] = true
			calls++
			entered[h.files[callee]] = true
			visit(callee)
			if h.files[callee] != h.files[fd] {
				returns++
			}
			return true
		})
	}
	visit(start)
	return calls, len(entered), returns
}

// find returns the declaration of pkg.Type.method or pkg.func.
func (h *house) find(qualified string) *ast.FuncDecl {
	parts := strings.Split(qualified, ".")
	for cut := len(parts) - 1; cut >= 1; cut-- {
		p := h.pkgs[strings.Join(parts[:cut], ".")]
		if p == nil {
			continue
		}
		rest := parts[cut:]
		switch len(rest) {
		case 1:
			if fn, ok := p.Types.Scope().Lookup(rest[0]).(*types.Func); ok {
				return h.decls[fn.FullName()]
			}
		case 2:
			tn, ok := p.Types.Scope().Lookup(rest[0]).(*types.TypeName)
			if !ok {
				return nil
			}
			obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, p.Types, rest[1])
			if fn, ok := obj.(*types.Func); ok {
				return h.decls[fn.FullName()]
			}
		}
	}
	fmt.Fprintf(os.Stderr, "house: %s not found\n", qualified)
	return nil
}
