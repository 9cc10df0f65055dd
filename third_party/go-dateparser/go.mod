module github.com/markusmobius/go-dateparser

go 1.24.1

require (
	github.com/hablullah/go-hijri v1.0.2
	github.com/jalaali/go-jalaali v0.0.0-20210801064154-80525e88d958
	github.com/wasilibs/go-re2 v1.3.0
	golang.org/x/text v0.14.0
)

require (
	github.com/hablullah/go-juliandays v1.0.0 // indirect
	github.com/magefile/mage v1.14.0 // indirect
	github.com/tetratelabs/wazero v1.2.1 // indirect
)
