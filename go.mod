module github.com/wormcheck/wormcheck

go 1.26

require github.com/leanovate/gopter v0.2.11
