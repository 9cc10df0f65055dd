module gonum.org/v1/plot

go 1.23.0

require (
	codeberg.org/go-fonts/liberation v0.5.0
	codeberg.org/go-latex/latex v0.1.0
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b
	golang.org/x/image v0.25.0
)
