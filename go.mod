module github.com/wormcheck/wormcheck

go 1.26

require (
	github.com/emirpasic/gods/v2 v2.0.0-alpha
	github.com/leanovate/gopter v0.2.11
)
