module github.com/wormcheck/wormcheck

go 1.26

require (
	github.com/google/gopacket v1.1.19
	github.com/leanovate/gopter v0.2.11
)
