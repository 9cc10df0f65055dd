module github.com/richardlehane/match

go 1.18
