module github.com/wormcheck/wormcheck

go 1.26

require (
	github.com/emirpasic/gods/v2 v2.0.0-alpha
	github.com/google/gopacket v1.1.19
	github.com/leanovate/gopter v0.2.11
)

require (
	golang.org/x/net v0.8.0 // indirect
	golang.org/x/sys v0.6.0 // indirect
)
