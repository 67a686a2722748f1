module github.com/dagq/dagq

go 1.26
